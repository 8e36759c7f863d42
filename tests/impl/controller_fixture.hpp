// A controller's collaborators wired by hand for unit tests of one class: a ZooKeeper store, a
// channel that records requests, a text log, and a context with live brokers.
#pragma once

#include <utility>
#include <vector>

#include "impl/controller/controller_services.hpp"
#include "impl/controller/partition_state_machine.hpp"
#include "impl/controller/replica_state_machine.hpp"
#include "impl/zookeeper/kafka_zk_client.hpp"

namespace kcspec::impl::testing {

class RecordingChannel final : public ControllerChannel {
 public:
  void sendRequest(BrokerId broker, const ControlRequest& request) override { sent.emplace_back(broker, request); }
  void respondAlterPartition(BrokerId broker, TopicPartition tp, const AlterPartitionResponse& response) override {
    alter_partition_responses.push_back({broker, tp, response});
  }
  struct Answered {
    BrokerId broker;
    TopicPartition tp;
    AlterPartitionResponse response;
  };
  std::vector<Answered> alter_partition_responses;
  std::vector<std::pair<BrokerId, ControlRequest>> sent;
};

struct ControllerFixture {
  explicit ControllerFixture(Config config_ = defaultConfig())
      : config(std::move(config_)),
        client(store, config),
        services{1, config, client, channel, StateChangeLogger(LogTarget{&sink, &clock}, 1), Mutants{}} {
    client.createTopLevelPaths();
    context.epoch = 1;
    context.epochZkVersion = 0;
    store.create("/controller_epoch", "1");
    for (BrokerId b : {1, 2, 3}) context.addLiveBroker(b, b);
  }

  static Config defaultConfig() {
    Config c;
    c.brokers = BrokerSet{1, 2, 3};
    c.brokers_alive_at_start = BrokerSet{1, 2, 3};
    TopicConfig t;
    t.name = "t";
    t.assignment = {BrokerList{1, 2, 3}};
    c.topics = {t};
    return c;
  }

  PartitionStateMachine psm() { return PartitionStateMachine(context, psm_batch, services); }
  ReplicaStateMachine rsm() { return ReplicaStateMachine(context, rsm_batch, services); }

  Config config;
  zk::ZkStore store;
  zk::KafkaZkClient client;
  RecordingChannel channel;
  TextLogSink sink{LogLevel::TRACE};
  FakeClock clock;
  ControllerServices services;
  ControllerContext context;
  ControllerBrokerRequestBatch psm_batch;
  ControllerBrokerRequestBatch rsm_batch;
};

}  // namespace kcspec::impl::testing
