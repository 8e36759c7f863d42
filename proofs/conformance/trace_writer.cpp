// Writing histories as traces and as ITF (trace_writer.hpp).
#include "proofs/conformance/trace_writer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <stdexcept>
#include <utility>

#include "spec/rules/step.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/config_text.hpp"
#include "spec/vocabulary/observation_json.hpp"
#include "spec/vocabulary/trace_text.hpp"

namespace kcspec::conformance {
namespace {

using Json = nlohmann::ordered_json;

// Where a history starts: the given world, or the configuration's initial state.
spec::ClusterState startingState(const Config& config, const std::optional<GivenStart>& given) {
  return given ? spec::givenState(config, given->world) : spec::initialState(config);
}

// State 0's action in ITF.
std::string startingAction(const std::optional<GivenStart>& given) { return given ? "given" : "init"; }

// The spec's next state after `action` (the `number`th, 1-based), which must be enabled.
void runStep(const Config& config, spec::ClusterState& state, const Action& action, std::size_t number) {
  if (!spec::isEnabled(config, state, action)) {
    throw std::invalid_argument(fmt::format("action {} ({}) is not enabled", number, printAction(config, action)));
  }
  state = spec::next(config, state, action);
}

std::vector<std::string> pointerTokens(const std::string& pointer) {
  if (pointer.empty() || pointer[0] != '/') {
    throw std::invalid_argument(fmt::format("field \"{}\" is not a JSON pointer (it starts with '/')", pointer));
  }
  std::vector<std::string> tokens;
  std::size_t start = 1;
  while (true) {
    const std::size_t end = pointer.find('/', start);
    std::string token = pointer.substr(start, end == std::string::npos ? std::string::npos : end - start);
    std::string unescaped;
    for (std::size_t i = 0; i < token.size(); ++i) {
      if (token[i] == '~' && i + 1 < token.size() && (token[i + 1] == '0' || token[i + 1] == '1')) {
        unescaped += token[i + 1] == '0' ? '~' : '/';
        ++i;
      } else {
        unescaped += token[i];
      }
    }
    tokens.push_back(std::move(unescaped));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return tokens;
}

// Copies the member at `tokens` of `observation` into `out`, creating objects on the way; a
// pointer into an array copies the whole array (a partial observation gives arrays whole).
// False when this state has no such member: a member under an absent optional (null, e.g. the
// partition-state znode before the topic exists), or in the compact form a default one.
bool select(const Json& observation, const std::vector<std::string>& tokens, Json& out) {
  const Json* from = &observation;
  std::size_t depth = 0;
  for (; depth < tokens.size() && !from->is_array(); ++depth) {
    if (!from->is_object()) return false;
    const auto found = from->find(tokens[depth]);
    if (found == from->end()) return false;
    from = &*found;
  }
  Json* to = &out;
  for (std::size_t i = 0; i < depth; ++i) {
    if (!to->is_object()) *to = Json::object();
    to = &(*to)[tokens[i]];
  }
  *to = *from;
  return true;
}

// The fields of one state's observation. `named[i]` becomes true when field i names a member
// of this state's full observation: a pointer must do so in some state of the history.
// A whole observation is written for the configuration's ids (ObservationJsonOptions::scope); the
// fields are looked up in the vocabulary's whole form, where any id's member exists.
Json observationFor(const Config& config, const spec::ClusterState& state, const TraceWriteOptions& options,
                    const std::vector<std::vector<std::string>>& fields, std::vector<bool>& named) {
  if (fields.empty()) {
    return observationJson(state.world, ObservationJsonOptions{.include_defaults = !options.compact, .scope = &config});
  }
  Json full = observationJson(state.world, ObservationJsonOptions{.include_defaults = true});
  Json compact;
  if (options.compact) compact = observationJson(state.world, ObservationJsonOptions{.include_defaults = false});
  Json out = Json::object();
  for (std::size_t i = 0; i < fields.size(); ++i) {
    Json unused;
    if (select(full, fields[i], options.compact ? unused : out)) named[i] = true;
    if (options.compact) (void)select(compact, fields[i], out);
  }
  return out;
}

// A field that named no member in any state is a mistake (a misspelt pointer), not a member
// that happens to be absent.
void requireNamed(const TraceWriteOptions& options, const std::vector<bool>& named) {
  for (std::size_t i = 0; i < named.size(); ++i) {
    if (!named[i]) {
      throw std::invalid_argument(fmt::format(
          "field \"{}\" names no member of the observation in any state of the history", options.fields[i]));
    }
  }
}

// ---------------------------------------------------------------- ITF

constexpr std::array<std::string_view, 12> kSetMembers = {
    "delete_topics",       "metadata_live_brokers",        "shutting_down_broker_ids",   "all_topics",
    "partitions_being_reassigned", "topics_to_be_deleted", "topics_with_deletion_started",
    "topics_ineligible_for_deletion", "live_brokers",      "response_wanted",            "partitions",
    "partition_errors"};

// A topic znode's "partitions" is the list of its partitions' assignments (the record holding
// "exists"); every other "partitions" array is a set of partition keys.
bool isSetMember(std::string_view name, bool in_topic_znode) {
  if (name == "partitions" && in_topic_znode) return false;
  return std::find(kSetMembers.begin(), kSetMembers.end(), name) != kSetMembers.end();
}

// The ITF encoding is printed straight from the observation's JSON into text (one pass, no tree
// built): a history's ITF is written at the speed of its observations.

// "3" → 3, "0-1" → (0, 1) as ITF text; false for any other key (the object is then a record).
bool appendMapKey(std::string& out, const std::string& key) {
  const auto digits = [](std::string_view s) {
    return !s.empty() && s.size() <= 9 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  const auto number = [](std::string_view s) { return std::to_string(std::stol(std::string(s))); };
  if (digits(key)) {
    out += fmt::format(R"({{"#bigint":"{}"}})", number(key));
    return true;
  }
  const std::size_t dash = key.find('-');
  if (dash != std::string::npos && digits(std::string_view(key).substr(0, dash)) &&
      digits(std::string_view(key).substr(dash + 1))) {
    out += fmt::format(R"({{"#tup":[{{"#bigint":"{}"}},{{"#bigint":"{}"}}]}})", number(key.substr(0, dash)),
                       number(key.substr(dash + 1)));
    return true;
  }
  return false;
}

bool isMapKey(const std::string& key) {
  std::string unused;
  return appendMapKey(unused, key);
}

constexpr std::string_view kNone = R"({"tag":"None","value":{"#tup":[]}})";

void appendString(std::string& out, const std::string& text) {
  out += Json(text).dump(-1, ' ', false, Json::error_handler_t::replace);
}

void appendItf(std::string& out, const Json& value, std::string_view name, bool in_topic_znode = false);

void appendItfObject(std::string& out, const Json& object) {
  bool is_map = !object.empty();
  for (const auto& [key, member] : object.items()) is_map = is_map && isMapKey(key);
  if (is_map) {
    out += R"({"#map":[)";
    bool first = true;
    for (const auto& [key, member] : object.items()) {
      if (member.is_null()) continue;  // an absent entry
      out += first ? "[" : ",[";
      first = false;
      appendMapKey(out, key);
      out += ',';
      appendItf(out, member, key);
      out += ']';
    }
    out += "]}";
    return;
  }
  // A record. The controller context's per-partition entries (the objects holding
  // "replica_states") have optional members: those become Quint options.
  const bool optionals = object.contains("replica_states");
  const bool topic_znode = object.contains("exists");
  out += '{';
  bool first = true;
  for (const auto& [key, member] : object.items()) {
    if (!first) out += ',';
    first = false;
    appendString(out, key);
    out += ':';
    if (member.is_null()) {
      out += kNone;
    } else if (optionals && key != "replica_states") {
      out += R"({"tag":"Some","value":)";
      appendItf(out, member, key);
      out += '}';
    } else {
      appendItf(out, member, key, topic_znode);
    }
  }
  out += '}';
}

void appendItf(std::string& out, const Json& value, std::string_view name, bool in_topic_znode) {
  if (value.is_number_integer()) {
    out += fmt::format(R"({{"#bigint":"{}"}})", value.dump());
  } else if (value.is_object()) {
    appendItfObject(out, value);
  } else if (value.is_array()) {
    const bool set = isSetMember(name, in_topic_znode);
    out += set ? R"({"#set":[)" : "[";
    bool first = true;
    for (const Json& item : value) {
      if (!first) out += ',';
      first = false;
      appendItf(out, item, "");
    }
    out += set ? "]}" : "]";
  } else if (value.is_null()) {
    out += kNone;
  } else {
    out += value.dump(-1, ' ', false, Json::error_handler_t::replace);  // booleans and strings
  }
}

}  // namespace

TraceStreamWriter::TraceStreamWriter(const Config& config, TraceWriteOptions options, TextSink sink,
                                     std::optional<GivenStart> given)
    : config_(config),
      options_(std::move(options)),
      sink_(std::move(sink)),
      given_(std::move(given)),
      state_(startingState(config, given_)) {
  for (const std::string& field : options_.fields) fields_.push_back(pointerTokens(field));
  named_.assign(fields_.size(), false);
  emitState("init");
}

void TraceStreamWriter::emitState(const std::string& action) {
  std::optional<Json> observation;
  if (options_.observations) observation = observationFor(config_, state_, options_, fields_, named_);
  std::string line;
  if (steps_ == 0) {  // the starting state: the header
    TraceHeader header{1, printConfig(config_), std::nullopt, std::move(observation), std::nullopt};
    // Requests carry their "version" in the full form, and in the compact one when it is not the
    // newest of its kind (a protocol before 3.4-IV0): only such a trace needs version 3.
    const bool shows_requests = std::any_of(fields_.begin(), fields_.end(), [](const std::vector<std::string>& f) {
      return f.empty() || (f[0] == "brokers" && (f.size() < 3 || f[2] == "inbox"));
    });
    if (options_.observations && (fields_.empty() || shows_requests) &&
        (!options_.compact || config_.inter_broker_protocol_version < MetadataVersion::IBP_3_4_IV0)) {
      header.version = kTraceFormatRequestVersionsVersion;
    }
    // Topic ids (a configuration at 2.8-IV0 or later has them) are in observations from version
    // 4: in topic znodes, requests, metadata caches, logs, responses and controller modules.
    const bool shows_topic_ids = std::any_of(fields_.begin(), fields_.end(), [](const std::vector<std::string>& f) {
      if (f.empty()) return true;
      if (f[0] == "zookeeper") return f.size() < 2 || (f[1] == "topics" && (f.size() < 4 || f[3] == "topic_id"));
      if (f[0] != "brokers") return false;
      if (f.size() < 3) return true;
      for (const char* member : {"inbox", "metadata_cache", "replicas", "leader_and_isr_responses", "controller"}) {
        if (f[2] == member) return true;
      }
      return false;
    });
    if (options_.observations && (fields_.empty() || shows_topic_ids) &&
        config_.inter_broker_protocol_version >= MetadataVersion::IBP_2_8_IV0) {
      header.version = kTraceFormatTopicIdsVersion;
    }
    // /feature (written by every controller's failover) and the brokers' ibp_upgraded are in
    // observations from version 5, as is a configuration's rolling upgrade.
    const bool shows_features = std::any_of(fields_.begin(), fields_.end(), [](const std::vector<std::string>& f) {
      if (f.empty()) return true;
      if (f[0] == "zookeeper") return f.size() < 2 || f[1] == "feature";
      return f[0] == "brokers" && (f.size() < 3 || f[2] == "ibp_upgraded");
    });
    if ((options_.observations && (fields_.empty() || shows_features)) || config_.upgrade_inter_broker_protocol_version) {
      header.version = kTraceFormatRollingUpgradeVersion;
    }
    // A controller's session expiring in the middle of an event: its action, bound and armings.
    if (config_.bounds.zk_session_expiries > 0) header.version = kTraceFormatSessionExpiryVersion;
    if (given_) {
      // The whole world in the compact form: what it leaves out holds its default.
      header.version = std::max(header.version, kTraceFormatGivenVersion);
      header.given = TraceGiven{observationJson(given_->world), given_->unchecked};
      given_.reset();  // written: a long history does not keep it
    }
    line = printTraceHeader(header);
  } else {
    line = printTraceStep(TraceStep{action, std::move(observation)});
  }
  line += '\n';
  sink_(line);
}

void TraceStreamWriter::step(const Action& action) {
  runStep(config_, state_, action, steps_ + 1);
  ++steps_;
  emitState(printAction(config_, action));
}

void TraceStreamWriter::finish() {
  if (options_.observations) requireNamed(options_, named_);
}

std::string writeTrace(const Config& config, const std::vector<Action>& actions, const TraceWriteOptions& options,
                       const std::optional<GivenStart>& given) {
  std::string out;
  TraceStreamWriter writer(config, options, [&out](std::string_view text) { out += text; }, given);
  for (const Action& action : actions) writer.step(action);
  writer.finish();
  return out;
}

Json itfObservationValue(const Json& observation_member, std::string_view name) {
  std::string text;
  appendItf(text, observation_member, name);
  return Json::parse(text);
}

namespace {

// State `index` of the ITF: {"#meta":{"index":i},"action":…,"zookeeper":…,"brokers":…}.
std::string itfState(const Config& config, std::size_t index, const std::string& action,
                     const spec::ClusterState& state) {
  const Json observation =
      observationJson(state.world, ObservationJsonOptions{.include_defaults = true, .scope = &config});
  std::string out = fmt::format(R"({{"#meta":{{"index":{}}},"action":)", index);
  appendString(out, action);
  out += R"(,"zookeeper":)";
  appendItf(out, observation.at("zookeeper"), "zookeeper");
  out += R"(,"brokers":)";
  appendItf(out, observation.at("brokers"), "brokers");
  out += '}';
  return out;
}

Json itfMeta(std::string_view source, std::string description) {
  Json meta = Json::object();
  meta["format"] = "ITF";
  meta["format-description"] = "https://apalache-mc.org/docs/adr/015adr-trace.html";
  meta["source"] = std::string(source);
  meta["description"] = std::move(description);
  return meta;
}

// The description's words for a history that starts from a given world.
std::string fromGiven(const std::optional<GivenStart>& given) {
  if (!given) return "";
  return given->unchecked ? " from a given world (stated unchecked)" : " from a given world";
}

Json itfVars() { return Json::array({"action", "zookeeper", "brokers"}); }

std::string dumped(const Json& value) { return value.dump(-1, ' ', false, Json::error_handler_t::replace); }

}  // namespace

Json writeItf(const Config& config, const std::vector<Action>& actions, std::string_view source,
              const std::optional<GivenStart>& given) {
  spec::ClusterState state = startingState(config, given);
  std::string states = itfState(config, 0, startingAction(given), state);
  for (std::size_t i = 0; i < actions.size(); ++i) {
    runStep(config, state, actions[i], i + 1);
    states += ',' + itfState(config, i + 1, printAction(config, actions[i]), state);
  }
  Json out = Json::object();
  out["#meta"] = itfMeta(source,
                         fmt::format("kcspec history of configuration {}{}: {} actions through the spec", config.name,
                                     fromGiven(given), actions.size()));
  out["vars"] = itfVars();
  out["states"] = Json::parse("[" + states + "]");
  return out;
}

ItfStreamWriter::ItfStreamWriter(const Config& config, std::string_view source, TextSink sink,
                                 const std::optional<GivenStart>& given)
    : config_(config), sink_(std::move(sink)), state_(startingState(config, given)) {
  const Json meta = itfMeta(source,
                            fmt::format("kcspec history of configuration {}{} through the spec (state i: after action i)",
                                        config.name, fromGiven(given)));
  sink_(fmt::format("{{\"#meta\":{},\"vars\":{},\"states\":[", dumped(meta), dumped(itfVars())));
  emitState(startingAction(given));
}

void ItfStreamWriter::emitState(const std::string& action) {
  std::string text = steps_ == 0 ? std::string() : std::string(",");
  text += itfState(config_, steps_, action, state_);
  sink_(text);
}

void ItfStreamWriter::step(const Action& action) {
  runStep(config_, state_, action, steps_ + 1);
  ++steps_;
  emitState(printAction(config_, action));
}

void ItfStreamWriter::finish() { sink_("]}\n"); }

}  // namespace kcspec::conformance
