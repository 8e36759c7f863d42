// The explicit-state model checker: a breadth-first exploration of every state a System
// (system.hpp) can reach, checking its safety properties at every state and across every
// transition, then its liveness goals over the recovery subgraph.
//
// How it works:
// - Level-synchronous BFS. States get indexes in discovery order. Level d (the states at depth
//   d) is split into chunks that worker threads expand in any order: decode the state, check
//   its state properties, list its actions, compute each successor, check the step properties,
//   fingerprint the successor and look it up in the visited set (read-only during expansion),
//   encode it if it is new. Then one thread merges the chunks IN ORDER: new states get the next
//   indexes, parent links and the next frontier, in the order a one-thread BFS would give them.
//   So counts, indexes and counterexamples do not depend on the number of threads or on timing.
// - A level goes in batches, and a batch's merge overlaps the next batch's expansion: the
//   calling thread merges batch k while the other threads expand batch k + 1, then it helps
//   them. The expanding threads' lookups may or may not see what the merge inserts meanwhile
//   (the visited set's slots are written atomically), which changes only whether they keep an
//   encoding the merge then finds known: the merge, in order, decides what is new. The table
//   grows only while no one else reads it: a merge that needs it to grow first finishes the
//   next batch's expansion itself and waits for the others.
// - Memory: the visited set (visited_set.hpp) holds per slot a state's 64-bit fingerprint and
//   its parent's slot (12 bytes); the frontier is kept encoded and compressed (frontier.hpp).
//   With a spill directory, the frontier's full blocks and the recovery edges are written to
//   unnamed files (spill_file.hpp) and read back in order: what memory holds is then the visited
//   set, the BFS indexes, the goal bits and the frontier's per-state records.
//   Paths are rebuilt by replaying from the initial state: each step takes the parent's first
//   action whose successor (the end of its chain of persistent actions, with chains) has the
//   child's fingerprint.
// - Partial-order reduction (ExploreOptions::reduction, system.hpp HasPersistentActions): a state
//   where the system names a persistent action is expanded through it alone. A system whose
//   persistent actions descend a measure has them taken in chains: each successor is followed
//   through them to a state with none, and only that state is kept. A reduced search's safety
//   counterexamples are shortened afterwards: actions are dropped while the rest still replays
//   and still shows the violation (no single action of the result can be dropped).
// - Safety: the shortest counterexample of each violated property (the first in BFS order), and
//   how many states or transitions violate it. A property the caller marks as a known deviation
//   is reported the same way but does not stop the run and does not make it fail.
// - Liveness (only when the exploration is complete): recovery edges (System::isRecovery) are
//   stored as one stream (recovery_edges.hpp: 4 bytes an edge, then 4 bytes a state for how
//   many it has, so that a reader going backwards finds them); a fixpoint over them, swept in
//   reverse BFS order without allocating, spreads the goal bits (goal_bits.hpp) back from the
//   states that reach each goal (System::goalsReached) and finds, per goal, every state from
//   which recovery alone can reach it, plus the states from which recovery reaches one state
//   where every goal holds at once ("GOOD"). A violator is reported with the shortest path to
//   it and a recovery walk from it that never gets there.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <limits>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "proofs/explorer/capacity_step.hpp"
#include "proofs/explorer/counterexample.hpp"
#include "proofs/explorer/explore_result.hpp"
#include "proofs/explorer/frontier.hpp"
#include "proofs/explorer/goal_bits.hpp"
#include "proofs/explorer/progress_monitor.hpp"
#include "proofs/explorer/property_roles.hpp"
#include "proofs/explorer/recovery_edges.hpp"
#include "proofs/explorer/spill_file.hpp"
#include "proofs/explorer/stepper.hpp"
#include "proofs/explorer/system.hpp"
#include "proofs/explorer/visited_set.hpp"
#include "proofs/explorer/zeroed_table.hpp"
#include "spec/vocabulary/capacity.hpp"

namespace kcspec::explorer {

// The bytes of a visited set sized up front for `states` (ExploreOptions::expected_states): its
// fingerprints and parent links, and with liveness each slot's BFS index.
inline std::uint64_t presizedTableBytes(std::uint64_t states, bool check_liveness) {
  const std::uint64_t slots = VisitedSet::slotsToHold(static_cast<std::size_t>(states));
  return slots * (sizeof(Fingerprint) + sizeof(VisitedSet::Slot) + (check_liveness ? sizeof(std::uint32_t) : 0));
}

namespace detail {

template <System S>
class Explorer {
  using State = typename S::State;
  using Action = typename S::Action;
  using Slot = VisitedSet::Slot;     // a state's name: its visited-set slot
  using Index = std::uint32_t;       // a state's position in BFS order (liveness)
  static constexpr bool kChains = Stepper<S>::kChains;
  static constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

 public:
  Explorer(const S& system, const ExploreOptions& options)
      : system_(system), stepper_(system), options_(options), roles_(system.properties(), options) {
    check_liveness_ = options_.check_liveness && !roles_.liveness().empty();
    if constexpr (HasPersistentActions<S>) reduce_ = options_.reduction == Reduction::Por;
    // A system whose persistent actions descend a measure has them taken in chains, and no cycle
    // of the reduced graph without a state expanded in full: it needs no cycle proviso.
    chains_ = reduce_ && kChains;
    cycle_proviso_ = reduce_ && !chains_;
    keep_bfs_index_ = check_liveness_ || cycle_proviso_;
    goals_ = GoalBits(roles_.liveness().size() + 1);
    threads_ = options_.threads != 0 ? options_.threads : std::max(1u, std::thread::hardware_concurrency());
    if (!options_.spill_directory.empty() && check_liveness_) {
      recovery_edges_ = RecoveryEdges(std::make_unique<SpillFile>(options_.spill_directory));
    }
    next_frontier_ = newFrontier();
  }

  ExploreResult<S> run() {
    const auto start = std::chrono::steady_clock::now();
    start_ = start;
    ExploreResult<S> result;
    result.system = std::string(system_.name());
    result.threads = threads_;

    ProgressMonitor monitor(options_, [this] { return snapshot(); });

    presize();
    explore();
    if (capacity_.found()) stop_ = StopReason::Capacity;
    result.recovery_edges = recovery_edges_.edges();
    if (stop_ == StopReason::Complete && check_liveness_) {
      // The pass allocates nothing: what it needs was counted while exploring. It can be
      // cancelled (or run out of time), leaving liveness unchecked.
      result.liveness_checked = checkLiveness();
      result.liveness_sweeps = progress_sweep_.load(std::memory_order_relaxed);
    }
    result.reduction = reduce_ ? Reduction::Por : Reduction::None;
    result.reduced_states = reduced_states_.load(std::memory_order_relaxed);
    result.chained_steps = chained_steps_.load(std::memory_order_relaxed);
    monitor.stop();

    result.states = visited_.size();
    result.transitions = transitions_;
    if constexpr (HasActionKinds<S>) {
      const std::span<const std::string_view> kinds = system_.actionKinds();
      KCSPEC_ASSERT(kinds.size() <= action_counts_.size());
      for (std::size_t k = 0; k < kinds.size(); ++k) result.action_counts.emplace_back(kinds[k], action_counts_[k]);
    }
    result.max_depth = static_cast<int>(level_begin_.size()) - 1;
    result.stop = stop_;
    result.memory_bytes = std::max(peak_memory_, memory());
    if (options_.resident_bytes) peak_resident_ = std::max(peak_resident_, options_.resident_bytes());
    result.resident_bytes = peak_resident_;
    result.spilled_bytes = std::max(peak_spilled_, spilled());
    result.visited_bytes = visited_.bytes();
    buildViolations(result);
    if (stop_ == StopReason::Capacity) {
      const Counterexamples<S> counterexamples(system_, chains_, reduce_);
      result.capacity = counterexamples.capacity(pathTo(frontier_.slotAt(capacity_.position())), capacity_.ordinal());
    }
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
  }

 private:
  // ------------------------------------------------------------------ bookkeeping

  struct Successor {
    Fingerprint fingerprint = 0;
    PropertyMask step_violations = 0;
    Slot existing = VisitedSet::kNoSlot;  // its slot if it was visited before this batch
    Index existing_index = kNone;         // and then its BFS index, for a recovery edge (liveness)
    std::uint32_t ordinal = 0;
    std::uint32_t offset = 0;  // its encoding in the chunk's arena, when new
    std::uint32_t length = 0;
    bool recovery = false;
    std::uint8_t kind = 0;  // the action's kind (HasActionKinds), for the report's action coverage
  };

  using Expanded = typename Stepper<S>::Expanded;

  struct Chunk {
    bool done = false;
    bool truncated = false;  // a state at max_depth had enabled actions
    std::vector<Expanded> states;
    std::vector<Successor> successors;
    std::string arena;
  };

  // The first (shortest) occurrence of a violation: the state (a slot; for liveness its BFS
  // index), and the action taken from it for a step property (kNone for a state property).
  struct Occurrence {
    std::uint32_t state = kNone;
    std::uint32_t ordinal = kNone;
    std::uint64_t count = 0;
  };

  // Liveness keeps per state its goal bits (1 byte, or 4 past 8 bits) and per slot the state's
  // BFS index; the recovery edges (with a count per state) are counted by what their chunks take
  // in memory.
  std::size_t livenessBytesPerState() const { return check_liveness_ ? goals_.bytesPerState() : 0; }

  std::uint64_t memory() const {
    return visited_.bytes() + visited_.size() * livenessBytesPerState() + bfs_of_slot_.size() * sizeof(Index) +
           recovery_edges_.bytes() + frontier_.memory() + next_frontier_.memory();
  }

  Frontier newFrontier() const { return Frontier(options_.spill_directory); }

  std::uint64_t spilled() const {
    return recovery_edges_.spilledBytes() + frontier_.spilledBytes() + next_frontier_.spilledBytes();
  }

  // Follows ExploreOptions::expected_states: a table that takes that many states without
  // growing, when the cap allows it.
  void presize() {
    const std::uint64_t expected = options_.expected_states;
    if (expected == 0 || expected >= kNone - 1) return;
    const std::uint64_t slots = VisitedSet::slotsToHold(static_cast<std::size_t>(expected));
    if (slots <= visited_.capacity() || slots >= VisitedSet::kNoSlot) return;
    const std::uint64_t bytes = presizedTableBytes(expected, keep_bfs_index_);
    static_assert(sizeof(Index) == sizeof(std::uint32_t), "presizedTableBytes counts a 4-byte BFS index");
    if (!affords(bytes)) return;
    visited_ = VisitedSet(static_cast<std::size_t>(slots));
    if (keep_bfs_index_) bfs_of_slot_ = ZeroedTable<Index>(visited_.capacity());
  }

  // Whether the checker may hold `bytes` at once (within --max-memory); the most it held so far
  // is kept for the report, so that a cap of that figure lets the same run complete.
  static constexpr std::uint32_t kResidentEvery = 256;

  bool affords(std::uint64_t bytes) {
    if (options_.max_memory_bytes != 0 && bytes > options_.max_memory_bytes) return false;
    if (options_.resident_bytes && ++affords_since_resident_ >= kResidentEvery) {
      affords_since_resident_ = 0;
      const std::uint64_t resident = options_.resident_bytes();
      peak_resident_ = std::max(peak_resident_, resident);
      if (options_.max_memory_bytes != 0 && resident > options_.max_memory_bytes) return false;
    }
    peak_memory_ = std::max(peak_memory_, bytes);
    return true;
  }

  // The visited set grew: every slot held anywhere moves.
  void remap(const std::vector<Slot>& map) {
    frontier_.remap(map);
    next_frontier_.remap(map);
    for (Occurrence& first : first_) {
      if (first.count > 0) first.state = map[first.state];
    }
    // The batch being merged, and the one expanded meanwhile (finished: growth waits for it).
    for (std::vector<Chunk>* batch : {merging_, expanding_}) {
      if (batch == nullptr) continue;
      for (Chunk& chunk : *batch) {
        for (Successor& successor : chunk.successors) {
          if (successor.existing != VisitedSet::kNoSlot) successor.existing = map[successor.existing];
        }
      }
    }
    if (keep_bfs_index_) {
      ZeroedTable<Index> moved(visited_.capacity());
      for (std::size_t i = 0; i < map.size(); ++i) {
        if (map[i] != VisitedSet::kNoSlot) moved[map[i]] = bfs_of_slot_[i];
      }
      bfs_of_slot_ = std::move(moved);
    }
  }

  // The BFS index of the state in `slot`, or kNone while it has none (bfs_of_slot_ holds the
  // index plus one, so that its zeroed start reads as none). A relaxed atomic load: the merge
  // may be writing it.
  Index bfsIndexAt(Slot slot) const {
    const Index stored = __atomic_load_n(&bfs_of_slot_[slot], __ATOMIC_RELAXED);
    return stored == 0 ? kNone : stored - 1;
  }

  Progress snapshot() const {
    Progress p;
    p.states = progress_states_.load(std::memory_order_relaxed);
    p.transitions = progress_transitions_.load(std::memory_order_relaxed);
    const std::uint64_t level = progress_level_size_.load(std::memory_order_relaxed);
    const std::uint64_t done = progress_expanded_.load(std::memory_order_relaxed);
    p.queue = (level > done ? level - done : 0) + progress_next_.load(std::memory_order_relaxed);
    p.depth = progress_depth_.load(std::memory_order_relaxed);
    p.memory_bytes = progress_memory_.load(std::memory_order_relaxed);
    p.liveness_sweep = progress_sweep_.load(std::memory_order_relaxed);
    p.liveness_swept = progress_swept_.load(std::memory_order_relaxed);
    p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    return p;
  }

  bool interrupted() const { return options_.interrupted(); }
  bool timedOut() const { return options_.outOfTime(start_); }
  bool cancelled() const {
    return interrupted() || timedOut() || worker_failed_.load(std::memory_order_relaxed) ||
           capacity_.found();
  }

  std::uint32_t compactGoals(PropertyMask reached) const { return GoalBits::compact(reached, roles_.liveness()); }

  // Adds a state found by the merge (or an initial state, parent kNoSlot); false when the
  // memory cap stops the run. The table may grow: slots held elsewhere are remapped, `parent`'s
  // too (callers read it again).
  bool admit(Fingerprint fingerprint, Slot parent, std::string_view encoding, Slot& slot) {
    const auto found = visited_.find(fingerprint);
    if (found) {
      slot = *found;
      return true;
    }
    // A growth's peak is the table's first phase with the old BFS indexes held (remap() then
    // holds less: the new table, the map and the old and the new BFS indexes).
    const std::uint64_t after = memory() - visited_.bytes() + visited_.bytesAfterInsert() + livenessBytesPerState() +
                                next_frontier_.bytesToPush(encoding.size());
    if (!affords(after)) return false;
    if (visited_.size() >= kNone - 1) throw std::length_error("more than 2^32 states");
    if (visited_.growsOnInsert() && finish_expansion_) {
      // Others read the table: the batch being expanded is finished first (its chunks' slots are
      // then remapped with the rest).
      finish_expansion_();
      finish_expansion_ = nullptr;
    }
    const auto inserted = visited_.insert(fingerprint, parent, [this](const std::vector<Slot>& map) { remap(map); });
    slot = inserted.slot;
    if (keep_bfs_index_) {
      // Made at the table's capacity on the first insertion unless presize() made it; remap()
      // keeps it there.
      if (bfs_of_slot_.size() == 0) bfs_of_slot_ = ZeroedTable<Index>(visited_.capacity());
      // Read by the expanding threads (known()): a relaxed atomic store (they take "none", which
      // they may also see just before it, as "not yet known"). The index is stored plus one.
      __atomic_store_n(&bfs_of_slot_[slot], static_cast<Index>(visited_.size()), __ATOMIC_RELAXED);
    }
    next_frontier_.push(encoding, slot);
    return true;
  }

  // ------------------------------------------------------------------ the search

  void explore() {
    const std::vector<State> initial = system_.initialStates();
    std::string encoding;
    level_begin_.push_back(0);
    for (std::size_t i = 0; i < initial.size(); ++i) {
      encoding.clear();
      system_.encode(initial[i], encoding);
      Slot slot = 0;
      if (!admit(system_.fingerprint(initial[i]), VisitedSet::kNoSlot, encoding, slot)) {
        stop_ = StopReason::MemoryLimit;
        return;
      }
    }
    for (int depth = 0;; ++depth) {
      frontier_ = std::move(next_frontier_);
      frontier_.finish();  // only read from now on
      next_frontier_ = newFrontier();
      if (frontier_.size() == 0) {
        level_begin_.pop_back();  // the empty level that was opened
        return;
      }
      level_begin_.push_back(visited_.size());  // where level depth+1 will begin
      next_level_begin_ = visited_.size();
      merge_position_ = 0;
      const bool expand = options_.max_depth < 0 || depth < options_.max_depth;
      progress_depth_ = depth;
      progress_level_size_ = frontier_.size();
      progress_expanded_ = 0;
      progress_next_ = 0;
      // The level goes in batches, each expanded in parallel and merged in order while the
      // next one is expanded: at most two batches' successors wait in memory. (Results do not
      // depend on where the batches end: the merge decides what is new.)
      bool truncated = false;
      const std::size_t full_batch = options_.batch_states != 0 ? options_.batch_states : std::size_t{2048} * threads_;
      // Under a resident-memory cap the first batch of the run is small and the next ones are
      // sized by what the last one took (batchThatFits), across levels.
      if (capped_batch_ == 0) {
        capped_batch_ = options_.resident_bytes && options_.max_memory_bytes != 0
                            ? std::min(full_batch, std::size_t{64} * threads_)
                            : full_batch;
      }
      std::size_t& batch = capped_batch_;
      std::vector<Chunk> pending;  // the last batch expanded, not merged yet
      bool merged = true;
      for (std::size_t begin = 0; begin < frontier_.size() && merged;) {
        const std::size_t end = std::min(frontier_.size(), begin + batch);
        std::vector<Chunk> chunks = expandBatch(begin, end, expand, begin == 0 ? nullptr : &pending, merged);
        truncated |= std::any_of(chunks.begin(), chunks.end(), [](const Chunk& c) { return c.truncated; });
        batch = batchThatFits(chunks, end - begin, full_batch);
        pending = std::move(chunks);
        begin = end;
      }
      if (merged) merged = merge(pending);
      if (!merged) {  // memory cap or cancellation: stop_ is set
        if (visited_.size() == level_begin_.back()) level_begin_.pop_back();
        return;
      }
      if (!expand) {
        frontier_ = Frontier{};
        level_begin_.pop_back();
        if (truncated) stop_ = StopReason::DepthLimit;
        return;
      }
      if (options_.stop_at_violation && violationFound()) {
        stop_ = StopReason::Violation;
        frontier_ = Frontier{};
        if (next_frontier_.size() == 0) level_begin_.pop_back();
        return;
      }
    }
  }

  // Under a resident-memory cap (ExploreOptions::resident_bytes), the next batch is sized so that
  // the two batches in memory at once (one merged, one expanded) fit in a third of what the cap
  // leaves, at the bytes per state the last batch took: large states on many threads would
  // otherwise overshoot the cap by whole batches. Batch boundaries do not change results.
  std::size_t batchThatFits(const std::vector<Chunk>& chunks, std::size_t states, std::size_t full_batch) const {
    if (!options_.resident_bytes || options_.max_memory_bytes == 0 || states == 0) return full_batch;
    std::uint64_t bytes = 0;
    for (const Chunk& c : chunks) {
      bytes += c.arena.capacity() + c.successors.capacity() * sizeof(Successor) + c.states.capacity() * sizeof(Expanded);
    }
    const std::uint64_t per_state = std::max<std::uint64_t>(1, bytes / states);
    const std::uint64_t resident = options_.resident_bytes();
    const std::uint64_t headroom = options_.max_memory_bytes > resident ? options_.max_memory_bytes - resident : 0;
    return static_cast<std::size_t>(
        std::clamp<std::uint64_t>(headroom / 3 / per_state, std::uint64_t{threads_}, std::uint64_t{full_batch}));
  }

  bool violationFound() const {
    const auto properties = system_.properties();
    for (std::size_t i = 0; i < properties.size(); ++i) {
      if (first_[i].count > 0 && !roles_.known(i)) return true;
    }
    return false;
  }

  // Expands frontier states [first, last) in chunks, on up to threads_ threads. With `previous`,
  // the calling thread first merges it (`merged` = the merge's result) while the others expand,
  // then joins them.
  std::vector<Chunk> expandBatch(std::size_t first, std::size_t last, bool expand, std::vector<Chunk>* previous,
                                 bool& merged) {
    const std::size_t n = last - first;
    const std::size_t chunk_size = std::clamp<std::size_t>(n / (std::size_t{threads_} * 16), 1, 64);
    const std::size_t chunk_count = (n + chunk_size - 1) / chunk_size;
    std::vector<Chunk> chunks(chunk_count);
    std::atomic<std::size_t> next_chunk{0};
    auto work = [&] {
      typename Stepper<S>::Worker worker;
      for (;;) {
        const std::size_t c = next_chunk.fetch_add(1, std::memory_order_relaxed);
        if (c >= chunk_count) return;
        const std::size_t begin = first + c * chunk_size;
        const std::size_t end = std::min(last, begin + chunk_size);
        if (!expandChunk(chunks[c], begin, end, expand, worker)) return;
      }
    };
    const unsigned helpers = static_cast<unsigned>(std::min<std::size_t>(threads_, chunk_count)) - 1;
    {
      std::vector<std::jthread> pool;
      pool.reserve(helpers);
      // A helper's exception (a spill file's failed read) stops the others and is rethrown here.
      const auto helper_work = [&] {
        try {
          work();
        } catch (...) {
          std::lock_guard lock(worker_failure_mutex_);
          if (!worker_failure_) worker_failure_ = std::current_exception();
          worker_failed_.store(true, std::memory_order_relaxed);
        }
      };
      for (unsigned t = 0; t < helpers; ++t) pool.emplace_back(helper_work);
      if (previous != nullptr) {
        expanding_ = &chunks;
        if (helpers > 0) {
          finish_expansion_ = [&] {
            work();
            for (std::jthread& helper : pool) helper.join();
          };
        }
        merged = merge(*previous);
        finish_expansion_ = nullptr;
        expanding_ = nullptr;
        *previous = {};
      }
      if (merged) work();
    }  // joined: every chunk's writes are visible
    if (worker_failed_.load(std::memory_order_relaxed)) std::rethrow_exception(worker_failure_);
    return chunks;
  }

  bool expandChunk(Chunk& chunk, std::size_t begin, std::size_t end, bool expand, typename Stepper<S>::Worker& worker) {
    // An encoding appended to the arena is kept for a new state and dropped for a known one.
    // A known state's BFS index is looked up here, in parallel, rather than by the merge. The
    // previous batch's merge may be writing it meanwhile: a state it has just inserted may
    // still read kNone here, and then the merge looks the index up itself.
    std::size_t stepping = 0;  // the action being taken (for a step that outgrows the world)
    const auto addSuccessor = [&](const State& state, std::string_view encoding, std::span<const Action> actions,
                                  std::size_t k) {
      stepping = k;
      Successor successor;
      successor.ordinal = static_cast<std::uint32_t>(k);
      successor.recovery = check_liveness_ && system_.isRecovery(actions[k]);
      if constexpr (HasActionKinds<S>) successor.kind = static_cast<std::uint8_t>(system_.actionKind(actions[k]));
      const std::size_t offset = chunk.arena.size();
      bool encoded = false;
      successor.fingerprint = stepper_.successor(
          state, encoding, actions[k], chains_, successor.step_violations, worker.step, chunk.arena, encoded,
          [&](Fingerprint fingerprint) {
            const auto found = visited_.find(fingerprint);
            if (!found) return false;
            successor.existing = *found;
            if (successor.recovery) successor.existing_index = bfsIndexAt(*found);
            return true;
          });
      if (encoded) {
        successor.offset = static_cast<std::uint32_t>(offset);
        successor.length = static_cast<std::uint32_t>(chunk.arena.size() - offset);
      }
      chunk.successors.push_back(successor);
    };
    // Partial-order reduction: the system's persistent action alone, unless the cycle proviso
    // applies and its successor is already known at this depth or shallower (it may close a
    // cycle of reduced states, along which the other actions would be ignored forever: then
    // every action is expanded). A system whose persistent actions descend a measure
    // (system.hpp PersistentActionsDescend) has no such cycle and needs no proviso.
    std::size_t arena_before = 0;
    const auto add = [&](const State& state, std::string_view encoding, std::span<const Action> actions,
                         std::size_t k) {
      arena_before = chunk.arena.size();
      addSuccessor(state, encoding, actions, k);
    };
    const auto kept = [&] {
      const Slot existing = chunk.successors.back().existing;
      if (cycle_proviso_ && existing != VisitedSet::kNoSlot && bfsIndexAt(existing) < next_level_begin_) {
        chunk.successors.pop_back();  // closes a cycle
        chunk.arena.resize(arena_before);
        return false;
      }
      reduced_states_.fetch_add(1, std::memory_order_relaxed);
      return true;
    };
    const std::size_t successors_before = chunk.successors.size();
    bool done = false;
    try {
      done = stepper_.expandRange(
          frontier_, begin, end, expand, reduce_, chunk, worker, [this] { return cancelled(); },
          [this](const State& state) { return check_liveness_ ? compactGoals(system_.goalsReached(state)) : 0u; }, add,
          kept);
    } catch (const CapacityExceeded&) {
      // The chunk stays not done (its merge stops the run) and the worker's scratch state is
      // left behind: the run ends, with the step that needed more room than the world has.
      // (Its message is found again when the history is replayed: Counterexamples::capacity.)
      capacity_.note(begin + chunk.states.size(), static_cast<std::uint32_t>(stepping));
    }
    progress_transitions_.fetch_add(chunk.successors.size() - successors_before, std::memory_order_relaxed);
    progress_expanded_.fetch_add(chunk.states.size(), std::memory_order_relaxed);
    chained_steps_.fetch_add(worker.step.chain.steps, std::memory_order_relaxed);
    return done;
  }


  void record(std::size_t property, Slot state, std::uint32_t ordinal) {
    Occurrence& first = first_[property];
    if (first.count++ == 0) {
      first.state = state;
      first.ordinal = ordinal;
    }
  }

  // Merges a batch's chunks in order; false when the run stops in the middle.
  bool merge(std::vector<Chunk>& chunks) {
    merging_ = &chunks;
    const bool merged = mergeChunks(chunks);
    merging_ = nullptr;
    return merged;
  }

  bool mergeChunks(std::vector<Chunk>& chunks) {
    for (Chunk& chunk : chunks) {
      if (!chunk.done) {
        stop_ = interrupted() ? StopReason::Cancelled : StopReason::TimeLimit;
        return false;
      }
      for (const Successor& successor : chunk.successors) {
        if (successor.existing == VisitedSet::kNoSlot) visited_.prefetch(successor.fingerprint);
      }
      for (const Expanded& expanded : chunk.states) {
        Slot index = frontier_.slotAt(merge_position_);
        for (PropertyMask bits = expanded.state_violations; bits != 0; bits &= bits - 1) {
          record(static_cast<std::size_t>(std::countr_zero(bits)), index, kNone);
        }
        if (check_liveness_) goals_.push_back(expanded.goals);
        for (std::uint32_t s = 0; s < expanded.successor_count; ++s) {
          const Successor& successor = chunk.successors[expanded.first_successor + s];
          ++transitions_;
          ++action_counts_[successor.kind];
          for (PropertyMask bits = successor.step_violations; bits != 0; bits &= bits - 1) {
            record(static_cast<std::size_t>(std::countr_zero(bits)), index, successor.ordinal);
          }
          Slot target = successor.existing;
          if (target == VisitedSet::kNoSlot) {
            const std::string_view encoding = std::string_view(chunk.arena).substr(successor.offset, successor.length);
            if (!admit(successor.fingerprint, index, encoding, target)) {
              stop_ = StopReason::MemoryLimit;
              return false;
            }
            index = frontier_.slotAt(merge_position_);  // moved if the table grew
          }
          if (successor.recovery && target != index) {
            // A recovery edge counts too (admit() checked only the state's own bytes).
            if (!affords(memory() + recovery_edges_.bytesToPush())) {
              stop_ = StopReason::MemoryLimit;
              return false;
            }
            recovery_edges_.addEdge(successor.existing_index != kNone ? successor.existing_index : bfsIndexAt(target));
          }
        }
        if (check_liveness_) {
          if (!affords(memory() + recovery_edges_.bytesToPush())) {
            stop_ = StopReason::MemoryLimit;
            return false;
          }
          recovery_edges_.endState();
        }
        ++merge_position_;
        progress_states_.store(visited_.size(), std::memory_order_relaxed);
        progress_next_.store(next_frontier_.size(), std::memory_order_relaxed);
      }
      chunk = Chunk{};  // release the arena early
      progress_memory_.store(memory(), std::memory_order_relaxed);
      peak_spilled_ = std::max(peak_spilled_, spilled());
    }
    progress_transitions_.store(transitions_, std::memory_order_relaxed);
    return true;
  }

  // ------------------------------------------------------------------ liveness

  // reach[i] (goals_, in place): the goals recovery can reach from state i — the least fixpoint
  // of reach[i] = goals[i] | reach[t] for every recovery edge i → t, by sweeps over the forward
  // edges in reverse BFS order until one changes nothing. An edge to a later state (most of them)
  // is settled in the sweep that reaches its source; each edge back to an earlier state may cost
  // one more sweep (the presets need 4 to 6). Nothing is allocated; a sweep that changes
  // something adds a goal bit to some state, so at most (goal bits) × n + 1 sweeps are made.
  // False when cancelled (or out of time) meanwhile: liveness is then unchecked.
  bool checkLiveness() {
    const std::size_t n = visited_.size();
    KCSPEC_ASSERT(recovery_edges_.states() == n);  // complete: every state was merged, in BFS order
    GoalBits& reach = goals_;
    const std::uint64_t max_sweeps = (roles_.liveness().size() + 1) * std::uint64_t{n} + 1;
    bool changed = true;
    for (std::uint64_t sweep = 1; changed; ++sweep) {
      KCSPEC_ASSERT(sweep <= max_sweeps);
      progress_sweep_.store(static_cast<int>(std::min<std::uint64_t>(sweep, INT32_MAX)), std::memory_order_relaxed);
      changed = false;
      RecoveryEdges::Backwards edges(recovery_edges_);
      progress_swept_.store(0, std::memory_order_relaxed);
      for (std::size_t i = n; i-- > 0;) {
        if (i % (std::size_t{1} << 20) == 0) {  // a sweep of `large` takes seconds
          progress_swept_.store(n - i, std::memory_order_relaxed);
          if (cancelled()) {
            stop_ = interrupted() ? StopReason::Cancelled : StopReason::TimeLimit;
            return false;
          }
        }
        std::uint32_t merged = reach[i];
        edges.previousState([&](Index target) { merged |= reach[target]; });
        if (merged != reach[i]) {
          reach.set(i, merged);
          changed = true;
        }
      }
    }
    findLivenessViolators();
    return true;
  }

  void findLivenessViolators() {
    const std::size_t n = visited_.size();
    const GoalBits& reach = goals_;
    // Per goal (and for all goals at once), the first violator in BFS order.
    const std::size_t goal_count = roles_.liveness().size() + 1;
    liveness_first_.assign(goal_count, Occurrence{});
    for (std::size_t i = 0; i < n; ++i) {
      roles_.forEachViolatedGoal(reach[i], [&](std::size_t j) {
        Occurrence& first = liveness_first_[j];
        if (first.count++ == 0) first.state = static_cast<Index>(i);
      });
    }
  }

  // ------------------------------------------------------------------ counterexamples

  // The stored fingerprints from an initial state to the state in `target`, by parent links.
  std::vector<Fingerprint> pathTo(Slot target) const {
    std::vector<Fingerprint> states;
    for (Slot i = target; i != VisitedSet::kNoSlot; i = visited_.parentAt(i)) states.push_back(visited_.fingerprintAt(i));
    std::reverse(states.begin(), states.end());
    return states;
  }

  void buildViolations(ExploreResult<S>& result) const {
    const Counterexamples<S> counterexamples(system_, chains_, reduce_);
    const auto properties = system_.properties();
    for (std::size_t i = 0; i < properties.size(); ++i) {
      const Occurrence& first = first_[i];
      if (first.count == 0) continue;
      // A state property's occurrence has no action: kNone, which is Counterexamples' kNoAction.
      static_assert(kNone == Counterexamples<S>::kNoAction);
      result.violations.push_back(
          counterexamples.safety(pathTo(first.state), i, properties[i], roles_.known(i), first.count, first.ordinal));
    }
    std::vector<Slot> slot_of_bfs;  // liveness names states by BFS index
    for (std::size_t j = 0; j < liveness_first_.size(); ++j) {
      const Occurrence& first = liveness_first_[j];
      if (first.count == 0) continue;
      if (slot_of_bfs.empty()) {
        slot_of_bfs.assign(visited_.size(), VisitedSet::kNoSlot);
        for (std::size_t slot = 0; slot < bfs_of_slot_.size(); ++slot) {
          const Index bfs_index = bfsIndexAt(static_cast<Slot>(slot));
          if (bfs_index != kNone) slot_of_bfs[bfs_index] = static_cast<Slot>(slot);
        }
      }
      const PropertyInfo& info = roles_.goal(j);
      const bool known = roles_.goalKnown(j);
      result.violations.push_back(counterexamples.liveness(pathTo(slot_of_bfs[first.state]), info, known, first.count));
    }
  }

  const S& system_;
  const Stepper<S> stepper_;
  const ExploreOptions& options_;
  const PropertyRoles roles_;
  unsigned threads_ = 1;
  bool check_liveness_ = false;
  bool reduce_ = false;          // partial-order reduction (Reduction::Por with a system that has persistent actions)
  bool chains_ = false;          // persistent actions are taken in chains (PersistentActionsDescend)
  bool cycle_proviso_ = false;   // a reduced state whose successor is known at its depth or shallower is expanded in full
  bool keep_bfs_index_ = false;  // bfs_of_slot_ is kept: for liveness, and for the reduction's cycle proviso
  // While a level is expanded: the BFS index where the next level begins (a state below it is at
  // this level's depth or shallower: an edge to it may close a cycle).
  std::uint64_t next_level_begin_ = 0;
  std::atomic<std::uint64_t> reduced_states_{0};
  std::atomic<std::uint64_t> chained_steps_{0};

  VisitedSet visited_;                      // fingerprints and parent links, per slot
  std::vector<std::uint64_t> level_begin_;  // how many states precede each depth
  ZeroedTable<Index> bfs_of_slot_;          // per slot (liveness): the state's BFS index + 1, 0 for none
  GoalBits goals_;                           // per BFS index (liveness): compact goal bits
  RecoveryEdges recovery_edges_;             // per BFS index (liveness): its recovery successors' BFS indexes
  Frontier frontier_;
  Frontier next_frontier_;
  std::uint64_t transitions_ = 0;
  std::array<std::uint64_t, 256> action_counts_{};
  std::uint32_t affords_since_resident_ = kResidentEvery - 1;  // the first call reads it
  std::uint64_t peak_resident_ = 0;  // the most ExploreOptions::resident_bytes said
  std::size_t capped_batch_ = 0;     // the batch size in states (0: not chosen yet)  // transitions merged, by Successor::kind
  std::uint64_t peak_memory_ = 0;  // the most affords() accepted
  std::uint64_t peak_spilled_ = 0;  // the most the spill files held, as of a chunk's merge
  std::size_t merge_position_ = 0;          // the frontier position of the next expanded state the merge takes
  std::vector<Chunk>* merging_ = nullptr;   // the batch being merged (its slots move when the table grows)
  std::vector<Chunk>* expanding_ = nullptr;  // the batch expanded during that merge (its slots too)
  std::function<void()> finish_expansion_;   // while others expand: finishes that batch and joins them
  std::array<Occurrence, kMaxProperties> first_{};
  std::vector<Occurrence> liveness_first_;
  StopReason stop_ = StopReason::Complete;
  std::atomic<bool> worker_failed_{false};  // a helper thread threw (worker_failure_): the others stop
  std::mutex worker_failure_mutex_;
  std::exception_ptr worker_failure_;
  // A step that outgrew the world (CapacityExceeded): the state's position in the frontier and the action.
  FirstCapacityStep capacity_;  // a step that outgrew the world (it stops the run)

  std::chrono::steady_clock::time_point start_;
  std::atomic<std::uint64_t> progress_states_{0};
  std::atomic<std::uint64_t> progress_transitions_{0};
  std::atomic<std::uint64_t> progress_level_size_{0};
  std::atomic<std::uint64_t> progress_expanded_{0};
  std::atomic<std::uint64_t> progress_next_{0};
  std::atomic<int> progress_depth_{0};
  std::atomic<std::uint64_t> progress_memory_{0};
  std::atomic<int> progress_sweep_{0};
  std::atomic<std::uint64_t> progress_swept_{0};
};

}  // namespace detail

// Explores every state `system` reaches (within the options' bounds). Deterministic: the same
// system and options give the same result for any number of threads (but `seconds`).
template <System S>
ExploreResult<S> explore(const S& system, const ExploreOptions& options = {}) {
  detail::Explorer<S> explorer(system, options);
  return explorer.run();
}

}  // namespace kcspec::explorer
