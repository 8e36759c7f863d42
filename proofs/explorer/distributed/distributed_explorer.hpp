// The explorer over several processes (`kcspec explore --distributed` under `mpirun`): the same
// breadth-first search as explorer.hpp, its states owned by the rank their fingerprint hashes to
// (owned_states.hpp ownerOf), with the same counts and verdicts for any number of ranks and of
// threads per rank (docs/distributed.md).
//
// How it works, per rank:
// - Level-synchronous BFS in rounds. A level's states are expanded in batches, every rank one batch
//   per round (a rank whose level is done joins the round with nothing): decode, check the state
//   properties, list the actions, compute each successor through the shared stepper (stepper.hpp:
//   the same reduction, the same chains), check the step properties. Each successor goes to its
//   owner with its parent's fingerprint and, unless its owner is this rank and knows it, its
//   encoding; after the exchange (Communicator::exchange) each rank keeps what it did not know
//   as its next level's states. A round ends with one sum over the ranks (states, transitions,
//   the queue, and whether any rank must stop), so every rank stops at the same round.
// - Counts do not depend on the ranks: every reachable state is owned once and expanded once, and
//   what a state expands to depends on the state alone (the reduction's chains need no cycle
//   proviso; a system with persistent actions that do not descend a measure is refused).
//   Which parent a state keeps depends on arrival order, so a counterexample's path may differ
//   from the one-process search's — never its depth, so an unreduced search's counterexamples are
//   as long as the one-process search's.
// - Safety: each rank counts the violations among what it expanded and keeps the first; the
//   shallowest over the ranks (lowest rank on a tie) is reported. Its path is rebuilt by asking
//   each state's owner for its parent (one broadcast per step), then replayed on rank 0 from the
//   initial state (counterexample.hpp), as the one-process search does.
// - Liveness: a recovery edge s → t is kept by t's owner as (t, s); the goal bits recovery can
//   reach are spread backwards in rounds — each state whose bits changed sends them to the owners
//   of its recovery predecessors — until no rank changes any (the least fixpoint of explorer.hpp's
//   sweeps). Then each rank finds its violators per goal, and the shallowest is reported.
// - A step that outgrows the modeled world (CapacityExceeded) stops every rank at the round's end,
//   and the lowest rank that found one has its history rebuilt as a violation's is
//   (ExploreResult::capacity at rank 0).
// - Memory (ExploreOptions::max_memory_bytes applies per rank): the owned states (a table of 12
//   bytes a slot and 16 bytes of records a state), goal bits, recovery edges (12 bytes each), the
//   frontier (compressed, spillable) and the round's messages.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <limits>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "proofs/explorer/capacity_step.hpp"
#include "proofs/explorer/counterexample.hpp"
#include "proofs/explorer/distributed/communicator.hpp"
#include "proofs/explorer/distributed/owned_states.hpp"
#include "proofs/explorer/distributed/wire.hpp"
#include "proofs/explorer/explore_result.hpp"
#include "proofs/explorer/frontier.hpp"
#include "proofs/explorer/goal_bits.hpp"
#include "proofs/explorer/progress_monitor.hpp"
#include "proofs/explorer/property_roles.hpp"
#include "proofs/explorer/stepper.hpp"
#include "proofs/explorer/system.hpp"
#include "proofs/explorer/visited_set.hpp"

namespace kcspec::explorer::distributed {

// One rank's share of a distributed run.
struct RankFigures {
  std::uint64_t states = 0;        // owned
  std::uint64_t transitions = 0;   // computed by this rank (from the states it expanded)
  std::uint64_t memory_bytes = 0;  // the most it accounted at once
  std::uint64_t bytes_sent = 0;    // to other ranks
};

struct DistributedReport {
  int ranks = 1;
  std::uint64_t rounds = 0;            // of the search (each one exchange)
  std::uint64_t liveness_rounds = 0;   // of the liveness pass
  std::vector<RankFigures> per_rank;   // at rank 0: every rank's, in rank order; elsewhere: this rank's

  // The most states a rank owns over the mean (1.0: perfectly even).
  double imbalance() const {
    if (per_rank.empty()) return 1.0;
    std::uint64_t most = 0, total = 0;
    for (const RankFigures& r : per_rank) {
      most = std::max(most, r.states);
      total += r.states;
    }
    return total == 0 ? 1.0 : static_cast<double>(most) * static_cast<double>(per_rank.size()) / static_cast<double>(total);
  }
  std::uint64_t bytesSent() const {
    std::uint64_t total = 0;
    for (const RankFigures& r : per_rank) total += r.bytes_sent;
    return total;
  }
};

namespace detail {

using explorer::detail::Counterexamples;
using explorer::detail::ProgressMonitor;
using explorer::detail::PropertyRoles;
using explorer::detail::Stepper;

template <System S>
class DistributedExplorer {
  using State = typename S::State;
  using Action = typename S::Action;
  using Index = OwnedStates::Index;
  static constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
  static constexpr std::uint8_t kRecovery = 1;  // message flags
  static constexpr std::uint8_t kEncoded = 2;

 public:
  DistributedExplorer(const S& system, const ExploreOptions& options, Communicator& comm)
      : system_(system),
        stepper_(system),
        options_(options),
        roles_(system.properties(), options),
        comm_(comm),
        ranks_(comm.size()),
        rank_(comm.rank()) {
    check_liveness_ = options_.check_liveness && !roles_.liveness().empty();
    if constexpr (HasPersistentActions<S>) reduce_ = options_.reduction == Reduction::Por;
    if (reduce_ && !Stepper<S>::kChains) {
      throw std::invalid_argument(
          "the distributed search reduces only by chains of persistent actions (a system with a descent measure)");
    }
    goals_ = GoalBits(roles_.liveness().size() + 1);  // goal bits 0 … n−1 and the all-goals bit n
    threads_ = options_.threads != 0 ? options_.threads : std::max(1u, std::thread::hardware_concurrency());
    next_frontier_ = Frontier(options_.spill_directory);
  }

  ExploreResult<S> run(DistributedReport* report) {
    start_ = std::chrono::steady_clock::now();
    ExploreResult<S> result;
    result.system = std::string(system_.name());
    result.threads = threads_;

    // At rank 0 only: the others' progress reaches it with each round's sum.
    ProgressMonitor monitor(options_, [this] { return snapshot(); }, /*enabled=*/rank_ == 0);

    explore();
    if (stop_ == StopReason::Complete && check_liveness_) result.liveness_checked = checkLiveness();
    monitor.stop();

    // The run's figures, summed over the ranks.
    std::vector<std::uint64_t> sums(kSumsFixed + action_counts_.size(), 0);
    sums[0] = owned_.size();
    sums[1] = transitions_;
    sums[2] = reduced_states_;
    sums[3] = chained_steps_;
    sums[4] = recovery_edges_;
    sums[5] = std::max(peak_memory_, memory());
    sums[6] = owned_.bytes();
    sums[7] = spilled();
    std::copy(action_counts_.begin(), action_counts_.end(), sums.begin() + kSumsFixed);
    comm_.sumAll(sums);
    std::array<std::uint64_t, 1> resident{peak_resident_};
    comm_.maxAll(resident);
    result.states = sums[0];
    result.transitions = sums[1];
    result.reduced_states = sums[2];
    result.chained_steps = sums[3];
    result.recovery_edges = sums[4];
    result.memory_bytes = sums[5];
    result.visited_bytes = sums[6];
    result.spilled_bytes = sums[7];
    result.resident_bytes = resident[0];
    if constexpr (HasActionKinds<S>) {
      const std::span<const std::string_view> kinds = system_.actionKinds();
      KCSPEC_ASSERT(kinds.size() <= action_counts_.size());
      for (std::size_t k = 0; k < kinds.size(); ++k) result.action_counts.emplace_back(kinds[k], sums[kSumsFixed + k]);
    }
    result.reduction = reduce_ ? Reduction::Por : Reduction::None;
    result.max_depth = static_cast<int>(level_begin_.size()) - 1;
    result.stop = stop_;
    result.liveness_sweeps = static_cast<int>(std::min<std::uint64_t>(liveness_rounds_, INT32_MAX));
    buildViolations(result);
    if (stop_ == StopReason::Capacity) buildCapacity(result);
    DistributedReport figures;  // collective: every rank gathers, whether or not its caller asked
    fillReport(figures);
    if (report != nullptr) *report = std::move(figures);
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    return result;
  }

 private:
  static constexpr std::size_t kSumsFixed = 8;
  static constexpr std::uint64_t kLivenessBatch = std::uint64_t{1} << 16;  // targets a liveness exchange spreads

  struct Successor {
    Fingerprint fingerprint = 0;
    PropertyMask step_violations = 0;
    std::uint32_t ordinal = 0;
    std::uint32_t offset = 0;  // its encoding in the chunk's arena, when encoded
    std::uint32_t length = 0;
    bool encoded = false;
    bool recovery = false;
    std::uint8_t kind = 0;
  };

  using Expanded = typename Stepper<S>::Expanded;

  struct Chunk {
    bool done = false;
    bool truncated = false;
    std::vector<Expanded> states;
    std::vector<Successor> successors;
    std::string arena;
  };

  // A rank's first occurrence of a violation: the shallowest state it expanded that shows it.
  struct Occurrence {
    std::uint64_t count = 0;
    std::uint32_t depth = kNone;
    Index state = 0;
    std::uint32_t ordinal = kNone;  // the violating action, for a step property
  };

  // ------------------------------------------------------------------ bookkeeping

  std::uint64_t memory() const {
    return owned_.bytes() + goals_.size() * goals_.bytesPerState() +
           recovery_from_.capacity() * (sizeof(Index) + sizeof(Fingerprint)) + frontier_.memory() +
           next_frontier_.memory() + round_bytes_;
  }
  std::uint64_t spilled() const { return frontier_.spilledBytes() + next_frontier_.spilledBytes(); }

  bool affords(std::uint64_t bytes) {
    if (options_.max_memory_bytes != 0 && bytes > options_.max_memory_bytes) return false;
    peak_memory_ = std::max(peak_memory_, bytes);
    return true;
  }
  // Under --max-memory, the process's resident memory too (read once a round).
  bool residentFits() {
    if (!options_.resident_bytes) return true;
    const std::uint64_t resident = options_.resident_bytes();
    peak_resident_ = std::max(peak_resident_, resident);
    return options_.max_memory_bytes == 0 || resident <= options_.max_memory_bytes;
  }

  bool interrupted() const { return options_.interrupted(); }
  bool timedOut() const { return options_.outOfTime(start_); }

  Progress snapshot() const {
    Progress p;
    p.states = progress_states_.load(std::memory_order_relaxed);
    p.transitions = progress_transitions_.load(std::memory_order_relaxed);
    p.queue = progress_queue_.load(std::memory_order_relaxed);
    p.depth = progress_depth_.load(std::memory_order_relaxed);
    p.memory_bytes = progress_memory_.load(std::memory_order_relaxed);
    p.liveness_sweep = progress_sweep_.load(std::memory_order_relaxed);
    p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    return p;
  }

  std::uint32_t compactGoals(PropertyMask reached) const { return GoalBits::compact(reached, roles_.liveness()); }

  // The depth of an owned state: the level its index falls in.
  std::uint32_t depthOf(Index index) const {
    const auto it = std::upper_bound(owned_level_begin_.begin(), owned_level_begin_.end(), std::uint64_t{index});
    KCSPEC_ASSERT(it != owned_level_begin_.begin());
    return static_cast<std::uint32_t>(it - owned_level_begin_.begin() - 1);
  }

  void record(Occurrence& first, std::uint32_t depth, Index state, std::uint32_t ordinal) {
    if (first.count++ == 0) {
      first.depth = depth;
      first.state = state;
      first.ordinal = ordinal;
    }
  }

  // ------------------------------------------------------------------ the search

  // A state this rank owns, new or known: false when the memory cap stops the run.
  bool admit(Fingerprint stored, Fingerprint parent, std::string_view encoding, bool encoded, bool recovery) {
    std::optional<Index> target = owned_.find(stored);
    if (!target) {
      if (!encoded) throw std::logic_error("a new state arrived without its encoding");
      const std::uint64_t after =
          memory() - owned_.bytes() + owned_.bytesAfterInsert() + next_frontier_.bytesToPush(encoding.size()) + 4;
      if (!affords(after)) return false;
      target = owned_.insert(stored, parent);
      next_frontier_.push(encoding, *target);
    }
    if (recovery && stored != parent) {
      if (!affords(memory() + sizeof(Index) + sizeof(Fingerprint))) return false;
      recovery_from_.push_back(parent);
      recovery_to_.push_back(*target);
      ++recovery_edges_;
    }
    return true;
  }

  // The successors other ranks (and this one) sent: what route() wrote, admitted in order; false
  // when the memory cap stops the run.
  bool admitAll(const std::vector<std::string>& messages) {
    for (const std::string& message : messages) {
      WireReader reader(message);
      while (!reader.done()) {
        const Fingerprint stored = reader.get<std::uint64_t>();
        const Fingerprint parent = reader.get<std::uint64_t>();
        const std::uint8_t flags = reader.get<std::uint8_t>();
        std::string_view bytes;
        if (flags & kEncoded) bytes = reader.bytes(reader.get<std::uint32_t>());
        if (!admit(stored, parent, bytes, (flags & kEncoded) != 0, (flags & kRecovery) != 0)) return false;
      }
    }
    return true;
  }

  // Follows ExploreOptions::expected_states: this rank's share (expectedShare), sized up front
  // when the cap allows it.
  void presize() {
    const std::uint64_t share = expectedShare(options_.expected_states, ranks_);
    if (share == 0) return;
    if (!affords(OwnedStates::bytesToHold(static_cast<std::size_t>(share)))) return;
    owned_.reserve(static_cast<std::size_t>(share));
  }

  void explore() {
    presize();
    const std::vector<State> initial = system_.initialStates();
    std::string encoding;
    level_begin_.push_back(0);
    owned_level_begin_.push_back(0);
    for (const State& state : initial) {
      const Fingerprint stored = VisitedSet::stored(system_.fingerprint(state));
      if (ownerOf(stored, ranks_) != rank_) continue;
      encoding.clear();
      system_.encode(state, encoding);
      if (!admit(stored, 0, encoding, true, false)) {
        stop_ = StopReason::MemoryLimit;
        break;
      }
    }
    // Every rank agrees on the stop before the first level.
    std::array<std::uint64_t, 2> start{owned_.size(), stop_ == StopReason::MemoryLimit ? 1u : 0u};
    comm_.sumAll(start);
    global_states_ = start[0];
    if (start[1] != 0) {
      stop_ = StopReason::MemoryLimit;
      return;
    }
    for (int depth = 0;; ++depth) {
      frontier_ = std::move(next_frontier_);
      frontier_.finish();
      next_frontier_ = Frontier(options_.spill_directory);
      // The level's rounds: as many as the rank with the most of its states needs batches.
      const std::size_t full_batch = options_.batch_states != 0 ? options_.batch_states : std::size_t{2048} * threads_;
      std::array<std::uint64_t, 1> rounds{(frontier_.size() + full_batch - 1) / full_batch};
      comm_.maxAll(rounds);
      std::array<std::uint64_t, 1> level_states{frontier_.size()};
      comm_.sumAll(level_states);
      if (level_states[0] == 0) {
        level_begin_.pop_back();
        owned_level_begin_.pop_back();
        return;
      }
      level_begin_.push_back(global_states_);
      owned_level_begin_.push_back(owned_.size());
      const bool expand = options_.max_depth < 0 || depth < options_.max_depth;
      progress_depth_ = depth;
      bool truncated = false;
      for (std::uint64_t round = 0; round < rounds[0]; ++round) {
        const std::size_t begin = std::min<std::size_t>(frontier_.size(), round * full_batch);
        const std::size_t end = std::min<std::size_t>(frontier_.size(), begin + full_batch);
        std::vector<Chunk> chunks = expandBatch(begin, end, expand);
        bool stop_memory = false;
        std::vector<std::string> outgoing(static_cast<std::size_t>(ranks_));
        const bool complete = route(chunks, begin, static_cast<std::uint32_t>(depth), outgoing, truncated);
        chunks.clear();
        std::vector<std::string> incoming;
        round_bytes_ = 0;
        for (const std::string& o : outgoing) round_bytes_ += o.size();
        comm_.exchange(outgoing, incoming);
        outgoing.clear();
        for (const std::string& m : incoming) round_bytes_ += m.size();
        if (!affords(memory()) || !admitAll(incoming)) stop_memory = true;
        incoming.clear();
        round_bytes_ = 0;
        if (!residentFits()) stop_memory = true;
        ++rounds_;
        // One sum ends the round: every rank learns the totals and whether any must stop.
        const bool capacity = capacity_.found();
        std::array<std::uint64_t, 8> status{owned_.size(),
                                            transitions_,
                                            (frontier_.size() - end) + next_frontier_.size(),
                                            stop_memory ? 1u : 0u,
                                            interrupted() ? 1u : 0u,
                                            timedOut() || (!complete && !interrupted() && !capacity) ? 1u : 0u,
                                            memory(),
                                            capacity ? 1u : 0u};
        comm_.sumAll(status);
        global_states_ = status[0];
        progress_states_.store(status[0], std::memory_order_relaxed);
        progress_transitions_.store(status[1], std::memory_order_relaxed);
        progress_queue_.store(status[2], std::memory_order_relaxed);
        progress_memory_.store(status[6], std::memory_order_relaxed);
        if (status[3] + status[4] + status[5] + status[7] != 0) {
          // A step beyond the model outranks the rest, as in the one-process search.
          stop_ = status[7] != 0   ? StopReason::Capacity
                  : status[3] != 0 ? StopReason::MemoryLimit
                  : status[4] != 0 ? StopReason::Cancelled
                                   : StopReason::TimeLimit;
          if (global_states_ == level_begin_.back()) {
            level_begin_.pop_back();
            owned_level_begin_.pop_back();
          }
          return;
        }
      }
      std::array<std::uint64_t, 2> after{truncated ? 1u : 0u, violationFound() ? 1u : 0u};
      comm_.sumAll(after);
      if (!expand) {
        level_begin_.pop_back();
        owned_level_begin_.pop_back();
        if (after[0] != 0) stop_ = StopReason::DepthLimit;
        return;
      }
      if (options_.stop_at_violation && after[1] != 0) {
        stop_ = StopReason::Violation;
        std::array<std::uint64_t, 1> next{next_frontier_.size()};
        comm_.sumAll(next);
        if (next[0] == 0) {
          level_begin_.pop_back();
          owned_level_begin_.pop_back();
        }
        return;
      }
    }
  }

  bool violationFound() const {
    const auto properties = system_.properties();
    for (std::size_t i = 0; i < properties.size(); ++i) {
      if (first_[i].count > 0 && !roles_.known(i)) return true;
    }
    return false;
  }

  // Expands frontier states [first, last) in chunks on up to threads_ threads; a chunk is not done
  // when the run was interrupted or ran out of time meanwhile.
  std::vector<Chunk> expandBatch(std::size_t first, std::size_t last, bool expand) {
    const std::size_t n = last - first;
    if (n == 0) return {};
    const std::size_t chunk_size = std::clamp<std::size_t>(n / (std::size_t{threads_} * 16), 1, 64);
    const std::size_t chunk_count = (n + chunk_size - 1) / chunk_size;
    std::vector<Chunk> chunks(chunk_count);
    std::atomic<std::size_t> next_chunk{0};
    std::atomic<bool> failed{false};
    std::exception_ptr failure;
    std::mutex failure_mutex;
    auto work = [&] {
      try {
        typename Stepper<S>::Worker worker;
        for (;;) {
          if (failed.load(std::memory_order_relaxed)) return;
          const std::size_t c = next_chunk.fetch_add(1, std::memory_order_relaxed);
          if (c >= chunk_count) return;
          const std::size_t begin = first + c * chunk_size;
          const std::size_t end = std::min(last, begin + chunk_size);
          if (!expandChunk(chunks[c], begin, end, expand, worker)) return;
        }
      } catch (...) {
        std::lock_guard lock(failure_mutex);
        if (!failure) failure = std::current_exception();
        failed.store(true, std::memory_order_relaxed);
      }
    };
    const unsigned helpers = static_cast<unsigned>(std::min<std::size_t>(threads_, chunk_count)) - 1;
    {
      std::vector<std::jthread> pool;
      pool.reserve(helpers);
      for (unsigned t = 0; t < helpers; ++t) pool.emplace_back(work);
      work();
    }
    if (failure) std::rethrow_exception(failure);
    return chunks;
  }

  bool expandChunk(Chunk& chunk, std::size_t begin, std::size_t end, bool expand, typename Stepper<S>::Worker& worker) {
    std::size_t stepping = 0;  // the action being taken (for a step that outgrows the world)
    const auto add = [&](const State& state, std::string_view encoding, std::span<const Action> actions, std::size_t k) {
      stepping = k;
      Successor successor;
      successor.ordinal = static_cast<std::uint32_t>(k);
      successor.recovery = check_liveness_ && system_.isRecovery(actions[k]);
      if constexpr (HasActionKinds<S>) successor.kind = static_cast<std::uint8_t>(system_.actionKind(actions[k]));
      const std::size_t offset = chunk.arena.size();
      successor.fingerprint = VisitedSet::stored(stepper_.successor(
          state, encoding, actions[k], reduce_, successor.step_violations, worker.step, chunk.arena, successor.encoded,
          // Known when this rank owns it and has it (the table is only read during expansion).
          [&](Fingerprint fingerprint) {
            const Fingerprint stored = VisitedSet::stored(fingerprint);
            return ownerOf(stored, ranks_) == rank_ && owned_.find(stored).has_value();
          }));
      if (successor.encoded) {
        successor.offset = static_cast<std::uint32_t>(offset);
        successor.length = static_cast<std::uint32_t>(chunk.arena.size() - offset);
      }
      chunk.successors.push_back(successor);
    };
    // Partial-order reduction by chains (the constructor refused any other): no cycle proviso.
    const auto kept = [this] {
      chunk_reduced_.fetch_add(1, std::memory_order_relaxed);
      return true;
    };
    bool done = false;
    try {
      done = stepper_.expandRange(
          frontier_, begin, end, expand, reduce_, chunk, worker,
          [this] { return interrupted() || timedOut() || capacity_.found(); },
          [this](const State& state) { return check_liveness_ ? compactGoals(system_.goalsReached(state)) : 0u; }, add,
          kept);
    } catch (const CapacityExceeded&) {
      // The chunk stays not done (route stops the run) and the worker's scratch state is left
      // behind: the round ends every rank's run with the step that needed more room than the world
      // has (its message is found again when the history is replayed: Counterexamples::capacity).
      capacity_.note(begin + chunk.states.size(), static_cast<std::uint32_t>(stepping));
    }
    chunk_chained_.fetch_add(worker.step.chain.steps, std::memory_order_relaxed);
    return done;
  }


  // After a run that stopped at the model's capacity (collective): the lowest rank that found such
  // a step (every rank stopped in the same level, so its history is as short as any) rebuilds the
  // path to its state, and rank 0 replays it.
  void buildCapacity(ExploreResult<S>& result) {
    std::array<std::uint64_t, 1> key{capacity_.found() ? static_cast<std::uint64_t>(ranks_ - rank_) : 0u};
    comm_.maxAll(key);
    KCSPEC_ASSERT(key[0] != 0);  // some rank found it: that is why every rank stopped
    const int holder = ranks_ - static_cast<int>(key[0]);
    std::uint32_t ordinal = capacity_.ordinal();
    const Index index = rank_ == holder ? frontier_.slotAt(capacity_.position()) : 0;
    const std::vector<Fingerprint> path = pathFrom(holder, index, ordinal);
    if (rank_ == 0) result.capacity = Counterexamples<S>(system_, reduce_, reduce_).capacity(path, ordinal);
  }

  // Records what the batch's states showed and sends each successor to its owner; false when a
  // chunk was not done (the run was interrupted or ran out of time).
  bool route(std::vector<Chunk>& chunks, std::size_t first, std::uint32_t depth, std::vector<std::string>& outgoing,
             bool& truncated) {
    std::size_t position = first;
    for (Chunk& chunk : chunks) {
      if (!chunk.done) return false;
      truncated |= chunk.truncated;
      for (const Expanded& expanded : chunk.states) {
        const Index index = frontier_.slotAt(position++);
        const Fingerprint self = owned_.fingerprintOf(index);
        for (PropertyMask bits = expanded.state_violations; bits != 0; bits &= bits - 1) {
          record(first_[static_cast<std::size_t>(std::countr_zero(bits))], depth, index, kNone);
        }
        if (check_liveness_) {
          KCSPEC_ASSERT(goals_.size() == index);  // expanded in index order
          goals_.push_back(expanded.goals);
        }
        for (std::uint32_t s = 0; s < expanded.successor_count; ++s) {
          const Successor& successor = chunk.successors[expanded.first_successor + s];
          ++transitions_;
          ++action_counts_[successor.kind];
          for (PropertyMask bits = successor.step_violations; bits != 0; bits &= bits - 1) {
            record(first_[static_cast<std::size_t>(std::countr_zero(bits))], depth, index, successor.ordinal);
          }
          std::string& out = outgoing[static_cast<std::size_t>(ownerOf(successor.fingerprint, ranks_))];
          put(out, successor.fingerprint);
          put(out, self);
          put(out, static_cast<std::uint8_t>((successor.recovery ? kRecovery : 0) | (successor.encoded ? kEncoded : 0)));
          if (successor.encoded) {
            put(out, successor.length);
            out.append(chunk.arena, successor.offset, successor.length);
          }
        }
      }
      chunk = Chunk{};
    }
    reduced_states_ += chunk_reduced_.exchange(0);
    chained_steps_ += chunk_chained_.exchange(0);
    return true;
  }

  // ------------------------------------------------------------------ liveness

  // reach (goals_, in place): the least fixpoint of reach[s] = goals[s] | reach[t] for every
  // recovery edge s → t, spread backwards in rounds from the states whose bits changed. False when
  // interrupted (or out of time) meanwhile: liveness is then unchecked.
  bool checkLiveness() {
    const std::size_t n = owned_.size();
    KCSPEC_ASSERT(goals_.size() == n);  // complete: every owned state was expanded
    // The edges by target (counting sort): sources of target t at [edge_begin[t], edge_begin[t+1]).
    std::vector<std::uint64_t> edge_begin(n + 1, 0);
    for (Index t : recovery_to_) ++edge_begin[t + 1];
    for (std::size_t t = 0; t < n; ++t) edge_begin[t + 1] += edge_begin[t];
    std::vector<Fingerprint> sources(recovery_from_.size());
    for (std::size_t e = 0; e < recovery_to_.size(); ++e) sources[edge_begin[recovery_to_[e]]++] = recovery_from_[e];
    for (std::size_t t = n; t > 0; --t) edge_begin[t] = edge_begin[t - 1];  // each was moved to its end
    edge_begin[0] = 0;
    recovery_from_ = {};
    recovery_to_ = {};
    // The first round spreads every state's goal bits; the next ones, those that changed.
    std::vector<Index> changed;
    std::vector<bool> marked(n, false);
    std::vector<Index> next;
    for (std::uint64_t round = 1;; ++round) {
      progress_sweep_.store(static_cast<int>(std::min<std::uint64_t>(round, INT32_MAX)), std::memory_order_relaxed);
      // The round's targets go in batches, so that the messages a rank holds at once stay bounded:
      // the first round spreads every state's goal bits, the next ones those that changed.
      const std::uint64_t targets = round == 1 ? n : changed.size();
      const auto target = [&](std::uint64_t k) { return round == 1 ? static_cast<Index>(k) : changed[k]; };
      std::array<std::uint64_t, 1> batches{(targets + kLivenessBatch - 1) / kLivenessBatch};
      comm_.maxAll(batches);
      for (std::uint64_t batch = 0; batch < batches[0]; ++batch) {
        std::vector<std::string> outgoing(static_cast<std::size_t>(ranks_));
        const std::uint64_t end_target = std::min(targets, (batch + 1) * kLivenessBatch);
        for (std::uint64_t k = std::min(targets, batch * kLivenessBatch); k < end_target; ++k) {
          const Index t = target(k);
          for (std::uint64_t e = edge_begin[t]; e < edge_begin[t + 1]; ++e) {
            std::string& out = outgoing[static_cast<std::size_t>(ownerOf(sources[e], ranks_))];
            put(out, sources[e]);
            put(out, static_cast<std::uint32_t>(goals_[t]));
          }
        }
        std::vector<std::string> incoming;
        comm_.exchange(outgoing, incoming);
        outgoing.clear();
        for (const std::string& message : incoming) {
          WireReader reader(message);
          while (!reader.done()) {
            const Fingerprint source = reader.get<std::uint64_t>();
            const std::uint32_t bits = reader.get<std::uint32_t>();
            const std::optional<Index> s = owned_.find(source);
            if (!s) throw std::logic_error("a recovery edge from a state no rank owns");
            const std::uint32_t merged = goals_[*s] | bits;
            if (merged == goals_[*s]) continue;
            goals_.set(*s, merged);
            if (!marked[*s]) {  // spread again next round
              marked[*s] = true;
              next.push_back(*s);
            }
          }
        }
      }
      for (Index s : next) marked[s] = false;
      changed.swap(next);
      next.clear();
      ++liveness_rounds_;
      std::array<std::uint64_t, 3> status{changed.size(), interrupted() ? 1u : 0u, timedOut() ? 1u : 0u};
      comm_.sumAll(status);
      if (status[1] + status[2] != 0) {
        stop_ = status[1] != 0 ? StopReason::Cancelled : StopReason::TimeLimit;
        return false;
      }
      if (status[0] == 0) break;
    }
    // Per goal (and for all goals at once), this rank's first violator: indexes are in BFS order.
    const std::size_t goal_count = roles_.liveness().size() + 1;
    liveness_first_.assign(goal_count, Occurrence{});
    for (std::size_t i = 0; i < n; ++i) {
      roles_.forEachViolatedGoal(goals_[i], [&](std::size_t j) {
        record(liveness_first_[j], depthOf(static_cast<Index>(i)), static_cast<Index>(i), kNone);
      });
    }
    return true;
  }

  // ------------------------------------------------------------------ counterexamples

  // The fingerprints from an initial state to the one rank `holder` names (its state `index`),
  // asking each state's owner for its parent.
  std::vector<Fingerprint> pathFrom(int holder, Index index, std::uint32_t& ordinal) {
    std::string bytes;
    if (rank_ == holder) {
      put(bytes, owned_.fingerprintOf(index));
      put(bytes, ordinal);
    }
    comm_.broadcast(bytes, holder);
    WireReader reader(bytes);
    Fingerprint current = reader.get<std::uint64_t>();
    ordinal = reader.get<std::uint32_t>();
    std::vector<Fingerprint> states;
    while (current != 0) {
      states.push_back(current);
      if (states.size() > std::uint64_t{kNone}) throw std::logic_error("a cycle of parent links");
      const int owner = ownerOf(current, ranks_);
      std::string parent;
      if (rank_ == owner) {
        const std::optional<Index> i = owned_.find(current);
        if (!i) throw std::logic_error("a state on a counterexample's path that its owner does not have");
        put(parent, owned_.parentOf(*i));
      }
      comm_.broadcast(parent, owner);
      current = WireReader(parent).get<std::uint64_t>();
    }
    std::reverse(states.begin(), states.end());
    return states;
  }

  // Which rank's first occurrence is reported for each of `firsts`: the shallowest (the lowest
  // rank on a tie); -1 where no rank has one. The counts are summed in place.
  std::vector<int> winners(std::vector<Occurrence>& firsts) {
    std::vector<std::uint64_t> counts(firsts.size()), keys(firsts.size());
    for (std::size_t i = 0; i < firsts.size(); ++i) {
      counts[i] = firsts[i].count;
      // The largest key wins: the smallest (depth, rank).
      keys[i] = firsts[i].count == 0 ? 0
                                     : std::numeric_limits<std::uint64_t>::max() -
                                           (std::uint64_t{firsts[i].depth} * static_cast<std::uint64_t>(ranks_) +
                                            static_cast<std::uint64_t>(rank_));
    }
    comm_.sumAll(counts);
    comm_.maxAll(keys);
    std::vector<int> out(firsts.size(), -1);
    for (std::size_t i = 0; i < firsts.size(); ++i) {
      firsts[i].count = counts[i];
      if (keys[i] == 0) continue;
      out[i] = static_cast<int>((std::numeric_limits<std::uint64_t>::max() - keys[i]) % static_cast<std::uint64_t>(ranks_));
    }
    return out;
  }

  void buildViolations(ExploreResult<S>& result) {
    const Counterexamples<S> counterexamples(system_, reduce_, reduce_);
    const auto properties = system_.properties();
    std::vector<Occurrence> safety(first_.begin(), first_.begin() + static_cast<std::ptrdiff_t>(properties.size()));
    const std::vector<int> safety_winners = winners(safety);
    for (std::size_t i = 0; i < properties.size(); ++i) {
      if (safety_winners[i] < 0) continue;
      std::uint32_t ordinal = first_[i].ordinal;
      const std::vector<Fingerprint> path = pathFrom(safety_winners[i], first_[i].state, ordinal);
      if (rank_ == 0) {
        static_assert(kNone == Counterexamples<S>::kNoAction);  // a state property's occurrence has no action
        result.violations.push_back(counterexamples.safety(path, i, properties[i], roles_.known(i), safety[i].count, ordinal));
      } else {
        result.violations.push_back(Counterexamples<S>::describe(properties[i], roles_.known(i), safety[i].count));
      }
    }
    if (!result.liveness_checked) return;
    std::vector<Occurrence> liveness = liveness_first_;
    const std::vector<int> liveness_winners = winners(liveness);
    for (std::size_t j = 0; j < liveness.size(); ++j) {
      if (liveness_winners[j] < 0) continue;
      const PropertyInfo& info = roles_.goal(j);
      const bool known = roles_.goalKnown(j);
      std::uint32_t ordinal = kNone;
      const std::vector<Fingerprint> path = pathFrom(liveness_winners[j], liveness_first_[j].state, ordinal);
      if (rank_ == 0) {
        result.violations.push_back(counterexamples.liveness(path, info, known, liveness[j].count));
      } else {
        result.violations.push_back(Counterexamples<S>::describe(info, known, liveness[j].count));
      }
    }
  }

  void fillReport(DistributedReport& report) {
    RankFigures mine{owned_.size(), transitions_, std::max(peak_memory_, memory()), comm_.bytesSent()};
    std::string bytes;
    put(bytes, mine.states);
    put(bytes, mine.transitions);
    put(bytes, mine.memory_bytes);
    put(bytes, mine.bytes_sent);
    const std::vector<std::string> all = comm_.gather(bytes, 0);
    report.ranks = ranks_;
    report.rounds = rounds_;
    report.liveness_rounds = liveness_rounds_;
    report.per_rank.clear();
    if (rank_ != 0) {
      report.per_rank.push_back(mine);
      return;
    }
    for (const std::string& b : all) {
      WireReader reader(b);
      RankFigures f;
      f.states = reader.get<std::uint64_t>();
      f.transitions = reader.get<std::uint64_t>();
      f.memory_bytes = reader.get<std::uint64_t>();
      f.bytes_sent = reader.get<std::uint64_t>();
      report.per_rank.push_back(f);
    }
  }

  const S& system_;
  const Stepper<S> stepper_;
  const ExploreOptions& options_;
  const PropertyRoles roles_;
  Communicator& comm_;
  const int ranks_;
  const int rank_;
  unsigned threads_ = 1;
  bool check_liveness_ = false;
  bool reduce_ = false;  // by chains of persistent actions

  OwnedStates owned_;
  std::vector<std::uint64_t> level_begin_;        // over all ranks: how many states precede each depth
  std::vector<std::uint64_t> owned_level_begin_;  // of this rank's: the first index of each depth
  GoalBits goals_;                                 // per owned index (liveness): goal bits, then reach
  std::vector<Fingerprint> recovery_from_;        // recovery edges into owned states: the source
  std::vector<Index> recovery_to_;                // and the owned target
  std::uint64_t recovery_edges_ = 0;
  Frontier frontier_;
  Frontier next_frontier_;
  std::uint64_t global_states_ = 0;
  std::uint64_t transitions_ = 0;
  std::uint64_t reduced_states_ = 0;
  std::uint64_t chained_steps_ = 0;
  std::atomic<std::uint64_t> chunk_reduced_{0};
  std::atomic<std::uint64_t> chunk_chained_{0};
  std::array<std::uint64_t, 256> action_counts_{};
  std::uint64_t peak_memory_ = 0;
  std::uint64_t peak_resident_ = 0;
  std::uint64_t round_bytes_ = 0;  // the round's messages, while they are held
  std::uint64_t rounds_ = 0;
  std::uint64_t liveness_rounds_ = 0;
  std::array<Occurrence, kMaxProperties> first_{};
  std::vector<Occurrence> liveness_first_;
  StopReason stop_ = StopReason::Complete;
  FirstCapacityStep capacity_;  // a step that outgrew the world (it stops the run)

  std::chrono::steady_clock::time_point start_;
  std::atomic<std::uint64_t> progress_states_{0};
  std::atomic<std::uint64_t> progress_transitions_{0};
  std::atomic<std::uint64_t> progress_queue_{0};
  std::atomic<int> progress_depth_{0};
  std::atomic<std::uint64_t> progress_memory_{0};
  std::atomic<int> progress_sweep_{0};
};

}  // namespace detail

// Explores every state `system` reaches over the ranks of `comm` (every rank calls it with the
// same system and options). Every rank returns the same counts, stop and verdicts; rank 0's
// violations carry their counterexamples (the others' only what was violated and how often).
// `report`, when given, gets the per-rank figures (at rank 0, every rank's).
template <System S>
ExploreResult<S> exploreDistributed(const S& system, const ExploreOptions& options, Communicator& comm,
                                    DistributedReport* report = nullptr) {
  detail::DistributedExplorer<S> explorer(system, options, comm);
  return explorer.run(report);
}

}  // namespace kcspec::explorer::distributed
