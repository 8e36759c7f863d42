// The trace format's lines (trace_text.hpp).
#include "spec/vocabulary/trace_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <set>
#include <vector>

#include "spec/vocabulary/observation_json.hpp"
#include "spec/vocabulary/requests.hpp"

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

// ------------------------------------------------------------------------- duplicate members

// nlohmann keeps the last of two members with one name, other JSON readers the first: a
// recorder and kcspec could read such a line differently, so it is refused. A SAX pass over
// the line (after the DOM parse has accepted it) stops at the first duplicate at any depth.
class DuplicateMemberFinder final : public nlohmann::json_sax<Json> {
 public:
  // "duplicate member \"name\" at /pointer", once a duplicate has stopped the pass.
  const std::optional<std::string>& duplicate() const { return duplicate_; }

  bool null() override { return element(); }
  bool boolean(bool) override { return element(); }
  bool number_integer(number_integer_t) override { return element(); }
  bool number_unsigned(number_unsigned_t) override { return element(); }
  bool number_float(number_float_t, const string_t&) override { return element(); }
  bool string(string_t&) override { return element(); }
  bool binary(binary_t&) override { return element(); }
  bool start_object(std::size_t) override { return open(true); }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(false); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

  bool key(string_t& name) override {
    Level& level = levels_.back();
    level.token = jsonPointerToken(name);
    if (level.names.insert(name).second) return true;
    // The name as a JSON string: quotes and control characters in it stay readable.
    duplicate_ = fmt::format("duplicate member {} at {}", Json(name).dump(), pointer());
    return false;  // stops the pass
  }

 private:
  struct Level {
    bool is_object = false;
    std::set<std::string> names;  // an object's member names so far
    std::size_t elements = 0;     // an array's elements so far
    std::string token;            // the pointer token of the value being read
  };

  // A value starts; in an array it is the next element (an object's member has its key's token).
  bool element() {
    if (!levels_.empty() && !levels_.back().is_object) levels_.back().token = std::to_string(levels_.back().elements++);
    return true;
  }
  bool open(bool is_object) {
    element();
    Level level;
    level.is_object = is_object;
    levels_.push_back(std::move(level));
    return true;
  }
  bool close() {
    levels_.pop_back();
    return true;
  }
  std::string pointer() const {
    std::string out;
    for (const Level& level : levels_) out += "/" + level.token;
    return out;
  }

  std::vector<Level> levels_;
  std::optional<std::string> duplicate_;
};

std::optional<std::string> duplicateMember(std::string_view line) {
  DuplicateMemberFinder finder;
  (void)Json::sax_parse(line, &finder);
  return finder.duplicate();
}

// Checks `value` against observation_json.hpp's schema, arrays also given as objects keyed by
// index; nullopt when it is fine.
std::optional<std::string> observationProblem(const Json& value, std::string_view member) {
  if (!value.is_object()) return fmt::format("\"{}\" must be an object, not {}", member, typeName(value));
  try {
    (void)observationFromJson(value, ObservationJsonReadOptions{.arrays_keyed_by_index = true});
  } catch (const ObservationJsonError& e) {
    return fmt::format("\"{}\" {}: {}", member, e.pointer.empty() ? "(root)" : e.pointer, e.message);
  } catch (const std::exception& e) {
    return fmt::format("\"{}\": {}", member, e.what());
  }
  return std::nullopt;
}

// The header's "given": {"observation": the whole starting world, "unchecked": bool}. The world is
// read as a whole observation (what it leaves out holds its default; no array given by index).
std::variant<TraceGiven, TraceLineError> parseGiven(const Json& value) {
  if (!value.is_object()) {
    return TraceLineError{fmt::format("\"given\" must be an object {{\"observation\":{{…}}}}, not {}", typeName(value))};
  }
  TraceGiven given;
  bool has_observation = false;
  for (const auto& [key, member] : value.items()) {
    if (key == "observation") {
      if (!member.is_object()) {
        return TraceLineError{fmt::format("\"given\" \"observation\" must be an object, not {}", typeName(member))};
      }
      try {
        (void)observationFromJson(member);
      } catch (const ObservationJsonError& e) {
        return TraceLineError{fmt::format("\"given\" \"observation\" {}: {}", e.pointer.empty() ? "(root)" : e.pointer,
                                          e.message)};
      } catch (const std::exception& e) {
        return TraceLineError{fmt::format("\"given\" \"observation\": {}", e.what())};
      }
      given.observation = member;
      has_observation = true;
    } else if (key == "unchecked") {
      if (!member.is_boolean()) {
        return TraceLineError{fmt::format("\"given\" \"unchecked\" must be true or false, not {}", typeName(member))};
      }
      given.unchecked = member.get<bool>();
    } else {
      return TraceLineError{
          fmt::format("unknown member \"{}\" of \"given\" (expected \"observation\", \"unchecked\")", key)};
    }
  }
  if (!has_observation) return TraceLineError{"\"given\" needs \"observation\": the world the steps start from"};
  return given;
}

TraceLine parseHeader(const Json& object) {
  TraceHeader header;
  const Json& version = object.at(kTraceVersionKey);
  if (!version.is_number_integer()) {
    return TraceLineError{fmt::format("\"{}\" must be an integer (the format version), not {}", kTraceVersionKey,
                                      version.dump(-1, ' ', false, Json::error_handler_t::replace))};
  }
  const std::int64_t number = version.get<std::int64_t>();
  if (number < 1 || number > kTraceFormatVersion) {
    return TraceLineError{fmt::format("unsupported trace format version {} (this kcspec reads versions 1 to {})",
                                      version.dump(), kTraceFormatVersion)};
  }
  header.version = static_cast<int>(number);
  for (const auto& [key, value] : object.items()) {
    if (key == kTraceVersionKey || key == "meta") continue;
    if (key == "config" || key == "preset") {
      if (!value.is_string()) return TraceLineError{fmt::format("\"{}\" must be a string, not {}", key, typeName(value))};
      (key == "config" ? header.config_text : header.preset) = value.get<std::string>();
    } else if (key == "observation") {
      if (auto problem = observationProblem(value, key)) return TraceLineError{*problem};
      header.observation = value;
    } else if (key == "given" && header.version >= kTraceFormatGivenVersion) {
      std::variant<TraceGiven, TraceLineError> given = parseGiven(value);
      if (auto* error = std::get_if<TraceLineError>(&given)) return std::move(*error);
      header.given = std::move(std::get<TraceGiven>(given));
    } else if (key == "given") {
      return TraceLineError{fmt::format("\"given\" is a member of version {} of the format: the header says "
                                        "\"{}\":{}",
                                        kTraceFormatGivenVersion, kTraceVersionKey, header.version)};
    } else {
      return TraceLineError{fmt::format("unknown header member \"{}\" (expected \"config\" or \"preset\", "
                                        "\"observation\", {}\"meta\")",
                                        key, header.version >= kTraceFormatGivenVersion ? "\"given\", " : "")};
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
  if (auto duplicate = duplicateMember(line)) return TraceLineError{*duplicate};
  if (object.contains(kTraceVersionKey)) return parseHeader(object);
  return parseStep(object);
}

std::string printTraceHeader(const TraceHeader& header) {
  Json object = Json::object();
  object[std::string(kTraceVersionKey)] = header.version;
  if (header.config_text) object["config"] = *header.config_text;
  if (header.preset) object["preset"] = *header.preset;
  if (header.given) {
    Json given = Json::object();
    given["observation"] = header.given->observation;
    if (header.given->unchecked) given["unchecked"] = true;
    object["given"] = std::move(given);
  }
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
