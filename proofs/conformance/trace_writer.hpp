// Writing a kcspec history (a configuration and actions, e.g. a scenario file or an explorer
// counterexample) as a trace (docs/trace-format.md) or as ITF, the Informal Trace Format of
// Apalache and Quint (https://apalache-mc.org/docs/adr/015adr-trace.html).
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spec/vocabulary/action.hpp"
#include "spec/vocabulary/config.hpp"
#include "spec/vocabulary/observation.hpp"
#include "spec/rules/cluster_state.hpp"

namespace kcspec::conformance {

struct TraceWriteOptions {
  // JSON pointers into the observation (observation_json.hpp), e.g. "/zookeeper/topics/0/states";
  // only these members are written (a pointer into an array takes the whole array), in each state
  // where they exist (not where a member on the way is null, e.g. a znode not yet created). Empty: all.
  std::vector<std::string> fields;
  bool compact = false;        // leave out default members (they are then not checked)
  bool observations = true;    // false: actions only
};

// A history that starts from a given world (a scenario's `given` section, judged by the caller)
// instead of the configuration's initial state: the trace's header records it (format version 2,
// "given"), and ITF's state 0 is it.
struct GivenStart {
  Observation world;
  bool unchecked = false;  // the world was stated `given unchecked`: recorded so that a checker accepts it
};

// The trace: a header with the configuration's text (and the starting observation), then one line
// per action with the spec's observation after it. Throws std::invalid_argument naming the first
// action (1-based) that is not enabled, or a field pointer that names no member in any state.
std::string writeTrace(const Config& config, const std::vector<Action>& actions, const TraceWriteOptions& options,
                       const std::optional<GivenStart>& given = std::nullopt);

// ITF: {"#meta":{…},"vars":["action","zookeeper","brokers"],"states":[{"#meta":{"index":i},…}, …]},
// state 0 the initial state (action "init") or the given world (action "given"), state i the
// state after action i. The encoding of
// the observation (docs/trace-format.md "ITF export"): integers as {"#bigint":"…"}, id-keyed
// objects as {"#map":[[key,value],…]} without their absent entries, sets as {"#set":[…]},
// optional record members as Quint options ({"tag":"Some","value":…} / {"tag":"None",…}).
// Throws std::invalid_argument like writeTrace.
nlohmann::ordered_json writeItf(const Config& config, const std::vector<Action>& actions, std::string_view source,
                                const std::optional<GivenStart>& given = std::nullopt);

// Where a streaming writer sends its text, piece by piece, as each state is known.
using TextSink = std::function<void(std::string_view)>;

// A trace written as the history runs, in bounded memory whatever its length: the constructor
// writes the header, each step one line (the whole of writeTrace's text, in the same pieces).
// step throws std::invalid_argument "action N (…) is not enabled" (what was written before stays
// written); finish throws for a field that named no member in any state.
class TraceStreamWriter {
 public:
  TraceStreamWriter(const Config& config, TraceWriteOptions options, TextSink sink,
                    std::optional<GivenStart> given = std::nullopt);
  void step(const Action& action);
  void finish();
  std::size_t steps() const { return steps_; }

 private:
  void emitState(const std::string& action);

  const Config& config_;
  TraceWriteOptions options_;
  TextSink sink_;
  std::optional<GivenStart> given_;
  std::vector<std::vector<std::string>> fields_;
  std::vector<bool> named_;
  spec::ClusterState state_;
  std::size_t steps_ = 0;
};

// ITF written as the history runs: `{"#meta":…,"vars":…,"states":[` then each state as it is
// reached, then `]}` and a line end from finish. The same document as writeItf's, but for the
// meta description, which cannot give the number of actions before they are read.
class ItfStreamWriter {
 public:
  ItfStreamWriter(const Config& config, std::string_view source, TextSink sink,
                  const std::optional<GivenStart>& given = std::nullopt);
  void step(const Action& action);  // throws like TraceStreamWriter::step
  void finish();
  std::size_t steps() const { return steps_; }

 private:
  void emitState(const std::string& action);

  const Config& config_;
  TextSink sink_;
  spec::ClusterState state_;
  std::size_t steps_ = 0;
};

// An ITF value for an observation's JSON (include_defaults form); exposed for tests.
nlohmann::ordered_json itfObservationValue(const nlohmann::ordered_json& observation_member, std::string_view name);

}  // namespace kcspec::conformance
