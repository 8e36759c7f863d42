// `kcspec prove` on test-only catalogs of tiny scopes: theorems that hold, a known Kafka deviation
// confirmed with a replayable counterexample, a deviation that a scope cannot show, and a
// deliberately violated theorem (the impl with a mutant under "spec and impl agree"); the page
// prove writes, read back by the invariant catalog's verdict parser and checked by `docs --check`'s
// rule; and the shape of the real catalog.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>

#include "failover_loop.hpp"  // tests/common/
#include "proofs/agreement/random_histories.hpp"
#include "docs/generator/spec_pages.hpp"
#include "docs/generator/proofs_page.hpp"
#include "proofs/theorems/runner.hpp"
#include "proofs/explorer/explorer.hpp"
#include "proofs/explorer/spec_system.hpp"
#include "proofs/theorems/catalog.hpp"
#include "spec/rules/invariants.hpp"
#include "spec/rules/step.hpp"
#include "spec/vocabulary/scenario_text.hpp"

namespace kcspec::proofs {
namespace {

using namespace docs;  // the proofs page


// One broker, one topic on it, one crash: a few dozen states.
constexpr std::string_view kTinyCrash = R"(name tiny-crash
brokers 1
alive-at-start 1
topic t
  partition 0 replicas 1
  exists-at-start true
bound crashes 1
)";

// One broker, a deletion and a StopReplica error: after the error the topic is ineligible and
// only a broker start could retry it, but no broker can start (it never crashes): L6.
constexpr std::string_view kTinyDeletionError = R"(name tiny-deletion-error
brokers 1
alive-at-start 1
topic t
  partition 0 replicas 1
  exists-at-start true
bound topic-deletions 1
bound stop-replica-errors 1
)";

// Two brokers and a deletion: a history that completes the deletion is short.
constexpr std::string_view kSmallDeletion = R"(name small-deletion
brokers 1 2
alive-at-start 1 2
topic t
  partition 0 replicas 1,2
  exists-at-start true
bound topic-deletions 1
)";

Catalog tinyCatalog() {
  Catalog catalog;
  catalog.scopes.push_back(Scope{"tiny-crash", "one broker, one crash", "", std::string(kTinyCrash)});
  catalog.scopes.push_back(Scope{"tiny-deletion-error", "one broker, a deletion and an error", "",
                                 std::string(kTinyDeletionError)});
  catalog.scopes.push_back(Scope{"small-deletion", "two brokers, a deletion", "", std::string(kSmallDeletion)});
  proofs::addCompileTimeTheorems(catalog);
  const std::array<std::string_view, 0> none{};
  const std::array<std::string_view, 1> l6{"L6"};
  proofs::addExhaustiveTheorems(catalog, "tiny-crash", none);
  proofs::addExhaustiveTheorems(catalog, "tiny-deletion-error", l6);
  proofs::addAgreementTheorem(catalog, "small-deletion", {20, 60, 1});
  // Deliberately violated: the impl with M10 never completes a deletion.
  proofs::addAgreementTheorem(catalog, "small-deletion", {20, 60, 1}, "M10");
  proofs::addExhaustiveAgreementTheorem(catalog, "tiny-crash");
  proofs::addExhaustiveAgreementTheorem(catalog, "tiny-deletion-error", "M10");
  return catalog;
}

std::vector<const Theorem*> all(const Catalog& catalog) {
  std::vector<const Theorem*> out;
  for (const Theorem& t : catalog.theorems) out.push_back(&t);
  return out;
}

const Catalog& tinyCatalogInstance() {
  static const Catalog catalog = tinyCatalog();
  return catalog;
}

// The whole tiny catalog, run once for the tests that read it.
const ProveReport& tinyReport() {
  static const ProveReport report = prove(tinyCatalogInstance(), all(tinyCatalogInstance()), ProveOptions{.threads = 2});
  return report;
}

const TheoremResult& resultOf(const ProveReport& report, std::string_view id) {
  for (const TheoremResult& r : report.results) {
    if (r.theorem->id == id) return r;
  }
  throw std::invalid_argument("no result for " + std::string(id));
}

TEST(Prove, TheoremsOfATinyScopeHoldAndShareOneCompleteExploration) {
  const ProveReport& report = tinyReport();
  std::set<std::size_t> runs;
  for (const spec::Property& p : spec::invariantCatalog()) {
    if (spec::isKnownKafkaDeviation(p.id)) continue;
    const TheoremResult& r = resultOf(report, std::string(p.id) + "@tiny-crash");
    EXPECT_EQ(r.outcome, Outcome::Holds) << p.id;
    EXPECT_FALSE(r.counterexample.has_value()) << p.id;
    ASSERT_TRUE(r.run.has_value());
    runs.insert(*r.run);
  }
  EXPECT_EQ(resultOf(report, "GOOD@tiny-crash").outcome, Outcome::Holds);
  ASSERT_EQ(runs.size(), 1u);
  const RunSummary& run = report.runs[*runs.begin()];
  EXPECT_TRUE(run.complete);
  // The run's figures are the explorer's for the same configuration.
  const explorer::SpecSystem system(proofs::scopeConfig(*tinyCatalogInstance().scope("tiny-crash")));
  const auto direct = explorer::explore(system, explorer::ExploreOptions{.threads = 1});
  EXPECT_EQ(run.states, direct.states);
  EXPECT_EQ(run.transitions, direct.transitions);
  EXPECT_EQ(run.max_depth, direct.max_depth);
}

TEST(Prove, CompileTimeTheoremsAreProven) {
  const ProveReport& report = tinyReport();
  const auto compile_time = std::count_if(report.results.begin(), report.results.end(), [](const TheoremResult& r) {
    return r.theorem->method == Method::CompileTime;
  });
  EXPECT_GT(compile_time, 0);
  for (const TheoremResult& r : report.results) {
    if (r.theorem->method != Method::CompileTime) continue;
    EXPECT_EQ(r.outcome, Outcome::Proven);
    EXPECT_FALSE(r.run.has_value());
  }
}

TEST(Prove, AKnownDeviationIsConfirmedWithAReplayableShortestCounterexample) {
  const TheoremResult& r = resultOf(tinyReport(), "L6@tiny-deletion-error");
  EXPECT_EQ(r.theorem->expectation, Expectation::KafkaDeviation);
  EXPECT_EQ(r.outcome, Outcome::DeviationConfirmed);
  ASSERT_TRUE(r.counterexample.has_value());
  const TheoremCounterexample& c = *r.counterexample;
  EXPECT_FALSE(c.steps.empty());
  EXPECT_GT(c.occurrences, 0u);
  // The scenario text parses, holds the same steps, and every step is enabled in the spec.
  const Scenario scenario = parseScenario(c.scenario, "L6.scenario");
  ASSERT_EQ(scenario.steps.size(), c.steps.size());
  spec::ClusterState state = spec::initialState(scenario.config);
  for (const Action& step : scenario.steps) {
    const std::vector<Action> enabled = spec::enabledActions(scenario.config, state);
    ASSERT_NE(std::find(enabled.begin(), enabled.end(), step), enabled.end());
    state = spec::next(scenario.config, state, step);
  }
  // It is the shortest: the explorer's own counterexample for L6 has the same length.
  const explorer::SpecSystem system(scenario.config);
  explorer::ExploreOptions options;
  options.is_known_deviation = [](std::string_view id) { return spec::isKnownKafkaDeviation(id); };
  options.stop_at_violation = false;
  const auto direct = explorer::explore(system, options);
  const auto l6 = std::find_if(direct.violations.begin(), direct.violations.end(),
                               [](const auto& v) { return v.property == "L6"; });
  ASSERT_NE(l6, direct.violations.end());
  EXPECT_EQ(l6->path.size(), c.steps.size());
  // The other properties of that scope hold.
  EXPECT_EQ(resultOf(tinyReport(), "S1@tiny-deletion-error").outcome, Outcome::Holds);
}

TEST(Prove, AViolatedTheoremIsReportedWithACounterexampleThatReproduces) {
  const ProveReport& report = tinyReport();
  EXPECT_EQ(resultOf(report, "AGREE@small-deletion").outcome, Outcome::Holds);
  const TheoremResult& r = resultOf(report, "AGREE@small-deletion+M10");
  EXPECT_EQ(r.outcome, Outcome::Violated);
  ASSERT_TRUE(r.counterexample.has_value());
  EXPECT_FALSE(r.counterexample->detail.empty());
  EXPECT_FALSE(report.success());
  const Scenario scenario = parseScenario(r.counterexample->scenario, "AGREE.scenario");
  ASSERT_FALSE(scenario.steps.empty());
  EXPECT_TRUE(agreement::replayBoth(scenario.config, impl::Mutants::of({impl::Mutant::M10}), scenario.steps).has_value());
  EXPECT_FALSE(agreement::replayBoth(scenario.config, impl::Mutants{}, scenario.steps).has_value());
}

TEST(Prove, ExhaustiveAgreementHoldsAndFindsTheShortestDisagreementOfAMutant) {
  const ProveReport& report = tinyReport();
  const TheoremResult& holds = resultOf(report, "AGREE@tiny-crash");
  EXPECT_EQ(holds.theorem->method, Method::Exhaustive);
  EXPECT_EQ(holds.outcome, Outcome::Holds);
  EXPECT_TRUE(report.runs.at(*holds.run).complete);
  const TheoremResult& r = resultOf(report, "AGREE@tiny-deletion-error+M10");
  EXPECT_EQ(r.outcome, Outcome::Violated);
  ASSERT_TRUE(r.counterexample.has_value());
  EXPECT_TRUE(r.counterexample->detail.starts_with("C1 SpecImplAgree") ||
              r.counterexample->detail.starts_with("C2 SpecImplEnableTheSameActions"))
      << r.counterexample->detail;
  const Scenario scenario = parseScenario(r.counterexample->scenario, "AGREE-M10.scenario");
  ASSERT_FALSE(scenario.steps.empty());
  const auto failure = agreement::replayBoth(scenario.config, impl::Mutants::of({impl::Mutant::M10}), scenario.steps);
  ASSERT_TRUE(failure.has_value());
  EXPECT_EQ(failure->steps.size(), scenario.steps.size()) << "the disagreement shows at the last step";
  EXPECT_FALSE(agreement::replayBoth(scenario.config, impl::Mutants{}, scenario.steps).has_value());
}

TEST(Prove, ADeviationAScopeCannotShowIsNotReproducedAndFails) {
  Catalog catalog = tinyCatalog();
  const std::array<std::string_view, 1> l6{"L6"};
  Catalog crash_only;
  crash_only.scopes = catalog.scopes;
  proofs::addExhaustiveTheorems(crash_only, "tiny-crash", l6);
  std::vector<const Theorem*> selection{crash_only.theorem("L6@tiny-crash"), crash_only.theorem("S1@tiny-crash")};
  const ProveReport report = prove(crash_only, selection, ProveOptions{.threads = 1});
  ASSERT_EQ(report.results.size(), 2u);
  EXPECT_EQ(resultOf(report, "L6@tiny-crash").outcome, Outcome::DeviationNotReproduced);
  EXPECT_EQ(resultOf(report, "S1@tiny-crash").outcome, Outcome::Holds);
  EXPECT_EQ(report.runs.size(), 1u);
  EXPECT_FALSE(report.success());
}

TEST(Prove, SameVerdictsAndCountsForOneAndTwoThreads) {
  const Catalog catalog = tinyCatalog();
  std::vector<const Theorem*> selection;
  for (const Theorem& t : catalog.theorems) {
    if (t.scope == "tiny-deletion-error") selection.push_back(&t);
  }
  const ProveReport one = prove(catalog, selection, ProveOptions{.threads = 1});
  const ProveReport two = prove(catalog, selection, ProveOptions{.threads = 2});
  ASSERT_EQ(one.results.size(), two.results.size());
  for (std::size_t i = 0; i < one.results.size(); ++i) {
    EXPECT_EQ(one.results[i].outcome, two.results[i].outcome) << one.results[i].theorem->id;
    EXPECT_EQ(one.results[i].counterexample.has_value(), two.results[i].counterexample.has_value());
    if (one.results[i].counterexample) {
      EXPECT_EQ(one.results[i].counterexample->steps, two.results[i].counterexample->steps);
    }
  }
  EXPECT_EQ(one.runs.at(0).states, two.runs.at(0).states);
}

TEST(ProvesPage, TheInvariantPagesVerdictParserReadsWhatProveWrites) {
  const Catalog& catalog = tinyCatalogInstance();
  const std::string page = proofsPage(catalog, tinyReport());
  const std::map<std::string, std::string> verdicts = verdictsFromProofsPage(page);
  ASSERT_TRUE(verdicts.contains("S1"));
  EXPECT_TRUE(verdicts.at("S1").starts_with("holds: exhaustive in 2 scopes")) << verdicts.at("S1");
  ASSERT_TRUE(verdicts.contains("L6"));
  EXPECT_NE(verdicts.at("L6").find("Kafka deviation confirmed"), std::string::npos) << verdicts.at("L6");
  ASSERT_TRUE(verdicts.contains("AGREE"));
  EXPECT_TRUE(verdicts.at("AGREE").starts_with("**violated** (AGREE@small-deletion+M10")) << verdicts.at("AGREE");
  // Compile-time theorems are listed in their own table, without a verdict column.
  EXPECT_FALSE(verdicts.contains("MSM-P1"));
  EXPECT_NE(page.find(compileTimeSection()), std::string::npos);
  // Every catalog property the tiny catalog checks has a verdict (all but the deviations it has no
  // theorem for); the counterexamples are there, numbered, with their scenario text.
  for (const spec::Property& p : spec::invariantCatalog()) {
    const bool checked = !spec::isKnownKafkaDeviation(p.id) || p.id == "L6";
    EXPECT_EQ(verdicts.contains(std::string(p.id)), checked) << p.id;
  }
  const TheoremResult& l6 = resultOf(tinyReport(), "L6@tiny-deletion-error");
  EXPECT_NE(page.find("1. `" + l6.counterexample->steps.front() + "`"), std::string::npos);
  EXPECT_NE(page.find(l6.counterexample->scenario), std::string::npos);
}

TEST(ProvesPage, DocsCheckAcceptsOnlyAPageWrittenForTheCurrentCatalog) {
  const Catalog& catalog = tinyCatalogInstance();
  const std::string page = proofsPage(catalog, tinyReport());
  EXPECT_TRUE(proofsPageProblems(page, catalog).empty());
  EXPECT_FALSE(proofsPageProblems(page, proofs::theoremCatalog()).empty());
  Catalog changed = catalog;
  changed.theorems.pop_back();
  EXPECT_FALSE(proofsPageProblems(page, changed).empty());
  EXPECT_FALSE(proofsPageProblems("# What kcspec proves\n", catalog).empty());
  // The prose the generator writes, edited by hand (or left by an older generator), is found out.
  for (std::string_view words : {std::string_view("**Chains.**"), std::string_view("and writes this page.")}) {
    std::string edited = page;
    const std::size_t at = edited.find(words);
    ASSERT_NE(at, std::string::npos) << words;
    edited.insert(at + words.size(), " Edited by hand.");
    EXPECT_EQ(proofsPageProblems(edited, catalog).size(), 1u) << words;
  }
}

// docs/proofs.md as committed: every counterexample's scenario replays through the spec, and a
// safety property's counterexample ends in the violation it is about.
TEST(ProvesPage, EveryCounterexampleOnTheCommittedPageReplays) {
  std::ifstream file(std::string(KCSPEC_DOCS_DIR) + "/proofs.md");
  ASSERT_TRUE(file) << "docs/proofs.md is missing: run `kcspec prove`";
  const std::string page((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  const std::string heading = "### Counterexample ";
  int replayed = 0;
  for (std::size_t at = page.find(heading); at != std::string::npos; at = page.find(heading, at + 1)) {
    const std::size_t id_begin = at + heading.size();
    const std::string id = page.substr(id_begin, page.find(':', id_begin) - id_begin);
    const std::string property = id.substr(0, id.find('@'));
    SCOPED_TRACE(id);
    const std::size_t block = page.find("```text\n# kcspec scenario v1\n", at);
    ASSERT_NE(block, std::string::npos);
    const std::size_t text_begin = block + 8;
    const std::string text = page.substr(text_begin, page.find("```", text_begin) - text_begin);
    const Scenario scenario = parseScenario(text, id + ".scenario");
    spec::ClusterState state = spec::initialState(scenario.config);
    std::vector<std::string_view> last_step_violations;
    for (const Action& step : scenario.steps) {
      const std::vector<Action> enabled = spec::enabledActions(scenario.config, state);
      ASSERT_NE(std::find(enabled.begin(), enabled.end(), step), enabled.end());
      spec::RecordingObserver observer;
      spec::ClusterState after = spec::next(scenario.config, state, step, observer);
      last_step_violations = spec::violatedStepProperties(scenario.config, state, after, observer.record);
      state = std::move(after);
    }
    const spec::Property* p = nullptr;
    for (const spec::Property& candidate : spec::invariantCatalog()) {
      if (candidate.id == property) p = &candidate;
    }
    if (p != nullptr && p->kind == spec::PropertyKind::StateSafety) {
      const auto violated = spec::violatedStateProperties(scenario.config, state);
      EXPECT_NE(std::find(violated.begin(), violated.end(), property), violated.end());
    } else if (p != nullptr && p->kind == spec::PropertyKind::StepSafety) {
      EXPECT_NE(std::find(last_step_violations.begin(), last_step_violations.end(), property), last_step_violations.end());
    }
    ++replayed;
  }
  // At least the confirmed known deviations have one each.
  const auto deviations = std::count_if(spec::invariantCatalog().begin(), spec::invariantCatalog().end(),
                                       [](const spec::Property& p) { return !p.kafka_deviation.empty(); });
  EXPECT_GE(replayed, static_cast<int>(deviations));
}

TEST(TheoremCatalog, IdsAreUniqueScopesParseAndEveryPropertyAndDeviationHasATheorem) {
  const Catalog& catalog = proofs::theoremCatalog();
  std::set<std::string> ids;
  for (const Theorem& t : catalog.theorems) {
    EXPECT_TRUE(ids.insert(t.id).second) << "duplicate " << t.id;
    const Scope* scope = catalog.scope(t.scope);
    ASSERT_NE(scope, nullptr) << t.id;
    if (t.method != Method::CompileTime) {
      EXPECT_NO_THROW(proofs::scopeConfig(*scope)) << t.id;
    }
    EXPECT_TRUE(t.impl_mutants.empty()) << t.id;
  }
  for (const spec::Property& p : spec::invariantCatalog()) {
    const bool has = std::any_of(catalog.theorems.begin(), catalog.theorems.end(),
                                 [&](const Theorem& t) { return t.property == p.id; });
    EXPECT_TRUE(has) << p.id;
  }
  for (const spec::Property& p : spec::invariantCatalog()) {
    if (p.kafka_deviation.empty()) continue;
    const bool has = std::any_of(catalog.theorems.begin(), catalog.theorems.end(), [&](const Theorem& t) {
      return t.property == p.id && t.expectation == Expectation::KafkaDeviation;
    });
    EXPECT_TRUE(has) << p.id;
  }
  EXPECT_NE(catalog.theorem("AGREE@every-perturbation"), nullptr);
}

}  // namespace
}  // namespace kcspec::proofs

namespace kcspec::proofs {
namespace {

// Random histories of a configuration that enters Kafka's failover loop (docs/spec/rules.md,
// "Histories that outgrow the model"): a history whose next step would overflow a queue of the
// modeled world ends there, checked up to it and counted, and the run goes on to its other
// histories — it used to stop the program.

TEST(Prove, RandomHistoriesEndWhereTheyOutgrowTheWorld) {
  Catalog catalog;
  catalog.scopes.push_back(Scope{"failover-loop", "one broker in the failover loop", "", std::string(test::kFailoverLoopConfig)});
  const std::array<std::string_view, 0> none{};
  proofs::addRandomSafetyTheorems(catalog, "failover-loop", {100, 1000, 1}, none);
  proofs::addAgreementTheorem(catalog, "failover-loop", {100, 1000, 1});
  const ProveReport report = prove(catalog, all(catalog), ProveOptions{.threads = 2});
  ASSERT_EQ(report.runs.size(), 2u);
  for (const RunSummary& run : report.runs) {
    SCOPED_TRACE(runTitle(run));
    EXPECT_TRUE(run.complete);
    EXPECT_EQ(run.histories, 100u);
    EXPECT_GT(run.histories_at_capacity, 0u);
    EXPECT_LE(run.histories_at_capacity, run.histories);
    EXPECT_NE(runFigures(run).find("ended where a step outgrew the modeled world"), std::string::npos);
  }
  for (const TheoremResult& result : report.results) EXPECT_TRUE(outcomeIsSuccess(result.outcome)) << result.theorem->id;
}

}  // namespace
}  // namespace kcspec::proofs
