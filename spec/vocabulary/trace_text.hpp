// The kcspec trace format (docs/trace-format.md): newline-delimited JSON, one object per line.
//
//   {"kcspec-trace":1,"config":"<configuration text>"}       the header, the first non-blank line
//   {"kcspec-trace":1,"preset":"default"}                    … or a preset by name
//   {"kcspec-trace":2,"config":"…","given":{"observation":{…},"unchecked":false}}
//                                                            version 2: the steps start from a
//                                                            given world, not the initial state
//   {"action":"crash 1","observation":{…}}                   one line per step
//
// The header may also carry "observation" (checked against the starting state). "given" (version
// 2 only) is the whole world the steps start from, observation_json.hpp's form with every member
// left out holding its default (as a scenario's `given json`), and "unchecked": true to state a
// world that breaks the rules of a given world (given_text.hpp). A step's
// "action" is action_text.hpp's text form; its "observation" is a PARTIAL observation in
// observation_json.hpp's form: only the members it gives are checked, and an array may be given
// as an object keyed by decimal index ({"0":…}: only those elements are checked). Either line may
// carry "meta" (any JSON value, ignored). Blank lines are ignored; any other member is an error,
// and so is a member name given twice in one object (at any depth).
//
// parseTraceLine is a pure function from one line to what it holds or what is wrong with it,
// so that it can be fuzzed; checking the line against the spec is proofs/conformance's work.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace kcspec {

// The newest version this reader reads; it reads every version from 1. Version 2 adds the header's
// "given"; version 3 a request's "version" in observations (the API version it went out at);
// version 4 topic ids in observations (every configuration at 2.8-IV0 or later has them); version
// 5 /feature and a broker's "ibp_upgraded" in observations, and the configuration's `upgrade
// inter.broker.protocol.version` with the `upgrade-ibp` action (rolling upgrades); version 6 the
// `zk-session-expiry` action, its bound and ZooKeeper's "session_expiring_writes". A
// writer writes the lowest version that holds what it writes (1 without a given and without
// request versions), so that older readers read every trace they can; this reader also takes a
// request's "version" in the observations of older versions (it is checked like any member).
inline constexpr int kTraceFormatVersion = 6;
inline constexpr int kTraceFormatGivenVersion = 2;
inline constexpr int kTraceFormatRequestVersionsVersion = 3;
inline constexpr int kTraceFormatTopicIdsVersion = 4;
inline constexpr int kTraceFormatRollingUpgradeVersion = 5;
inline constexpr int kTraceFormatSessionExpiryVersion = 6;
inline constexpr std::string_view kTraceVersionKey = "kcspec-trace";
inline constexpr std::size_t kMaxTraceLineBytes = std::size_t{16} << 20;

// The header's "given": the world the steps start from (whole, not partial).
struct TraceGiven {
  nlohmann::ordered_json observation;  // an object of observation_json.hpp's form
  bool unchecked = false;              // "unchecked": true — printed only when true
};

struct TraceHeader {
  int version = 1;
  std::optional<std::string> config_text;  // exactly one of config_text and preset
  std::optional<std::string> preset;
  std::optional<nlohmann::ordered_json> observation;  // partial, of the starting state
  std::optional<TraceGiven> given;                    // version 2: the starting world
};

struct TraceStep {
  std::string action;                                 // action_text.hpp's form, not yet parsed
  std::optional<nlohmann::ordered_json> observation;  // partial, of the state after the action
};

struct TraceBlank {};

// What is wrong with the line (no file or line number: the caller adds `file:line: `).
struct TraceLineError {
  std::string message;
};

using TraceLine = std::variant<TraceBlank, TraceHeader, TraceStep, TraceLineError>;

// One line (without its '\n'; a trailing '\r' is allowed). A line holding "kcspec-trace" is a
// header, any other object a step. The observation is checked against observation_json.hpp's
// schema (unknown members, wrong types, ids out of range, keys of an array given by index that
// are no decimal index or past the array's capacity are errors naming the JSON pointer); the
// observation kept is the one given. Never throws.
TraceLine parseTraceLine(std::string_view line);

// The lines a trace writer prints (no '\n').
std::string printTraceHeader(const TraceHeader& header);
std::string printTraceStep(const TraceStep& step);

}  // namespace kcspec
