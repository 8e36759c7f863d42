// The trace format's lines (trace_text.hpp).
#include "spec/vocabulary/trace_text.hpp"

#include <fmt/format.h>

#include "spec/vocabulary/observation_json.hpp"

namespace kcspec {
namespace {

using Json = nlohmann::ordered_json;

// JSON nesting deeper than any observation needs is refused before parsing, so that a hostile
// line cannot exhaust the stack of the recursive parser.
constexpr int kMaxJsonDepth = 64;

bool nestingWithin(std::string_view line, int max_depth) {
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
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > max_depth) return false;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return true;
}

std::string typeName(const Json& value) { return std::string(value.type_name()); }

// Checks `value` against observation_json.hpp's schema; nullopt when it is fine.
std::optional<std::string> observationProblem(const Json& value, std::string_view member) {
  if (!value.is_object()) return fmt::format("\"{}\" must be an object, not {}", member, typeName(value));
  try {
    (void)observationFromJson(value);
  } catch (const ObservationJsonError& e) {
    return fmt::format("\"{}\" {}: {}", member, e.pointer.empty() ? "(root)" : e.pointer, e.message);
  } catch (const std::exception& e) {
    return fmt::format("\"{}\": {}", member, e.what());
  }
  return std::nullopt;
}

TraceLine parseHeader(const Json& object) {
  TraceHeader header;
  const Json& version = object.at(kTraceVersionKey);
  if (!version.is_number_integer()) {
    return TraceLineError{fmt::format("\"{}\" must be an integer (the format version), not {}", kTraceVersionKey,
                                      version.dump(-1, ' ', false, Json::error_handler_t::replace))};
  }
  if (version.get<std::int64_t>() != kTraceFormatVersion) {
    return TraceLineError{fmt::format("unsupported trace format version {} (this kcspec reads version {})",
                                      version.dump(), kTraceFormatVersion)};
  }
  for (const auto& [key, value] : object.items()) {
    if (key == kTraceVersionKey || key == "meta") continue;
    if (key == "config" || key == "preset") {
      if (!value.is_string()) return TraceLineError{fmt::format("\"{}\" must be a string, not {}", key, typeName(value))};
      (key == "config" ? header.config_text : header.preset) = value.get<std::string>();
    } else if (key == "observation") {
      if (auto problem = observationProblem(value, key)) return TraceLineError{*problem};
      header.observation = value;
    } else {
      return TraceLineError{fmt::format("unknown header member \"{}\" (expected \"config\" or \"preset\", "
                                        "\"observation\", \"meta\")",
                                        key)};
    }
  }
  if (header.config_text.has_value() == header.preset.has_value()) {
    return TraceLineError{"the header needs exactly one of \"config\" (configuration text) and \"preset\" (a name)"};
  }
  return header;
}

TraceLine parseStep(const Json& object) {
  TraceStep step;
  bool has_action = false;
  for (const auto& [key, value] : object.items()) {
    if (key == "meta") continue;
    if (key == "action") {
      if (!value.is_string()) return TraceLineError{fmt::format("\"action\" must be a string, not {}", typeName(value))};
      step.action = value.get<std::string>();
      has_action = true;
    } else if (key == "observation") {
      if (auto problem = observationProblem(value, key)) return TraceLineError{*problem};
      step.observation = value;
    } else {
      return TraceLineError{
          fmt::format("unknown step member \"{}\" (expected \"action\", \"observation\", \"meta\")", key)};
    }
  }
  if (!has_action) return TraceLineError{"a step needs \"action\" (e.g. {\"action\":\"crash 1\"})"};
  return step;
}

}  // namespace

TraceLine parseTraceLine(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.find_first_not_of(" \t") == std::string_view::npos) return TraceBlank{};
  if (line.size() > kMaxTraceLineBytes) {
    return TraceLineError{fmt::format("line longer than {} bytes", kMaxTraceLineBytes)};
  }
  if (!nestingWithin(line, kMaxJsonDepth)) {
    return TraceLineError{fmt::format("JSON nested deeper than {} levels", kMaxJsonDepth)};
  }
  Json object;
  try {
    object = Json::parse(line);
  } catch (const Json::exception& e) {  // parse_error, and out_of_range for a number past double's range (1e999)
    return TraceLineError{fmt::format("malformed JSON: {}", e.what())};
  }
  if (!object.is_object()) return TraceLineError{fmt::format("a trace line is a JSON object, not {}", typeName(object))};
  if (object.contains(kTraceVersionKey)) return parseHeader(object);
  return parseStep(object);
}

std::string printTraceHeader(const TraceHeader& header) {
  Json object = Json::object();
  object[std::string(kTraceVersionKey)] = header.version;
  if (header.config_text) object["config"] = *header.config_text;
  if (header.preset) object["preset"] = *header.preset;
  if (header.observation) object["observation"] = *header.observation;
  return object.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string printTraceStep(const TraceStep& step) {
  Json object = Json::object();
  object["action"] = step.action;
  if (step.observation) object["observation"] = *step.observation;
  return object.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace kcspec
