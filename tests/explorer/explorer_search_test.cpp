// The search itself: shortest counterexamples of a deliberately broken property, determinism
// across thread counts, known deviations, and the depth and memory limits.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <string>
#include <vector>

#include "spec/rules/invariants.hpp"
#include "proofs/explorer/explorer.hpp"
#include "proofs/explorer/spec_system.hpp"
#include "spec/rules/step.hpp"
#include "spec/vocabulary/capacity.hpp"
#include "spec/vocabulary/config_text.hpp"
#include "spec/vocabulary/presets.hpp"
#include "failover_loop.hpp"  // tests/common/
#include "two_brokers.hpp"  // tests/common/

namespace kcspec::explorer {
namespace {

using kcspec::test::twoBrokers;

// One crash and one controller failover on two brokers: 35k states, finite.
Config crashAndFailover() { return twoBrokers(Bounds{.crashes = 1, .controller_failovers = 1}); }
// Deletion with a StopReplica error: Kafka's L6 deviation (deletion waits for a restart forever).
Config deletionWithErrors() { return twoBrokers(Bounds{.topic_deletions = 1, .stop_replica_errors = 1}); }

// SpecSystem's interface through the basic calls only (none of its fast paths): the test
// systems below derive from it and hide the calls they change.
class ForwardingSpecSystem {
 public:
  using State = SpecSystem::State;
  using Action = SpecSystem::Action;
  using Observation = SpecSystem::Observation;

  explicit ForwardingSpecSystem(Config config) : inner_(std::move(config)) {}

  std::vector<State> initialStates() const { return inner_.initialStates(); }
  void actions(const State& s, std::vector<Action>& out) const { inner_.actions(s, out); }
  State next(const State& s, const Action& a, PropertyMask& violated) const { return inner_.next(s, a, violated); }
  Fingerprint fingerprint(const State& s) const { return inner_.fingerprint(s); }
  void encode(const State& s, std::string& out) const { inner_.encode(s, out); }
  State decode(std::string_view bytes) const { return inner_.decode(bytes); }
  const Observation& observe(const State& s) const { return inner_.observe(s); }
  std::span<const PropertyInfo> properties() const { return inner_.properties(); }
  PropertyMask violatedStateProperties(const State& s) const { return inner_.violatedStateProperties(s); }
  PropertyMask goalsReached(const State& s) const { return inner_.goalsReached(s); }
  bool isRecovery(const Action& a) const { return inner_.isRecovery(a); }
  const Config& config() const { return inner_.config(); }

 protected:
  SpecSystem inner_;
};

// A test-only system: SpecSystem plus one state property "X1" that fails once a second
// controller epoch has been written (/controller_epoch >= 2).
class BrokenSystem : public ForwardingSpecSystem {
 public:
  explicit BrokenSystem(Config config) : ForwardingSpecSystem(std::move(config)) {
    properties_.assign(inner_.properties().begin(), inner_.properties().end());
    properties_.push_back(PropertyInfo{"X1", "NoSecondControllerEpoch", PropertyKind::StateSafety});
  }
  static bool broken(const State& state) { return state.world.zk.controller_epoch >= 2; }

  std::string_view name() const { return "broken-spec"; }
  std::span<const PropertyInfo> properties() const { return properties_; }
  PropertyMask violatedStateProperties(const State& s) const {
    return inner_.violatedStateProperties(s) | (broken(s) ? propertyBit(properties_.size() - 1) : 0);
  }

 private:
  std::vector<PropertyInfo> properties_;
};
static_assert(System<BrokenSystem>);

template <class S>
ExploreResult<S> run(const S& system, unsigned threads, ExploreOptions options = {}) {
  options.threads = threads;
  options.is_known_deviation = spec::isKnownKafkaDeviation;
  return explore(system, options);
}

template <class S>
const Violation<S>* find(const ExploreResult<S>& result, std::string_view property) {
  for (const auto& v : result.violations) {
    if (v.property == property) return &v;
  }
  return nullptr;
}

// The same exploration: counts, depth, and each violation's property, occurrences, shortest path
// and recovery walk.
template <class S>
void expectSameExploration(const ExploreResult<S>& one, const ExploreResult<S>& many) {
  EXPECT_EQ(one.states, many.states);
  EXPECT_EQ(one.transitions, many.transitions);
  EXPECT_EQ(one.max_depth, many.max_depth);
  ASSERT_EQ(one.violations.size(), many.violations.size());
  for (std::size_t i = 0; i < one.violations.size(); ++i) {
    EXPECT_EQ(one.violations[i].property, many.violations[i].property);
    EXPECT_EQ(one.violations[i].occurrences, many.violations[i].occurrences);
    EXPECT_EQ(one.violations[i].path, many.violations[i].path);
    EXPECT_EQ(one.violations[i].recovery, many.violations[i].recovery);
  }
}

// The shortest way to a second controller epoch takes 3 steps (one election per epoch, and
// the first controller must go first). BFS order picks the first in action order: level 1 is
// [crash 1, elect 1, crash 2, elect 2]; from `crash 1` no 2-step path elects twice; from
// `elect 1` the first successor is `crash 1` (it removes /controller), whose successors are
// [start 1, elect-controller 2].
TEST(ExplorerSearch, BrokenPropertyGivesTheShortestCounterexample) {
  const BrokenSystem system(crashAndFailover());
  const auto result = run(system, 2);
  EXPECT_EQ(result.stop, StopReason::Violation);
  EXPECT_FALSE(result.holds());
  const auto* v = find(result, "X1");
  ASSERT_NE(v, nullptr);
  EXPECT_FALSE(v->known_deviation);
  const Config& config = system.config();
  const std::vector<Action> expected = {Action{.kind = ActionKind::ElectController, .broker = 1},
                                        Action{.kind = ActionKind::CrashBroker, .broker = 1},
                                        Action{.kind = ActionKind::ElectController, .broker = 2}};
  EXPECT_EQ(v->path, expected);
  // It replays to a violating state, and no shorter history violates the property.
  spec::ClusterState state = spec::initialState(config);
  for (const Action& action : v->path) {
    EXPECT_FALSE(BrokenSystem::broken(state));
    ASSERT_TRUE(spec::isEnabled(config, state, action));
    state = spec::next(config, state, action);
  }
  EXPECT_TRUE(BrokenSystem::broken(state));
  ASSERT_TRUE(v->last.has_value());
  EXPECT_EQ(*v->last, state.world);
  std::vector<spec::ClusterState> level{spec::initialState(config)};
  for (int depth = 0; depth < 3; ++depth) {
    std::vector<spec::ClusterState> next_level;
    for (const auto& s : level) {
      EXPECT_FALSE(BrokenSystem::broken(s)) << "a violation at depth " << depth;
      for (const Action& a : spec::enabledActions(config, s)) next_level.push_back(spec::next(config, s, a));
    }
    level = std::move(next_level);
  }
}

TEST(ExplorerSearch, SameResultForOneTwoAndFourThreads) {
  const BrokenSystem broken(crashAndFailover());
  const SpecSystem clean(crashAndFailover());
  const SpecSystem deviations(deletionWithErrors());
  ExploreOptions keep_going;
  keep_going.stop_at_violation = false;

  const auto broken1 = run(broken, 1, keep_going);
  const auto clean1 = run(clean, 1);
  const auto deviations1 = run(deviations, 1);
  EXPECT_TRUE(clean1.complete());
  EXPECT_GT(clean1.states, 10000u);
  for (unsigned threads : {2u, 4u}) {
    SCOPED_TRACE(threads);
    const auto broken_n = run(broken, threads, keep_going);
    const auto clean_n = run(clean, threads);
    const auto deviations_n = run(deviations, threads);
    for (const auto& [one, many] : {std::pair{&clean1, &clean_n}, std::pair{&deviations1, &deviations_n}}) {
      expectSameExploration(*one, *many);
      EXPECT_EQ(one->stop, many->stop);
    }
    expectSameExploration(broken1, broken_n);
    EXPECT_EQ(broken1.stop, broken_n.stop);
  }
  // With --keep-going the broken run explores everything: the same space as the clean one.
  EXPECT_EQ(broken1.states, clean1.states);
  EXPECT_TRUE(broken1.complete());
}

// Batches of 16 states: every level has many, so each merge overlaps the next batch's
// expansion, and the visited set (1,024 slots at first) grows during such merges many times —
// the merge then finishes the expansion itself before the table moves. The results are those of
// one thread with the default batches; so is where a memory cap stops the run.
TEST(ExplorerSearch, SmallBatchesMergedWhileTheNextExpandsGiveTheSameResult) {
  const SpecSystem deviations(deletionWithErrors());
  const SpecSystem clean(crashAndFailover());
  const auto deviations1 = run(deviations, 1);
  const auto clean1 = run(clean, 1);
  ExploreOptions small;
  small.batch_states = 16;
  for (unsigned threads : {1u, 2u, 4u}) {
    SCOPED_TRACE(threads);
    for (const auto& [one, system] : {std::pair{&deviations1, &deviations}, std::pair{&clean1, &clean}}) {
      const auto many = run(*system, threads, small);
      EXPECT_TRUE(many.complete());
      expectSameExploration(*one, many);
    }
  }
  EXPECT_GT(clean1.states, 10000u);  // about 600 batches of 16
  ExploreOptions capped = small;
  capped.max_memory_bytes = 256 * 1024;
  const auto capped1 = run(clean, 1, capped);
  const auto capped2 = run(clean, 2, capped);
  EXPECT_EQ(capped1.stop, StopReason::MemoryLimit);
  EXPECT_EQ(capped2.stop, StopReason::MemoryLimit);
  EXPECT_EQ(capped1.states, capped2.states);
  EXPECT_LE(capped2.memory_bytes, capped.max_memory_bytes);
}

// L6 is a known Kafka deviation: reported with a counterexample and a stuck recovery walk, but
// the run holds and completes.
TEST(ExplorerSearch, KnownDeviationIsReportedNotFailed) {
  const auto result = run(SpecSystem(deletionWithErrors()), 2);
  EXPECT_TRUE(result.complete());
  EXPECT_TRUE(result.holds());
  const auto* l6 = find(result, "L6");
  ASSERT_NE(l6, nullptr);
  EXPECT_TRUE(l6->known_deviation);
  EXPECT_EQ(l6->kind, PropertyKind::Liveness);
  EXPECT_GT(l6->occurrences, 0u);
  // The path ends where recovery cannot finish the deletion: an errored StopReplica response is in it.
  bool errored = false;
  for (const Action& a : l6->path) errored |= a.kind == ActionKind::DeliverStopReplicaResponse && a.error;
  EXPECT_TRUE(errored);
  for (const Action& a : l6->recovery) EXPECT_TRUE(isRecoveryAction(a));
  // Without the deviation list the same run fails.
  ExploreOptions strict;
  strict.threads = 2;
  EXPECT_FALSE(explore(SpecSystem(deletionWithErrors()), strict).holds());
}

TEST(ExplorerSearch, MemoryCapStopsWithAPartialReport) {
  const SpecSystem system(crashAndFailover());
  ExploreOptions options;
  options.max_memory_bytes = 256 * 1024;
  const auto capped = run(system, 2, options);
  EXPECT_EQ(capped.stop, StopReason::MemoryLimit);
  EXPECT_FALSE(capped.complete());
  EXPECT_FALSE(capped.liveness_checked);
  EXPECT_GT(capped.states, 0u);
  EXPECT_LE(capped.memory_bytes, options.max_memory_bytes);
  const auto full = run(system, 2);
  EXPECT_LT(capped.states, full.states);
  // The cap is deterministic too.
  const auto capped1 = run(system, 1, options);
  EXPECT_EQ(capped1.states, capped.states);
  EXPECT_EQ(capped1.transitions, capped.transitions);
}

// The reported memory is the run's peak, and the liveness pass allocates nothing beyond what
// the exploration counted: a cap of the peak lets the run complete with liveness checked; one
// byte less stops it before the end (with a partial report, liveness unchecked).
TEST(ExplorerSearch, MemoryCapOfThePeakLetsTheRunComplete) {
  for (const Config& config : {deletionWithErrors(), crashAndFailover()}) {
    SCOPED_TRACE(config.name);
    const SpecSystem system(config);
    const auto full = run(system, 2);
    ASSERT_TRUE(full.complete());
    ASSERT_TRUE(full.liveness_checked);
    EXPECT_GE(full.liveness_sweeps, 1);
    EXPECT_GT(full.recovery_edges, 0u);
    // The visited set, 4 bytes an edge, 8 bytes a state for its goal bits and its edges' count.
    EXPECT_GT(full.memory_bytes, full.visited_bytes + 4 * full.recovery_edges + 8 * full.states);
    ExploreOptions exact;
    exact.max_memory_bytes = full.memory_bytes;
    const auto fits = run(system, 2, exact);
    EXPECT_TRUE(fits.complete());
    EXPECT_TRUE(fits.liveness_checked);
    EXPECT_EQ(fits.memory_bytes, full.memory_bytes);
    EXPECT_EQ(fits.violations.size(), full.violations.size());
    ExploreOptions short_by_one = exact;
    short_by_one.max_memory_bytes = full.memory_bytes - 1;
    const auto capped = run(system, 2, short_by_one);
    EXPECT_EQ(capped.stop, StopReason::MemoryLimit);
    EXPECT_FALSE(capped.complete());
    EXPECT_FALSE(capped.liveness_checked);
    EXPECT_EQ(capped.liveness_sweeps, 0);
    EXPECT_LE(capped.states, full.states);  // the peak may be the last edge recorded: every state seen
    EXPECT_LE(capped.memory_bytes, short_by_one.max_memory_bytes);
  }
}

// Spilling (--spill-dir) changes where the frontier's blocks and the recovery edges are, not
// what is found: the same counts, violations, shortest paths and recovery walks (L6 on the
// deletion configuration), liveness checked with the same sweeps, in less memory.
TEST(ExplorerSearch, SpillingGivesTheSameExplorationInLessMemory) {
  // A directory of this process's own: two test runs at once (a build and a sanitized build, two
  // checkouts) must not see each other's files.
  const std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) / ("kcspec-explorer-spill-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  for (const Config& config : {deletionWithErrors(), crashAndFailover()}) {
    SCOPED_TRACE(config.name);
    const SpecSystem system(config);
    const auto kept = run(system, 2);
    ExploreOptions spilling;
    spilling.spill_directory = dir.string();
    const auto spilled = run(system, 2, spilling);
    ASSERT_TRUE(spilled.complete());
    expectSameExploration(kept, spilled);
    EXPECT_TRUE(spilled.liveness_checked);
    EXPECT_EQ(spilled.liveness_sweeps, kept.liveness_sweeps);
    EXPECT_EQ(spilled.recovery_edges, kept.recovery_edges);
    EXPECT_EQ(kept.spilled_bytes, 0u);
    // 35k states, whose recovery edges fill several chunks; the deletion's few hundred states
    // need less than the two chunks a spilling run holds.
    if (config.bounds.crashes > 0) {
      EXPECT_GT(spilled.spilled_bytes, 0u);
      EXPECT_LT(spilled.memory_bytes, kept.memory_bytes);
    }
  }
  ExploreOptions one_thread;
  one_thread.spill_directory = dir.string();
  const auto deletion = run(SpecSystem(deletionWithErrors()), 1, one_thread);
  EXPECT_NE(find(deletion, "L6"), nullptr);
  EXPECT_TRUE(std::filesystem::is_empty(dir));  // unnamed files, gone with the run
  std::filesystem::remove(dir);
}

// The sizing hint: a table allocated up front for the expected states gives the same
// exploration without ever growing (its bytes are the up-front table's); a hint the cap cannot
// afford is ignored (the run grows its table as usual and completes).
TEST(ExplorerSearch, ExpectedStatesPresizesTheTableWithoutChangingTheResult) {
  const SpecSystem system(crashAndFailover());  // 35k states: past the initial 1,024 slots
  const auto plain = run(system, 2);
  ASSERT_TRUE(plain.complete());
  ExploreOptions hinted;
  hinted.expected_states = plain.states;
  const auto presized = run(system, 2, hinted);
  expectSameExploration(plain, presized);
  EXPECT_TRUE(presized.liveness_checked);
  const std::uint64_t slots = 8 * (plain.states + 1) / 7 + 2;  // never 7/8 full
  EXPECT_EQ(presized.visited_bytes, slots * 12);
  EXPECT_NE(presized.visited_bytes, plain.visited_bytes);
  ExploreOptions too_big = hinted;
  too_big.expected_states = 100 * plain.states;
  too_big.max_memory_bytes = plain.memory_bytes;
  const auto ignored = run(system, 2, too_big);
  EXPECT_TRUE(ignored.complete());
  EXPECT_EQ(ignored.visited_bytes, plain.visited_bytes);
}

// A preset's published state count is its exhaustive exploration's (crash-isr: 1.3 million
// states, the smallest that is published; the larger ones are measured in docs/performance.md).
TEST(ExplorerSearch, PresetStateCountIsTheExploredCount) {
  const std::optional<std::uint64_t> count = presetStateCount("crash-isr");
  ASSERT_TRUE(count.has_value());
  ExploreOptions options;
  options.expected_states = *count;
  options.check_liveness = false;
  const auto result = run(SpecSystem(*preset("crash-isr")), 2, options);
  ASSERT_TRUE(result.complete());
  EXPECT_EQ(result.states, *count);
  EXPECT_EQ(result.visited_bytes, (8 * (*count + 1) / 7 + 2) * 12);  // no growth
  EXPECT_FALSE(presetStateCount("every-perturbation").has_value());
  EXPECT_FALSE(presetStateCount("no-such-preset").has_value());
}

TEST(ExplorerSearch, TimeLimitStopsWithAPartialReport) {
  // The default preset has millions of states: no machine explores them in a millisecond.
  ExploreOptions options;
  options.max_time = std::chrono::milliseconds(1);
  const auto limited = run(SpecSystem(*preset("default")), 2, options);
  EXPECT_EQ(limited.stop, StopReason::TimeLimit);
  EXPECT_FALSE(limited.complete());
  EXPECT_FALSE(limited.liveness_checked);
  EXPECT_GT(limited.states, 0u);
  EXPECT_TRUE(limited.holds());  // a partial report: what was explored holds
}

TEST(ExplorerSearch, DepthLimit) {
  const SpecSystem system(crashAndFailover());
  ExploreOptions options;
  options.max_depth = 3;
  const auto result = run(system, 2, options);
  EXPECT_EQ(result.stop, StopReason::DepthLimit);
  EXPECT_EQ(result.max_depth, 3);
  EXPECT_FALSE(result.liveness_checked);
  // A depth limit beyond the deepest state changes nothing.
  const auto full = run(system, 2);
  options.max_depth = full.max_depth;
  const auto exact = run(system, 2, options);
  EXPECT_TRUE(exact.complete());
  EXPECT_EQ(exact.states, full.states);
}

TEST(ExplorerSearch, CancelStopsAtOnce) {
  std::atomic<bool> cancel{true};
  ExploreOptions options;
  options.cancel = &cancel;
  const auto result = run(SpecSystem(crashAndFailover()), 2, options);
  EXPECT_EQ(result.stop, StopReason::Cancelled);
  EXPECT_EQ(result.states, 1u);  // the initial state only
}

// A test-only system: SpecSystem that sets *cancel while it checks the states of its
// `cancel_at`-th expansion — with one thread and cancel_at = the state count, as the last state
// is expanded, so that the exploration is already over when the flag is first looked at.
class CancellingSystem : public ForwardingSpecSystem {
 public:
  CancellingSystem(Config config, std::uint64_t cancel_at, std::atomic<bool>& cancel)
      : ForwardingSpecSystem(std::move(config)), cancel_at_(cancel_at), cancel_(cancel) {}

  std::string_view name() const { return "cancelling-spec"; }
  PropertyMask violatedStateProperties(const State& s) const {
    if (++expanded_ == cancel_at_) cancel_.store(true);
    return inner_.violatedStateProperties(s);
  }

 private:
  std::uint64_t cancel_at_;
  std::atomic<bool>& cancel_;
  mutable std::atomic<std::uint64_t> expanded_{0};
};
static_assert(System<CancellingSystem>);

// Cancelled during the liveness pass (Ctrl-C after the last state): every state explored, the
// pass stops within its first sweep (it looks at the flag every 2^20 states and at a sweep's
// end), liveness unchecked, and the report says cancelled. Cancelled one expansion earlier, the
// exploration itself stops instead.
TEST(ExplorerSearch, CancelDuringTheLivenessPassLeavesLivenessUnchecked) {
  const Config config = deletionWithErrors();  // L6 fails: a pass that ran would report it
  const auto full = run(SpecSystem(config), 1);
  ASSERT_TRUE(full.liveness_checked);
  ASSERT_GE(full.liveness_sweeps, 2);
  ASSERT_NE(find(full, "L6"), nullptr);

  std::atomic<bool> cancel{false};
  ExploreOptions options;
  options.cancel = &cancel;
  const auto in_pass = run(CancellingSystem(config, full.states, cancel), 1, options);
  EXPECT_EQ(in_pass.stop, StopReason::Cancelled);
  EXPECT_EQ(in_pass.states, full.states);
  EXPECT_EQ(in_pass.transitions, full.transitions);
  EXPECT_FALSE(in_pass.liveness_checked);
  EXPECT_EQ(in_pass.liveness_sweeps, 1);
  EXPECT_EQ(find(in_pass, "L6"), nullptr);

  cancel.store(false);
  const auto before_pass = run(CancellingSystem(config, full.states - 1, cancel), 1, options);
  EXPECT_EQ(before_pass.stop, StopReason::Cancelled);
  EXPECT_FALSE(before_pass.liveness_checked);
  EXPECT_EQ(before_pass.liveness_sweeps, 0);
}

TEST(ExplorerSearch, ProgressIsReported) {
  std::atomic<int> calls{0};
  ExploreOptions options;
  options.progress_interval = std::chrono::milliseconds(1);
  options.on_progress = [&calls](const Progress& p) {
    EXPECT_GE(p.seconds, 0.0);
    EXPECT_LE(p.liveness_swept, p.states);
    if (p.liveness_sweep == 0) {
      EXPECT_EQ(p.liveness_swept, 0u);
    }
    ++calls;
  };
  run(SpecSystem(crashAndFailover()), 2, options);
  EXPECT_GT(calls.load(), 0);
}

// A table sized up front (expected_states) is not written when it is made (zeroed_table.hpp), so
// a run that is cancelled at once (Ctrl-C, --max-seconds) stops at once: 100 million expected
// states make tables of about 1.8 GB, of which such a run touches a few pages. Filling them up front,
// as before, made them all resident first (and took 4–14 s for `medium` and `large`, during which
// neither Ctrl-C nor --max-seconds could act). Run in a child process, so that its peak resident
// memory (ru_maxrss) is the run's alone.
TEST(ExplorerSearch, APresizedTableIsNotWrittenBeforeTheRunCanStop) {
  constexpr std::uint64_t kExpectedStates = 100'000'000;
  constexpr long kMostResidentKiB = 300 * 1024;
  ASSERT_GT(presizedTableBytes(kExpectedStates, true), std::uint64_t{1700} << 20);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0) << "fork failed";
  if (child == 0) {
    std::atomic<bool> cancel{true};
    ExploreOptions options;
    options.expected_states = kExpectedStates;
    options.cancel = &cancel;
    const auto result = run(SpecSystem(crashAndFailover()), 2, options);
    if (result.stop != StopReason::Cancelled) ::_exit(3);
    if (result.memory_bytes < presizedTableBytes(kExpectedStates, true)) ::_exit(4);  // counted whole, for the cap
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    ::_exit(usage.ru_maxrss < kMostResidentKiB ? 0 : 5);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "the child ended by signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  EXPECT_NE(WEXITSTATUS(status), 3) << "the run did not stop as cancelled";
  EXPECT_NE(WEXITSTATUS(status), 4) << "the presized tables were not counted";
  EXPECT_NE(WEXITSTATUS(status), 5) << "more than " << kMostResidentKiB << " KiB resident: the tables were written";
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
}  // namespace kcspec::explorer

namespace kcspec::explorer {
namespace {

// The failover loop of a pending preferred election (docs/spec/rules.md, "Histories that outgrow
// the model") on one broker: every failover sends broker 1 another StopReplica for the deleted t-0
// until its responses fill their queue. The search stops there (StopReason::Capacity) instead of
// stopping the program, and names the history: every step but its last replays, and the last
// throws CapacityExceeded — the same history for one thread and two.
Config failoverLoop() { return parseConfig(test::kFailoverLoopConfig, "failover-loop"); }

TEST(ExplorerSearch, AHistoryThatOutgrowsTheWorldStopsTheSearchWithItsPath) {
  const SpecSystem system(failoverLoop());
  for (const Reduction reduction : {Reduction::None, Reduction::Por}) {
    SCOPED_TRACE(reductionName(reduction));
    std::vector<Action> first_path;
    for (const unsigned threads : {1u, 2u}) {
      ExploreOptions options;
      options.reduction = reduction;
      const auto result = run(system, threads, options);
      EXPECT_EQ(result.stop, StopReason::Capacity);
      EXPECT_FALSE(result.complete());
      EXPECT_FALSE(result.liveness_checked);
      ASSERT_TRUE(result.capacity.has_value());
      EXPECT_NE(result.capacity->what.find("StopReplica responses"), std::string::npos) << result.capacity->what;
      const std::vector<Action>& path = result.capacity->path;
      ASSERT_GT(path.size(), 2u);
      spec::ClusterState state = system.initialStates().at(result.capacity->initial_state);
      for (std::size_t i = 0; i + 1 < path.size(); ++i) {
        ASSERT_TRUE(spec::isEnabled(system.config(), state, path[i])) << i;
        state = spec::next(system.config(), state, path[i]);
      }
      ASSERT_TRUE(spec::isEnabled(system.config(), state, path.back()));
      EXPECT_THROW((void)spec::next(system.config(), state, path.back()), CapacityExceeded);
      if (first_path.empty()) {
        first_path = path;
      } else {
        EXPECT_EQ(path, first_path);
      }
    }
  }
}

}  // namespace
}  // namespace kcspec::explorer
