// Every mutant of the reference implementation (impl/mutants.hpp, the list `kcspec mutants`
// runs) is found by the explorer: spec and impl explored in lockstep (BothSystem), breadth
// first up to depth 12 on a small configuration chosen for the mutant, give a violation whose
// shortest counterexample has at most 12 actions — and the same configuration without the
// mutant gives none up to that depth (so the finding is the mutant's).
#include <gtest/gtest.h>

#include <algorithm>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "spec/rules/invariants.hpp"
#include "impl/mutants.hpp"
#include "proofs/explorer/both_system.hpp"
#include "proofs/explorer/explorer.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/config_text.hpp"
#include "mutant_cases.hpp"

namespace kcspec::explorer {
namespace {

constexpr int kMaxCounterexampleActions = 12;

using mutant_cases::kCases;
using mutant_cases::MutantCase;

ExploreResult<BothSystem> explore12(const BothSystem& system) {
  ExploreOptions options;
  options.threads = 2;
  options.max_depth = kMaxCounterexampleActions;
  options.is_known_deviation = spec::isKnownKafkaDeviation;
  options.check_liveness = false;  // the depth limit leaves the exploration incomplete anyway
  return explore(system, options);
}

TEST(ExplorerMutants, EveryMutantHasACase) {
  for (const impl::MutantInfo& info : impl::kMutants) {
    const bool listed = std::any_of(std::begin(kCases), std::end(kCases),
                                    [&](const MutantCase& c) { return c.mutant == info.name; });
    EXPECT_TRUE(listed) << info.name << " has no configuration in kCases";
  }
}

class ExplorerFindsMutant : public testing::TestWithParam<MutantCase> {};

TEST_P(ExplorerFindsMutant, WithinTwelveActions) {
  const MutantCase& c = GetParam();
  const Config config = parseConfig(c.config, "config " + std::string(c.mutant));
  const std::optional<impl::Mutant> mutant = impl::mutantNamed(c.mutant);
  ASSERT_TRUE(mutant.has_value());

  // Without the mutant: nothing (but known Kafka deviations) up to depth 12.
  const auto clean = explore12(BothSystem(config));
  EXPECT_TRUE(clean.holds()) << "the configuration fails without " << c.mutant;

  const BothSystem system(config, impl::Mutants::of({*mutant}));
  const auto result = explore12(system);
  ASSERT_FALSE(result.holds()) << c.mutant << " survived on " << config.name;
  EXPECT_EQ(result.stop, StopReason::Violation);
  for (const auto& v : result.violations) {
    if (v.known_deviation) continue;
    std::string path;
    for (const Action& action : v.path) path += printAction(config, action) + "; ";
    SCOPED_TRACE(testing::Message() << c.mutant << ": " << v.property << " " << v.name << " after " << path);
    EXPECT_LE(v.path.size(), static_cast<std::size_t>(kMaxCounterexampleActions));
    // The counterexample replays to a state where the finding shows: the systems disagree (C1,
    // C2), the last step breaks the step property, or the state breaks the state property.
    BothSystem::State state = system.initialStates().at(v.initial_state);
    PropertyMask last_step = 0;
    for (const Action& action : v.path) {
      last_step = 0;
      state = system.next(state, action, last_step);
    }
    if (v.property == kSpecImplAgree.id || v.property == kSpecImplEnableTheSameActions.id) {
      EXPECT_FALSE(system.disagreement(state).empty());
    } else if (v.kind == PropertyKind::StepSafety) {
      EXPECT_NE(last_step & system.bitOf(v.property), 0u);
    } else if (v.kind == PropertyKind::StateSafety) {
      EXPECT_NE(system.violatedStateProperties(state) & system.bitOf(v.property), 0u);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllMutants, ExplorerFindsMutant, testing::ValuesIn(kCases),
                         [](const testing::TestParamInfo<MutantCase>& param) { return std::string(param.param.mutant); });

}  // namespace
}  // namespace kcspec::explorer
