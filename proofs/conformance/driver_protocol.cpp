// Encoding and parsing the driver protocol's lines (driver_protocol.hpp, docs/driver-protocol.md).
// Parsing never throws: every failure becomes a RequestError or ReplyError value.
#include "proofs/conformance/driver_protocol.hpp"

#include <fmt/format.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "spec/vocabulary/observation_json.hpp"

namespace kcspec::conformance {

int actionProtocol(ActionKind kind) {
  switch (kind) {
    case ActionKind::ExpireZkSession:
      return kDriverProtocolSessionExpiryVersion;
    case ActionKind::UpgradeIbp:
    case ActionKind::LoseZkConnectionOnFeature:
      return kDriverProtocolRollingUpgradeVersion;
    default:
      return 1;
  }
}

namespace {
int configurationProtocol(const Config& config, bool from_given_world) {
  if (config.bounds.zk_session_expiries > 0) return kDriverProtocolSessionExpiryVersion;
  if (config.upgrade_inter_broker_protocol_version) return kDriverProtocolRollingUpgradeVersion;
  if (config.inter_broker_protocol_version != kLatestProductionMetadataVersion) return kDriverProtocolIbpVersion;
  return from_given_world ? kDriverProtocolGivenVersion : 1;
}
}  // namespace

int neededProtocol(const Config& config, bool from_given_world, std::span<const Action> steps) {
  int needed = configurationProtocol(config, from_given_world);
  for (const Action& step : steps) needed = std::max(needed, actionProtocol(step.kind));
  return needed;
}
namespace {

using Json = nlohmann::json;
using OJson = nlohmann::ordered_json;

// Dumps with invalid UTF-8 replaced, so that echoing untrusted text never throws.
std::string dumpLine(const OJson& json) { return json.dump(-1, ' ', false, OJson::error_handler_t::replace); }

// Why `line` is not one JSON object, or nullopt. Checks the length and the nesting depth before
// nlohmann parses it (its parser and destructor are recursive in depth).
std::optional<std::string> parseObjectLine(std::string_view line, std::size_t max_line_bytes, Json& out) {
  if (line.size() > max_line_bytes) return fmt::format("line longer than {} bytes", max_line_bytes);
  int depth = 0;
  bool in_string = false;
  bool escaped = false;
  for (const char c : line) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > kMaxJsonDepth) return fmt::format("JSON nested deeper than {} levels", kMaxJsonDepth);
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  try {
    out = Json::parse(line.begin(), line.end());
  } catch (const Json::exception& e) {
    return fmt::format("not JSON: {}", e.what());
  }
  if (!out.is_object()) return fmt::format("expected a JSON object, got {}", out.type_name());
  return std::nullopt;
}

// The request's id: a non-negative integer below 2^53 (exact in every language's JSON numbers).
constexpr std::int64_t kMaxId = (std::int64_t{1} << 53) - 1;

std::optional<std::int64_t> idOf(const Json& message) {
  const auto it = message.find("id");
  if (it == message.end() || !it->is_number_integer()) return std::nullopt;
  if (it->is_number_unsigned()) {
    const auto u = it->get<std::uint64_t>();
    return u <= static_cast<std::uint64_t>(kMaxId) ? std::optional<std::int64_t>(static_cast<std::int64_t>(u)) : std::nullopt;
  }
  const auto v = it->get<std::int64_t>();
  return v >= 0 && v <= kMaxId ? std::optional<std::int64_t>(v) : std::nullopt;
}

// Members other than `allowed`, as a message (nullopt: none).
std::optional<std::string> unknownMember(const Json& message, std::initializer_list<std::string_view> allowed) {
  for (const auto& [key, value] : message.items()) {
    bool known = false;
    for (std::string_view name : allowed) known = known || key == name;
    if (!known) return fmt::format("unknown member \"{}\"", key);
  }
  return std::nullopt;
}

const std::string* stringMember(const Json& message, const char* key) {
  const auto it = message.find(key);
  return it != message.end() && it->is_string() ? &it->get_ref<const std::string&>() : nullptr;
}

}  // namespace

std::optional<ErrorCode> errorCodeNamed(std::string_view name) {
  for (std::size_t i = 0; i < std::size(kErrorCodeNames); ++i) {
    if (kErrorCodeNames[i] == name) return static_cast<ErrorCode>(i);
  }
  return std::nullopt;
}

// ------------------------------------------------------------------------------- requests

std::string encodeRequest(const Request& request) {
  OJson out = OJson::object();
  std::visit(
      [&](const auto& r) {
        using R = std::decay_t<decltype(r)>;
        if constexpr (std::is_same_v<R, InitRequest>) {
          out["type"] = "init";
          out["id"] = r.id;
          out["protocol"] = r.protocol;
          out["config"] = r.config_text;
        } else if constexpr (std::is_same_v<R, GivenRequest>) {
          out["type"] = "given";
          out["id"] = r.id;
          out["observation"] = observationJson(r.observation);
        } else if constexpr (std::is_same_v<R, StepRequest>) {
          out["type"] = "step";
          out["id"] = r.id;
          out["action"] = r.action_text;
        } else if constexpr (std::is_same_v<R, ResetRequest>) {
          out["type"] = "reset";
          out["id"] = r.id;
        } else {
          out["type"] = "quit";
          out["id"] = r.id;
        }
      },
      request);
  return dumpLine(out);
}

ParsedRequest parseRequest(std::string_view line, std::size_t max_line_bytes) {
  Json message;
  if (auto error = parseObjectLine(line, max_line_bytes, message)) return RequestError{0, ErrorCode::BadMessage, *error};
  const std::optional<std::int64_t> id = idOf(message);
  const auto bad = [&](std::string text) { return RequestError{id.value_or(0), ErrorCode::BadMessage, std::move(text)}; };
  if (!id) return bad("member \"id\" must be an integer 0 … 2^53-1");
  const std::string* type = stringMember(message, "type");
  if (type == nullptr) return bad("member \"type\" must be a string");

  if (*type == "init") {
    if (auto unknown = unknownMember(message, {"type", "id", "protocol", "config"})) return bad(*unknown);
    const auto protocol = message.find("protocol");
    if (protocol == message.end() || !protocol->is_number_integer()) return bad("member \"protocol\" must be an integer");
    const std::string* config = stringMember(message, "config");
    if (config == nullptr) return bad("member \"config\" must be a string");
    const std::int64_t version = protocol->get<std::int64_t>();
    if (version < 1 || version > kDriverProtocolVersion) {
      return RequestError{*id, ErrorCode::UnsupportedProtocol,
                          fmt::format("protocol {} is not supported (this SUT speaks 1 to {})", protocol->dump(),
                                      kDriverProtocolVersion)};
    }
    return Request{InitRequest{*id, static_cast<int>(version), *config}};
  }
  if (*type == "given") {
    if (auto unknown = unknownMember(message, {"type", "id", "observation"})) return bad(*unknown);
    const auto observation = message.find("observation");
    if (observation == message.end()) return bad("member \"observation\" is missing");
    if (!observation->is_object()) return bad(fmt::format("member \"observation\" must be an object, not {}", observation->type_name()));
    try {
      return Request{GivenRequest{*id, observationFromJson(*observation)}};
    } catch (const ObservationJsonError& e) {
      return bad(fmt::format("/observation{}: {}", e.pointer, e.message));
    }
  }
  if (*type == "step") {
    if (auto unknown = unknownMember(message, {"type", "id", "action"})) return bad(*unknown);
    const std::string* action = stringMember(message, "action");
    if (action == nullptr) return bad("member \"action\" must be a string");
    return Request{StepRequest{*id, *action}};
  }
  if (*type == "reset" || *type == "quit") {
    if (auto unknown = unknownMember(message, {"type", "id"})) return bad(*unknown);
    if (*type == "reset") return Request{ResetRequest{*id}};
    return Request{QuitRequest{*id}};
  }
  return bad(fmt::format("unknown type \"{}\" (expected init, given, step, reset or quit)", *type));
}

// --------------------------------------------------------------------------------- replies

std::string encodeReply(const Reply& reply) {
  OJson out = OJson::object();
  out["type"] = kReplyTypeNames[static_cast<int>(reply.type)];
  out["id"] = reply.id;
  if (reply.type == ReplyType::Error) {
    out["code"] = errorCodeName(reply.code);
    out["message"] = reply.message;
    return dumpLine(out);
  }
  if (reply.type == ReplyType::InitOk) {
    out["protocol"] = reply.protocol;
    if (reply.actions) {
      OJson kinds = OJson::array();
      for (ActionKind kind : *reply.actions) kinds.push_back(actionName(kind));
      out["actions"] = std::move(kinds);
    }
  }
  if (reply.observation) out["observation"] = observationJson(*reply.observation);
  return dumpLine(out);
}

ParsedReply parseReply(std::string_view line, std::size_t max_line_bytes) {
  Json message;
  if (auto error = parseObjectLine(line, max_line_bytes, message)) return ReplyError{*error};
  Reply reply;
  const std::optional<std::int64_t> id = idOf(message);
  if (!id) return ReplyError{"member \"id\" must be an integer 0 … 2^53-1"};
  reply.id = *id;
  const std::string* type = stringMember(message, "type");
  if (type == nullptr) return ReplyError{"member \"type\" must be a string"};
  bool known = false;
  for (std::size_t i = 0; i < std::size(kReplyTypeNames); ++i) {
    if (kReplyTypeNames[i] == *type) {
      reply.type = static_cast<ReplyType>(i);
      known = true;
    }
  }
  if (!known) {
    return ReplyError{
        fmt::format("unknown type \"{}\" (expected init_ok, given_ok, step_ok, reset_ok, quit_ok or error)", *type)};
  }

  switch (reply.type) {
    case ReplyType::Error: {
      if (auto unknown = unknownMember(message, {"type", "id", "code", "message"})) return ReplyError{*unknown};
      const std::string* code = stringMember(message, "code");
      const std::optional<ErrorCode> parsed = code ? errorCodeNamed(*code) : std::nullopt;
      if (!parsed) return ReplyError{"member \"code\" must be one of the error codes of docs/driver-protocol.md"};
      reply.code = *parsed;
      if (message.contains("message")) {
        const std::string* text = stringMember(message, "message");
        if (text == nullptr) return ReplyError{"member \"message\" must be a string"};
        reply.message = *text;
      }
      return reply;
    }
    case ReplyType::QuitOk:
      if (auto unknown = unknownMember(message, {"type", "id"})) return ReplyError{*unknown};
      return reply;
    case ReplyType::InitOk: {
      if (auto unknown = unknownMember(message, {"type", "id", "protocol", "observation", "actions"})) {
        return ReplyError{*unknown};
      }
      // Which version it must be (the one init asked for) is the session's to check.
      const auto protocol = message.find("protocol");
      if (protocol == message.end() || !protocol->is_number_integer() || protocol->get<std::int64_t>() < 1 ||
          protocol->get<std::int64_t>() > kDriverProtocolVersion) {
        return ReplyError{fmt::format("member \"protocol\" must be a protocol version, 1 to {}", kDriverProtocolVersion)};
      }
      reply.protocol = static_cast<int>(protocol->get<std::int64_t>());
      if (message.contains("actions")) {
        const Json& actions = message["actions"];
        if (!actions.is_array() || actions.size() > kActionKindCount) {
          return ReplyError{fmt::format("member \"actions\" must be an array of at most {} action names", kActionKindCount)};
        }
        // No action at all would let every run "conform" without a step: a finding, not a pass.
        if (actions.empty()) {
          return ReplyError{"member \"actions\" lists no action: nothing could be driven (leave it out to take every kind)"};
        }
        std::vector<ActionKind> kinds;
        for (const Json& name : actions) {
          std::optional<ActionKind> kind;
          for (std::size_t i = 0; i < kActionKindCount; ++i) {
            if (name.is_string() && name.get_ref<const std::string&>() == kActionNames[i]) kind = static_cast<ActionKind>(i);
          }
          if (!kind) return ReplyError{fmt::format("/actions: {} is not an action name", name.dump(-1, ' ', false, Json::error_handler_t::replace))};
          kinds.push_back(*kind);
        }
        reply.actions = std::move(kinds);
      }
      break;
    }
    case ReplyType::StepOk:
    case ReplyType::ResetOk:
    case ReplyType::GivenOk:
      if (auto unknown = unknownMember(message, {"type", "id", "observation"})) return ReplyError{*unknown};
      break;
  }
  const auto observation = message.find("observation");
  if (observation == message.end()) return ReplyError{"member \"observation\" is missing"};
  try {
    reply.observation = observationFromJson(*observation);
  } catch (const ObservationJsonError& e) {
    return ReplyError{fmt::format("/observation{}: {}", e.pointer, e.message)};
  }
  return reply;
}

}  // namespace kcspec::conformance
