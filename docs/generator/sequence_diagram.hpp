// Sequence diagrams (SVG, drawn by kcspec itself: no external tool, no fonts fetched) of an
// action sequence run through the spec. Lifelines: the admin, ZooKeeper, the controller module
// of every broker that is the controller at some point, and every configured broker. Messages are
// read from the action and the observations before and after each step:
//   admin → ZooKeeper          the admin's znode writes
//   ZooKeeper → controller     a watch (or the session's Expire) queues an event
//   admin/broker → controller  a request queued as an event (reassignment, ElectLeaders,
//                              ControlledShutdown, AlterPartition, a StopReplica response)
//   controller → ZooKeeper     the controller's writes (create, set, delete; rejected ones in red)
//   controller → broker        LeaderAndIsr, UpdateMetadata, StopReplica; the AlterPartition response
//   self                       a controller processing an event, a broker handling a request or crashing
// Each step starts with a band naming it (numbered from 1, as counterexamples are). The right-hand
// column holds each message's details. Output is deterministic.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "spec/vocabulary/action.hpp"
#include "spec/vocabulary/config.hpp"

namespace kcspec::docs {

struct SequenceDiagramOptions {
  std::string title;               // drawn above the lifelines when not empty
  std::size_t collapse_before = 0;  // steps [0, collapse_before) are run but drawn as one band
  std::size_t focus_from = 0;       // steps [focus_from, focus_to) are highlighted, the others greyed
  std::size_t focus_to = static_cast<std::size_t>(-1);
};

// Runs `actions` from spec::initialState(config) and draws them; every action must be enabled
// in turn (std::invalid_argument naming the first that is not).
std::string renderSequenceDiagramSvg(const Config& config, const std::vector<Action>& actions);
std::string renderSequenceDiagramSvg(const Config& config, const std::vector<Action>& actions,
                                     const SequenceDiagramOptions& options);

}  // namespace kcspec::docs
