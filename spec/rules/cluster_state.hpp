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

// One recorded partition or replica state change, as Kafka's state-change log records it:
// valid ones are applied, invalid ones are logged and skipped (facts §1.4).
struct StateChangeRecord {
  BrokerId controller = kNoLeader;
  bool is_replica = false;
  TopicPartition tp;
  BrokerId replica = kNoLeader;
  std::uint8_t from = 0;  // PartitionState or ReplicaState, by is_replica
  std::uint8_t to = 0;
  bool valid = false;
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
