// Runs theorems of a catalog (proofs/theorems/catalog.hpp) and gives each a verdict. Theorems
// that share a scope, a method and a subject share one run: one exploration of the scope checks
// every property of the invariant catalog at once, and each theorem reads its property's result.
//
// Verdicts: a compile-time theorem is proven (kcspec built). An exhaustive theorem holds when the
// exploration completed and found no violation of its property; is violated (with the shortest
// counterexample) when it found one; is incomplete when the run stopped early (memory cap). A
// random-history theorem holds when no history violated it. A theorem that expects a known Kafka
// deviation is "Kafka deviation confirmed" with the shortest counterexample when the run reaches
// the violation, and "deviation not reproduced" when a complete run does not.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "proofs/theorems/catalog.hpp"

namespace kcspec::proofs {

enum class Outcome : std::uint8_t {
  Proven,                 // compile-time
  Holds,
  Violated,               // a counterexample, where the theorem expected the property to hold
  DeviationConfirmed,     // the expected Kafka deviation, with its counterexample
  DeviationNotReproduced, // a complete run of a KafkaDeviation theorem found no violation
  Incomplete,             // the run stopped before it could decide
};

std::string_view outcomeName(Outcome outcome);  // "proven", "holds", "violated", …
// Whether `kcspec prove` succeeds with this outcome (proven, holds, Kafka deviation confirmed).
bool outcomeIsSuccess(Outcome outcome);

struct TheoremCounterexample {
  std::vector<std::string> steps;     // numbered from 1 on the page, in action_text.hpp's syntax
  std::vector<std::string> recovery;  // liveness: recovery steps from the end that never reach the goal
  std::string scenario;               // a scenario file `kcspec replay` accepts (scenario_text.hpp)
  std::string detail;                 // what failed, when the check says more than the property (agreement)
  std::uint64_t occurrences = 0;      // how many `occurrence_unit` violate the property
  std::string occurrence_unit;        // "states", "transitions" (step safety) or "histories" (random)
};

// One run: an exploration, or a batch of random histories.
struct RunSummary {
  std::string scope;
  Method method = Method::Exhaustive;
  Subject subject = Subject::Spec;
  std::string impl_mutants;
  RandomBudget random;
  std::uint64_t states = 0;       // exhaustive: distinct states; random: steps taken
  std::uint64_t transitions = 0;  // exhaustive only
  int max_depth = 0;              // exhaustive only
  std::uint64_t histories = 0;    // random only
  // Random only: histories that ended where their next step outgrew the modeled world (a queue
  // full: docs/spec/rules.md, "Histories that outgrow the model"), checked up to there.
  std::uint64_t histories_at_capacity = 0;
  int max_perturbations = 0;      // the scope's: at most this many perturbations in one history
  double seconds = 0;
  bool complete = true;
  std::string stop;  // why an exhaustive run stopped ("complete", "memory limit", …)
  // Exhaustive runs of the spec: the same scope explored again with partial-order reduction (POR).
  std::uint64_t reduced_states = 0;
  double reduced_seconds = 0;
  std::size_t symmetry_reduced_by = 0;  // the broker permutations (besides the identity) the reduced run merged states by
  bool reduced_only = false;  // the scope is explored with `--reduction full` only (Scope::reduced_only): states are the reduced run's
  // Known Kafka deviations the run reached that no theorem of the run expects (id and shortest length).
  std::vector<std::pair<std::string, std::size_t>> other_deviations;
};

struct TheoremResult {
  const Theorem* theorem = nullptr;
  Outcome outcome = Outcome::Incomplete;
  std::optional<std::size_t> run;  // index into ProveReport::runs; none for compile-time theorems
  std::optional<TheoremCounterexample> counterexample;
};

struct ProveReport {
  std::vector<RunSummary> runs;
  std::vector<TheoremResult> results;  // the selected theorems, in catalog order
  unsigned threads = 1;
  double seconds = 0;
  bool interrupted = false;  // ProveOptions::cancel stopped it: results holds the theorems decided before

  bool success() const;  // every outcome is a success
};

struct ProveOptions {
  unsigned threads = 0;                           // the explorer's; 0: the hardware's cores
  std::uint64_t max_memory_bytes = 4ull << 30;    // per exploration; past it the run is incomplete
  std::function<void(const std::string&)> progress;  // a line per run and per theorem
  // Within a run, about twice a second: how far it is ("1,234,567 states, depth 12, 8 s").
  std::function<void(const std::string&)> tick;
  // Polled between states and histories (Ctrl-C): the run in progress stops, its theorems get no
  // verdict, no further run starts, and ProveReport::interrupted is set.
  const std::atomic<bool>* cancel = nullptr;
};

// "exhaustive exploration of <scope> (spec)", "100 random histories of <scope> (spec and impl, seed 1)".
std::string runTitle(const RunSummary& run);
// "19,654 states, 52,798 transitions, depth 34, 2.1 s" or "100 histories, 9,731 steps, 3.2 s".
std::string runFigures(const RunSummary& run);

// Runs `selection` (theorems of `catalog`; each is run once, in catalog order). Throws
// std::invalid_argument for a theorem outside the catalog, a missing scope or an unknown mutant.
ProveReport prove(const Catalog& catalog, const std::vector<const Theorem*>& selection,
                  const ProveOptions& options);

}  // namespace kcspec::proofs
