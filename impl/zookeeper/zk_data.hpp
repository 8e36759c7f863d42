// Kafka's znode paths and payloads (kafka.md §6.1, Kafka's ZkData.scala): where each piece of
// cluster state lives and the JSON it is stored as. Decoding remembers, per thread, the last few
// thousand distinct texts it decoded (a pure function of the text: the same answer, parsed once).
#pragma once

#include "impl/uuid.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spec/vocabulary/ids.hpp"
#include "spec/vocabulary/leader_and_isr.hpp"
#include "spec/vocabulary/observation.hpp"  // FeatureZnode
#include "spec/vocabulary/replica_assignment.hpp"

namespace kcspec::impl::zk {

namespace paths {
inline constexpr std::string_view kController = "/controller";
inline constexpr std::string_view kControllerEpoch = "/controller_epoch";
inline constexpr std::string_view kBrokers = "/brokers";
inline constexpr std::string_view kBrokerIds = "/brokers/ids";
inline constexpr std::string_view kTopics = "/brokers/topics";
inline constexpr std::string_view kAdmin = "/admin";
inline constexpr std::string_view kDeleteTopics = "/admin/delete_topics";
inline constexpr std::string_view kReassignPartitions = "/admin/reassign_partitions";              // legacy admin path
inline constexpr std::string_view kPreferredReplicaElection = "/admin/preferred_replica_election";  // legacy admin path
inline constexpr std::string_view kConfig = "/config";
inline constexpr std::string_view kConfigTopics = "/config/topics";
// LogDirEventNotificationZNode and its persistent sequential children log_dir_event_<seq>.
inline constexpr std::string_view kLogDirEventNotification = "/log_dir_event_notification";
inline constexpr std::string_view kLogDirEventSequenceNumberPrefix = "log_dir_event_";
// IsrChangeNotificationZNode and its persistent sequential children isr_change_<seq> (written by
// leaders when inter.broker.protocol.version < 2.7-IV2).
inline constexpr std::string_view kIsrChangeNotification = "/isr_change_notification";
inline constexpr std::string_view kIsrChangeSequenceNumberPrefix = "isr_change_";
// FeatureZNode, written by each controller at failover (KIP-584).
inline constexpr std::string_view kFeature = "/feature";

std::string brokerId(BrokerId id);                                    // /brokers/ids/<id>
std::string topic(std::string_view topic);                            // /brokers/topics/<t>
std::string topicPartitions(std::string_view topic);                  // /brokers/topics/<t>/partitions
std::string topicPartition(std::string_view topic, int partition);    // …/partitions/<p>
std::string topicPartitionState(std::string_view topic, int partition);  // …/partitions/<p>/state
std::string deleteTopic(std::string_view topic);                      // /admin/delete_topics/<t>
std::string topicConfig(std::string_view topic);                      // /config/topics/<t>
// LogDirEventNotificationSequenceZNode.path: /log_dir_event_notification/log_dir_event_<seq>
std::string logDirEventNotificationSequence(std::string_view sequence_number);
// LogDirEventNotificationSequenceZNode.sequenceNumber: what follows the prefix in a child's name.
std::string logDirEventSequenceNumber(std::string_view child);
// IsrChangeNotificationSequenceZNode.path: /isr_change_notification/isr_change_<seq>
std::string isrChangeNotificationSequence(std::string_view sequence_number);
// IsrChangeNotificationSequenceZNode.seqNum: what follows the prefix in a child's name.
std::string isrChangeSequenceNumber(std::string_view child);
// The partition whose state znode `path` is (TopicPartitionStateZNode.path), in `topics` (by
// name); nothing for any other path.
std::optional<std::pair<std::string_view, int>> parseTopicPartitionState(std::string_view path);
}  // namespace paths

// Partition id → full assignment, as the topic znode stores it.
using TopicAssignment = std::map<int, ReplicaAssignment>;

namespace payload {
// BrokerIdZNode v5 (only the broker epoch, the znode's czxid, matters to the controller).
std::string brokerRegistration(BrokerId id);
// ControllerZNode v2 (3.4+).
std::string controller(BrokerId id, std::int64_t timestamp_ms);
std::optional<BrokerId> decodeController(std::string_view json);
// ControllerEpochZNode: plain decimal text.
std::string controllerEpoch(std::int32_t epoch);
std::int32_t decodeControllerEpoch(std::string_view text);
// TopicZNode v3, with "topic_id" when it has one.
std::string topicAssignment(const TopicAssignment& assignment, const std::optional<Uuid>& topic_id = std::nullopt);
// Its "topic_id" (TopicZNode.decode's topicId), nothing when absent or not a Uuid.
std::optional<Uuid> decodeTopicId(std::string_view json);
TopicAssignment decodeTopicAssignment(std::string_view json);
// The same without a copy: valid until the next decode of a topic assignment on this thread.
const TopicAssignment& topicAssignmentOf(std::string_view json);
// TopicPartitionStateZNode; partitionEpoch is the znode version, not stored.
std::string partitionState(const LeaderIsrAndControllerEpoch& state);
std::optional<LeaderIsrAndControllerEpoch> decodePartitionState(std::string_view json, std::int32_t version);
// ConfigEntityZNode for a topic.
std::string topicConfig(bool unclean_leader_election_enable);
bool decodeUncleanLeaderElectionEnable(std::string_view json);

// One entry of ReassignPartitionsZNode / PreferredReplicaElectionZNode, by topic name.
struct LegacyPartitionEntry {
  std::string topic;
  std::int32_t partition = 0;
  BrokerList replicas;  // ReassignPartitionsZNode only
  friend bool operator==(const LegacyPartitionEntry&, const LegacyPartitionEntry&) = default;
};
// ReassignPartitionsZNode: {"version":1,"partitions":[{"topic":…,"partition":…,"replicas":[…]},…]}.
std::string reassignPartitions(const std::vector<LegacyPartitionEntry>& entries);
// nullopt when the data is not that JSON (Kafka's decode gives a Left: the controller WARNs
// "Ignoring partition reassignment due to invalid json" and reads no entry).
std::optional<std::vector<LegacyPartitionEntry>> decodeReassignPartitions(std::string_view json);
// Data that is no JSON at all: what the zk-reassign-invalid admin writes.
inline constexpr std::string_view kUnparsableReassignPartitions = "not json";
// PreferredReplicaElectionZNode: {"version":1,"partitions":[{"topic":…,"partition":…},…]}. Data that
// does not parse reads as no partition (Kafka's decode: `Json.parseBytes(…)…getOrElse(Set.empty)`).
std::string preferredReplicaElection(const std::vector<LegacyPartitionEntry>& entries);
std::vector<LegacyPartitionEntry> decodePreferredReplicaElection(std::string_view json);
// IsrChangeNotificationSequenceZNode stores the same JSON and is decoded the same way.

// LogDirEventNotificationSequenceZNode: {"version":1,"broker":<id>,"event":1} (LogDirFailureEvent).
std::string logDirEventNotification(BrokerId broker);
// Its "broker"; nullopt when the data does not parse (Kafka's decode gives None: the child is skipped).
std::optional<BrokerId> decodeLogDirEventNotification(std::string_view json);

// FeatureZNode: {"version":1|2,"status":0|1,"features":{}} (status 0 Disabled, 1 Enabled). The
// finalized features are not modeled (docs/world.md 14): kcspec writes none.
std::string feature(const FeatureZnode& node);
// nullopt when the data is not that JSON (Kafka's decode throws IllegalArgumentException).
std::optional<FeatureZnode> decodeFeature(std::string_view json);
}  // namespace payload

}  // namespace kcspec::impl::zk
