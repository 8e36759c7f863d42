// Partial-order reduction (docs/proofs.md, "Partial-order reduction"), checked rather than argued only:
// - the independence relation (spec/vocabulary/independence.hpp), pair by pair, in every reachable
//   state of small configurations, against the spec and the reference implementation: two actions
//   it calls independent leave each other enabled and reach the same state (with the same step
//   violations) in either order; crash absorbs a delivery; a delivery it calls persistent stays
//   persistent after every other action and is invisible to the catalog's safety properties; no
//   state with a request queued reaches a liveness goal;
// - the reduced search reports exactly the violated properties of the full one, on small
//   configurations and with every mutant of the reference implementation, and each of its
//   counterexamples replays;
// - so does the search with symmetry reduction on top (`--reduction full`: SpecSystem with
//   Symmetry::Reduced, canonical_fingerprint.hpp) on small symmetric configurations, where it
//   keeps fewer states than partial-order reduction alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <set>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "impl/mutants.hpp"
#include "mutant_cases.hpp"
#include "proofs/explorer/both_system.hpp"
#include "proofs/explorer/explorer.hpp"
#include "proofs/explorer/grid_system.hpp"
#include "proofs/explorer/impl_system.hpp"
#include "proofs/explorer/spec_system.hpp"
#include "spec/rules/invariants.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/config_text.hpp"
#include "spec/vocabulary/independence.hpp"
#include "spec/vocabulary/observation_text.hpp"
#include "spec/vocabulary/topic_ids.hpp"
#include "proofs/explorer/persistent_delivery.hpp"

namespace kcspec::explorer {
namespace {

using mutant_cases::kCases;
using mutant_cases::MutantCase;

Config configNamed(std::string_view text) { return parseConfig(text, "reduction_test"); }

template <class S>
bool enables(const S& system, const typename S::State& state, const Action& action) {
  std::vector<Action> actions;
  system.actions(state, actions);
  return std::find(actions.begin(), actions.end(), action) != actions.end();
}

// The perturbations a state has left, which the persistence scope reads.
const Bounds& budgetIn(const SpecSystem::State& state) { return state.budget; }
const Bounds& budgetIn(const ImplSystem::State& state) { return state.view.budget; }

// Whether two states differ only by a renaming of topic ids (topic_ids.hpp): a delivery that drops
// the last holder of an id and a create-topic that draws the least free one commute up to that.
bool sameUpToTopicIds(const SpecSystem&, const SpecSystem::State& one, const SpecSystem::State& two) {
  return one.budget == two.budget && withTopicIdsRenumbered(one.world) == withTopicIdsRenumbered(two.world);
}

// The implementation's ZooKeeper beyond what it observes (the explorer's fingerprint takes it in:
// impl_system.cpp), with each topic znode's "topic_id" blanked: the ids themselves are compared,
// up to the renaming, in the observation (zk.topics[t].topic_id), and no other znode holds one.
std::string zooKeeperWithoutTopicIds(const impl::ImplCluster& cluster) {
  std::string out;
  for (const auto& [path, node] : cluster.zookeeper().nodes()) {
    std::string data = node.data;
    const std::string key = "\"topic_id\":\"";
    if (const std::size_t at = data.find(key); at != std::string::npos) {
      const std::size_t end = data.find('"', at + key.size());
      if (end != std::string::npos) data.erase(at + key.size(), end - (at + key.size()));
    }
    out += path + '\n' + data + '\n' + std::to_string(node.stat.version) + ' ' + std::to_string(node.stat.czxid) + ' ' +
           std::to_string(node.stat.ephemeral_owner) + '\n';
  }
  return out + std::to_string(cluster.zookeeper().lastZxid());
}

bool sameUpToTopicIds(const ImplSystem&, const ImplSystem::State& one, const ImplSystem::State& two) {
  return one.view.budget == two.view.budget &&
         withTopicIdsRenumbered(one.view.world) == withTopicIdsRenumbered(two.view.world) &&
         zooKeeperWithoutTopicIds(one.cluster) == zooKeeperWithoutTopicIds(two.cluster);
}

struct RelationCounts {
  std::uint64_t states = 0;
  std::uint64_t independent_pairs = 0;  // checked to commute
  std::uint64_t renamed_pairs = 0;      // of those, commuting up to a renaming of topic ids
  std::uint64_t dependent_pairs = 0;    // the relation makes no claim
  std::uint64_t absorbed_pairs = 0;     // crash after a delivery
  std::uint64_t persistent = 0;         // deliveries the relation calls persistent
  std::uint64_t persistent_found_alone = 0;  // states whose persistentActionIn names one
  RelationCounts& operator+=(const RelationCounts& other) {
    states += other.states;
    independent_pairs += other.independent_pairs;
    renamed_pairs += other.renamed_pairs;
    dependent_pairs += other.dependent_pairs;
    absorbed_pairs += other.absorbed_pairs;
    persistent += other.persistent;
    persistent_found_alone += other.persistent_found_alone;
    return *this;
  }
};

// Calls visit(state, actions, successors) on every reachable state of `system`, breadth first,
// each once: its enabled actions and, position by position, the state each leads to.
template <class S, class Visit>
void forEachReachableState(const S& system, Visit visit) {
  std::unordered_set<Fingerprint> seen;
  std::deque<std::string> queue;
  for (const auto& initial : system.initialStates()) {
    if (seen.insert(system.fingerprint(initial)).second) {
      queue.emplace_back();
      system.encode(initial, queue.back());
    }
  }
  std::vector<Action> actions;
  std::vector<typename S::State> successors;
  while (!queue.empty()) {
    const typename S::State state = system.decode(queue.front());
    queue.pop_front();
    actions.clear();
    system.actions(state, actions);
    successors.clear();
    for (const Action& action : actions) {
      PropertyMask ignored = 0;
      successors.push_back(system.next(state, action, ignored));
      if (seen.insert(system.fingerprint(successors.back())).second) {
        queue.emplace_back();
        system.encode(successors.back(), queue.back());
      }
    }
    visit(state, std::as_const(actions), std::as_const(successors));
  }
}

// Every reachable state of `system`, each checked once.
template <class S>
RelationCounts checkRelation(const S& system) {
  RelationCounts counts;
  forEachReachableState(system, [&](const typename S::State& state, const std::vector<Action>& actions,
                                    const std::vector<typename S::State>&) {
    ++counts.states;
    const Observation& world = system.observe(state);
    // A chain asks for the persistent action without the enabled ones: the same choice.
    if constexpr (FindsPersistentAction<S>) {
      const std::optional<std::size_t> among = system.persistentAction(state, std::span<const Action>(actions));
      const std::optional<Action> alone = system.persistentActionIn(state);
      EXPECT_EQ(alone.has_value(), among.has_value()) << "at a state " << counts.states;
      if (alone && among) {
        EXPECT_EQ(*alone, actions[*among]) << "at a state " << counts.states;
      }
      counts.persistent_found_alone += alone ? 1 : 0;
    }
    for (const Action& delivery : actions) {
      if (delivery.kind != ActionKind::DeliverRequest) continue;
      const BrokerId b = delivery.broker;
      PropertyMask delivery_violations = 0;
      const auto delivered = system.next(state, delivery, delivery_violations);
      // Each delivery lowers the measure that spares the catalog's systems the cycle proviso.
      EXPECT_EQ(queuedRequests(system.observe(delivered)) + 1, queuedRequests(world));
      const bool persistent = deliveryIsPersistent(world, b, persistenceScope(budgetIn(state)));
      counts.persistent += persistent ? 1 : 0;
      const std::string where = printAction(system.config(), delivery) + " at a state " + std::to_string(counts.states);
      for (const Action& other : actions) {
        if (other == delivery) continue;
        SCOPED_TRACE(where + " with " + printAction(system.config(), other));
        PropertyMask other_violations = 0;
        const auto other_first = system.next(state, other, other_violations);
        if (absorbsDelivery(b, other)) {
          ++counts.absorbed_pairs;
          EXPECT_TRUE(enables(system, delivered, other));
          if (!enables(system, delivered, other)) continue;
          PropertyMask after = 0;
          EXPECT_EQ(system.fingerprint(system.next(delivered, other, after)), system.fingerprint(other_first));
          EXPECT_EQ(after, other_violations);
          continue;
        }
        if (!independentOfDelivery(world, b, other)) {
          ++counts.dependent_pairs;
          EXPECT_FALSE(persistent) << "a persistent delivery has an enabled dependent action";
          continue;
        }
        ++counts.independent_pairs;
        const bool both_enabled = enables(system, delivered, other) && enables(system, other_first, delivery);
        EXPECT_TRUE(both_enabled) << "one disables the other";
        if (!both_enabled) continue;
        PropertyMask other_second = 0, delivery_second = 0;
        const auto one = system.next(delivered, other, other_second);
        const auto two = system.next(other_first, delivery, delivery_second);
        const bool same = system.fingerprint(one) == system.fingerprint(two);
        const bool renamed = !same && sameUpToTopicIds(system, one, two);
        counts.renamed_pairs += renamed ? 1 : 0;
        EXPECT_TRUE(same || renamed) << "the two orders reach different states; delivery first -> other first:\n"
                                     << renderChangesText(diffObservations(system.config(), system.observe(one),
                                                                           system.observe(two)));
        EXPECT_EQ(other_second, other_violations);
        EXPECT_EQ(delivery_second, delivery_violations);
        // Persistence is inductive: after any other action the delivery is persistent again.
        if (persistent) {
          EXPECT_TRUE(deliveryIsPersistent(system.observe(other_first), b,
                                           persistenceScope(budgetIn(other_first))))
              << "the other action changes:\n"
              << renderChangesText(diffObservations(system.config(), world, system.observe(other_first)));
        }
      }
      // A state with a request queued reaches no goal, so a recovery path to a goal takes every
      // queued delivery (persistent_delivery.hpp).
      EXPECT_EQ(system.goalsReached(state), 0u) << where;
      if (!persistent) continue;
      // Invisible: no property's value changes, no step property breaks; a recovery action.
      EXPECT_EQ(delivery_violations, 0u) << where;
      EXPECT_EQ(system.violatedStateProperties(delivered), system.violatedStateProperties(state)) << where;
      EXPECT_TRUE(system.isRecovery(delivery));
    }
  });
  return counts;
}

// Only the persistence claims, in every reachable state of `system`: after any other enabled
// action (crash of the broker aside) a persistent delivery is persistent again, and that action is
// independent of it. Cheaper than checkRelation (no pair is taken in both orders), for a
// configuration too large for it. Returns the number of persistent deliveries checked.
template <class S>
std::uint64_t checkPersistenceIsInductive(const S& system) {
  std::uint64_t persistent_checked = 0;
  forEachReachableState(system, [&](const typename S::State& state, const std::vector<Action>& actions,
                                    const std::vector<typename S::State>& successors) {
    const Observation& world = system.observe(state);
    for (const Action& delivery : actions) {
      if (delivery.kind != ActionKind::DeliverRequest) continue;
      const BrokerId b = delivery.broker;
      if (!deliveryIsPersistent(world, b, persistenceScope(budgetIn(state)))) continue;
      ++persistent_checked;
      for (std::size_t k = 0; k < actions.size(); ++k) {
        const Action& other = actions[k];
        if (other == delivery || absorbsDelivery(b, other)) continue;
        SCOPED_TRACE(printAction(system.config(), delivery) + " with " + printAction(system.config(), other));
        EXPECT_TRUE(independentOfDelivery(world, b, other));
        EXPECT_TRUE(deliveryIsPersistent(system.observe(successors[k]), b,
                                         persistenceScope(budgetIn(successors[k]))))
            << "the other action changes:\n"
            << renderChangesText(diffObservations(system.config(), world, system.observe(successors[k])));
      }
    }
  });
  return persistent_checked;
}

// Every kind of claim was checked somewhere (the configurations together).
void expectExercised(const RelationCounts& counts) {
  EXPECT_GT(counts.independent_pairs, 0u);
  EXPECT_GT(counts.dependent_pairs, 0u);
  EXPECT_GT(counts.persistent, 0u);
  EXPECT_GT(counts.absorbed_pairs, 0u);
}

TEST(IndependenceRelation, HoldsForTheSpecInEveryState) {
  RelationCounts total;
  for (std::string_view text : {mutant_cases::kCrash, mutant_cases::kShrinkCrash, mutant_cases::kShutdownDelete,
                                mutant_cases::kPreferredDelete, mutant_cases::kNoDeleteFailover,
                                mutant_cases::kLogDirFailure, mutant_cases::kZkConnectionLoss,
                                mutant_cases::kBrokerSessionLoss, mutant_cases::kOldProtocol,
                                mutant_cases::kRollingUpgrade, mutant_cases::kZkSessionExpiry,
                                mutant_cases::kRecreate, mutant_cases::kShutdownFailover, mutant_cases::kReassign}) {
    const Config config = configNamed(text);
    SCOPED_TRACE(config.name);
    total += checkRelation(SpecSystem(config));
  }
  expectExercised(total);
  EXPECT_GT(total.persistent_found_alone, 0u);
  EXPECT_GT(total.renamed_pairs, 0u);  // kRecreate: create-topic against deliveries
}

// Three brokers, t-0 on two of them, a crash and a controller failover: a controller whose
// context is behind ZooKeeper (the one that lost its session, before it notices) sends its
// leadership to the restarted leader, which then leads at a follower's old epoch — what
// deliveryIsPersistent's clause on the contexts rules out (1.3 million states: the persistence
// claims only).
TEST(IndependenceRelation, PersistenceIsInductiveWithAStaleControllerContext) {
  const Config config = configNamed(R"(name failover-three-brokers
brokers 1 2 3
alive-at-start 1 2 3
topic t
  partition 0 replicas 1,2
  exists-at-start true
bound crashes 1
bound controller-failovers 1
)");
  EXPECT_GT(checkPersistenceIsInductive(SpecSystem(config)), 0u);
}

TEST(IndependenceRelation, HoldsForTheReferenceImplementationInEveryState) {
  RelationCounts total;
  for (std::string_view text : {mutant_cases::kCrash, mutant_cases::kShrinkCrash, mutant_cases::kShutdown,
                                mutant_cases::kLogDirFailure, mutant_cases::kZkConnectionLoss,
                                mutant_cases::kBrokerSessionLoss, mutant_cases::kOldProtocol,
                                mutant_cases::kRollingUpgrade, mutant_cases::kZkSessionExpiry,
                                mutant_cases::kShutdownFailover, mutant_cases::kRecreate}) {
    const Config config = configNamed(text);
    SCOPED_TRACE(config.name);
    total += checkRelation(ImplSystem(config));
  }
  expectExercised(total);
  EXPECT_GT(total.persistent_found_alone, 0u);  // persistentActionIn names what persistentAction picks
  EXPECT_GT(total.renamed_pairs, 0u);  // kRecreate: create-topic against deliveries
}

// Spec and impl in lockstep name the spec's persistent delivery while they agree, and none once
// they disagree (a disagreement is expanded in full): persistentActionIn, which a chain asks
// after each of its steps, names exactly what persistentAction picks among the enabled actions.
// M8 makes the two disagree on kCrash, so both kinds of state are met.
TEST(IndependenceRelation, SpecAndImplInLockstepNameThePersistentDeliveryAloneAsAmongTheEnabled) {
  for (const bool mutated : {false, true}) {
    const Config config = configNamed(mutant_cases::kCrash);
    const BothSystem system(config, mutated ? impl::Mutants::of({*impl::mutantNamed("M8")}) : impl::Mutants{});
    SCOPED_TRACE(mutated ? "with M8" : "without a mutant");
    std::uint64_t states = 0, named = 0, disagreeing = 0;
    forEachReachableState(system, [&](const BothSystem::State& state, const std::vector<Action>& actions,
                                      const std::vector<BothSystem::State>&) {
      ++states;
      const std::optional<std::size_t> among = system.persistentAction(state, std::span<const Action>(actions));
      const std::optional<Action> alone = system.persistentActionIn(state);
      ASSERT_EQ(alone.has_value(), among.has_value()) << "at a state " << states;
      if (alone) {
        EXPECT_EQ(*alone, actions[*among]) << "at a state " << states;
        ++named;
      }
      if (!state.agree()) {
        EXPECT_FALSE(alone.has_value()) << "a disagreeing state names a persistent delivery";
        ++disagreeing;
      }
    });
    EXPECT_GT(named, 0u);
    EXPECT_LT(named, states);
    if (mutated) {
      EXPECT_GT(disagreeing, 0u);
    } else {
      EXPECT_EQ(disagreeing, 0u);
    }
  }
}

// ---- the reduced search against the full one

template <class S>
ExploreResult<S> exploreWith(const S& system, Reduction reduction) {
  ExploreOptions options;
  options.threads = 2;
  options.reduction = reduction;
  options.stop_at_violation = false;  // every violated property, not the first level's
  options.is_known_deviation = spec::isKnownKafkaDeviation;
  return explore(system, options);
}

template <class S>
std::set<std::string> violated(const ExploreResult<S>& result) {
  std::set<std::string> ids;
  for (const auto& v : result.violations) ids.insert(v.property);
  return ids;
}

// Each counterexample replays: every action is enabled where it is taken, and a safety
// violation shows at its end.
template <class S>
void expectReplays(const S& system, const ExploreResult<S>& result) {
  for (const auto& v : result.violations) {
    SCOPED_TRACE(v.property);
    auto state = system.initialStates().at(v.initial_state);
    PropertyMask last_step = 0;
    for (const Action& action : v.path) {
      ASSERT_TRUE(enables(system, state, action));
      last_step = 0;
      state = system.next(state, action, last_step);
    }
    if (v.kind == PropertyKind::StepSafety) {
      EXPECT_NE(last_step & system.bitOf(v.property), 0u);
    }
    if (v.kind == PropertyKind::StateSafety) {
      EXPECT_NE(system.violatedStateProperties(state) & system.bitOf(v.property), 0u);
    }
    for (const Action& action : v.recovery) {
      ASSERT_TRUE(enables(system, state, action));
      state = system.next(state, action, last_step);
    }
  }
}

// Whether `path` replays (each action enabled where it is taken) and shows `v`'s safety violation
// at its end.
template <class S>
bool showsViolation(const S& system, const Violation<S>& v, const std::vector<Action>& path) {
  auto state = system.initialStates().at(v.initial_state);
  PropertyMask last_step = 0;
  for (const Action& action : path) {
    if (!enables(system, state, action)) return false;
    last_step = 0;
    state = system.next(state, action, last_step);
  }
  if (v.kind == PropertyKind::StepSafety) return !path.empty() && (last_step & system.bitOf(v.property)) != 0;
  return (system.violatedStateProperties(state) & system.bitOf(v.property)) != 0;
}

// A reduced search's safety counterexamples are shortened until no single action can be dropped:
// without any one of them the history no longer replays or no longer shows the violation.
template <class S>
std::uint64_t expectNoActionDroppable(const S& system, const ExploreResult<S>& result) {
  std::uint64_t checked = 0;
  for (const auto& v : result.violations) {
    if (v.kind == PropertyKind::Liveness) continue;
    SCOPED_TRACE(v.property);
    for (std::size_t i = 0; i < v.path.size(); ++i) {
      std::vector<Action> without = v.path;
      without.erase(without.begin() + static_cast<std::ptrdiff_t>(i));
      EXPECT_FALSE(showsViolation(system, v, without)) << "action " << i + 1 << " of " << v.path.size() << " can be dropped";
      ++checked;
    }
  }
  return checked;
}

// Returns how many single-action drops expectNoActionDroppable tried.
template <class S>
std::uint64_t expectSameVerdicts(const S& system) {
  const ExploreResult<S> full = exploreWith(system, Reduction::None);
  const ExploreResult<S> reduced = exploreWith(system, Reduction::Por);
  EXPECT_TRUE(full.complete());
  EXPECT_TRUE(reduced.complete());
  if (!full.complete() || !reduced.complete()) return 0;
  EXPECT_EQ(full.reduction, Reduction::None);
  EXPECT_EQ(reduced.reduction, Reduction::Por);
  EXPECT_TRUE(full.liveness_checked);
  EXPECT_TRUE(reduced.liveness_checked);
  EXPECT_EQ(violated(reduced), violated(full));
  EXPECT_LE(reduced.states, full.states);
  EXPECT_GT(reduced.chained_steps, 0u);  // deliveries taken alone, their states passed through
  expectReplays(system, reduced);
  return expectNoActionDroppable(system, reduced);
}

// The same on the spec and on the reference implementation.
void expectSameVerdictsOnBoth(std::string_view config_text) {
  const Config config = configNamed(config_text);
  expectSameVerdicts(SpecSystem(config));
  expectSameVerdicts(ImplSystem(config));
}

TEST(ReducedSearch, FindsWhatTheFullSearchFindsOnTheSpec) {
  std::uint64_t drops_tried = 0;
  for (const MutantCase& c : kCases) {
    const Config config = configNamed(c.config);
    SCOPED_TRACE(config.name);
    drops_tried += expectSameVerdicts(SpecSystem(config));
  }
  EXPECT_GT(drops_tried, 0u);  // some safety counterexample (T3, a known deviation) was checked
}

TEST(ReducedSearch, FindsWhatTheFullSearchFindsWithLogDirectoryFailures) {
  expectSameVerdictsOnBoth(mutant_cases::kLogDirFailure);
}

TEST(ReducedSearch, FindsWhatTheFullSearchFindsWithZooKeeperConnectionLosses) {
  expectSameVerdictsOnBoth(mutant_cases::kZkConnectionLoss);
}

// Deliveries to a broker are held back while a session can still be lost or the broker's is lost
// and not renewed (independence.hpp): until then, and after, they are taken alone.
TEST(ReducedSearch, FindsWhatTheFullSearchFindsWithBrokerSessionLosses) {
  expectSameVerdictsOnBoth(mutant_cases::kBrokerSessionLoss);
}

TEST(ReducedSearch, FindsWhatTheFullSearchFindsWithZooKeeperSessionExpiries) {
  expectSameVerdictsOnBoth(mutant_cases::kZkSessionExpiry);
}

TEST(ReducedSearch, FindsWhatTheFullSearchFindsOnAnOldProtocol) {
  expectSameVerdictsOnBoth(mutant_cases::kOldProtocol);
}

TEST(ReducedSearch, FindsWhatTheFullSearchFindsInARollingUpgrade) {
  expectSameVerdictsOnBoth(mutant_cases::kRollingUpgrade);
}

TEST(ReducedSearch, FindsEveryMutantTheFullSearchFinds) {
  std::uint64_t drops_tried = 0;
  for (const MutantCase& c : kCases) {
    const Config config = configNamed(c.config);
    const std::optional<impl::Mutant> mutant = impl::mutantNamed(c.mutant);
    ASSERT_TRUE(mutant.has_value());
    SCOPED_TRACE(std::string(c.mutant) + " on " + config.name);
    const ImplSystem system(config, impl::Mutants::of({*mutant}));
    drops_tried += expectSameVerdicts(system);
  }
  EXPECT_GT(drops_tried, 0u);
}

// The choice of a persistent delivery depends on the state alone: the reduced search, like the
// full one, gives the same counts and counterexamples on any number of threads.
TEST(ReducedSearch, IsTheSameOnOneThreadAndOnSeveral) {
  const SpecSystem system(configNamed(mutant_cases::kDeleteCrash));
  std::vector<ExploreResult<SpecSystem>> runs;
  for (unsigned threads : {1u, 2u, 4u}) {
    ExploreOptions options;
    options.threads = threads;
    options.batch_states = 64;  // many batches, so that merges overlap expansions
    options.reduction = Reduction::Por;
    options.stop_at_violation = false;
    options.is_known_deviation = spec::isKnownKafkaDeviation;
    runs.push_back(explore(system, options));
  }
  ASSERT_FALSE(runs.front().violations.empty());  // T3, a known deviation: there is a path to compare
  for (const auto& run : runs) {
    EXPECT_EQ(run.states, runs.front().states);
    EXPECT_EQ(run.transitions, runs.front().transitions);
    EXPECT_EQ(run.reduced_states, runs.front().reduced_states);
    EXPECT_EQ(run.chained_steps, runs.front().chained_steps);
    ASSERT_EQ(run.violations.size(), runs.front().violations.size());
    for (std::size_t i = 0; i < run.violations.size(); ++i) {
      EXPECT_EQ(run.violations[i].property, runs.front().violations[i].property);
      EXPECT_EQ(run.violations[i].path, runs.front().violations[i].path);
      EXPECT_EQ(run.violations[i].occurrences, runs.front().violations[i].occurrences);
    }
  }
}

// ---- symmetry reduction on top of partial-order reduction (`--reduction full`)

// Small configurations with brokers the configuration treats alike: spare brokers beside a topic's
// replicas, or no topic at all. Between them they reach a liveness deviation (L6) and a step
// deviation (T3), so that a counterexample of each kind is rebuilt through merged classes.
constexpr std::string_view kSymmetricCases[] = {
    "name spare-crash\nbrokers 1 2 3\nalive-at-start 1 2 3\ntopic t\n  partition 0 replicas 1\n"
    "  exists-at-start true\nbound crashes 1\n",
    "name spare-delete-errors\nbrokers 1 2 3\nalive-at-start 1 2 3\ndelete.topic.enable true\ntopic t\n"
    "  partition 0 replicas 1\n  exists-at-start true\nbound crashes 1\nbound topic-deletions 1\n"
    "bound stop-replica-errors 1\n",
    "name three-failover\nbrokers 1 2 3\nalive-at-start 1 2 3\nbound crashes 1\nbound controller-failovers 1\n",
    "name two-crashes-shutdown\nbrokers 1 2 3\nalive-at-start 1 2 3\nbound crashes 2\nbound controlled-shutdowns 1\n"
    "bound perturbations 2\n",
    "name pair-shrink\nbrokers 1 2 3 4\nalive-at-start 1 2 3 4\ntopic t\n  partition 0 replicas 1,2\n"
    "  exists-at-start true\nbound isr-shrinks 1\nbound crashes 1\nbound perturbations 1\n",
    "name delete-crash-spares\nbrokers 1 2 3 4\nalive-at-start 1 2 3 4\ntopic t\n  partition 0 replicas 1,2\n"
    "  exists-at-start true\nbound crashes 1\nbound topic-deletions 1\n",
};

TEST(SymmetryReducedSearch, FindsWhatTheFullSearchFindsWithFewerStatesThanPor) {
  std::set<std::string> reached;
  for (std::string_view text : kSymmetricCases) {
    const Config config = configNamed(text);
    SCOPED_TRACE(config.name);
    const SpecSystem plain(config);
    const SpecSystem symmetric(config, SpecSystem::Symmetry::Reduced);
    ASSERT_GT(symmetric.symmetryPermutations(), 0u);
    EXPECT_EQ(plain.symmetryPermutations(), 0u);
    const ExploreResult<SpecSystem> full = exploreWith(plain, Reduction::None);
    const ExploreResult<SpecSystem> por = exploreWith(plain, Reduction::Por);
    const ExploreResult<SpecSystem> reduced = exploreWith(symmetric, Reduction::Por);
    ASSERT_TRUE(full.complete());
    ASSERT_TRUE(reduced.complete());
    EXPECT_TRUE(reduced.liveness_checked);
    EXPECT_EQ(violated(reduced), violated(full));
    EXPECT_EQ(violated(por), violated(full));
    EXPECT_LT(reduced.states, por.states);  // the classes merged something
    expectReplays(symmetric, reduced);
    expectReplays(plain, reduced);  // the counterexamples are the spec's own histories
    for (const std::string& id : violated(full)) reached.insert(id);
  }
  EXPECT_TRUE(reached.contains("L6"));
  EXPECT_TRUE(reached.contains("T3"));
}

// The canonical fingerprint's buffers are per thread: counts and counterexamples stay the same on
// any number of threads.
TEST(SymmetryReducedSearch, IsTheSameOnOneThreadAndOnSeveral) {
  const SpecSystem system(configNamed(kSymmetricCases[1]), SpecSystem::Symmetry::Reduced);
  std::vector<ExploreResult<SpecSystem>> runs;
  for (unsigned threads : {1u, 2u, 4u}) {
    ExploreOptions options;
    options.threads = threads;
    options.batch_states = 64;
    options.reduction = Reduction::Por;
    options.stop_at_violation = false;
    options.is_known_deviation = spec::isKnownKafkaDeviation;
    runs.push_back(explore(system, options));
  }
  ASSERT_FALSE(runs.front().violations.empty());  // L6
  for (const auto& run : runs) {
    EXPECT_EQ(run.states, runs.front().states);
    EXPECT_EQ(run.transitions, runs.front().transitions);
    ASSERT_EQ(run.violations.size(), runs.front().violations.size());
    for (std::size_t i = 0; i < run.violations.size(); ++i) {
      EXPECT_EQ(run.violations[i].path, runs.front().violations[i].path);
      EXPECT_EQ(run.violations[i].recovery, runs.front().violations[i].recovery);
    }
  }
}

// ---- the cycle proviso

// A ring of three states and a flag: `advance` (action 0) turns the ring, `raise` (action 1) sets
// the flag, which breaks the one safety property. `advance` is persistent and invisible in every
// state (it commutes with `raise` and leaves the flag alone), but taken alone it goes round the ring
// forever and `raise` is never taken: the ignoring problem. The cycle proviso ends it where the
// ring closes. A system that claims a descent measure for its persistent actions has them taken in
// chains instead, without the proviso; the checker checks the measure falls at every step, and
// this ring's claim (the position) is refused there.
template <bool kClaimsDescent>
class RingSystem {
 public:
  struct State {
    std::uint8_t position = 0;
    bool raised = false;
  };
  using Action = int;
  using Observation = State;
  std::uint64_t descentMeasure(const State& state) const
    requires kClaimsDescent
  {
    return state.position;
  }

  std::string_view name() const { return "ring"; }
  std::vector<State> initialStates() const { return {State{}}; }
  void actions(const State& state, std::vector<Action>& out) const {
    out.push_back(0);
    if (!state.raised) out.push_back(1);
  }
  State next(const State& state, const Action& action, PropertyMask&) const {
    State successor = state;
    if (action == 0) successor.position = static_cast<std::uint8_t>((state.position + 1) % 3);
    if (action == 1) successor.raised = true;
    return successor;
  }
  Fingerprint fingerprint(const State& state) const {
    std::string bytes;
    encode(state, bytes);
    return hashEncoding(bytes);
  }
  void encode(const State& state, std::string& out) const {
    out.push_back(static_cast<char>(state.position));
    out.push_back(state.raised ? '\1' : '\0');
  }
  State decode(std::string_view bytes) const {
    return State{static_cast<std::uint8_t>(bytes.at(0)), bytes.at(1) != '\0'};
  }
  const Observation& observe(const State& state) const { return state; }
  std::span<const PropertyInfo> properties() const { return kProperties; }
  PropertyMask violatedStateProperties(const State& state) const { return state.raised ? propertyBit(0) : 0; }
  PropertyMask goalsReached(const State&) const { return 0; }
  bool isRecovery(const Action&) const { return false; }
  std::optional<std::size_t> persistentAction(const State&, std::span<const Action>) const { return 0; }

 private:
  static constexpr std::array<PropertyInfo, 1> kProperties{{{"F1", "FlagNeverRaised", PropertyKind::StateSafety}}};
};

template <bool kClaimsDescent>
ExploreResult<RingSystem<kClaimsDescent>> exploreRing() {
  static_assert(System<RingSystem<kClaimsDescent>> && HasPersistentActions<RingSystem<kClaimsDescent>>);
  ExploreOptions options;
  options.threads = 1;
  options.reduction = Reduction::Por;
  options.stop_at_violation = false;
  options.check_liveness = false;
  return explore(RingSystem<kClaimsDescent>{}, options);
}

TEST(CycleProviso, TakesTheActionsAPersistentCycleWouldIgnore) {
  static_assert(!PersistentActionsDescend<RingSystem<false>>);
  const auto result = exploreRing<false>();
  EXPECT_EQ(result.reduction, Reduction::Por);
  ASSERT_EQ(result.violations.size(), 1u);
  EXPECT_EQ(result.violations.front().property, "F1");
  EXPECT_EQ(result.reduced_states, 4u);  // two states of each ring (flag down, flag up); the third closes it
  EXPECT_EQ(result.states, 6u);
}

TEST(CycleProviso, GivesWayToChainsWhoseMeasureIsChecked) {
  static_assert(PersistentActionsDescend<RingSystem<true>>);
  static_assert(PersistentActionsDescend<SpecSystem> && PersistentActionsDescend<ImplSystem>);
  EXPECT_THROW(exploreRing<true>(), std::logic_error);  // 0 → 1: the position rises
}

// A countdown whose persistent action breaks a step property on its last step (from 1 to 0), as a
// delivery would under `--system both` if spec and impl disagreed on it: the chain stops before
// that step, which is then taken alone and the violation reported with its history.
class CountdownSystem {
 public:
  struct State {
    std::uint8_t left = 3;
    bool other = false;
  };
  using Action = int;  // 0: count down (persistent), 1: the other action
  using Observation = State;
  std::uint64_t descentMeasure(const State& state) const { return state.left; }
  std::string_view name() const { return "countdown"; }
  std::vector<State> initialStates() const { return {State{}}; }
  void actions(const State& state, std::vector<Action>& out) const {
    if (state.left > 0) out.push_back(0);
    if (!state.other) out.push_back(1);
  }
  State next(const State& state, const Action& action, PropertyMask& violated) const {
    State successor = state;
    if (action == 0) {
      successor.left = static_cast<std::uint8_t>(state.left - 1);
      if (successor.left == 0) violated |= propertyBit(0);
    }
    if (action == 1) successor.other = true;
    return successor;
  }
  Fingerprint fingerprint(const State& state) const {
    const std::string bytes{static_cast<char>(state.left), static_cast<char>(state.other)};
    return hashEncoding(bytes);
  }
  void encode(const State& state, std::string& out) const {
    out.push_back(static_cast<char>(state.left));
    out.push_back(static_cast<char>(state.other));
  }
  State decode(std::string_view bytes) const { return State{static_cast<std::uint8_t>(bytes.at(0)), bytes.at(1) != 0}; }
  const Observation& observe(const State& state) const { return state; }
  std::span<const PropertyInfo> properties() const { return kProperties; }
  PropertyMask violatedStateProperties(const State&) const { return 0; }
  PropertyMask goalsReached(const State&) const { return 0; }
  bool isRecovery(const Action&) const { return false; }
  std::optional<std::size_t> persistentAction(const State& state, std::span<const Action>) const {
    if (state.left > 0) return 0;
    return std::nullopt;
  }

 private:
  static constexpr std::array<PropertyInfo, 1> kProperties{{{"D1", "NeverReachesZero", PropertyKind::StepSafety}}};
};

TEST(Chains, EndBeforeAStepThatBreaksAStepProperty) {
  static_assert(PersistentActionsDescend<CountdownSystem>);
  ExploreOptions options;
  options.threads = 1;
  options.reduction = Reduction::Por;
  options.stop_at_violation = false;
  options.check_liveness = false;
  const auto result = explore(CountdownSystem{}, options);
  ASSERT_EQ(result.violations.size(), 1u);
  EXPECT_EQ(result.violations.front().property, "D1");
  EXPECT_EQ(result.violations.front().path, (std::vector<int>{0, 0, 0}));  // 3 → 2 → 1 in the chain, then 1 → 0
  EXPECT_GT(result.reduced_states, 0u);  // the state before the step, expanded through it alone
}

// A system without persistent actions is explored in full whatever is asked, and says so.
TEST(ReducedSearch, ASystemWithoutPersistentActionsIsExploredInFull) {
  static_assert(!HasPersistentActions<GridSystem>);
  const GridSystem grid(3, GridSystem::kCounters);
  ExploreOptions options;
  options.threads = 2;
  options.reduction = Reduction::Por;
  const ExploreResult<GridSystem> result = explore(grid, options);
  EXPECT_EQ(result.reduction, Reduction::None);
  EXPECT_EQ(result.reduced_states, 0u);
  EXPECT_EQ(result.states, grid.stateCount());
  EXPECT_EQ(result.transitions, grid.transitionCount());
}

}  // namespace
}  // namespace kcspec::explorer
