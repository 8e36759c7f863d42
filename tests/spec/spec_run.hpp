// A history run through the spec for a test: a scenario's configuration and steps (and given
// world), then more steps one by one, each checked enabled and against the catalog's state
// properties. Shared by the spec's tests of one feature each (legacy admin paths, log-directory
// failures, …): a test's own run derives from BasicSpecRun<itself>, so that then() and drain()
// chain into its own helpers; SpecRun is the plain one.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>

#include "spec/rules/invariants.hpp"
#include "spec/rules/step.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/scenario_text.hpp"

namespace kcspec::spec {

template <class Self>
class BasicSpecRun {
 public:
  // `scenario`: a whole scenario text (configuration, optional given section, `steps` and steps).
  BasicSpecRun(const std::string& scenario, std::string_view file)
      : file_(file),
        scenario_(parseScenario(scenario, file_)),
        state_(scenario_.given ? givenState(scenario_.config, scenario_.given->world) : initialState(scenario_.config)) {
    for (const Action& a : scenario_.steps) take(a);
  }

  bool enabled(std::string_view line) const { return isEnabled(config(), state_, parse(line)); }

  Self& then(std::string_view line) {
    take(parse(line));
    return self();
  }

  // Processes events and delivers requests and error-free responses until none is left (at most
  // 1000 steps).
  Self& drain() {
    for (int steps = 0; steps < 1000; ++steps) {
      std::optional<Action> recovery;
      config().brokers.forEach([&](BrokerId b) {
        for (const Action& a : {Action{.kind = ActionKind::ProcessEvent, .broker = b},
                                Action{.kind = ActionKind::DeliverRequest, .broker = b},
                                Action{.kind = ActionKind::DeliverStopReplicaResponse, .broker = b},
                                Action{.kind = ActionKind::DeliverLeaderAndIsrResponse, .broker = b}}) {
          if (!recovery && isEnabled(config(), state_, a)) recovery = a;
        }
      });
      if (!recovery) return self();
      take(*recovery);
    }
    ADD_FAILURE() << "drain did not settle";
    return self();
  }

  const Config& config() const { return scenario_.config; }
  const ClusterState& state() const { return state_; }
  const Observation& world() const { return state_.world; }
  const ZooKeeperData& zk() const { return world().zk; }
  const BrokerData& broker(BrokerId b) const { return world().brokers[static_cast<std::size_t>(b)]; }
  const ControllerData& controller(BrokerId b) const { return broker(b).controller; }
  const std::optional<PartitionStateZnode>& znode(TopicPartition tp) const {
    return zk().topics[static_cast<std::size_t>(tp.topic)].states[static_cast<std::size_t>(tp.partition)];
  }
  const HostedReplica& hosted(BrokerId b, TopicPartition tp) const {
    return broker(b).replicas[static_cast<std::size_t>(partitionIndex(tp))];
  }
  const PartitionContext& partitionOf(BrokerId controller_id, TopicPartition tp) const {
    return controller(controller_id).context.partitions[static_cast<std::size_t>(partitionIndex(tp))];
  }

 private:
  Self& self() { return static_cast<Self&>(*this); }
  Action parse(std::string_view line) const { return parseAction(config(), line, file_, 0); }

  void take(const Action& a) {
    ASSERT_TRUE(isEnabled(config(), state_, a)) << "not enabled: " << printAction(config(), a);
    ClusterState after = next(config(), state_, a);
    for (std::string_view id : violatedStateProperties(config(), after)) {
      ADD_FAILURE() << "state property " << id << " after " << printAction(config(), a);
    }
    state_ = std::move(after);
  }

  std::string file_;
  Scenario scenario_;
  ClusterState state_;
};

class SpecRun : public BasicSpecRun<SpecRun> {
 public:
  using BasicSpecRun::BasicSpecRun;
};

}  // namespace kcspec::spec
