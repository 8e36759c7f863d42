// Property: on random histories of a small cluster with every perturbation enabled, every safety
// property of the catalog holds after every step (except those recorded as known Kafka 3.8
// deviations, which are checked to be the only ones failing), and the spec never stops on an
// assertion.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <set>
#include <string>

#include "spec/rules/invariants.hpp"
#include "spec/rules/step.hpp"

namespace kcspec::spec {
namespace {

Config everyPerturbation() {
  Config config;
  config.brokers = BrokerSet{1, 2, 3};
  config.brokers_alive_at_start = BrokerSet{1, 2, 3};
  TopicConfig t;
  t.name = "t";
  t.assignment = {BrokerList{1, 2}, BrokerList{2, 3}};
  t.added_partitions = {BrokerList{3, 1}};
  t.reassignment_targets = {{0, BrokerList{2, 3}}};
  TopicConfig u;
  u.name = "u";
  u.assignment = {BrokerList{3, 1, 2}};
  u.exists_at_start = true;
  config.topics = {t, u};
  Bounds& b = config.bounds;
  b.crashes = 2;
  b.controlled_shutdowns = 1;
  b.controller_failovers = 1;
  b.topic_creations = 1;
  b.topic_deletions = 2;
  b.partition_additions = 1;
  b.reassignments = 2;
  b.preferred_elections = 1;
  b.unclean_elections = 1;
  b.isr_shrinks = 2;
  b.stop_replica_errors = 1;
  return config;
}

RC_GTEST_PROP(SpecRandomHistories, SafetyPropertiesHoldOnEveryStep, (const std::vector<std::uint32_t>& choices)) {
  const Config config = everyPerturbation();
  ClusterState state = initialState(config);
  std::size_t steps = 0;
  for (std::uint32_t choice : choices) {
    const std::vector<Action> enabled = enabledActions(config, state);
    if (enabled.empty()) break;
    const Action action = enabled[choice % enabled.size()];
    RecordingObserver observer;
    ClusterState after = next(config, state, action, observer);
    for (std::string_view id : violatedStateProperties(config, after)) {
      RC_ASSERT(spec::isKnownKafkaDeviation(id));
    }
    for (std::string_view id : violatedStepProperties(config, state, after, observer.record)) {
      RC_ASSERT(spec::isKnownKafkaDeviation(id));
    }
    state = std::move(after);
    ++steps;
  }
  RC_TAG(steps < 20 ? "short" : steps < 60 ? "medium" : "long");
}

}  // namespace
}  // namespace kcspec::spec
