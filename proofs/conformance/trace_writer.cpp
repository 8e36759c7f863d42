// Writing histories as traces and as ITF (trace_writer.hpp).
#include "proofs/conformance/trace_writer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <stdexcept>

#include "spec/rules/step.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/config_text.hpp"
#include "spec/vocabulary/observation_json.hpp"
#include "spec/vocabulary/trace_text.hpp"

namespace kcspec::conformance {
namespace {

using Json = nlohmann::ordered_json;

// Runs the history through the spec, calling visit(index, action text, state) for the initial
// state (index 0, "init") and after every action.
template <class Visit>
void walk(const Config& config, const std::vector<Action>& actions, Visit&& visit) {
  spec::ClusterState state = spec::initialState(config);
  visit(std::size_t{0}, std::string("init"), state);
  for (std::size_t i = 0; i < actions.size(); ++i) {
    if (!spec::isEnabled(config, state, actions[i])) {
      throw std::invalid_argument(fmt::format("action {} ({}) is not enabled", i + 1, printAction(config, actions[i])));
    }
    state = spec::next(config, state, actions[i]);
    visit(i + 1, printAction(config, actions[i]), state);
  }
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
Json observationFor(const spec::ClusterState& state, const TraceWriteOptions& options,
                    const std::vector<std::vector<std::string>>& fields, std::vector<bool>& named) {
  Json full = observationJson(state.world, ObservationJsonOptions{.include_defaults = true});
  Json compact;
  if (options.compact) compact = observationJson(state.world, ObservationJsonOptions{.include_defaults = false});
  if (fields.empty()) return options.compact ? compact : full;
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

Json bigint(const Json& number) { return Json{{"#bigint", number.dump()}}; }

// "3" → 3, "0-1" → (0, 1); nullopt for any other key (the object is then a record).
std::optional<Json> mapKey(const std::string& key) {
  const auto digits = [](std::string_view s) {
    return !s.empty() && s.size() <= 9 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  if (digits(key)) return Json{{"#bigint", std::to_string(std::stol(key))}};
  const std::size_t dash = key.find('-');
  if (dash != std::string::npos && digits(std::string_view(key).substr(0, dash)) &&
      digits(std::string_view(key).substr(dash + 1))) {
    Json tuple = Json::array({Json{{"#bigint", std::to_string(std::stol(key.substr(0, dash)))}},
                              Json{{"#bigint", std::to_string(std::stol(key.substr(dash + 1)))}}});
    return Json{{"#tup", std::move(tuple)}};
  }
  return std::nullopt;
}

Json none() { return Json{{"tag", "None"}, {"value", Json{{"#tup", Json::array()}}}}; }

Json itfValue(const Json& value, std::string_view name, bool in_topic_znode = false);

Json itfObject(const Json& object) {
  bool is_map = !object.empty();
  for (const auto& [key, member] : object.items()) is_map = is_map && mapKey(key).has_value();
  if (is_map) {
    Json entries = Json::array();
    for (const auto& [key, member] : object.items()) {
      if (member.is_null()) continue;  // an absent entry
      entries.push_back(Json::array({*mapKey(key), itfValue(member, key)}));
    }
    return Json{{"#map", std::move(entries)}};
  }
  // A record. The controller context's per-partition entries (the objects holding
  // "replica_states") have optional members: those become Quint options.
  const bool optionals = object.contains("replica_states");
  const bool topic_znode = object.contains("exists");
  Json out = Json::object();
  for (const auto& [key, member] : object.items()) {
    if (member.is_null()) {
      out[key] = none();
    } else if (optionals && key != "replica_states") {
      out[key] = Json{{"tag", "Some"}, {"value", itfValue(member, key)}};
    } else {
      out[key] = itfValue(member, key, topic_znode);
    }
  }
  return out;
}

Json itfValue(const Json& value, std::string_view name, bool in_topic_znode) {
  if (value.is_number_integer()) return bigint(value);
  if (value.is_object()) return itfObject(value);
  if (value.is_array()) {
    Json items = Json::array();
    for (const Json& item : value) items.push_back(itfValue(item, ""));
    if (isSetMember(name, in_topic_znode)) return Json{{"#set", std::move(items)}};
    return items;
  }
  if (value.is_null()) return none();
  return value;  // booleans and strings
}

}  // namespace

std::string writeTrace(const Config& config, const std::vector<Action>& actions, const TraceWriteOptions& options) {
  std::vector<std::vector<std::string>> fields;
  for (const std::string& field : options.fields) fields.push_back(pointerTokens(field));
  std::vector<bool> named(fields.size(), false);
  std::string out;
  walk(config, actions, [&](std::size_t index, const std::string& action, const spec::ClusterState& state) {
    std::optional<Json> observation;
    if (options.observations) observation = observationFor(state, options, fields, named);
    if (index == 0) {
      out += printTraceHeader(TraceHeader{kTraceFormatVersion, printConfig(config), std::nullopt, observation});
    } else {
      out += printTraceStep(TraceStep{action, observation});
    }
    out += '\n';
  });
  if (options.observations) requireNamed(options, named);
  return out;
}

Json itfObservationValue(const Json& observation_member, std::string_view name) {
  return itfValue(observation_member, name);
}

Json writeItf(const Config& config, const std::vector<Action>& actions, std::string_view source) {
  Json states = Json::array();
  walk(config, actions, [&](std::size_t index, const std::string& action, const spec::ClusterState& state) {
    const Json observation = observationJson(state.world, ObservationJsonOptions{.include_defaults = true});
    Json s = Json::object();
    s["#meta"] = Json{{"index", index}};
    s["action"] = action;
    s["zookeeper"] = itfValue(observation.at("zookeeper"), "zookeeper");
    s["brokers"] = itfValue(observation.at("brokers"), "brokers");
    states.push_back(std::move(s));
  });
  Json meta = Json::object();
  meta["format"] = "ITF";
  meta["format-description"] = "https://apalache-mc.org/docs/adr/015adr-trace.html";
  meta["source"] = std::string(source);
  meta["description"] = fmt::format("kcspec history of configuration {}: {} actions through the spec", config.name,
                                    actions.size());
  Json out = Json::object();
  out["#meta"] = std::move(meta);
  out["vars"] = Json::array({"action", "zookeeper", "brokers"});
  out["states"] = std::move(states);
  return out;
}

}  // namespace kcspec::conformance
