// The spec's state: the observable world plus what is left of each perturbation's budget.
// A plain value: no pointers, no caches; successors are computed by the rules in step.hpp.
#pragma once

#include "spec/rules/elections.hpp"
#include "spec/vocabulary/config.hpp"
#include "spec/vocabulary/observation.hpp"

namespace kcspec::spec {

struct ClusterState {
  Observation world;
  Bounds budget;  // remaining uses of each perturbation
  friend bool operator==(const ClusterState&, const ClusterState&) = default;
};

// What became of one state change a controller asked for, as Kafka's state-change log tells it:
// applied (P1–P4, R1), or logged as failed (P5, R3) for one of these reasons.
enum class ChangeOutcome : std::uint8_t {
  Applied,
  InvalidTransition,           // the valid-previous-state table forbids it (IllegalStateException, kafka.md §1.4)
  NoLeaderElected,             // "Failed to elect leader for partition … under strategy …" (§2.6)
  NoLiveReplica,               // New → Online: "No assigned replica is alive" (§2.5)
  ZooKeeperError,              // New → Online: creating the state znode failed (§2.5)
  NoLeaderAndIsr,              // the state znode is missing (§2.6, §3.4)
  WrittenByAnotherController,  // the state znode carries a newer controller epoch (§2.6, §3.4)
  ReplicaIsLeader,             // → NewReplica for the partition's leader (§3.3; logged with target OfflineReplica)
};

constexpr std::string_view changeOutcomeName(ChangeOutcome outcome) {
  switch (outcome) {
    case ChangeOutcome::Applied: return "applied";
    case ChangeOutcome::InvalidTransition: return "invalid transition";
    case ChangeOutcome::NoLeaderElected: return "no leader elected";
    case ChangeOutcome::NoLiveReplica: return "no live replica";
    case ChangeOutcome::ZooKeeperError: return "ZooKeeper error";
    case ChangeOutcome::NoLeaderAndIsr: return "no LeaderAndIsr in ZooKeeper";
    case ChangeOutcome::WrittenByAnotherController: return "written by another controller";
    case ChangeOutcome::ReplicaIsLeader: return "replica is the leader";
  }
  return "?";
}

// One partition or replica state change a controller asked for, as Kafka's state-change log
// records it: applied, or logged as failed and skipped.
struct StateChangeRecord {
  BrokerId controller = kNoLeader;
  bool is_replica = false;
  TopicPartition tp;
  BrokerId replica = kNoLeader;
  std::uint8_t from = 0;  // PartitionState or ReplicaState, by is_replica
  std::uint8_t to = 0;
  ChangeOutcome outcome = ChangeOutcome::Applied;
  ElectionStrategy strategy{};  // NoLeaderElected only: the election's strategy
  bool applied() const { return outcome == ChangeOutcome::Applied; }
  friend bool operator==(const StateChangeRecord&, const StateChangeRecord&) = default;
};

// Receives what a step did besides changing the state (the explorer checks step properties
// with it; tests read it). Every member has a default that ignores the report.
class StepObserver {
 public:
  virtual ~StepObserver() = default;
  virtual void stateChange(const StateChangeRecord&) {}
  // A fenced controller write that ZooKeeper rejected (the writer's epoch is stale).
  virtual void staleControllerWriteRejected(BrokerId /*controller*/, std::int32_t /*epoch*/) {}
  // A ZooKeeper write that was accepted, by the controller on `controller` with context epoch `epoch`.
  virtual void controllerWriteAccepted(BrokerId /*controller*/, std::int32_t /*epoch*/) {}
  // A leader election under `strategy` for `tp` (§2.6 step 4, on the state read from ZooKeeper)
  // found a leader (`elected`) or none ("Failed to elect leader …").
  virtual void electionOutcome(TopicPartition /*tp*/, const ElectionStrategy& /*strategy*/, bool /*elected*/) {}
};

}  // namespace kcspec::spec
