// Helpers for the reference controller's scenario tests: run actions through ImplCluster and
// look at the observation by Kafka's names.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "impl/cluster.hpp"
#include "spec/vocabulary/action_text.hpp"

namespace kcspec::impl::testing {

class ImplRun {
 public:
  explicit ImplRun(Config config, Mutants mutants = {}, LogLevel threshold = LogLevel::TRACE)
      : threshold_(threshold), sink_(threshold), cluster_(config, mutants, LogTarget{&sink_, &clock_}) {}
  // From a stated world (ImplCluster's given-world constructor).
  ImplRun(Config config, const Observation& given, Mutants mutants = {}, LogLevel threshold = LogLevel::TRACE)
      : threshold_(threshold), sink_(threshold), cluster_(config, given, mutants, LogTarget{&sink_, &clock_}) {}
  ImplRun(const ImplRun&) = delete;

  // Takes `action`, which must be enabled.
  ImplRun& step(const Action& action) {
    const bool enabled = cluster_.isEnabled(action);
    EXPECT_TRUE(enabled) << "not enabled: " << printAction(cluster_.config(), action);
    if (enabled) cluster_.apply(action);
    return *this;
  }
  ImplRun& step(std::string_view text) { return step(parseAction(cluster_.config(), text, "test", 1)); }

  // Takes recovery actions (events, requests, error-free responses) until none is enabled.
  ImplRun& drain() {
    for (int round = 0; round < 1000; ++round) {
      std::optional<Action> recovery;
      for (const Action& a : cluster_.enabledActions()) {
        if (a.kind == ActionKind::ProcessEvent || a.kind == ActionKind::DeliverRequest ||
            (a.kind == ActionKind::DeliverStopReplicaResponse && !a.error) ||
            a.kind == ActionKind::DeliverLeaderAndIsrResponse) {
          recovery = a;
          break;
        }
      }
      if (!recovery) return *this;
      step(*recovery);
    }
    ADD_FAILURE() << "drain did not settle";
    return *this;
  }

  std::string takeLog() {
    std::string text = sink_.text();
    sink_ = TextLogSink(threshold_);
    return text;
  }
  const std::string& log() const { return sink_.text(); }

  const ImplCluster& cluster() const { return cluster_; }
  Observation world() const { return cluster_.observe(); }
  std::optional<PartitionStateZnode> stateZnode(TopicPartition tp) const {
    return world().zk.topics[static_cast<std::size_t>(tp.topic)].states[static_cast<std::size_t>(tp.partition)];
  }
  BrokerData broker(BrokerId b) const { return world().brokers[static_cast<std::size_t>(b)]; }
  ControllerContextData context(BrokerId controller) const { return broker(controller).controller.context; }
  PartitionContext partitionContext(BrokerId controller, TopicPartition tp) const {
    return context(controller).partitions[static_cast<std::size_t>(partitionIndex(tp))];
  }

 private:
  LogLevel threshold_ = LogLevel::TRACE;
  TextLogSink sink_;
  FakeClock clock_;
  ImplCluster cluster_;
};

// Facts Appendix B's setup: brokers 1,2,3 live, topic t with t-0 = [1,2,3] (created by the test).
inline Config appendixBConfig() {
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
  return config;
}

}  // namespace kcspec::impl::testing
