// readSnapshot (zk_snapshot.hpp): Kafka's znode formats, parsed leniently — a payload that is not
// what Kafka writes is recorded as malformed (a finding), never a crash.
#include "proofs/zk_check/zk_snapshot.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace kcspec::zkcheck {
namespace {

using nlohmann::json;

std::optional<int> parseInt(const std::string& text) {
  int value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

// A JSON integer that fits Kafka's Int (32 bits: broker ids, epochs, partitions), or nullopt.
// nlohmann's get<int>() would wrap 4294967298 to 2: a value that does not fit is malformed.
std::optional<int> int32Of(const json& value) {
  if (value.is_number_unsigned()) {
    const auto v = value.get<std::uint64_t>();
    if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max())) return std::nullopt;
    return static_cast<int>(v);
  }
  if (!value.is_number_integer()) return std::nullopt;
  const auto v = value.get<std::int64_t>();
  if (v < std::numeric_limits<std::int32_t>::min() || v > std::numeric_limits<std::int32_t>::max()) return std::nullopt;
  return static_cast<int>(v);
}

// Why `value` is not a 32-bit integer, for a finding (the value shown, shortened).
std::string notInt32(std::string_view key, const json& value) {
  std::string shown = value.dump();
  if (shown.size() > 40) shown = shown.substr(0, 37) + "...";
  return value.is_number_integer() ? fmt::format("\"{}\" is {}, which does not fit Kafka's 32-bit Int", key, shown)
                                   : fmt::format("\"{}\" is {}, not an integer", key, shown);
}

// A JSON array of 32-bit integers, or nullopt (`why` says which element is not).
std::optional<std::vector<int>> intList(const json& value, std::string_view key, std::string* why = nullptr) {
  if (!value.is_array()) return std::nullopt;
  std::vector<int> out;
  for (const json& item : value) {
    const std::optional<int> v = int32Of(item);
    if (!v) {
      if (why != nullptr) *why = notInt32(key, item);
      return std::nullopt;
    }
    out.push_back(*v);
  }
  return out;
}

class Reader {
 public:
  Reader(const ZnodeReader& zk, ZkSnapshot& out) : zk_(zk), out_(out) {}

  const impl::zk::Znode* get(const std::string& path) { return zk_.find(path); }
  std::vector<std::string> children(const std::string& path) { return zk_.children(path); }
  std::optional<json> parse(const std::string& path, const std::string& data) {
    json parsed = json::parse(data, nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object()) {
      malformed(path, "not a JSON object");
      return std::nullopt;
    }
    return parsed;
  }
  void malformed(const std::string& path, std::string message) { out_.malformed.push_back({path, std::move(message)}); }

 private:
  const ZnodeReader& zk_;
  ZkSnapshot& out_;
};

// An optional integer field: `fallback` when absent; a field of another type (which nlohmann's
// value() would throw on) is reported as malformed and reads as `fallback` too.
int intField(Reader& reader, const std::string& path, const json& object, const char* key, int fallback) {
  const auto it = object.find(key);
  if (it == object.end()) return fallback;
  const std::optional<int> v = int32Of(*it);
  if (!v) {
    reader.malformed(path, notInt32(key, *it));
    return fallback;
  }
  return *v;
}

void readTopic(Reader& reader, const std::string& name, TopicSnapshot& topic, const SnapshotLimits& limits) {
  const std::string path = "/brokers/topics/" + name;
  const impl::zk::Znode* node = reader.get(path);
  if (node != nullptr) {
    topic.znode = true;
    if (const auto parsed = reader.parse(path, node->data)) {
      topic.version = intField(reader, path, *parsed, "version", 0);
      if (parsed->contains("topic_id") && (*parsed)["topic_id"].is_string()) topic.topic_id = (*parsed)["topic_id"].get<std::string>();
      const json partitions = parsed->value("partitions", json());
      if (!partitions.is_object()) {
        reader.malformed(path, "no \"partitions\" object");
      } else {
        for (const auto& [key, replicas] : partitions.items()) {
          const std::optional<int> p = parseInt(key);
          std::string why;
          const std::optional<std::vector<int>> list = intList(replicas, "replicas", &why);
          if (!p || !list) {
            reader.malformed(path, fmt::format("partition \"{}\" is not a number with a list of broker ids{}", key,
                                               why.empty() ? "" : ": " + why));
            continue;
          }
          PartitionSnapshot& partition = topic.partitions[*p];
          partition.in_assignment = true;
          partition.replicas = *list;
        }
        for (const char* field : {"adding_replicas", "removing_replicas"}) {
          if (!parsed->contains(field)) continue;
          const json& map = (*parsed)[field];
          if (!map.is_object()) {
            reader.malformed(path, fmt::format("\"{}\" is not an object", field));
            continue;
          }
          for (const auto& [key, replicas] : map.items()) {
            const std::optional<int> p = parseInt(key);
            std::string why;
            const std::optional<std::vector<int>> list = intList(replicas, field, &why);
            if (!p || !list) {
              reader.malformed(path, fmt::format("\"{}\" entry \"{}\" is not a number with a list of broker ids{}", field,
                                                 key, why.empty() ? "" : ": " + why));
              continue;
            }
            (std::string_view(field) == "adding_replicas" ? topic.partitions[*p].adding : topic.partitions[*p].removing) = *list;
          }
        }
      }
    }
  }
  const std::string partitions_path = path + "/partitions";
  std::vector<std::string> children = node != nullptr ? reader.children(partitions_path) : std::vector<std::string>{};
  if (children.size() > limits.max_partitions_per_topic) {
    throw std::invalid_argument(fmt::format("{} has {} partitions, more than the limit {}", path, children.size(),
                                            limits.max_partitions_per_topic));
  }
  for (const std::string& child : children) {
    const std::optional<int> p = parseInt(child);
    if (!p) {
      reader.malformed(partitions_path + "/" + child, "not a partition number");
      continue;
    }
    PartitionSnapshot& partition = topic.partitions[*p];
    partition.has_znode = true;
    const std::string state_path = partitions_path + "/" + child + "/state";
    const impl::zk::Znode* state = reader.get(state_path);
    if (state == nullptr) continue;
    const auto parsed = reader.parse(state_path, state->data);
    if (!parsed) continue;
    const json& j = *parsed;
    if (!j.contains("leader") || !j.contains("leader_epoch") || !j.contains("controller_epoch") || !j.contains("isr")) {
      reader.malformed(state_path, "missing leader, leader_epoch, isr or controller_epoch");
      continue;
    }
    std::string why;
    const std::optional<std::vector<int>> isr = intList(j["isr"], "isr", &why);
    const std::optional<int> leader = int32Of(j["leader"]);
    const std::optional<int> leader_epoch = int32Of(j["leader_epoch"]);
    const std::optional<int> controller_epoch = int32Of(j["controller_epoch"]);
    if (!isr || !leader || !leader_epoch || !controller_epoch) {
      if (!leader) why = notInt32("leader", j["leader"]);
      else if (!leader_epoch) why = notInt32("leader_epoch", j["leader_epoch"]);
      else if (!controller_epoch) why = notInt32("controller_epoch", j["controller_epoch"]);
      else if (why.empty()) why = "\"isr\" is not an array of integers";
      reader.malformed(state_path, why);
      continue;
    }
    PartitionStateSnapshot s;
    s.leader = *leader;
    s.leader_epoch = *leader_epoch;
    s.isr = *isr;
    s.controller_epoch = *controller_epoch;
    s.partition_epoch = state->stat.version;
    s.recovering = intField(reader, state_path, j, "leader_recovery_state", 0) == 1;
    partition.state = s;
  }
}

std::optional<std::vector<AdminPartition>> readAdminList(Reader& reader, const std::string& path, bool with_replicas) {
  const impl::zk::Znode* node = reader.get(path);
  if (node == nullptr) return std::nullopt;
  std::vector<AdminPartition> out;
  const auto parsed = reader.parse(path, node->data);
  if (!parsed) return out;
  const json partitions = parsed->value("partitions", json());
  if (!partitions.is_array()) {
    reader.malformed(path, "no \"partitions\" array");
    return out;
  }
  for (const json& entry : partitions) {
    if (!entry.is_object() || !entry.contains("topic") || !entry["topic"].is_string() || !entry.contains("partition")) {
      reader.malformed(path, "an entry without topic and partition");
      continue;
    }
    const std::optional<int> partition = int32Of(entry["partition"]);
    if (!partition) {
      reader.malformed(path, notInt32("partition", entry["partition"]));
      continue;
    }
    AdminPartition a{entry["topic"].get<std::string>(), *partition, {}};
    if (with_replicas) {
      std::string why;
      const auto replicas = entry.contains("replicas") ? intList(entry["replicas"], "replicas", &why) : std::nullopt;
      if (!replicas) {
        reader.malformed(path, why.empty() ? fmt::format("{}-{} has no replica list", a.topic, a.partition)
                                           : fmt::format("{}-{}: {}", a.topic, a.partition, why));
        continue;
      }
      a.replicas = *replicas;
    }
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace

ZkSnapshot readSnapshot(const ZnodeReader& zk, const SnapshotLimits& limits) {
  ZkSnapshot out;
  Reader reader(zk, out);
  if (reader.get("/brokers") == nullptr) {
    throw std::invalid_argument("no /brokers znode: not the root of a ZooKeeper-mode Kafka cluster (wrong chroot?)");
  }
  const std::vector<std::string> ids = reader.children("/brokers/ids");
  if (ids.size() > limits.max_brokers) throw std::invalid_argument(fmt::format("more than {} brokers", limits.max_brokers));
  for (const std::string& id : ids) {
    const std::optional<int> b = parseInt(id);
    const std::string path = "/brokers/ids/" + id;
    if (!b) {
      reader.malformed(path, "not a broker id");
      continue;
    }
    if (const impl::zk::Znode* node = reader.get(path)) {
      out.brokers[*b] = node->stat.czxid;
      reader.parse(path, node->data);
    }
  }
  if (const impl::zk::Znode* node = reader.get("/controller")) {
    if (const auto parsed = reader.parse("/controller", node->data)) {
      if (!parsed->contains("brokerid")) {
        reader.malformed("/controller", "no integer \"brokerid\"");
      } else if (const std::optional<int> id = int32Of((*parsed)["brokerid"])) {
        out.controller = *id;
      } else {
        reader.malformed("/controller", notInt32("brokerid", (*parsed)["brokerid"]));
      }
    }
  }
  if (const impl::zk::Znode* node = reader.get("/controller_epoch")) {
    out.controller_epoch = parseInt(node->data);
    out.controller_epoch_zk_version = node->stat.version;
    if (!out.controller_epoch) reader.malformed("/controller_epoch", "not a decimal number");
  }
  std::vector<std::string> names = reader.children("/brokers/topics");
  const std::vector<std::string> deletions = reader.children("/admin/delete_topics");
  const std::vector<std::string> configs = reader.children("/config/topics");
  if (names.size() + deletions.size() + configs.size() > limits.max_topics) {
    throw std::invalid_argument(fmt::format("more than {} topics", limits.max_topics));
  }
  for (const std::string& name : deletions) out.topics[name].queued_for_deletion = true;
  for (const std::string& name : configs) {
    TopicSnapshot& topic = out.topics[name];
    topic.config = true;
    const std::string path = "/config/topics/" + name;
    if (const impl::zk::Znode* node = reader.get(path)) {
      if (const auto parsed = reader.parse(path, node->data)) {
        const json config = parsed->value("config", json::object());
        const auto unclean = config.is_object() ? config.find("unclean.leader.election.enable") : config.end();
        if (unclean != config.end() && !unclean->is_string()) {
          reader.malformed(path, "\"unclean.leader.election.enable\" is not a string");
        }
        topic.unclean_leader_election_enable =
            unclean != config.end() && unclean->is_string() && unclean->get<std::string>() == "true";
      }
    }
  }
  for (const std::string& name : names) readTopic(reader, name, out.topics[name], limits);
  out.reassign_partitions = readAdminList(reader, "/admin/reassign_partitions", true);
  out.preferred_replica_election = readAdminList(reader, "/admin/preferred_replica_election", false);
  return out;
}

}  // namespace kcspec::zkcheck
