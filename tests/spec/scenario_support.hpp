// Helpers for scenario tests: run actions through the spec's transition system and look at the
// resulting world by Kafka's names.
#pragma once

#include <gtest/gtest.h>

#include <optional>

#include "spec/rules/invariants.hpp"
#include "spec/rules/step.hpp"

namespace kcspec::spec::testing {

class ScenarioRun {
 public:
  explicit ScenarioRun(Config config) : config_(std::move(config)), state_(initialState(config_)) {}

  // Takes `action`, which must be enabled, and checks every safety property across the step.
  ScenarioRun& step(const Action& action) {
    EXPECT_TRUE(isEnabled(config_, state_, action)) << "action not enabled: kind " << static_cast<int>(action.kind);
    if (!isEnabled(config_, state_, action)) return *this;
    RecordingObserver observer;
    ClusterState after = next(config_, state_, action, observer);
    for (std::string_view id : violatedStateProperties(config_, after)) ADD_FAILURE() << "state property " << id;
    for (std::string_view id : violatedStepProperties(config_, state_, after, observer.record)) {
      if (id != "T3") ADD_FAILURE() << "step property " << id;  // T3 is reported by tests that look for it
    }
    rejected_stale_writes_ += static_cast<int>(observer.record.rejected_writes.size());
    last_record_ = observer.record;
    state_ = std::move(after);
    return *this;
  }

  // Takes recovery actions — events, requests, error-free responses — until none is enabled.
  ScenarioRun& drain() {
    for (int round = 0; round < 1000; ++round) {
      std::optional<Action> recovery;
      for (const Action& a : enabledActions(config_, state_)) {
        const bool deliver = a.kind == ActionKind::ProcessEvent || a.kind == ActionKind::DeliverRequest ||
                             (a.kind == ActionKind::DeliverStopReplicaResponse && !a.error);
        if (deliver) {
          recovery = a;
          break;
        }
      }
      if (!recovery) return *this;
      step(*recovery);
    }
    ADD_FAILURE() << "drain did not settle in 1000 steps";
    return *this;
  }

  const Config& config() const { return config_; }
  const ClusterState& state() const { return state_; }
  const StepRecord& lastRecord() const { return last_record_; }
  const Observation& world() const { return state_.world; }
  // How many fenced writes ZooKeeper has rejected so far (writers with a stale epoch).
  int rejectedStaleWrites() const { return rejected_stale_writes_; }

  std::optional<PartitionStateZnode> stateZnode(TopicPartition tp) const {
    const TopicZnodes& topic = world().zk.topics[static_cast<std::size_t>(tp.topic)];
    if (!topic.exists) return std::nullopt;
    return topic.states[static_cast<std::size_t>(tp.partition)];
  }
  const BrokerData& broker(BrokerId b) const { return world().brokers[static_cast<std::size_t>(b)]; }
  const ControllerContextData& context(BrokerId controller) const { return broker(controller).controller.context; }
  const PartitionContext& partitionContext(BrokerId controller, TopicPartition tp) const {
    return context(controller).partitions[static_cast<std::size_t>(partitionIndex(tp))];
  }

 private:
  Config config_;
  ClusterState state_;
  StepRecord last_record_;
  int rejected_stale_writes_ = 0;
};

inline Action act(ActionKind kind, BrokerId broker = kNoLeader) { return Action{.kind = kind, .broker = broker}; }

// Facts Appendix B's setup: brokers 1, 2, 3 alive, topic t with t-0 = [1,2,3] (not yet created),
// and one of each perturbation the scenarios need.
inline Config threeBrokersOneTopic() {
  Config config;
  config.name = "appendix-b";
  config.brokers = BrokerSet{1, 2, 3};
  config.brokers_alive_at_start = BrokerSet{1, 2, 3};
  TopicConfig t;
  t.name = "t";
  t.assignment = {BrokerList{1, 2, 3}};
  config.topics = {t};
  config.bounds.topic_creations = 1;
  config.bounds.topic_deletions = 1;
  config.bounds.crashes = 1;
  config.bounds.controlled_shutdowns = 1;
  config.bounds.controller_failovers = 1;
  return config;
}
inline Action onTopic(ActionKind kind, TopicIndex topic) { return Action{.kind = kind, .topic = topic}; }

}  // namespace kcspec::spec::testing
