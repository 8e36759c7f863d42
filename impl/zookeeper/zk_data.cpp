// Kafka's znode paths and JSON payloads (zk_data.hpp).
#include "impl/zookeeper/zk_data.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace kcspec::impl::zk {

namespace paths {
std::string brokerId(BrokerId id) { return fmt::format("{}/{}", kBrokerIds, id); }
std::string topic(std::string_view t) { return fmt::format("{}/{}", kTopics, t); }
std::string topicPartitions(std::string_view t) { return topic(t) + "/partitions"; }
std::string topicPartition(std::string_view t, int p) { return fmt::format("{}/{}", topicPartitions(t), p); }
std::string topicPartitionState(std::string_view t, int p) { return topicPartition(t, p) + "/state"; }
std::string deleteTopic(std::string_view t) { return fmt::format("{}/{}", kDeleteTopics, t); }
std::string topicConfig(std::string_view t) { return fmt::format("{}/{}", kConfigTopics, t); }
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

}  // namespace

std::string brokerRegistration(BrokerId id) {
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

std::string controller(BrokerId id, std::int64_t timestamp_ms) {
  return nlohmann::json{{"version", 2}, {"brokerid", id}, {"timestamp", std::to_string(timestamp_ms)}, {"kraftControllerEpoch", -1}}
      .dump();
}

std::optional<BrokerId> decodeController(std::string_view json) {
  const nlohmann::json parsed = nlohmann::json::parse(json, nullptr, false);
  if (parsed.is_discarded() || !parsed.contains("brokerid")) return std::nullopt;
  return parsed["brokerid"].get<BrokerId>();
}

std::string controllerEpoch(std::int32_t epoch) { return std::to_string(epoch); }

std::int32_t decodeControllerEpoch(std::string_view text) { return std::stoi(std::string(text)); }

std::string topicAssignment(const TopicAssignment& assignment) {
  nlohmann::json partitions = nlohmann::json::object();
  nlohmann::json adding = nlohmann::json::object();
  nlohmann::json removing = nlohmann::json::object();
  for (const auto& [p, a] : assignment) {
    const std::string key = std::to_string(p);
    partitions[key] = ids(a.replicas);
    if (!a.adding_replicas.empty()) adding[key] = ids(a.adding_replicas);
    if (!a.removing_replicas.empty()) removing[key] = ids(a.removing_replicas);
  }
  return nlohmann::json{{"version", 3}, {"partitions", partitions}, {"adding_replicas", adding}, {"removing_replicas", removing}}
      .dump();
}

TopicAssignment decodeTopicAssignment(std::string_view json) {
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
  const nlohmann::json parsed = nlohmann::json::parse(json);
  LeaderAndIsr lai;
  lai.leader = parsed["leader"].get<BrokerId>();
  lai.leader_epoch = parsed["leader_epoch"].get<std::int32_t>();
  lai.isr = idsFrom(parsed["isr"]);
  lai.recovery_state = parsed.value("leader_recovery_state", 0) == 1 ? LeaderRecoveryState::RECOVERING
                                                                      : LeaderRecoveryState::RECOVERED;
  lai.partition_epoch = version;
  return LeaderIsrAndControllerEpoch{lai, parsed["controller_epoch"].get<std::int32_t>()};
}

std::string topicConfig(bool unclean_leader_election_enable) {
  nlohmann::json config = nlohmann::json::object();
  if (unclean_leader_election_enable) config["unclean.leader.election.enable"] = "true";
  return nlohmann::json{{"version", 1}, {"config", config}}.dump();
}

bool decodeUncleanLeaderElectionEnable(std::string_view json) {
  const nlohmann::json parsed = nlohmann::json::parse(json, nullptr, false);
  if (parsed.is_discarded() || !parsed.contains("config")) return false;
  return parsed["config"].value("unclean.leader.election.enable", "false") == "true";
}

}  // namespace payload
}  // namespace kcspec::impl::zk
