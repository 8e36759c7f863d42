// The live driver's stdio protocol (docs/driver-protocol.md), versions 1 and 2: one JSON object
// per line in each direction. The driver (`kcspec drive`) sends requests, the system under test
// (`kcspec sut`, or any program) answers each with exactly one reply carrying the same id.
//
//   driver → SUT                                         SUT → driver
//   {"type":"init","id":1,"protocol":1,"config":"…"}     {"type":"init_ok","id":1,"protocol":1,"observation":{…}}
//   {"type":"given","id":2,"observation":{…}}            {"type":"given_ok","id":2,"observation":{…}}  (protocol 2)
//   {"type":"step","id":3,"action":"create-topic t"}     {"type":"step_ok","id":3,"observation":{…}}
//   {"type":"reset","id":4}                              {"type":"reset_ok","id":4,"observation":{…}}
//   {"type":"quit","id":5}                               {"type":"quit_ok","id":5}, then it exits
//   any request                                          {"type":"error","id":N,"code":"…","message":"…"}
//
// Version 2 adds `given`: the SUT loads the observation as its current state (a run that starts
// from a given world). The driver asks for version 2 in `init` only for such a run, so that a
// version-1 SUT serves every other run unchanged; init_ok repeats the version asked for.
//
// `config` is the configuration's text (spec/vocabulary/config_text.hpp), `action` an action's
// text (action_text.hpp), `observation` spec/vocabulary/observation_json.hpp's form. init_ok may
// list the action kinds the SUT implements ("actions":["create-topic",…]); the driver then
// chooses only among those.
//
// Both parsers here are pure functions of one line: they never throw, never read beyond the
// line, and bound everything they accept (the hardening fuzz targets call them directly).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "spec/vocabulary/action.hpp"
#include "spec/vocabulary/config.hpp"
#include "spec/vocabulary/observation.hpp"

namespace kcspec::conformance {

// The newest version; every version from 1 is spoken. A run asks for the oldest version that has
// what it needs: 1 from the configuration's initial state, kDriverProtocolGivenVersion from a
// given world, kDriverProtocolIbpVersion for a configuration that names an
// inter.broker.protocol.version (other than 3.8-IV0): its requests go out at older versions, whose
// `version` and fields the observations carry (docs/driver-protocol.md, "Versions").
// Version 4 adds topic ids to observations; version 5 the /feature znode and a broker's
// `ibp_upgraded` to observations, and a configuration's `upgrade inter.broker.protocol.version`
// with the `upgrade-ibp` action (rolling upgrades); version 6 the `zk-session-expiry` action, its
// bound `zk-session-expiries` and ZooKeeper's `session_expiring_writes`. The driver asks for the newest first and, from
// a SUT that answers unsupported_protocol, for the version the run needs, comparing without what
// that version lacks.
inline constexpr int kDriverProtocolVersion = 6;
inline constexpr int kDriverProtocolGivenVersion = 2;
inline constexpr int kDriverProtocolIbpVersion = 3;
inline constexpr int kDriverProtocolTopicIdsVersion = 4;
inline constexpr int kDriverProtocolRollingUpgradeVersion = 5;
inline constexpr int kDriverProtocolSessionExpiryVersion = 6;
// The oldest version that has the action kind: `upgrade-ibp` and `zk-connection-loss-feature` came
// with version 5, `zk-session-expiry` with 6, every other kind is in version 1. A session is
// never sent a kind its version lacks.
int actionProtocol(ActionKind kind);
// The version a run asks for (above); for a run that replays `steps` (`kcspec drive --mode
// replay`), also the newest of their kinds' versions.
int neededProtocol(const Config& config, bool from_given_world, std::span<const Action> steps = {});

// A line longer than this (in bytes, without the newline) is malformed in either direction.
inline constexpr std::size_t kDefaultMaxLineBytes = 8u << 20;
// Nesting deeper than this is malformed (a compact observation nests 8 levels).
inline constexpr int kMaxJsonDepth = 32;

// The error codes of an "error" reply.
enum class ErrorCode : std::uint8_t {
  NotEnabled,           // "not_enabled": the action is not enabled in the SUT's current state
  BadAction,            // "bad_action": the action text does not parse for this configuration
  BadConfig,            // "bad_config": the configuration text does not parse
  BadMessage,           // "bad_message": not JSON, not an object, unknown type, a member missing or mistyped
  UnsupportedProtocol,  // "unsupported_protocol": init asked for a version the SUT does not speak
  NotInitialized,       // "not_initialized": step or reset before a successful init
  Unsupported,          // "unsupported": the SUT does not implement this action kind
  Internal,             // "internal": anything else that went wrong in the SUT
};
inline constexpr std::string_view kErrorCodeNames[] = {"not_enabled", "bad_action", "bad_config", "bad_message",
                                                       "unsupported_protocol", "not_initialized", "unsupported",
                                                       "internal"};
constexpr std::string_view errorCodeName(ErrorCode code) { return kErrorCodeNames[static_cast<int>(code)]; }
std::optional<ErrorCode> errorCodeNamed(std::string_view name);

// ----------------------------------------------------------------------- driver → SUT

struct InitRequest {
  std::int64_t id = 0;
  int protocol = 1;
  std::string config_text;
};
// Protocol 2: the world the SUT is to hold from now on (whole: what the JSON leaves out holds its
// default), for the configuration of the last init.
struct GivenRequest {
  std::int64_t id = 0;
  Observation observation;
};
struct StepRequest {
  std::int64_t id = 0;
  std::string action_text;
};
struct ResetRequest {
  std::int64_t id = 0;
};
struct QuitRequest {
  std::int64_t id = 0;
};
using Request = std::variant<InitRequest, GivenRequest, StepRequest, ResetRequest, QuitRequest>;

std::string encodeRequest(const Request& request);  // one line, without the newline

// A request line the SUT could not accept: the reply it owes (id is 0 when the line had none).
struct RequestError {
  std::int64_t id = 0;
  ErrorCode code = ErrorCode::BadMessage;
  std::string message;
};
using ParsedRequest = std::variant<Request, RequestError>;

ParsedRequest parseRequest(std::string_view line, std::size_t max_line_bytes = kDefaultMaxLineBytes);

// ----------------------------------------------------------------------- SUT → driver

enum class ReplyType : std::uint8_t { InitOk, StepOk, ResetOk, QuitOk, Error, GivenOk };
inline constexpr std::string_view kReplyTypeNames[] = {"init_ok", "step_ok", "reset_ok", "quit_ok", "error", "given_ok"};

struct Reply {
  ReplyType type = ReplyType::StepOk;
  std::int64_t id = 0;
  std::optional<Observation> observation;          // init_ok, step_ok, reset_ok, given_ok
  int protocol = 1;                                // init_ok: the version init asked for
  std::optional<std::vector<ActionKind>> actions;  // init_ok: the action kinds implemented, when listed
  ErrorCode code = ErrorCode::Internal;            // error
  std::string message;                             // error
};

std::string encodeReply(const Reply& reply);  // one line, without the newline

// A reply line the driver could not accept: what is wrong with it (a finding against the SUT).
struct ReplyError {
  std::string message;  // e.g. "not JSON: …", "/observation/brokers/9: expected a broker id …"
};
using ParsedReply = std::variant<Reply, ReplyError>;

ParsedReply parseReply(std::string_view line, std::size_t max_line_bytes = kDefaultMaxLineBytes);

}  // namespace kcspec::conformance
