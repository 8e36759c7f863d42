// What the controller's components reach besides their own state: the configuration, the ZK
// client, the channel to brokers, the state-change logger and the mutant switches. Built per
// call by the cluster and passed by reference (the cluster is a value; nothing points into it).
#pragma once

#include <functional>

#include "impl/controller/controller_channel.hpp"
#include "impl/mutants.hpp"
#include "impl/state_change_logger.hpp"
#include "impl/uuid.hpp"
#include "impl/zookeeper/kafka_zk_client.hpp"
#include "spec/vocabulary/broker_ibp.hpp"
#include "spec/vocabulary/config.hpp"

namespace kcspec::impl {

struct ControllerServices {
  BrokerId controller_id;
  const Config& config;
  zk::KafkaZkClient& zk;
  ControllerChannel& channel;
  StateChangeLogger logger;  // `[Controller id=<id>] `; withControllerEpoch adds the epoch
  Mutants mutants;
  // Routes the ZooKeeper watch notifications of the changes made so far to the active controller
  // (docs/world.md §2; the cluster's routing). Kafka's ZooKeeper event thread runs a change's watch
  // handlers before the reply to the write reaches the controller thread, so the controller calls
  // this before it puts an event on its own queue or stops being active. Empty when a controller
  // is wired by hand (unit tests): the notifications then wait for the caller.
  std::function<void()> deliver_watch_events;
  // Uuid.randomUuid() for the topic ids the controller gives (processTopicIds; impl/uuid.hpp);
  // empty when a controller is wired by hand (unit tests) and meets no topic without an id.
  std::function<Uuid(TopicIndex)> random_topic_uuid;

  // The broker hosting this controller was restarted by a rolling upgrade (docs/world.md 14).
  bool ibp_upgraded = false;

  // KafkaConfig.interBrokerProtocolVersion of the broker hosting this controller.
  MetadataVersion interBrokerProtocolVersion() const { return kcspec::interBrokerProtocolVersion(config, ibp_upgraded); }
  bool isDeleteTopicEnabled() const { return config.delete_topic_enable; }
  // isAlterPartitionSupported (≥ 2.7-IV2): leaders send AlterPartition instead of writing their ISR.
  bool isAlterPartitionEnabled() const { return interBrokerProtocolVersion() >= MetadataVersion::IBP_2_7_IV2; }
  // KafkaConfig.interBrokerProtocolVersion.isLeaderRecoverySupported (≥ 3.2-IV0).
  bool isLeaderRecoverySupported() const { return interBrokerProtocolVersion() >= MetadataVersion::IBP_3_2_IV0; }
  // KafkaConfig.usesTopicId (≥ 2.8-IV0 in ZooKeeper mode).
  bool usesTopicId() const { return interBrokerProtocolVersion() >= MetadataVersion::IBP_2_8_IV0; }
  // KafkaConfig.isFeatureVersioningSupported (≥ 2.7-IV0).
  bool isFeatureVersioningSupported() const { return interBrokerProtocolVersion() >= MetadataVersion::IBP_2_7_IV0; }
  bool mutant(Mutant m) const { return mutants.has(m); }
};

}  // namespace kcspec::impl
