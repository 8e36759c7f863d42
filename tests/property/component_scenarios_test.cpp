// The component scenarios (tests/components/: a given world and component actions, issue 28) run
// through the spec and the reference controller give identical observations, the same exception
// from every component action and identical enabled actions after every step — the conformance
// relation of DESIGN.md, for components called without an event.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "proofs/agreement/agreement.hpp"
#include "proofs/agreement/step_record.hpp"
#include "spec/rules/invariants.hpp"
#include "spec/vocabulary/valid_previous_states.hpp"
#include "spec/rules/components.hpp"
#include "spec/rules/step.hpp"
#include "spec/vocabulary/scenario_text.hpp"

namespace kcspec {
namespace {

std::vector<std::filesystem::path> componentScenarios() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(KCSPEC_SOURCE_DIR) / "tests/components")) {
    if (entry.path().extension() == ".scenario") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

Scenario read(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return parseScenario(text.str(), file.string());
}

// Runs `scenario` on both versions in lockstep (agreement::runScenarioBoth, what `kcspec suite`
// runs): every step and component action taken, no disagreement. Returns the component actions run.
int expectAgreement(const Scenario& scenario, const std::string& name) {
  const agreement::ScenarioRun run = agreement::runScenarioBoth(scenario);
  EXPECT_FALSE(run.disagreement.has_value())
      << name << ":" << run.disagreement->line << " " << run.disagreement->step << ": " << run.disagreement->verdict.by
      << "\n" << run.disagreement->verdict.detail;
  EXPECT_EQ(run.stopped_at, 0) << name;
  EXPECT_EQ(run.steps, static_cast<int>(scenario.steps.size())) << name;
  return run.calls;
}

TEST(ComponentScenarios, SpecAndImplAgreeAfterEveryComponentActionAndStep) {
  int calls = 0;
  const std::vector<std::filesystem::path> files = componentScenarios();
  for (const auto& file : files) calls += expectAgreement(read(file), file.filename().string());
  EXPECT_GE(files.size(), 7u);
  EXPECT_GE(calls, 15);
}

// A fenced write in a component action: both versions throw ControllerMovedException and leave
// ZooKeeper as it was (a given world where another controller has since written /controller_epoch).
TEST(ComponentScenarios, AFencedWriteThrowsTheSameOnBothVersions) {
  Scenario scenario = read(std::filesystem::path(KCSPEC_SOURCE_DIR) / "tests/components/psm_controlled_shutdown.scenario");
  ASSERT_TRUE(scenario.given.has_value());
  ++scenario.given->world.zk.controller_epoch_zk_version;
  ++scenario.given->world.zk.controller_epoch;
  EXPECT_EQ(expectAgreement(scenario, "fenced"), 1);
  spec::ClusterState spec_state = spec::givenState(scenario.config, scenario.given->world);
  spec::StepObserver ignore;
  EXPECT_EQ(spec::callComponent(scenario.config, spec_state, scenario.calls[0].call, ignore).exception, ComponentException::ControllerMoved);
}

// Every row of both transition tables — each (from, to) pair, valid and invalid — is asked for by
// some component action of the suite, and the spec's outcome is the table's: applied (or failed for
// another reason, such as no leader) when `from` is a valid previous state of `to`, an invalid
// transition otherwise (kafka.md §1.4).
TEST(ComponentScenarios, CoverEveryRowOfBothTransitionTables) {
  std::set<std::pair<int, int>> partition_rows, replica_rows;
  for (const auto& file : componentScenarios()) {
    const Scenario scenario = read(file);
    const Config& config = scenario.config;
    spec::ClusterState state =
        scenario.given ? spec::givenState(config, scenario.given->world) : spec::initialState(config);
    forEachStep(
        scenario,
        [&](std::size_t i) {
          state = spec::next(config, state, scenario.steps[i]);
          return true;
        },
        [&](const Scenario::Call& call) {
          spec::RecordingObserver observer;
          spec::callComponent(config, state, call.call, observer);
          for (const spec::StateChangeRecord& r : observer.record.state_changes) {
            const bool invalid = r.outcome == spec::ChangeOutcome::InvalidTransition;
            if (r.is_replica) {
              const bool valid = isValidTransition(static_cast<ReplicaState>(r.from), static_cast<ReplicaState>(r.to));
              EXPECT_EQ(invalid, !valid) << file.filename() << " " << agreement::stateChangeText(config, r);
              replica_rows.insert({r.from, r.to});
            } else {
              const bool valid = isValidTransition(static_cast<PartitionState>(r.from), static_cast<PartitionState>(r.to));
              EXPECT_EQ(invalid, !valid) << file.filename() << " " << agreement::stateChangeText(config, r);
              partition_rows.insert({r.from, r.to});
            }
          }
          return true;
        });
  }
  for (PartitionState from : StateTraits<PartitionState>::all) {
    for (PartitionState to : StateTraits<PartitionState>::all) {
      EXPECT_TRUE(partition_rows.contains({static_cast<int>(from), static_cast<int>(to)}))
          << "no component action asks for " << stateName(from) << " -> " << stateName(to);
    }
  }
  for (ReplicaState from : StateTraits<ReplicaState>::all) {
    for (ReplicaState to : StateTraits<ReplicaState>::all) {
      EXPECT_TRUE(replica_rows.contains({static_cast<int>(from), static_cast<int>(to)}))
          << "no component action asks for " << stateName(from) << " -> " << stateName(to);
    }
  }
}

// Item 4 of issue 28: every public method of the components the actions reach has a scenario —
// each ComponentMethod, both forms of `elect` with each of the four elections, each entry of the
// request batch, and each ControllerContext getter.
TEST(ComponentScenarios, EveryPublicMethodHasAScenario) {
  std::set<int> methods, algorithms, leader_fors, entries, queries;
  for (const auto& file : componentScenarios()) {
    for (const Scenario::Call& call : read(file).calls) {
      const ComponentCall& c = call.call;
      methods.insert(static_cast<int>(c.method));
      if (c.method == ComponentMethod::ElectionAlgorithm) algorithms.insert(static_cast<int>(*c.election));
      if (c.method == ComponentMethod::ElectionLeaderFor) leader_fors.insert(static_cast<int>(*c.election));
      for (const BatchEntry& e : c.batch) entries.insert(static_cast<int>(e.kind));
      if (c.method == ComponentMethod::ControllerContextQuery) queries.insert(static_cast<int>(c.query));
    }
  }
  for (int m = 0; m <= static_cast<int>(ComponentMethod::ControllerContextQuery); ++m) {
    const auto method = static_cast<ComponentMethod>(m);
    EXPECT_TRUE(methods.contains(m)) << "no scenario calls " << componentName(method) << " " << methodName(method);
  }
  for (int k = 0; k <= static_cast<int>(ElectionKind::ControlledShutdown); ++k) {
    EXPECT_TRUE(algorithms.contains(k)) << "no scenario runs election algorithm " << k;
    EXPECT_TRUE(leader_fors.contains(k)) << "no scenario runs Election.leaderFor " << k;
  }
  for (int k = 0; k <= static_cast<int>(BatchEntry::Kind::UpdateMetadata); ++k) {
    EXPECT_TRUE(entries.contains(k)) << "no scenario adds batch entry " << k;
  }
  for (const ContextQueryInfo& q : kContextQueries) {
    EXPECT_TRUE(queries.contains(static_cast<int>(q.query))) << "no scenario asks controller-context " << q.name;
  }
}

}  // namespace
}  // namespace kcspec
