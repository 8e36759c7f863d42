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

namespace kcspec::explorer {
namespace {

constexpr int kMaxCounterexampleActions = 12;

// The configurations (config_text.hpp's format).

// 2 brokers, topic t on both, one crash: a crash, a bounce (restart before BrokerChange), the
// offline election.
constexpr std::string_view kCrash = R"(name crash
brokers 1 2
alive-at-start 1 2
topic t
  partition 0 replicas 1,2
  exists-at-start true
bound crashes 1
)";

// One broker, topics t and u with two partitions each, one deletion: deletion of a topic whose
// partitions interleave with another topic's in the context's maps.
constexpr std::string_view kDeleteTwoTopics = R"(name delete-two-topics
brokers 1
alive-at-start 1
topic t
  partition 0 replicas 1
  partition 1 replicas 1
  exists-at-start true
topic u
  partition 0 replicas 1
  partition 1 replicas 1
  exists-at-start true
bound topic-deletions 1
)";

// delete.topic.enable=false, a deletion request and a controller failover.
constexpr std::string_view kNoDeleteFailover = R"(name no-delete-failover
brokers 1 2
alive-at-start 1 2
delete.topic.enable false
topic t
  partition 0 replicas 1
  exists-at-start true
bound controller-failovers 1
bound topic-deletions 1
)";

// A preferred election and a deletion.
constexpr std::string_view kPreferredDelete = R"(name preferred-delete
brokers 1 2
alive-at-start 1 2
topic t
  partition 0 replicas 1,2
  exists-at-start true
bound preferred-elections 1
bound topic-deletions 1
)";

// A controlled shutdown and a deletion.
constexpr std::string_view kShutdownDelete = R"(name shutdown-delete
brokers 1 2
alive-at-start 1 2
topic t
  partition 0 replicas 1,2
  exists-at-start true
bound controlled-shutdowns 1
bound topic-deletions 1
)";

// A crash and a deletion.
constexpr std::string_view kDeleteCrash = R"(name delete-crash
brokers 1 2
alive-at-start 1 2
topic t
  partition 0 replicas 1,2
  exists-at-start true
bound crashes 1
bound topic-deletions 1
)";

// An ISR shrink and a crash: the leader left alone in the ISR dies.
constexpr std::string_view kShrinkCrash = R"(name shrink-crash
brokers 1 2
alive-at-start 1 2
topic t
  partition 0 replicas 1,2
  exists-at-start true
bound crashes 1
bound isr-shrinks 1
)";

// A crash and a controller failover (a stale controller keeps writing).
constexpr std::string_view kFailover = R"(name failover
brokers 1 2
alive-at-start 1 2
topic t
  partition 0 replicas 1,2
  exists-at-start true
bound crashes 1
bound controller-failovers 1
)";

// No topics; two crashes and a controlled shutdown: a ControlledShutdown request from an earlier
// incarnation of the broker, processed after the controller learned the new broker epoch.
constexpr std::string_view kShutdownBounce = R"(name cs-bounce
brokers 1 2
alive-at-start 1 2
bound crashes 2
bound controlled-shutdowns 1
)";

// One reassignment from 1,2 to 2,3.
constexpr std::string_view kReassign = R"(name reassign
brokers 1 2 3
alive-at-start 1 2 3
topic t
  partition 0 replicas 1,2
  reassign 0 to 2,3
  exists-at-start true
bound reassignments 1
)";

// One controlled shutdown of one of two brokers hosting t-0.
constexpr std::string_view kShutdown = R"(name shutdown
brokers 1 2
alive-at-start 1 2
topic t
  partition 0 replicas 1,2
  exists-at-start true
bound controlled-shutdowns 1
)";

// One broker hosting the single-replica t-0 asks for a controlled shutdown.
constexpr std::string_view kShutdownSingleReplica = R"(name shutdown-single-replica
brokers 1 2
alive-at-start 1 2
topic t
  partition 0 replicas 1
  exists-at-start true
bound controlled-shutdowns 1
)";

struct MutantCase {
  std::string_view mutant;
  std::string_view config;
};

void PrintTo(const MutantCase& c, std::ostream* out) { *out << c.mutant; }

constexpr MutantCase kCases[] = {
    {"M1", kDeleteTwoTopics},  {"M2", kDeleteTwoTopics}, {"M3", kNoDeleteFailover}, {"M4", kPreferredDelete},
    {"M5", kDeleteTwoTopics},  {"M6", kShutdownDelete},  {"M7", kDeleteCrash},      {"M8", kCrash},
    {"M9", kShrinkCrash},      {"M10", kDeleteTwoTopics}, {"M11", kCrash},          {"M12", kFailover},
    {"M13", kShutdownBounce},  {"M14", kReassign},       {"M15", kShutdown},        {"M16", kDeleteTwoTopics},
    {"M17", kShutdownSingleReplica},
};

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
