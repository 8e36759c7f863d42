// What `kcspec check-zk` reports: every violation of the state invariants that can be judged from
// ZooKeeper alone (docs/zookeeper.md lists the kinds and what each means for an operator), and a
// per-topic summary. Where a kind corresponds to a property of the invariant catalog
// (spec/rules/invariants.hpp) it carries that property's id and name.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "proofs/zk_check/zk_snapshot.hpp"

namespace kcspec::zkcheck {

// The finding kinds, in report order within a topic.
inline constexpr std::string_view kFindingKinds[] = {
    "malformed-znode",           // a payload that is not Kafka's format
    "controller-epoch-behind",   // a partition state written by a newer controller epoch than /controller_epoch
    "leader-not-in-isr",         // S1
    "isr-outside-assignment",    // S2
    "empty-isr",                 // S3
    "leader-not-registered",     // the leader is not in /brokers/ids
    "leaderless-with-live-isr",  // L2
    "deletion-pending",          // L1: /admin/delete_topics/<t>
    "leftover-of-deleted-topic", // S5: nodes of a topic that no longer exists, or partitions not in its assignment
    "reassignment-pending",      // L5 (L11 when complete at creation): adding/removing replicas, or /admin/reassign_partitions entries
    "preferred-election-pending" // /admin/preferred_replica_election
};

struct ZkFinding {
  std::string kind;
  std::string property_id;    // the catalog property it corresponds to, or empty
  std::string property_name;  // that property's name, or empty
  std::string topic;          // empty for cluster-wide findings
  std::string path;           // the znode the finding is about
  std::string message;
};

std::vector<ZkFinding> findViolations(const ZkSnapshot& snapshot);

// The report: text (controller, brokers, one block per topic, then the findings) and JSON.
std::string renderText(const ZkSnapshot& snapshot, const std::vector<ZkFinding>& findings);
nlohmann::json renderJson(const ZkSnapshot& snapshot, const std::vector<ZkFinding>& findings);

// One line per fact the report shows (partition states, findings, controller, brokers), for
// --watch's "what changed" between two rounds.
std::vector<std::string> reportLines(const ZkSnapshot& snapshot, const std::vector<ZkFinding>& findings);

}  // namespace kcspec::zkcheck
