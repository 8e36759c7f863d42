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

// -------------------------------------------------------------------- arrays given by index

// A partial observation may give an array as an object keyed by decimal index, {"0":{…}}, to
// check only those elements (trace_checker's firstMismatch compares them so). The schema reader
// (observation_json.hpp) reads arrays only, so the observation is validated as a copy in which
// each such object, where the reader asks for an array, becomes the array of its elements in
// index order (all objects at one schema position in one round: every broker's inbox, say);
// the reader's pointers into those arrays are mapped back to the keys given.
struct IndexedArray {
  std::string pointer;            // the array's pointer in the copy
  std::vector<std::string> keys;  // keys[i]: the key element i was given under
};

// A key that stands for no element of the array.
struct BadIndexKey {
  std::string pointer;  // in the copy's coordinates
  std::string message;
};

// Above every array's capacity in an observation (the longest, a broker's inbox, holds
// kMaxRequestsPerBroker): a larger index is refused before an array that long is built.
constexpr std::size_t kIndexLimit = 4096;
static_assert(static_cast<std::size_t>(kMaxRequestsPerBroker) < kIndexLimit);

// "0", "1", … below kIndexLimit; one spelling per index ("01", "-1", "+1", "x" are refused).
std::variant<std::size_t, BadIndexKey> indexKey(std::string_view key, const std::string& array_pointer) {
  const std::string at = array_pointer + "/" + jsonPointerToken(key);
  const bool decimal = !key.empty() && key.find_first_not_of("0123456789") == std::string_view::npos &&
                       (key.size() == 1 || key[0] != '0');
  if (!decimal) return BadIndexKey{at, "expected a decimal index (0, 1, …) as key of an array given as an object"};
  std::size_t index = 0;
  const auto [end, error] = std::from_chars(key.data(), key.data() + key.size(), index);
  if (error != std::errc{} || index >= kIndexLimit) return BadIndexKey{at, fmt::format("index {} is out of range", key)};
  return index;
}

// The pointer the trace gave for `pointer` (in the copy's coordinates). Rewrites are undone
// latest first: a later rewrite's pointer may pass through an earlier one's array.
std::string givenPointer(std::string pointer, const std::vector<IndexedArray>& rewrites) {
  for (auto it = rewrites.rbegin(); it != rewrites.rend(); ++it) {
    const std::string prefix = it->pointer + "/";
    if (pointer.rfind(prefix, 0) != 0) continue;
    const std::size_t end = std::min(pointer.find('/', prefix.size()), pointer.size());
    std::size_t element = 0;
    const auto [stop, error] = std::from_chars(pointer.data() + prefix.size(), pointer.data() + end, element);
    if (error != std::errc{} || stop != pointer.data() + end || element >= it->keys.size()) continue;
    pointer = prefix + it->keys[element] + pointer.substr(end);
  }
  return pointer;
}

// The reader's first complaint about `observation`, if any.
std::optional<ObservationJsonError> schemaError(const Json& observation) {
  try {
    (void)observationFromJson(observation);
  } catch (const ObservationJsonError& e) {
    return e;
  }
  return std::nullopt;
}

// Whether the reader takes an array of `length` at `pointer` of `copy`, where it first
// complained. Everything it reads before `pointer` is valid and it checks an array's length
// before its elements, so an array of nulls there fails on its length or else elsewhere.
bool lengthFits(Json copy, const std::string& pointer, std::size_t length) {
  copy[Json::json_pointer(pointer)] = Json(Json::array_t(length));
  const auto error = schemaError(copy);
  return !error || error->pointer != pointer;
}

// The longest array the reader takes at `pointer` (its capacity), if shorter than `length`:
// a binary search, a dozen probes at most (kIndexLimit).
std::optional<std::size_t> capacityBelow(const Json& copy, const std::string& pointer, std::size_t length) {
  if (lengthFits(copy, pointer, length)) return std::nullopt;
  std::size_t fits = 0;  // an empty array always fits
  std::size_t too_long = length;
  while (too_long - fits > 1) {
    const std::size_t middle = fits + (too_long - fits) / 2;
    (lengthFits(copy, pointer, middle) ? fits : too_long) = middle;
  }
  return fits;
}

// The tokens of `pointer` (RFC 6901, unescaped).
std::vector<std::string> pointerTokens(const std::string& pointer) {
  std::vector<std::string> tokens;
  for (std::size_t start = 1; start <= pointer.size();) {
    const std::size_t end = std::min(pointer.find('/', start), pointer.size());
    std::string token;
    for (std::size_t i = start; i < end; ++i) {
      const bool escape = pointer[i] == '~' && i + 1 < end;
      token += escape ? (pointer[++i] == '1' ? '/' : '~') : pointer[i];
    }
    tokens.push_back(std::move(token));
    start = end + 1;
  }
  return tokens;
}

// An object given for an array, its keys read as indexes.
struct IndexedObject {
  std::string pointer;                      // in the copy's coordinates
  Json* object = nullptr;                   // in the copy
  std::map<std::size_t, std::string> keys;  // in index order
};

// Every object at the schema position of `tokens` below `node`: the tokens that start with a
// digit (ids, partition keys, indexes; no member name of the schema does) match any member or
// element, so that all the inboxes of all the brokers, say, are found at once.
void collectAt(Json& node, const std::vector<std::string>& tokens, std::size_t depth, const std::string& pointer,
               std::vector<IndexedObject>& out) {
  if (depth == tokens.size()) {
    if (node.is_object()) out.push_back(IndexedObject{pointer, &node, {}});
    return;
  }
  const std::string& token = tokens[depth];
  if (!token.empty() && token[0] >= '0' && token[0] <= '9') {
    if (node.is_object()) {
      for (auto& [key, value] : node.items()) collectAt(value, tokens, depth + 1, pointer + "/" + jsonPointerToken(key), out);
    } else if (node.is_array()) {
      for (std::size_t i = 0; i < node.size(); ++i) collectAt(node[i], tokens, depth + 1, fmt::format("{}/{}", pointer, i), out);
    }
  } else if (node.is_object()) {
    if (const auto found = node.find(token); found != node.end()) {
      collectAt(*found, tokens, depth + 1, pointer + "/" + jsonPointerToken(token), out);
    }
  }
}

// Reads each object's keys as indexes; or the first key that is none.
std::optional<BadIndexKey> readIndexes(std::vector<IndexedObject>& objects) {
  for (IndexedObject& object : objects) {
    for (const auto& [key, value] : object.object->items()) {
      auto index = indexKey(key, object.pointer);
      if (auto* bad = std::get_if<BadIndexKey>(&index)) return std::move(*bad);
      object.keys.emplace(std::get<std::size_t>(index), key);
    }
  }
  return std::nullopt;
}

// The first index past the capacity of the arrays the objects stand for, if any. The reader
// checks the length of the compact arrays itself, so only indexes past them need a probe.
std::optional<BadIndexKey> indexPastCapacity(const Json& copy, const std::string& complaint,
                                             const std::vector<IndexedObject>& objects) {
  std::size_t longest = 0;  // the length the largest index asks for
  for (const IndexedObject& object : objects) {
    if (!object.keys.empty()) longest = std::max(longest, object.keys.rbegin()->first + 1);
  }
  const auto capacity = capacityBelow(copy, complaint, longest);
  if (!capacity) return std::nullopt;
  for (const IndexedObject& object : objects) {
    if (object.keys.empty() || object.keys.rbegin()->first < *capacity) continue;
    const auto& [index, key] = *object.keys.rbegin();
    return BadIndexKey{object.pointer + "/" + jsonPointerToken(key),
                       fmt::format("index {} is out of range (the array holds at most {} elements)", index, *capacity)};
  }
  return std::nullopt;
}

// Replaces every object at the schema position of `complaint` (where the reader asked for an
// array and found an object) by the array of its elements, recording the rewrites; or what is
// wrong with their keys. One round per schema position, not per object: each round re-reads
// the whole observation.
std::optional<BadIndexKey> rewriteAsArrays(Json& copy, const std::string& complaint, std::vector<IndexedArray>& rewrites) {
  std::vector<IndexedObject> objects;
  collectAt(copy, pointerTokens(complaint), 0, "", objects);
  if (auto bad = readIndexes(objects)) return bad;
  if (auto bad = indexPastCapacity(copy, complaint, objects)) return bad;
  for (IndexedObject& object : objects) {
    IndexedArray rewrite{object.pointer, {}};
    Json array = Json::array();
    for (const auto& [index, key] : object.keys) {
      rewrite.keys.push_back(key);
      array.push_back(std::move((*object.object)[key]));
    }
    *object.object = std::move(array);
    rewrites.push_back(std::move(rewrite));
  }
  return std::nullopt;
}

// Whether the reader complains about an object where it reads an array.
bool objectForArray(const ObservationJsonError& e, const Json& copy) {
  if (e.message.rfind("expected an array", 0) != 0) return false;
  const Json::json_pointer at(e.pointer);
  return copy.contains(at) && copy[at].is_object();
}

// The schema check proper: rewrites objects given for arrays until the reader accepts the copy
// or complains about something else. Each round turns objects into arrays, so it ends.
std::optional<std::string> indexedObservationProblem(const Json& value, std::string_view member) {
  Json copy = value;
  std::vector<IndexedArray> rewrites;
  while (const auto error = schemaError(copy)) {
    if (!objectForArray(*error, copy)) {
      const std::string pointer = givenPointer(error->pointer, rewrites);
      return fmt::format("\"{}\" {}: {}", member, pointer.empty() ? "(root)" : pointer, error->message);
    }
    if (auto bad = rewriteAsArrays(copy, error->pointer, rewrites)) {
      return fmt::format("\"{}\" {}: {}", member, givenPointer(bad->pointer, rewrites), bad->message);
    }
  }
  return std::nullopt;
}

// Checks `value` against observation_json.hpp's schema, arrays also given as objects keyed by
// index; nullopt when it is fine.
std::optional<std::string> observationProblem(const Json& value, std::string_view member) {
  if (!value.is_object()) return fmt::format("\"{}\" must be an object, not {}", member, typeName(value));
  try {
    return indexedObservationProblem(value, member);
  } catch (const std::exception& e) {
    return fmt::format("\"{}\": {}", member, e.what());
  }
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
  if (auto duplicate = duplicateMember(line)) return TraceLineError{*duplicate};
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
