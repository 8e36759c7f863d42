// What a run of the explorer is asked (ExploreOptions) and what it reports (ExploreResult, with each
// violation's counterexample): shared by the one-process search (explorer.hpp) and the distributed
// one (distributed/distributed_explorer.hpp), so that a report is made and printed the same way
// whichever searched.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "proofs/explorer/system.hpp"

namespace kcspec::explorer {
// The checker's own liveness property: recovery reaches one good state for every goal at once.
inline constexpr PropertyInfo kAllGoalsProperty{"GOOD", "RecoveryReachesGoodState", PropertyKind::Liveness};

struct Progress {
  std::uint64_t states = 0;          // visited so far
  std::uint64_t transitions = 0;     // computed so far
  std::uint64_t queue = 0;           // states waiting to be expanded (this level's rest and the next level)
  int depth = 0;                     // the level being expanded
  std::uint64_t memory_bytes = 0;
  int liveness_sweep = 0;            // 0: exploring; k > 0: the liveness pass's k-th sweep
  std::uint64_t liveness_swept = 0;  // in that sweep, the states swept so far (of `states`, by 2^20)
  double seconds = 0;
};

enum class StopReason : std::uint8_t {
  Complete,     // every reachable state was explored
  DepthLimit,   // states at max_depth still had enabled actions
  MemoryLimit,  // the next state would have taken the checker's memory past max_memory_bytes
  Violation,    // a property that is not a known deviation failed (stop_at_violation)
  Cancelled,    // *cancel became true
  TimeLimit,    // the run took max_time
  Capacity,     // a step needed more than the modeled world holds (CapacityExceeded): ExploreResult::capacity
};

constexpr std::string_view stopReasonName(StopReason reason) {
  switch (reason) {
    case StopReason::Complete: return "complete";
    case StopReason::DepthLimit: return "depth limit";
    case StopReason::MemoryLimit: return "memory limit";
    case StopReason::Violation: return "violation";
    case StopReason::Cancelled: return "cancelled";
    case StopReason::TimeLimit: return "time limit";
    case StopReason::Capacity: return "the model's capacity";
  }
  return "?";
}

// How much of each state's enabled set the search expands (docs/proofs.md, "Partial-order reduction").
enum class Reduction : std::uint8_t {
  None,  // every enabled action
  Por,   // partial-order reduction: one persistent, invisible action alone when the system names one
         // (HasPersistentActions) and it does not close a cycle; every enabled action otherwise
};

constexpr std::string_view reductionName(Reduction reduction) {
  switch (reduction) {
    case Reduction::None: return "none";
    case Reduction::Por: return "por";
  }
  return "?";
}

struct ExploreOptions {
  unsigned threads = 0;               // 0: std::thread::hardware_concurrency()
  Reduction reduction = Reduction::None;  // Por needs a system with persistent actions; else as None
  int max_depth = -1;                 // < 0: none; states at depth max_depth are checked, not expanded
  std::uint64_t max_memory_bytes = 0; // 0: none; counts the visited set, parent links, liveness records, frontier
  std::function<bool(std::string_view property_id)> is_known_deviation;  // empty: none is
  bool stop_at_violation = true;      // stop after the level in which a (non-deviation) violation is found
  bool check_liveness = true;
  std::chrono::milliseconds progress_interval{1000};
  std::function<void(const Progress&)> on_progress;  // called from a monitor thread
  const std::atomic<bool>* cancel = nullptr;         // polled between states
  std::chrono::milliseconds max_time{0};             // 0: none; polled between states, like cancel
  std::size_t batch_states = 0;       // frontier states per batch; 0: 2,048 per thread (no effect on results)
  // A sizing hint: the visited set (and the BFS indexes) are made up front for this many states,
  // so that up to it the table never grows and never holds an old and a new table at once (a
  // growth's peak is 25 bytes per old slot). Making them writes nothing (zeroed_table.hpp): their
  // pages are zeroed as the first states touch them. 0: none; ignored when the up-front table
  // alone would exceed max_memory_bytes. Memory only: no effect on results.
  std::uint64_t expected_states = 0;
  // Empty: none. Else a directory where the frontier's full blocks and liveness' recovery edges
  // are written (unnamed files, gone when the run ends), so that memory holds neither: both are
  // written once in order and read back in order. Memory only: no effect on results. A failed
  // write or read there throws std::runtime_error out of explore().
  std::string spill_directory;
  // Empty: none. Else the process's resident memory in bytes as the operating system reports it
  // (kcspec passes a reading of /proc/self/statm): with max_memory_bytes, the run also stops when
  // the resident memory — every thread's working states, the batches being expanded, the
  // allocator's free lists, the program itself — exceeds the cap (read every kResidentEvery
  // admitted states). Makes where a capped run stops depend on the allocator: not for tests of counts.
  std::function<std::uint64_t()> resident_bytes;

  // Whether *cancel is set, and whether a run that began at `start` has used up max_time.
  bool interrupted() const { return cancel != nullptr && cancel->load(std::memory_order_relaxed); }
  bool outOfTime(std::chrono::steady_clock::time_point start) const {
    return max_time.count() > 0 && std::chrono::steady_clock::now() - start >= max_time;
  }
};

template <System S>
struct Violation {
  std::string property;  // the id
  std::string name;
  PropertyKind kind = PropertyKind::StateSafety;
  bool known_deviation = false;
  std::uint64_t occurrences = 0;  // violating states (state safety, liveness) or transitions (step safety)
  std::size_t initial_state = 0;  // the position in initialStates() the path starts from
  std::vector<typename S::Action> path;      // shortest; for a step property it ends with the violating step
  std::vector<typename S::Action> recovery;  // liveness: recovery steps from the path's end that never reach the goal
  std::optional<typename S::Observation> last;  // the observation where the path ends
};

// A history that outgrows one of the modeled world's bounded containers (spec/vocabulary/capacity.hpp):
// its last step throws CapacityExceeded. Not a property of Kafka's: the configuration is beyond
// what kcspec can model, and the search cannot go on past it.
template <System S>
struct CapacityFinding {
  std::string what;               // CapacityExceeded::what()
  std::size_t initial_state = 0;  // the position in initialStates() the path starts from
  std::vector<typename S::Action> path;  // its last action is the step that needed more room
};

template <System S>
struct ExploreResult {
  std::string system;
  std::uint64_t states = 0;
  std::uint64_t transitions = 0;
  int max_depth = 0;  // the deepest level reached
  double seconds = 0;
  unsigned threads = 1;
  StopReason stop = StopReason::Complete;
  bool liveness_checked = false;
  std::uint64_t memory_bytes = 0;  // the most memory the checker accounted at once (a cap of it lets the run complete)
  std::uint64_t resident_bytes = 0;  // the most resident memory ExploreOptions::resident_bytes reported (0: not asked)
  std::uint64_t visited_bytes = 0; // of which the visited set with its parent links (12-byte slots)
  std::uint64_t recovery_edges = 0;  // recovery edges recorded for liveness (between distinct states)
  std::uint64_t spilled_bytes = 0;   // the most the spill files held at once (ExploreOptions::spill_directory)
  int liveness_sweeps = 0;           // the liveness pass's sweeps (0 when it did not run)
  Reduction reduction = Reduction::None;  // what the search used (None when the system has no persistent actions)
  std::uint64_t reduced_states = 0;  // states expanded through one persistent action instead of all enabled ones
  // Persistent actions taken in chains (a system with PersistentActionsDescend): the states
  // between a step and the end of its chain are passed through, not kept.
  std::uint64_t chained_steps = 0;
  // Transitions by action kind, every kind the system names (HasActionKinds), zeros included: a
  // kind that never fired is visible. Empty for a system without kinds.
  std::vector<std::pair<std::string_view, std::uint64_t>> action_counts;
  std::vector<Violation<S>> violations;  // safety in properties() order, then liveness
  std::optional<CapacityFinding<S>> capacity;  // the first history found to outgrow the world (stop == Capacity)

  bool complete() const { return stop == StopReason::Complete; }
  // No violation other than known deviations.
  bool holds() const {
    return std::none_of(violations.begin(), violations.end(), [](const Violation<S>& v) { return !v.known_deviation; });
  }
};

}  // namespace kcspec::explorer
