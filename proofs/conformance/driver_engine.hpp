// The live driver (`kcspec drive`): runs histories of the spec's enabled actions through a system
// under test (driver_session.hpp) and compares the SUT's observation with the spec's after init
// (after `given`, when the session starts from a given world: every history then starts there)
// and after every step.
//
// - Random mode: `histories` random histories of at most `max_steps` actions, history h drawn
//   from its own seed (historySeed(seed, h)) with `choose`. The first failing history is shrunk
//   (proofs/agreement/shrink.hpp) while it still fails the same way, and reported.
// - Exhaustive mode: the spec's state graph breadth first, to depth `max_steps`, at most
//   `max_states` distinct states (64-bit fingerprints, as the explorer's). Every transition out of
//   a state above that depth is then checked in the SUT by a walk that follows unchecked
//   transitions from the state the SUT is in, and resets the SUT and replays the shortest path
//   to the next state with unchecked transitions only when it reaches a dead end. A failure is
//   reported on the shortest path to the failing transition (replayed in a fresh SUT process to
//   confirm it), or on the walk itself if that path does not fail.
//
// The spec decides what is enabled; the SUT must accept every action it is given. Only the
// action kinds the SUT lists in init_ok are chosen, when it lists them.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "proofs/conformance/driver_session.hpp"
#include "spec/rules/cluster_state.hpp"
#include "spec/vocabulary/action.hpp"
#include "spec/vocabulary/config.hpp"

namespace kcspec::conformance {

// Picks one of `enabled` (never empty) in `state`, from `random`; returns its position.
using ActionChooser =
    std::function<std::size_t(const spec::ClusterState& state, const std::vector<Action>& enabled, std::uint64_t random)>;

struct DriveProgress {
  std::uint64_t histories = 0;    // random: histories run so far
  std::uint64_t states = 0;       // exhaustive: distinct states so far
  std::uint64_t transitions = 0;  // exhaustive: transitions checked so far
  int depth = 0;                  // exhaustive: the level being expanded
  std::uint64_t sut_steps = 0;    // steps sent to the SUT so far
  // random: histories that ended before a step that outgrew the modeled world (CapacityExceeded,
  // docs/spec/rules.md "Histories that outgrow the model"): the step is not sent
  std::uint64_t histories_at_capacity = 0;
  // random, once a history failed: its shrinking (reported when it starts, then now and then)
  bool shrinking = false;
  std::size_t found_length = 0;      // the failing history's length as found
  std::size_t shortest_failing = 0;  // the shortest history that still fails the same way, so far
  int shrink_replays = 0;            // replays spent shrinking so far (at most max_shrink_replays + 1)
};

struct DriveOptions {
  bool exhaustive = false;
  std::uint64_t seed = 1;
  int histories = 100;                // random mode
  int max_steps = 30;                 // random: per history; exhaustive: depth
  std::uint64_t max_states = 20'000;  // exhaustive
  int max_shrink_replays = 400;       // random: replays the shrinker may spend
  int max_shrink_timeouts = 3;        // random: candidates that may time out while shrinking (each costs the timeout)
  ActionChooser choose;               // empty: uniform
  std::function<void(const DriveProgress&)> progress;  // called now and then (about once a second)
  // Polled between steps (Ctrl-C): when it becomes true the run stops and reports what it did —
  // a finding found so far (random mode: shrunk no further), or none (DriveReport::interrupted).
  const std::atomic<bool>* cancel = nullptr;
};

struct Finding {
  SutFailure failure;                 // kind, message, detail
  std::vector<Action> history;        // the actions up to and including the failing one
  std::uint64_t history_seed = 0;     // random mode: the failing history's own seed
  int history_index = -1;             // random mode: which history (0-based)
  std::size_t unshrunk_length = 0;    // random mode: the history's length before shrinking
  int shrink_replays = 0;
  // Random mode: the history fails in a fresh SUT process too (false: it failed only after the
  // histories before it, and is reported unshrunk).
  bool reproduces_alone = true;
  bool shrink_interrupted = false;    // random mode: Ctrl-C stopped the shrinking (the history still fails)
};

// Exhaustive mode: a step of the spec's graph outgrew the modeled world (CapacityExceeded). The
// run stops there, before any SUT step is checked: the configuration is beyond what the model holds.
struct CapacityStop {
  std::string what;             // CapacityExceeded::what()
  std::vector<Action> history;  // a shortest history whose last action throws it
};

struct DriveReport {
  DriveProgress totals;
  bool complete = false;              // exhaustive: every reachable state within the bounds was covered
  bool interrupted = false;           // DriveOptions::cancel stopped the run early
  std::optional<Finding> finding;
  std::optional<CapacityStop> capacity;  // exhaustive (CapacityStop); never with a finding
};

DriveReport drive(const Config& config, SutSession& sut, const DriveOptions& options);

// Replay mode: the one history `history` (a scenario's steps), each action of which the spec must
// enable from the session's start (std::invalid_argument naming the first that is not: the
// caller checks beforehand). A failure is the finding, on the history up to the failing step.
DriveReport driveHistory(const Config& config, SutSession& sut, const std::vector<Action>& history);

// History h's seed in random mode.
std::uint64_t historySeed(std::uint64_t seed, int history);

// How a replay of a fixed history went: it passed, it failed, or the spec does not enable one of
// its actions or one of its steps outgrows the modeled world (the history does not apply; the SUT
// was not asked).
struct ReplayOutcome {
  enum class Kind : std::uint8_t { Passed, Failed, NotApplicable } kind = Kind::Passed;
  std::optional<SutFailure> failure;
  std::size_t failing_step = 0;       // 0: at init/reset; k: after the k-th action
};
// `fresh`: in a new SUT process rather than after a reset (the shrinker's replays, so that a
// shrunk history fails from a clean start, whatever earlier histories left behind).
ReplayOutcome replayHistory(const Config& config, SutSession& sut, const std::vector<Action>& history,
                            std::uint64_t* sut_steps = nullptr, bool fresh = false);

}  // namespace kcspec::conformance
