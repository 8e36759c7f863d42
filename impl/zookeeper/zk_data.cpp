// Kafka's znode paths and JSON payloads (zk_data.hpp).
#include "impl/zookeeper/zk_data.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <initializer_list>
#include <string>
#include <unordered_map>

#include "spec/vocabulary/assert.hpp"

namespace kcspec::impl::zk {

namespace paths {
namespace {
// Joins path pieces with one allocation (paths are built on every ZooKeeper read).
std::string join(std::initializer_list<std::string_view> pieces) {
  std::size_t size = 0;
  for (std::string_view piece : pieces) size += piece.size();
  std::string out;
  out.reserve(size);
  for (std::string_view piece : pieces) out += piece;
  return out;
}

// A sequential child's sequence number: path.substring(path.lastIndexOf(prefix) + prefix.length).
std::string sequenceNumberAfter(std::string_view child, std::string_view prefix) {
  const std::size_t at = child.rfind(prefix);
  return std::string(at == std::string_view::npos ? child : child.substr(at + prefix.size()));
}
}  // namespace

std::string brokerId(BrokerId id) { return join({kBrokerIds, "/", std::to_string(id)}); }
std::string topic(std::string_view t) { return join({kTopics, "/", t}); }
std::string topicPartitions(std::string_view t) { return join({kTopics, "/", t, "/partitions"}); }
std::string topicPartition(std::string_view t, int p) { return join({kTopics, "/", t, "/partitions/", std::to_string(p)}); }
std::string topicPartitionState(std::string_view t, int p) {
  return join({kTopics, "/", t, "/partitions/", std::to_string(p), "/state"});
}
std::string deleteTopic(std::string_view t) { return join({kDeleteTopics, "/", t}); }
std::string topicConfig(std::string_view t) { return join({kConfigTopics, "/", t}); }
std::string logDirEventNotificationSequence(std::string_view sequence_number) {
  return join({kLogDirEventNotification, "/", kLogDirEventSequenceNumberPrefix, sequence_number});
}
std::string logDirEventSequenceNumber(std::string_view child) {
  return sequenceNumberAfter(child, kLogDirEventSequenceNumberPrefix);
}
std::string isrChangeNotificationSequence(std::string_view sequence_number) {
  return join({kIsrChangeNotification, "/", kIsrChangeSequenceNumberPrefix, sequence_number});
}
std::string isrChangeSequenceNumber(std::string_view child) { return sequenceNumberAfter(child, kIsrChangeSequenceNumberPrefix); }
std::optional<std::pair<std::string_view, int>> parseTopicPartitionState(std::string_view path) {
  // /brokers/topics/<t>/partitions/<p>/state
  const std::string prefix = join({kTopics, "/"});
  constexpr std::string_view kMiddle = "/partitions/";
  constexpr std::string_view kSuffix = "/state";
  if (!path.starts_with(prefix) || !path.ends_with(kSuffix)) return std::nullopt;
  const std::string_view rest = path.substr(prefix.size(), path.size() - prefix.size() - kSuffix.size());
  const std::size_t middle = rest.find(kMiddle);
  if (middle == std::string_view::npos || middle == 0) return std::nullopt;
  const std::string_view digits = rest.substr(middle + kMiddle.size());
  if (digits.empty() || digits.size() > 4) return std::nullopt;
  int partition = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    partition = partition * 10 + (c - '0');
  }
  return std::pair<std::string_view, int>{rest.substr(0, middle), partition};
}
}  // namespace paths

namespace payload {
namespace {

nlohmann::json ids(const BrokerList& list) {
  nlohmann::json out = nlohmann::json::array();
  for (BrokerId id : list) out.push_back(id);
  return out;
}

BrokerList idsFrom(const nlohmann::json& json) {
  BrokerList out;
  for (const auto& id : json) out.push_back(id.get<BrokerId>());
  return out;
}

std::string buildBrokerRegistration(BrokerId id) {
  const std::string host = fmt::format("broker-{}", id);
  nlohmann::json json = {{"version", 5},
                         {"host", host},
                         {"port", 9092},
                         {"jmx_port", -1},
                         {"timestamp", "0"},
                         {"endpoints", nlohmann::json::array({fmt::format("PLAINTEXT://{}:9092", host)})},
                         {"rack", nullptr},
                         {"listener_security_protocol_map", {{"PLAINTEXT", "PLAINTEXT"}}},
                         {"features", nlohmann::json::object()}};
  return json.dump();
}

// Decoded payloads by their exact text, per thread. Decoding is a pure function of the text, and
// a run of the controller reads the same few payloads again and again (the explorer replays
// millions of steps over a handful of distinct znode values), so parsing each distinct text once
// per thread is the same answer for a fraction of the work. Bounded: emptied when full.
template <class Value>
class DecodeMemo {
 public:
  static constexpr std::size_t kMaxEntries = 4096;

  template <class Decode>
  const Value& get(std::string_view text, Decode&& decode) {
    if (const auto found = entries_.find(text); found != entries_.end()) return found->second;
    if (entries_.size() >= kMaxEntries) entries_.clear();
    return entries_.emplace(std::string(text), decode(text)).first->second;
  }

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
  };
  std::unordered_map<std::string, Value, Hash, std::equal_to<>> entries_;
};

TopicAssignment parseTopicAssignment(std::string_view json) {
  const nlohmann::json parsed = nlohmann::json::parse(json);
  TopicAssignment out;
  for (const auto& [key, replicas] : parsed["partitions"].items()) {
    ReplicaAssignment a(idsFrom(replicas));
    if (parsed.contains("adding_replicas") && parsed["adding_replicas"].contains(key)) {
      a.adding_replicas = idsFrom(parsed["adding_replicas"][key]);
    }
    if (parsed.contains("removing_replicas") && parsed["removing_replicas"].contains(key)) {
      a.removing_replicas = idsFrom(parsed["removing_replicas"][key]);
    }
    out.emplace(std::stoi(key), a);
  }
  return out;
}

// The partition state without its partition epoch (the znode version, set by the caller).
LeaderIsrAndControllerEpoch parsePartitionState(std::string_view json) {
  const nlohmann::json parsed = nlohmann::json::parse(json);
  LeaderAndIsr lai;
  lai.leader = parsed["leader"].get<BrokerId>();
  lai.leader_epoch = parsed["leader_epoch"].get<std::int32_t>();
  lai.isr = idsFrom(parsed["isr"]);
  lai.recovery_state = parsed.value("leader_recovery_state", 0) == 1 ? LeaderRecoveryState::RECOVERING
                                                                      : LeaderRecoveryState::RECOVERED;
  return LeaderIsrAndControllerEpoch{lai, parsed["controller_epoch"].get<std::int32_t>()};
}

std::optional<BrokerId> parseController(std::string_view json) {
  const nlohmann::json parsed = nlohmann::json::parse(json, nullptr, false);
  if (parsed.is_discarded() || !parsed.contains("brokerid")) return std::nullopt;
  return parsed["brokerid"].get<BrokerId>();
}

bool parseUncleanLeaderElectionEnable(std::string_view json) {
  const nlohmann::json parsed = nlohmann::json::parse(json, nullptr, false);
  if (parsed.is_discarded() || !parsed.contains("config")) return false;
  return parsed["config"].value("unclean.leader.election.enable", "false") == "true";
}

// The legacy admin znodes' partition lists (ReassignPartitionsZNode, PreferredReplicaElectionZNode):
// nullopt when the data does not parse or does not have the shape (Jackson's mapping fails).
std::optional<std::vector<LegacyPartitionEntry>> parseLegacyPartitions(std::string_view json, bool with_replicas) {
  const nlohmann::json parsed = nlohmann::json::parse(json, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object()) return std::nullopt;
  const auto partitions = parsed.find("partitions");
  if (partitions == parsed.end() || !partitions->is_array()) return std::nullopt;
  std::vector<LegacyPartitionEntry> out;
  for (const nlohmann::json& entry : *partitions) {
    if (!entry.is_object()) return std::nullopt;
    const auto topic = entry.find("topic");
    const auto partition = entry.find("partition");
    if (topic == entry.end() || !topic->is_string() || partition == entry.end() || !partition->is_number_integer()) {
      return std::nullopt;
    }
    LegacyPartitionEntry e{topic->get<std::string>(), partition->get<std::int32_t>(), {}};
    if (with_replicas) {
      const auto replicas = entry.find("replicas");
      if (replicas == entry.end() || !replicas->is_array()) return std::nullopt;
      for (const nlohmann::json& id : *replicas) {
        if (!id.is_number_integer()) return std::nullopt;
      }
      e.replicas = idsFrom(*replicas);
    }
    out.push_back(std::move(e));
  }
  return out;
}

std::optional<std::vector<LegacyPartitionEntry>> parseReassignPartitions(std::string_view json) {
  return parseLegacyPartitions(json, /*with_replicas=*/true);
}

std::string encodeLegacyPartitions(const std::vector<LegacyPartitionEntry>& entries, bool with_replicas) {
  nlohmann::json partitions = nlohmann::json::array();
  for (const LegacyPartitionEntry& e : entries) {
    nlohmann::json entry = {{"topic", e.topic}, {"partition", e.partition}};
    if (with_replicas) entry["replicas"] = ids(e.replicas);
    partitions.push_back(std::move(entry));
  }
  return nlohmann::json{{"version", 1}, {"partitions", partitions}}.dump();
}

}  // namespace

std::string brokerRegistration(BrokerId id) {
  // A pure function of the id, asked for on every broker start: built once per id and thread.
  thread_local std::map<BrokerId, std::string> built;
  if (const auto found = built.find(id); found != built.end()) return found->second;
  return built.emplace(id, buildBrokerRegistration(id)).first->second;
}


std::string controller(BrokerId id, std::int64_t timestamp_ms) {
  return nlohmann::json{{"version", 2}, {"brokerid", id}, {"timestamp", std::to_string(timestamp_ms)}, {"kraftControllerEpoch", -1}}
      .dump();
}

std::optional<BrokerId> decodeController(std::string_view json) {
  thread_local DecodeMemo<std::optional<BrokerId>> memo;
  return memo.get(json, parseController);
}

std::string controllerEpoch(std::int32_t epoch) { return std::to_string(epoch); }

std::int32_t decodeControllerEpoch(std::string_view text) { return std::stoi(std::string(text)); }

std::string topicAssignment(const TopicAssignment& assignment, const std::optional<Uuid>& topic_id) {
  nlohmann::json partitions = nlohmann::json::object();
  nlohmann::json adding = nlohmann::json::object();
  nlohmann::json removing = nlohmann::json::object();
  for (const auto& [p, a] : assignment) {
    const std::string key = std::to_string(p);
    partitions[key] = ids(a.replicas);
    if (!a.adding_replicas.empty()) adding[key] = ids(a.adding_replicas);
    if (!a.removing_replicas.empty()) removing[key] = ids(a.removing_replicas);
  }
  nlohmann::json json{{"version", 3}, {"partitions", partitions}, {"adding_replicas", adding}, {"removing_replicas", removing}};
  if (topic_id) json["topic_id"] = topic_id->toString();
  return json.dump();
}

std::optional<Uuid> decodeTopicId(std::string_view json) {
  thread_local DecodeMemo<std::optional<Uuid>> memo;
  return memo.get(json, [](std::string_view text) -> std::optional<Uuid> {
    const nlohmann::json parsed = nlohmann::json::parse(text, nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object() || !parsed.contains("topic_id") || !parsed["topic_id"].is_string()) {
      return std::nullopt;
    }
    return Uuid::fromString(parsed["topic_id"].get<std::string>());
  });
}

TopicAssignment decodeTopicAssignment(std::string_view json) { return topicAssignmentOf(json); }

const TopicAssignment& topicAssignmentOf(std::string_view json) {
  thread_local DecodeMemo<TopicAssignment> memo;
  return memo.get(json, parseTopicAssignment);
}

std::string partitionState(const LeaderIsrAndControllerEpoch& state) {
  const LeaderAndIsr& lai = state.leader_and_isr;
  nlohmann::json json = {{"controller_epoch", state.controller_epoch},
                         {"leader", lai.leader},
                         {"version", 1},
                         {"leader_epoch", lai.leader_epoch},
                         {"isr", ids(lai.isr)}};
  if (lai.recovery_state == LeaderRecoveryState::RECOVERING) json["leader_recovery_state"] = 1;
  return json.dump();
}

std::optional<LeaderIsrAndControllerEpoch> decodePartitionState(std::string_view json, std::int32_t version) {
  if (json.empty()) return std::nullopt;
  thread_local DecodeMemo<LeaderIsrAndControllerEpoch> memo;
  LeaderIsrAndControllerEpoch state = memo.get(json, parsePartitionState);
  state.leader_and_isr.partition_epoch = version;
  return state;
}

std::string topicConfig(bool unclean_leader_election_enable) {
  nlohmann::json config = nlohmann::json::object();
  if (unclean_leader_election_enable) config["unclean.leader.election.enable"] = "true";
  return nlohmann::json{{"version", 1}, {"config", config}}.dump();
}

bool decodeUncleanLeaderElectionEnable(std::string_view json) {
  thread_local DecodeMemo<bool> memo;
  return memo.get(json, parseUncleanLeaderElectionEnable);
}

std::string reassignPartitions(const std::vector<LegacyPartitionEntry>& entries) {
  return encodeLegacyPartitions(entries, /*with_replicas=*/true);
}

std::optional<std::vector<LegacyPartitionEntry>> decodeReassignPartitions(std::string_view json) {
  // Read on every observation while the znode exists: parsed once per distinct text.
  thread_local DecodeMemo<std::optional<std::vector<LegacyPartitionEntry>>> memo;
  return memo.get(json, parseReassignPartitions);
}

std::string preferredReplicaElection(const std::vector<LegacyPartitionEntry>& entries) {
  return encodeLegacyPartitions(entries, /*with_replicas=*/false);
}

std::vector<LegacyPartitionEntry> decodePreferredReplicaElection(std::string_view json) {
  return parseLegacyPartitions(json, /*with_replicas=*/false).value_or(std::vector<LegacyPartitionEntry>{});
}

std::string logDirEventNotification(BrokerId broker) {
  return nlohmann::json{{"version", 1}, {"broker", broker}, {"event", 1}}.dump();
}

std::optional<BrokerId> decodeLogDirEventNotification(std::string_view json) {
  // Read on every observation while a notification exists: parsed once per distinct text.
  thread_local DecodeMemo<std::optional<BrokerId>> memo;
  return memo.get(json, [](std::string_view text) -> std::optional<BrokerId> {
    const nlohmann::json parsed = nlohmann::json::parse(text, nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object()) return std::nullopt;
    const auto broker = parsed.find("broker");
    if (broker == parsed.end() || !broker->is_number_integer()) return std::nullopt;
    return broker->get<BrokerId>();
  });
}

std::string feature(const FeatureZnode& node) {
  KCSPEC_ASSERT(node.status != FeatureZnodeStatus::Absent);
  return nlohmann::json{{"version", node.format_version},
                        {"status", node.status == FeatureZnodeStatus::Enabled ? 1 : 0},
                        {"features", nlohmann::json::object()}}
      .dump();
}

namespace {
std::optional<FeatureZnode> parseFeature(std::string_view json) {
  const nlohmann::json parsed = nlohmann::json::parse(json, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object()) return std::nullopt;
  const auto version = parsed.find("version");
  const auto status = parsed.find("status");
  if (version == parsed.end() || !version->is_number_integer() || status == parsed.end() || !status->is_number_integer()) {
    return std::nullopt;
  }
  const int v = version->get<int>();
  const int st = status->get<int>();
  if ((v != 1 && v != 2) || (st != 0 && st != 1)) return std::nullopt;
  return FeatureZnode{.status = st == 1 ? FeatureZnodeStatus::Enabled : FeatureZnodeStatus::Disabled,
                      .format_version = static_cast<std::uint8_t>(v)};
}
}  // namespace

std::optional<FeatureZnode> decodeFeature(std::string_view json) {
  thread_local DecodeMemo<std::optional<FeatureZnode>> memo;
  return memo.get(json, parseFeature);
}

}  // namespace payload
}  // namespace kcspec::impl::zk
