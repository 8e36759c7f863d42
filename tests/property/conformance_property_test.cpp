// RapidCheck model-based tests: the reference controller (impl/, the system under test) against
// the executable spec (the model) on random histories. One command per action; the generators
// choose among the spec's enabled actions with the weights of proofs/agreement/random_histories.hpp, biased
// toward deletion while a broker is down, failover mid-deletion or mid-reassignment, controlled
// shutdown of the last ISR member, unclean topics, quick bounces and StopReplica errors. After
// every command the observations and enabled sets are equal and every safety property holds on
// the impl's state, except the known Kafka deviations (T3, S7, S8: docs/spec/rules.md).
//
// A failure shows RapidCheck's shrunk command sequence and its RC_PARAMS reproduce line, the
// failing check with the observation diff, and writes the shrunk history as a scenario file
// (`kcspec replay` reads it) into $KCSPEC_OUT or the working directory.
//
// One TEST per configuration, so GoogleTest sharding (GTEST_TOTAL_SHARDS / GTEST_SHARD_INDEX)
// spreads the histories. RC_PARAMS is honoured; without it the seed is fixed (reproducible runs).
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>
#include <rapidcheck/state.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <string>

#include "proofs/agreement/random_histories.hpp"
#include "spec/rules/step.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/scenario_text.hpp"

namespace kcspec::property {
namespace {

using Model = spec::ClusterState;

struct Sut {
  Config config;
  impl::ImplCluster impl;
  std::vector<Action> history;
};

// What the TEST's histories exercised (printed when the TEST ends).
struct Report {
  agreement::Coverage coverage;
  std::map<std::string, std::uint64_t> corners;
};
Report& report() {
  static Report r;
  return r;
}

std::string outputFolder() {
  const char* out = std::getenv("KCSPEC_OUT");
  return out != nullptr && *out != '\0' ? std::string(out) : std::filesystem::current_path().string();
}

std::string writeScenario(const Config& config, const std::vector<Action>& steps, std::string_view suite) {
  std::filesystem::create_directories(outputFolder());
  const std::string path = (std::filesystem::path(outputFolder()) / fmt::format("property-{}.scenario", suite)).string();
  Scenario scenario;
  scenario.config = config;
  scenario.steps = steps;
  std::ofstream(path) << printScenario(scenario);
  return path;
}

// The corner a step reaches, if any (for the report).
std::string_view cornerOf(const Config& config, const Model& s, const Action& a) {
  const ControllerData* active = activeControllerModule(s.world);
  switch (a.kind) {
    case ActionKind::DeleteTopic:
      for (BrokerId b = 0; b < kMaxBrokers; ++b) {
        if (config.brokers.contains(b) && !s.world.brokers[static_cast<std::size_t>(b)].alive) return "deletion while a broker is down";
      }
      return "";
    case ActionKind::LoseControllerSession:
      if (active && !active->context.topics_with_deletion_started.empty()) return "failover in the middle of a deletion";
      if (active && !active->context.partitions_being_reassigned.empty()) return "failover in the middle of a reassignment";
      return "";
    case ActionKind::StartBroker:
      if (active && active->context.live_broker_epochs[static_cast<std::size_t>(a.broker)] != -1) return "quick bounce";
      return "";
    case ActionKind::ControlledShutdown:
      for (const TopicZnodes& topic : s.world.zk.topics) {
        for (const auto& st : topic.states) {
          if (st && st->leader_and_isr.isr.size() == 1 && st->leader_and_isr.isr.contains(a.broker)) {
            return "controlled shutdown of the last ISR member";
          }
        }
      }
      return "";
    case ActionKind::DeliverStopReplicaResponse: return a.error ? "StopReplica error" : "";
    case ActionKind::ElectUncleanLeader: return "unclean election requested";
    case ActionKind::EnableTopicUnclean: return "unclean flag enabled";
    default: return "";
  }
}

class ActionCommand : public rc::state::Command<Model, Sut> {
 public:
  ActionCommand(const Config* config, std::string_view suite, std::optional<Action> action)
      : config_(config), suite_(suite), action_(std::move(action)) {}

  void checkPreconditions(const Model& s0) const override {
    if (action_) {
      RC_PRE(spec::isEnabled(*config_, s0, *action_));
    } else {
      RC_PRE(spec::enabledActions(*config_, s0).empty());
    }
  }

  void apply(Model& s0) const override {
    if (action_) s0 = spec::next(*config_, s0, *action_);
  }

  void run(const Model& s0, Sut& sut) const override {
    if (!action_) return;
    sut.history.push_back(*action_);
    if (!sut.impl.isEnabled(*action_)) {
      fail(sut, "enabled actions", "the impl does not enable it");
      return;
    }
    const std::string_view corner = cornerOf(*config_, s0, *action_);
    if (!corner.empty()) ++report().corners[std::string(corner)];
    const agreement::StepOutcome step = agreement::stepBoth(*config_, s0, sut.impl, *action_, &report().coverage);
    if (!step.verdict.ok) fail(sut, step.verdict.by, step.verdict.detail);
  }

  void show(std::ostream& os) const override { os << (action_ ? printAction(*config_, *action_) : "(nothing enabled)"); }

 private:
  void fail(const Sut& sut, const std::string& by, const std::string& detail) const {
    const std::string path = writeScenario(*config_, sut.history, suite_);
    RC_FAIL(fmt::format("after step {} ({}): {}\n{}\nscenario (replay with `kcspec replay {}`): {}", sut.history.size(),
                        printAction(*config_, *action_), by, detail, path, path));
  }

  const Config* config_;
  std::string_view suite_;
  std::optional<Action> action_;
};

using CommandPtr = std::shared_ptr<const rc::state::Command<Model, Sut>>;

// One history of the configuration called `suite`.
void checkHistory(std::string_view suite) {
  const Config& config = agreement::checkConfig(suite);
  Sut sut{config, impl::ImplCluster(config), {}};
  ++report().coverage.histories;
  const Model initial = spec::initialState(config);
  const agreement::Verdict start = agreement::checkStep(config, nullptr, initial, spec::StepRecord{}, spec::StepRecord{}, sut.impl);
  RC_ASSERT(start.ok);
  const auto commands = *rc::state::gen::commands(initial, [&config, suite](const Model& state) -> rc::Gen<CommandPtr> {
    const std::vector<Action> enabled = spec::enabledActions(config, state);
    if (enabled.empty()) return rc::gen::just<CommandPtr>(std::make_shared<ActionCommand>(&config, suite, std::nullopt));
    std::vector<int> weights;
    std::uint64_t total = 0;
    for (const Action& a : enabled) {
      weights.push_back(agreement::actionWeight(config, state, a));
      total += static_cast<std::uint64_t>(weights.back());
    }
    return rc::gen::map(rc::gen::inRange<std::uint64_t>(0, total), [&config, suite, enabled, weights](std::uint64_t pick) {
      std::size_t i = 0;
      while (pick >= static_cast<std::uint64_t>(weights[i])) pick -= static_cast<std::uint64_t>(weights[i++]);
      return CommandPtr(std::make_shared<ActionCommand>(&config, suite, enabled[i]));
    });
  });
  rc::state::runAll(commands, initial, sut);
}

class ConformanceProperty : public ::testing::Test {
 protected:
  void SetUp() override { report() = Report{}; }
  void TearDown() override {
    std::cout << report().coverage.report() << "corners reached (steps):\n";
    for (const auto& [corner, count] : report().corners) std::cout << fmt::format("  {:<52} {:>9}\n", corner, count);
  }
};

#define KCSPEC_CONFORMANCE_PROPERTY(Name, suite) \
  TEST_F(ConformanceProperty, Name) { rc::detail::checkGTest([] { checkHistory(suite); }); }

KCSPEC_CONFORMANCE_PROPERTY(DefaultPreset, "default")
KCSPEC_CONFORMANCE_PROPERTY(EveryPerturbationPreset, "every-perturbation")
KCSPEC_CONFORMANCE_PROPERTY(Stress4Preset, "stress-4")
KCSPEC_CONFORMANCE_PROPERTY(Stress5Preset, "stress-5")
KCSPEC_CONFORMANCE_PROPERTY(Deletion, "deletion")
KCSPEC_CONFORMANCE_PROPERTY(Unclean, "unclean")
KCSPEC_CONFORMANCE_PROPERTY(DeletionDisabled, "no-delete")
KCSPEC_CONFORMANCE_PROPERTY(Reassignment, "reassignment")
KCSPEC_CONFORMANCE_PROPERTY(AutoRebalance, "rebalance")

// Every configuration's histories without RapidCheck (the same weights, fixed seeds): the merged
// coverage of a default run, and every valid transition of both tables must be taken except the
// ones docs/testing.md explains.
TEST(ConformanceCoverage, EveryConfigurationMerged) {
  agreement::Coverage merged;
  for (const agreement::CheckConfig& c : agreement::checkConfigs()) {
    for (std::uint64_t seed = 0; seed < 60; ++seed) {
      const auto failure = agreement::randomHistory(c.config, impl::Mutants{}, seed, 100, &merged);
      if (failure) {
        const agreement::Counterexample shrunk = agreement::shrink(c.config, impl::Mutants{}, *failure);
        const std::string path = writeScenario(c.config, shrunk.steps, fmt::format("coverage-{}", c.name));
        FAIL() << c.name << " seed " << seed << ": " << shrunk.verdict.by << "\n" << shrunk.verdict.detail << "\nscenario: " << path;
      }
    }
  }
  std::cout << merged.report();
  // Documented in docs/testing.md ("Coverage"): none are expected to stay unreached.
  EXPECT_TRUE(merged.unreachedTransitions().empty());
  // docs/testing.md: every action kind must appear. A weight of 0, or a corner the weights never
  // steer into, would otherwise leave a kind (and the controller code behind it) unexercised by
  // every history while all the checks above still pass.
  for (std::size_t kind = 0; kind < kActionKindCount; ++kind) {
    EXPECT_GT(merged.actions[kind], 0u) << actionName(static_cast<ActionKind>(kind)) << " never ran";
  }
}

}  // namespace
}  // namespace kcspec::property

int main(int argc, char** argv) {
  // Reproducible by default: a fixed seed unless RC_PARAMS says otherwise.
  if (std::getenv("RC_PARAMS") == nullptr) setenv("RC_PARAMS", "seed=20240723", 0);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
