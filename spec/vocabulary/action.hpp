// The action vocabulary (DESIGN.md "Steps"): every step a history can take. The explorer chooses
// among the enabled ones; scenario files and counterexamples are sequences of them, one per line
// in the text form of action_text.hpp.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "spec/vocabulary/ids.hpp"

namespace kcspec {

enum class ActionKind : std::uint8_t {
  // admin (perturbations)
  CreateTopic,            // admin tool writes /brokers/topics/<t> (+ /config/topics/<t>)
  DeleteTopic,            // admin creates /admin/delete_topics/<t>
  AddPartitions,          // admin rewrites /brokers/topics/<t> with one more partition
  ReassignPartition,      // AlterPartitionReassignments(tp → target)
  CancelReassignment,     // AlterPartitionReassignments(tp → none)
  ElectPreferredLeader,   // ElectLeaders(PREFERRED, {tp})
  ElectUncleanLeader,     // ElectLeaders(UNCLEAN, {tp})
  EnableTopicUnclean,     // admin sets unclean.leader.election.enable=true on a topic
  // broker
  CrashBroker,            // perturbation: the broker dies; its ephemeral znode disappears
  StartBroker,            // recovery: the broker registers again with a new broker epoch
  ControlledShutdown,     // perturbation: the broker asks the controller to move its leaders
  ShrinkIsr,              // perturbation: a leader proposes removing a follower (AlterPartition)
  ExpandIsr,              // recovery: a caught-up follower is proposed back into the ISR
  // controller
  ProcessEvent,           // recovery: the controller on `broker` processes its next event
  LoseControllerSession,  // perturbation: /controller disappears; the old controller runs on
  NoticeSessionExpiry,    // recovery: the old controller's ZK client queues Expire (clearAndPut)
  ElectController,        // recovery: `broker` wins /controller and runs onControllerFailover
  AutoRebalanceTimer,     // perturbation: the active controller on `broker`'s leader-rebalance scheduler fires
  // delivery
  DeliverRequest,         // recovery: `broker` processes the head of its request queue
  DeliverStopReplicaResponse,  // recovery (perturbation when `error`): a response reaches the controller
};

inline constexpr std::size_t kActionKindCount = 20;

inline constexpr std::array<std::string_view, kActionKindCount> kActionNames = {
    "create-topic",      "delete-topic",     "add-partitions",          "reassign",
    "cancel-reassignment", "elect-preferred", "elect-unclean",          "enable-unclean",
    "crash",             "start",            "controlled-shutdown",     "shrink-isr",
    "expand-isr",        "process-event",    "lose-controller-session", "notice-session-expiry",
    "elect-controller",  "auto-rebalance-timer", "deliver-request",  "deliver-stop-replica-response"};

constexpr std::string_view actionName(ActionKind kind) { return kActionNames[static_cast<std::size_t>(kind)]; }

struct Action {
  ActionKind kind = ActionKind::ProcessEvent;
  BrokerId broker = kNoLeader;  // the broker acting (or hosting the controller acting)
  TopicIndex topic = -1;        // topic actions
  TopicPartition tp;            // partition actions
  BrokerId replica = kNoLeader; // ShrinkIsr/ExpandIsr: the follower
  BrokerList replicas;          // ReassignPartition: the target replicas
  bool error = false;           // DeliverStopReplicaResponse: answered with an error
  friend constexpr bool operator==(const Action&, const Action&) = default;
};

}  // namespace kcspec
