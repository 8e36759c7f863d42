// A configuration: the cluster (brokers, topics, flags) and a bound on every perturbation.
// Together with the rules it defines a finite state space. Recovery actions (processing events,
// delivering requests and responses, restarting crashed brokers, electing a controller, ISR
// catch-up) are never bounded (DESIGN.md).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spec/vocabulary/broker_set.hpp"
#include "spec/vocabulary/ids.hpp"
#include "spec/vocabulary/metadata_version.hpp"

namespace kcspec {

struct TopicConfig {
  std::string name;
  // Replicas of each partition, in preference order, when the topic is created.
  std::vector<BrokerList> assignment;
  // Replicas of the partitions that `add-partitions` appends, one per use, in order.
  std::vector<BrokerList> added_partitions;
  // Per partition: the targets that `reassign` may move it to.
  std::vector<std::pair<int, BrokerList>> reassignment_targets;
  bool unclean_leader_election_enable = false;  // /config/topics/<t> override
  bool exists_at_start = false;                 // created before the first controller starts

  // Its partitions, counting the added ones (partition ids 0 … count − 1).
  std::size_t partitionCount() const { return assignment.size() + added_partitions.size(); }
};

// Bounds::perturbations when a configuration sets no overall bound.
inline constexpr int kAnyNumberOfPerturbations = -1;

// How often each perturbation may happen in one history.
struct Bounds {
  int crashes = 0;                  // broker crash (also a quick bounce when restarted before BrokerChange)
  int controlled_shutdowns = 0;
  int controller_failovers = 0;     // the active controller loses its ZooKeeper session
  int topic_creations = 0;
  int topic_deletions = 0;
  int partition_additions = 0;
  int reassignments = 0;            // starting or cancelling a reassignment
  int preferred_elections = 0;
  int unclean_elections = 0;        // ElectLeaders(UNCLEAN) and enabling a topic's unclean flag
  int isr_shrinks = 0;              // a leader proposes removing a follower (AlterPartition)
  int stop_replica_errors = 0;      // a StopReplica(delete=true) response carries an error
  int auto_rebalances = 0;          // the leader-rebalance scheduler fires (needs auto.leader.rebalance.enable)
  int zk_reassignments = 0;         // a legacy tool creates /admin/reassign_partitions
  int zk_preferred_elections = 0;   // a legacy tool creates /admin/preferred_replica_election
  int log_dir_failures = 0;         // the log directory holding one replica fails
  int zk_connection_losses = 0;     // the controller's ZooKeeper connection drops after a write applied
  int broker_session_losses = 0;    // a broker's ZooKeeper session expires while it runs
  int ibp_upgrades = 0;             // a stopped broker is given the upgrade inter.broker.protocol.version
  int zk_session_expiries = 0;      // a controller's ZooKeeper session expires in the middle of an event
  // Perturbations of any kind left in one history (`bound perturbations n`): every use of a
  // bound above also spends one of these. kAnyNumberOfPerturbations: only each kind's own bound.
  int perturbations = kAnyNumberOfPerturbations;
  friend constexpr bool operator==(const Bounds&, const Bounds&) = default;
};

// Whether `left`, a history's remaining bounds, has a use of `bound` left: its own and the
// overall one are both unspent.
constexpr bool hasUseLeft(const Bounds& left, int Bounds::*bound) { return left.perturbations != 0 && left.*bound > 0; }

// The per-kind bound names, in the order of Bounds' fields, as the configuration format spells
// them (the overall bound, Bounds::perturbations, is spelled kOverallBoundName).
inline constexpr std::array<std::string_view, 19> kBoundNames = {
    "crashes",      "controlled-shutdowns", "controller-failovers", "topic-creations",
    "topic-deletions", "partition-additions", "reassignments", "preferred-elections",
    "unclean-elections", "isr-shrinks", "stop-replica-errors", "auto-rebalances",
    "zk-reassignments", "zk-preferred-elections", "log-dir-failures", "zk-connection-losses",
    "broker-session-losses", "ibp-upgrades", "zk-session-expiries"};

inline constexpr std::string_view kOverallBoundName = "perturbations";


// The per-kind bounds as fields, in kBoundNames' order.
inline constexpr std::array<int Bounds::*, kBoundNames.size()> kBoundFields = {
    &Bounds::crashes,         &Bounds::controlled_shutdowns, &Bounds::controller_failovers,
    &Bounds::topic_creations, &Bounds::topic_deletions,      &Bounds::partition_additions,
    &Bounds::reassignments,   &Bounds::preferred_elections,  &Bounds::unclean_elections,
    &Bounds::isr_shrinks,     &Bounds::stop_replica_errors,  &Bounds::auto_rebalances,
    &Bounds::zk_reassignments, &Bounds::zk_preferred_elections, &Bounds::log_dir_failures,
    &Bounds::zk_connection_losses, &Bounds::broker_session_losses, &Bounds::ibp_upgrades,
    &Bounds::zk_session_expiries};

constexpr int* boundField(Bounds& bounds, std::size_t i) { return &(bounds.*kBoundFields[i]); }

// The configuration's name for a per-kind bound ("" for none).
constexpr std::string_view boundName(int Bounds::*field) {
  for (std::size_t i = 0; i < kBoundFields.size(); ++i) {
    if (kBoundFields[i] == field) return kBoundNames[i];
  }
  return "";
}

// The most perturbations one history can hold: the per-kind bounds summed, capped by the overall
// bound when there is one (what "at most N perturbations per history" means for a scope).
constexpr int maxPerturbationsPerHistory(Bounds bounds) {
  int sum = 0;
  for (std::size_t i = 0; i < kBoundNames.size(); ++i) sum += *boundField(bounds, i);
  return bounds.perturbations == kAnyNumberOfPerturbations ? sum : std::min(sum, bounds.perturbations);
}

struct Config {
  std::string name = "unnamed";
  BrokerSet brokers;                       // every broker that may ever register
  BrokerSet brokers_alive_at_start;        // registered before the first controller starts
  std::vector<TopicConfig> topics;         // topic index = position
  bool delete_topic_enable = true;         // delete.topic.enable (default true)
  bool auto_leader_rebalance_enable = false;
  // inter.broker.protocol.version of every broker (default: Kafka 3.8's latest production value).
  MetadataVersion inter_broker_protocol_version = kLatestProductionMetadataVersion;
  // A rolling upgrade (`upgrade inter.broker.protocol.version V`, newer than the one above): the
  // value a broker restarts with once `upgrade-ibp` gave it to the stopped broker.
  std::optional<MetadataVersion> upgrade_inter_broker_protocol_version;
  Bounds bounds;

  int topicCount() const { return static_cast<int>(topics.size()); }
  TopicIndex topicNamed(std::string_view name_) const {
    for (std::size_t i = 0; i < topics.size(); ++i) {
      if (topics[i].name == name_) return static_cast<TopicIndex>(i);
    }
    return -1;
  }
};

}  // namespace kcspec
