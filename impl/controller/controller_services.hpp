// What the controller's components reach besides their own state: the configuration, the ZK
// client, the channel to brokers, the state-change logger and the mutant switches. Built per
// call by the cluster and passed by reference (the cluster is a value; nothing points into it).
#pragma once

#include "impl/controller/controller_channel.hpp"
#include "impl/mutants.hpp"
#include "impl/state_change_logger.hpp"
#include "impl/zookeeper/kafka_zk_client.hpp"
#include "spec/vocabulary/config.hpp"

namespace kcspec::impl {

struct ControllerServices {
  BrokerId controller_id;
  const Config& config;
  zk::KafkaZkClient& zk;
  ControllerChannel& channel;
  StateChangeLogger logger;  // `[Controller id=<id>] `; withControllerEpoch adds the epoch
  Mutants mutants;

  bool isDeleteTopicEnabled() const { return config.delete_topic_enable; }
  bool mutant(Mutant m) const { return mutants.has(m); }
};

}  // namespace kcspec::impl
