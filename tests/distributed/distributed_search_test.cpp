// The distributed search (proofs/explorer/distributed/) against the one-process search, on ranks
// that are threads of this process (thread_ranks.hpp): the same counts, stop and verdicts for any
// number of ranks and threads per rank, counterexamples that replay, and every rank stopping
// together at a limit.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "impl/mutants.hpp"
#include "proofs/explorer/distributed/distributed_explorer.hpp"
#include "proofs/explorer/explorer.hpp"
#include "proofs/explorer/impl_system.hpp"
#include "proofs/explorer/spec_system.hpp"
#include "spec/rules/invariants.hpp"
#include "spec/vocabulary/presets.hpp"
#include "thread_ranks.hpp"  // tests/distributed/
#include "failover_loop.hpp"  // tests/common/
#include "spec/vocabulary/config_text.hpp"
#include "two_brokers.hpp"  // tests/common/

namespace kcspec::explorer::distributed {
namespace {

// What must not depend on how the search was spread: the model's counts and the verdicts.
struct Verdict {
  std::string property;
  std::uint64_t occurrences = 0;
  bool known = false;
  bool operator==(const Verdict&) const = default;
};

struct Summary {
  std::uint64_t states = 0;
  std::uint64_t transitions = 0;
  int max_depth = 0;
  StopReason stop = StopReason::Complete;
  bool liveness_checked = false;
  std::uint64_t recovery_edges = 0;
  std::uint64_t chained_steps = 0;
  std::uint64_t reduced_states = 0;
  std::vector<std::uint64_t> action_counts;
  std::vector<Verdict> verdicts;
  bool operator==(const Summary&) const = default;
};

template <class S>
Summary summarize(const ExploreResult<S>& result) {
  Summary s{result.states,         result.transitions,   result.max_depth, result.stop, result.liveness_checked,
            result.recovery_edges, result.chained_steps, result.reduced_states, {}, {}};
  for (const auto& [kind, count] : result.action_counts) s.action_counts.push_back(count);
  for (const Violation<S>& v : result.violations) s.verdicts.push_back({v.property, v.occurrences, v.known_deviation});
  return s;
}

void PrintTo(const Summary& s, std::ostream* os) {
  *os << s.states << " states, " << s.transitions << " transitions, depth " << s.max_depth << ", stop "
      << stopReasonName(s.stop) << ", liveness " << s.liveness_checked << ", " << s.recovery_edges
      << " recovery edges, " << s.chained_steps << " chained, " << s.reduced_states << " reduced; violations:";
  for (const Verdict& v : s.verdicts) *os << " " << v.property << "×" << v.occurrences << (v.known ? "(known)" : "");
}

ExploreOptions options(unsigned threads, Reduction reduction) {
  ExploreOptions o;
  o.threads = threads;
  o.reduction = reduction;
  o.is_known_deviation = [](std::string_view id) { return spec::isKnownKafkaDeviation(id); };
  o.progress_interval = std::chrono::milliseconds(0);
  o.batch_states = 64;  // many rounds even on small configurations
  return o;
}

// The path replays from its initial state, every action enabled where it is taken, and its end
// shows the violation (a state property in the last state, a step property by the last step).
template <class S>
::testing::AssertionResult replays(const S& system, const Violation<S>& v) {
  typename S::State state = system.initialStates().at(v.initial_state);
  PropertyMask last = 0;
  for (std::size_t i = 0; i < v.path.size(); ++i) {
    std::vector<typename S::Action> enabled;
    system.actions(state, enabled);
    if (std::find(enabled.begin(), enabled.end(), v.path[i]) == enabled.end()) {
      return ::testing::AssertionFailure() << v.property << ": step " << i + 1 << " is not enabled";
    }
    last = 0;
    state = system.next(state, v.path[i], last);
  }
  if (v.kind == PropertyKind::Liveness) return ::testing::AssertionSuccess();
  std::size_t index = 0;
  const auto properties = system.properties();
  while (index < properties.size() && properties[index].id != v.property) ++index;
  const PropertyMask bit = propertyBit(index);
  const bool shows = v.kind == PropertyKind::StepSafety ? (last & bit) != 0 : (system.violatedStateProperties(state) & bit) != 0;
  if (!shows) return ::testing::AssertionFailure() << v.property << ": the path's end does not show it";
  return ::testing::AssertionSuccess();
}

// Runs the one-process search, then the distributed one on 1…4 ranks with 1 and 2 threads each,
// and compares every rank's summary with the one-process search's. With `same_lengths`, rank 0's
// counterexamples are as long as the one-process search's (an unreduced search's are shortest).
template <class S>
Summary expectSameAsOneProcess(const S& system, Reduction reduction, bool same_lengths,
                               const std::function<void(ExploreOptions&)>& adjust = {}) {
  ExploreOptions one = options(2, reduction);
  if (adjust) adjust(one);
  const ExploreResult<S> expected = explore(system, one);
  const Summary expected_summary = summarize(expected);
  for (int ranks = 1; ranks <= 4; ++ranks) {
    for (unsigned threads : {1u, 2u}) {
      SCOPED_TRACE(::testing::Message() << ranks << " ranks × " << threads << " threads");
      ExploreOptions spread = options(threads, reduction);
      if (adjust) adjust(spread);
      const std::vector<ExploreResult<S>> results = test::onThreadRanks<ExploreResult<S>>(
          ranks, [&](Communicator& comm) { return exploreDistributed(system, spread, comm); });
      for (const ExploreResult<S>& result : results) EXPECT_EQ(summarize(result), expected_summary);
      const ExploreResult<S>& first = results.front();
      EXPECT_EQ(first.violations.size(), expected.violations.size());
      if (first.violations.size() != expected.violations.size()) continue;
      for (std::size_t i = 0; i < first.violations.size(); ++i) {
        EXPECT_TRUE(replays(system, first.violations[i]));
        if (same_lengths) {
          EXPECT_EQ(first.violations[i].path.size(), expected.violations[i].path.size()) << first.violations[i].property;
        }
      }
    }
  }
  return expected_summary;
}

using kcspec::test::twoBrokers;

TEST(DistributedSearch, UnreducedSpecHasTheSameCountsVerdictsAndCounterexampleLengths) {
  // A deletion with a StopReplica error: the known liveness deviation L6, and T3.
  const SpecSystem system(twoBrokers(Bounds{.crashes = 1, .topic_deletions = 1, .stop_replica_errors = 1}));
  const Summary expected = expectSameAsOneProcess(system, Reduction::None, /*same_lengths=*/true);
  EXPECT_TRUE(expected.liveness_checked);
  EXPECT_FALSE(expected.verdicts.empty());
}

TEST(DistributedSearch, ReducedSpecHasTheSameCountsAndVerdicts) {
  const SpecSystem system(*preset("crash-deletion"), SpecSystem::Symmetry::Reduced);
  expectSameAsOneProcess(system, Reduction::Por, /*same_lengths=*/false);
}

TEST(DistributedSearch, AMutantStopsEveryRankAtTheSameLevelWithTheShortestCounterexample) {
  impl::Mutants mutants;
  mutants.enable(impl::Mutant::M16);
  const ImplSystem system(*preset("crash-isr"), mutants);
  const Summary expected = expectSameAsOneProcess(system, Reduction::None, /*same_lengths=*/true,
                                                  [](ExploreOptions& o) { o.stop_at_violation = true; });
  EXPECT_EQ(expected.stop, StopReason::Violation);  // S3: the crash of the sole ISR member empties the ISR
}

TEST(DistributedSearch, ReducedSearchFindsTheMutantsTheOneProcessSearchFinds) {
  // On spare-brokers with the default reduction: M1 breaks S5, M7 and M8 the liveness goals L1 (and
  // L3). Reduced paths are not the shortest: only the verdicts must agree, and the paths replay.
  for (const impl::Mutant mutant : {impl::Mutant::M1, impl::Mutant::M7, impl::Mutant::M8}) {
    SCOPED_TRACE(impl::mutantInfo(mutant).name);
    impl::Mutants mutants;
    mutants.enable(mutant);
    const ImplSystem system(*preset("spare-brokers"), mutants);
    const Summary expected = expectSameAsOneProcess(system, Reduction::Por, /*same_lengths=*/false);
    EXPECT_TRUE(std::any_of(expected.verdicts.begin(), expected.verdicts.end(), [](const Verdict& v) { return !v.known; }));
  }
}

TEST(DistributedSearch, DepthLimitStopsEveryRankAtTheSameLevel) {
  const SpecSystem system(*preset("crash-deletion"), SpecSystem::Symmetry::Reduced);
  const Summary expected =
      expectSameAsOneProcess(system, Reduction::Por, /*same_lengths=*/false, [](ExploreOptions& o) { o.max_depth = 6; });
  EXPECT_EQ(expected.stop, StopReason::DepthLimit);
  EXPECT_EQ(expected.max_depth, 6);
}

TEST(DistributedSearch, MemoryCapStopsEveryRankWithAPartialReport) {
  const SpecSystem system(*preset("crash-deletion"), SpecSystem::Symmetry::Reduced);
  // What a rank needs at most without a cap, then a cap of half that.
  const std::vector<DistributedReport> uncapped = test::onThreadRanks<DistributedReport>(3, [&](Communicator& comm) {
    DistributedReport report;
    exploreDistributed(system, options(1, Reduction::Por), comm, &report);
    return report;
  });
  std::uint64_t most = 0;
  for (const RankFigures& figures : uncapped.front().per_rank) most = std::max(most, figures.memory_bytes);
  ASSERT_GT(most, 0u);
  ExploreOptions o = options(1, Reduction::Por);
  o.max_memory_bytes = most / 2;  // a rank
  const std::vector<ExploreResult<SpecSystem>> results = test::onThreadRanks<ExploreResult<SpecSystem>>(
      3, [&](Communicator& comm) { return exploreDistributed(system, o, comm); });
  for (const ExploreResult<SpecSystem>& result : results) {
    EXPECT_EQ(result.stop, StopReason::MemoryLimit);
    EXPECT_GT(result.states, 0u);
    EXPECT_EQ(result.states, results.front().states);
    EXPECT_FALSE(result.liveness_checked);
  }
}

TEST(DistributedSearch, CancellationOnOneRankStopsThemAll) {
  const SpecSystem system(*preset("crash-deletion"), SpecSystem::Symmetry::Reduced);
  std::atomic<bool> cancel{true};
  const std::vector<ExploreResult<SpecSystem>> results = test::onThreadRanks<ExploreResult<SpecSystem>>(
      3, [&](Communicator& comm) {
        ExploreOptions o = options(1, Reduction::Por);
        if (comm.rank() == 1) o.cancel = &cancel;  // only rank 1 is told
        return exploreDistributed(system, o, comm);
      });
  for (const ExploreResult<SpecSystem>& result : results) EXPECT_EQ(result.stop, StopReason::Cancelled);
}

// A configuration whose histories outgrow the modeled world (tests/common/failover_loop.hpp): every
// rank stops at the model's capacity, and rank 0 has a history whose last step throws it — as
// long as the one-process search's — that replays up to that step.
TEST(DistributedSearch, AHistoryThatOutgrowsTheWorldStopsEveryRankWithItsPath) {
  const SpecSystem system(parseConfig(std::string(kcspec::test::kFailoverLoopConfig), "failover-loop"),
                          SpecSystem::Symmetry::Reduced);
  const ExploreResult<SpecSystem> one = explore(system, options(2, Reduction::Por));
  ASSERT_EQ(one.stop, StopReason::Capacity);
  ASSERT_TRUE(one.capacity.has_value());
  for (int ranks = 1; ranks <= 3; ++ranks) {
    SCOPED_TRACE(::testing::Message() << ranks << " ranks");
    const std::vector<ExploreResult<SpecSystem>> results = test::onThreadRanks<ExploreResult<SpecSystem>>(
        ranks, [&](Communicator& comm) { return exploreDistributed(system, options(2, Reduction::Por), comm); });
    for (const ExploreResult<SpecSystem>& result : results) {
      EXPECT_EQ(result.stop, StopReason::Capacity);
      EXPECT_FALSE(result.liveness_checked);
    }
    for (std::size_t r = 1; r < results.size(); ++r) EXPECT_FALSE(results[r].capacity.has_value());
    ASSERT_TRUE(results.front().capacity.has_value());
    const CapacityFinding<SpecSystem>& found = *results.front().capacity;
    EXPECT_EQ(found.what, one.capacity->what);
    EXPECT_EQ(found.path.size(), one.capacity->path.size());
    SpecSystem::State state = system.initialStates().at(found.initial_state);
    for (std::size_t i = 0; i + 1 < found.path.size(); ++i) {
      PropertyMask step_violations = 0;
      state = system.next(state, found.path[i], step_violations);
    }
    PropertyMask ignored = 0;
    EXPECT_THROW(system.next(state, found.path.back(), ignored), CapacityExceeded);
  }
}

TEST(DistributedSearch, ReportGivesEveryRanksShareAtRankZero) {
  const SpecSystem system(*preset("crash-deletion"), SpecSystem::Symmetry::Reduced);
  struct Out {
    std::uint64_t states = 0;
    DistributedReport report;
  };
  const std::vector<Out> outs = test::onThreadRanks<Out>(3, [&](Communicator& comm) {
    Out out;
    out.states = exploreDistributed(system, options(1, Reduction::Por), comm, &out.report).states;
    return out;
  });
  const DistributedReport& report = outs.front().report;
  ASSERT_EQ(report.per_rank.size(), 3u);
  std::uint64_t owned = 0;
  for (const RankFigures& figures : report.per_rank) {
    EXPECT_GT(figures.states, 0u);
    EXPECT_GT(figures.bytes_sent, 0u);
    owned += figures.states;
  }
  EXPECT_EQ(owned, outs.front().states);  // every state owned once
  EXPECT_GE(report.imbalance(), 1.0);
  EXPECT_EQ(outs[1].report.per_rank.size(), 1u);  // elsewhere: the rank's own
}

// --expect-states: a rank sizes its table for its share up front, the states already in it are
// found after the resize, and the share goes in without the table or the records growing.
TEST(OwnedStates, ReservedForItsShareItDoesNotGrow) {
  const auto fingerprint = [](std::uint64_t i) { return VisitedSet::stored(i * 0x2545F4914F6CDD1Dull); };
  OwnedStates owned;
  for (std::uint64_t i = 1; i <= 100; ++i) owned.insert(fingerprint(i), fingerprint(i - 1));
  constexpr std::size_t kShare = 50'000;
  owned.reserve(kShare);
  const std::uint64_t reserved = owned.bytes();
  EXPECT_GE(reserved, OwnedStates::bytesToHold(kShare));
  for (std::uint64_t i = 1; i <= 100; ++i) {
    ASSERT_TRUE(owned.find(fingerprint(i)).has_value()) << i;
    EXPECT_EQ(owned.fingerprintOf(*owned.find(fingerprint(i))), fingerprint(i));
  }
  for (std::uint64_t i = 101; i <= kShare; ++i) owned.insert(fingerprint(i), fingerprint(i - 1));
  EXPECT_EQ(owned.bytes(), reserved);
  owned.insert(fingerprint(kShare + 1), fingerprint(kShare));  // one more than reserved: the records grow
  EXPECT_GT(owned.bytes(), reserved);
  EXPECT_EQ(owned.size(), kShare + 1);
  EXPECT_EQ(owned.parentOf(*owned.find(fingerprint(kShare))), fingerprint(kShare - 1));
  EXPECT_EQ(expectedShare(0, 3), 0u);
  EXPECT_EQ(expectedShare(3'000'000, 3), 1'000'000u * 21 / 20 + 1024);
}

// ExploreOptions::expected_states reaches every rank: each holds its share's table from the
// start, and the counts and verdicts are those of a run without it.
TEST(DistributedSearch, ExpectedStatesSizeEveryRanksTable) {
  const SpecSystem system(*preset("crash-deletion"), SpecSystem::Symmetry::Reduced);
  struct Out {
    Summary summary;
    DistributedReport report;
  };
  const auto run = [&](std::uint64_t expected_states) {
    return test::onThreadRanks<Out>(3, [&](Communicator& comm) {
      ExploreOptions o = options(1, Reduction::Por);
      o.expected_states = expected_states;
      Out out;
      out.summary = summarize(exploreDistributed(system, o, comm, &out.report));
      return out;
    });
  };
  const std::vector<Out> plain = run(0);
  constexpr std::uint64_t kExpected = 6'000'000;  // far more than the run's states
  const std::vector<Out> sized = run(kExpected);
  EXPECT_EQ(sized.front().summary, plain.front().summary);
  ASSERT_EQ(sized.front().report.per_rank.size(), 3u);
  for (std::size_t r = 0; r < 3; ++r) {
    const std::uint64_t share_bytes = OwnedStates::bytesToHold(expectedShare(kExpected, 3));
    EXPECT_GE(sized.front().report.per_rank[r].memory_bytes, share_bytes) << "rank " << r;
    EXPECT_LT(plain.front().report.per_rank[r].memory_bytes, share_bytes) << "rank " << r;
  }
}

TEST(OwnerOf, SpreadsFingerprintsOverEveryRank) {
  for (int ranks = 1; ranks <= 5; ++ranks) {
    std::vector<int> seen(static_cast<std::size_t>(ranks), 0);
    for (std::uint64_t i = 1; i <= 10'000; ++i) {
      const int owner = ownerOf(VisitedSet::stored(i * 0x2545F4914F6CDD1Dull), ranks);
      ASSERT_GE(owner, 0);
      ASSERT_LT(owner, ranks);
      ++seen[static_cast<std::size_t>(owner)];
    }
    for (int count : seen) EXPECT_GT(count, 10'000 / ranks / 2) << ranks << " ranks";
  }
}

}  // namespace
}  // namespace kcspec::explorer::distributed
