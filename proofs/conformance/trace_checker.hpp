// `kcspec check-trace`: replays a recorded trace (spec/vocabulary/trace_text.hpp,
// docs/trace-format.md) through the spec and reports the first line where the trace and the spec
// part: an action the spec does not enable there, or an observed member whose value differs from
// the spec's. Members a trace leaves out are not checked.
#pragma once

#include <nlohmann/json.hpp>

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kcspec::conformance {

// Where a partial observation differs from a full one (observation_json.hpp with
// include_defaults): the JSON pointer of the member, relative to the observation.
struct ObservationMismatch {
  std::string pointer;             // e.g. "/zookeeper/topics/0/states/0/leader"
  nlohmann::ordered_json expected; // the spec's value there (null when the spec has no such member)
  nlohmann::ordered_json actual;   // the trace's value
};

// The first member of `partial` (in its own order, depth first) whose value is not the one in
// `full`. Objects in `partial` are partial (each member given is compared); an object against an
// array addresses elements by decimal index ({"2":…}); arrays are compared by length and then
// element by element; everything else by value.
std::optional<ObservationMismatch> firstMismatch(const nlohmann::ordered_json& full,
                                                 const nlohmann::ordered_json& partial);

struct TraceDivergence {
  int line = 0;                    // 1-based line of the trace file
  std::string action;              // the step's action text ("" for the header's observation)
  std::string pointer;             // "/action" (not enabled) or "/observation/…"
  nlohmann::ordered_json expected; // the spec's value; for "/action": the enabled actions' texts
  nlohmann::ordered_json actual;   // the trace's value
};

struct TraceVerdict {
  std::string config_name;
  // The header's "given": the replay started from that world, not the configuration's initial
  // state; with "unchecked", each rule it breaks ("G3 (a partition's leader is in its ISR): …",
  // "S1 LeaderInIsr"), G rules first (a checked world breaks none but known Kafka deviations).
  bool from_given = false;
  std::vector<std::string> given_breaks;
  int steps = 0;                   // steps replayed (up to and including a diverging one)
  int observations_checked = 0;    // partial observations that matched
  std::optional<TraceDivergence> divergence;
  // TraceCheckOptions::cancel stopped the replay before the end of the trace: the lines up to
  // `lines_checked` conform (a divergence would have ended the replay before).
  bool interrupted = false;
  int lines_checked = 0;           // lines of the trace read, blank ones included
};

// How far a replay is, for a progress line.
struct TraceProgress {
  int line = 0;                    // the last line checked
  int steps = 0;
  int observations_checked = 0;
};

struct TraceCheckOptions {
  // Polled before each line: once it is true the replay stops there and returns the verdict so
  // far with `interrupted` set (no bad-input error for what was not read).
  const std::atomic<bool>* cancel = nullptr;
  // Called after each step (and after the header) on the calling thread.
  std::function<void(const TraceProgress&)> progress;
};

// The trace's lines one at a time, without their line end: false at the end. It may throw
// TextError (a line too long, a read that failed); `line_number` is the line it was reading.
using TraceLineSource = std::function<bool(std::string& line)>;

// Replays the trace line by line as `next_line` gives them (one line in memory at a time: a trace
// of any length is checked in bounded memory), from the header's given world when it has one
// (judged as a scenario's `given json`: given_start.hpp), else from the configuration's initial
// state. Bad input — a malformed line, a wrong or missing header, an action that does not parse,
// a configuration that does not parse, an unknown preset, a given world that is not one of the
// configuration's or (without "unchecked") breaks a rule G1–G9 or a state property of the
// catalog that is no known Kafka deviation — throws TextError "file:line: message".
TraceVerdict checkTrace(const TraceLineSource& next_line, std::string_view file, const TraceCheckOptions& options = {});

// The same over a whole text in memory (tests).
TraceVerdict checkTrace(std::string_view text, std::string_view file, const TraceCheckOptions& options = {});

// "<file>:<line>: <pointer>: spec has <expected>, trace has <actual> (step N: <action>)" and the
// not-enabled wording for "/action".
std::string divergenceText(const TraceDivergence& divergence, std::string_view file);

}  // namespace kcspec::conformance
