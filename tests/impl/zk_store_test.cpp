// The in-memory ZooKeeper and KafkaZkClient: conditional writes, multi, fencing, ephemerals,
// watches (kafka.md §6).
#include <gtest/gtest.h>

#include "impl/errors.hpp"
#include "impl/zookeeper/kafka_zk_client.hpp"
#include "impl/zookeeper/zk_data.hpp"
#include "impl/zookeeper/zk_store.hpp"

namespace kcspec::impl::zk {
namespace {

TEST(ImplZkStore, CreateNeedsAParentAndRefusesDuplicates) {
  ZkStore store;
  EXPECT_EQ(store.create("/a/b", "x").code, Code::NONODE);
  EXPECT_EQ(store.create("/a", "").code, Code::OK);
  EXPECT_EQ(store.create("/a", "").code, Code::NODEEXISTS);
  EXPECT_EQ(store.create("/a/b", "x").code, Code::OK);
  EXPECT_EQ(store.find("/a/b")->data, "x");
  EXPECT_EQ(store.getChildren("/a").second, (std::vector<std::string>{"b"}));
  EXPECT_EQ(store.getChildren("/missing").first, Code::NONODE);
}

TEST(ImplZkStore, SetDataAndDeleteAreConditionalOnTheVersion) {
  ZkStore store;
  store.create("/n", "0");
  EXPECT_EQ(store.setData("/n", "1", 0).stat.version, 1);
  EXPECT_EQ(store.setData("/n", "2", 0).code, Code::BADVERSION);
  EXPECT_EQ(store.find("/n")->data, "1");
  EXPECT_EQ(store.setData("/n", "2", kMatchAnyVersion).stat.version, 2);
  EXPECT_EQ(store.remove("/n", 1).code, Code::BADVERSION);
  EXPECT_EQ(store.remove("/n", 2).code, Code::OK);
  EXPECT_EQ(store.setData("/n", "3", kMatchAnyVersion).code, Code::NONODE);
}

TEST(ImplZkStore, DeleteRefusesANodeWithChildren) {
  ZkStore store;
  store.create("/p", "");
  store.create("/p/c", "");
  EXPECT_EQ(store.remove("/p", kMatchAnyVersion).code, Code::NOTEMPTY);
  EXPECT_EQ(store.remove("/p/c", kMatchAnyVersion).code, Code::OK);
  EXPECT_EQ(store.remove("/p", kMatchAnyVersion).code, Code::OK);
}

TEST(ImplZkStore, MultiIsAllOrNothing) {
  ZkStore store;
  store.create("/e", "7");
  const auto failed = store.multi({Op::create("/x", ""), Op::check("/e", 3)});
  EXPECT_EQ(failed[0].code, Code::RUNTIMEINCONSISTENCY);
  EXPECT_EQ(failed[1].code, Code::BADVERSION);
  EXPECT_FALSE(store.exists("/x"));
  const auto ok = store.multi({Op::create("/x", ""), Op::create("/x/y", ""), Op::setData("/e", "8", 0)});
  EXPECT_EQ(ok[2].code, Code::OK);
  EXPECT_TRUE(store.exists("/x/y"));
  EXPECT_EQ(store.find("/e")->stat.version, 1);
}

TEST(ImplZkStore, EphemeralsGoWithTheirSessionAndCountedCreationsGiveEpochs) {
  ZkStore store;
  store.create("/ids", "");
  store.countCreationsUnder("/ids");
  EXPECT_EQ(store.create("/ids/1", "", 10).stat.czxid, 1);
  EXPECT_EQ(store.create("/other", "").stat.czxid, 1);  // not counted
  EXPECT_EQ(store.create("/ids/2", "", 11).stat.czxid, 2);
  EXPECT_EQ(store.create("/ids/1/child", "").code, Code::NOCHILDRENFOREPHEMERALS);
  store.closeSession(10);
  EXPECT_FALSE(store.exists("/ids/1"));
  EXPECT_TRUE(store.exists("/ids/2"));
  EXPECT_EQ(store.create("/ids/1", "", 12).stat.czxid, 3);
  EXPECT_EQ(store.lastZxid(), 3);
}

TEST(ImplZkStore, WatchesReportChangesToTheirWatcherOnly) {
  ZkStore store;
  store.create("/topics", "");
  store.create("/topics/t", "{}");
  store.watch(1, WatchKind::Children, "/topics");
  store.watch(2, WatchKind::Data, "/topics/t");
  store.setData("/topics/t", "{1}", kMatchAnyVersion);
  store.create("/topics/u", "");
  store.remove("/topics/t", kMatchAnyVersion);
  const auto events = store.takeWatchEvents();
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events[0], (WatchEvent{2, WatchKind::Data, WatchEvent::Type::NodeDataChanged, "/topics/t"}));
  EXPECT_EQ(events[1], (WatchEvent{1, WatchKind::Children, WatchEvent::Type::NodeChildrenChanged, "/topics"}));
  EXPECT_EQ(events[2], (WatchEvent{2, WatchKind::Data, WatchEvent::Type::NodeDeleted, "/topics/t"}));
  EXPECT_EQ(events[3].watcher, 1);
  store.unwatchAll(1);
  store.create("/topics/v", "");
  EXPECT_TRUE(store.takeWatchEvents().empty());
  // A failed multi fires nothing.
  store.multi({Op::create("/topics/w", ""), Op::check("/nope", 0)});
  EXPECT_TRUE(store.takeWatchEvents().empty());
}

// Copies share their znodes, watches and counted parents until one of them writes
// (CopyOnWrite): every write, watch and unwatch stays in the copy that made it.
TEST(ImplZkStore, CopiesAreIndependentValues) {
  ZkStore original;
  original.create("/brokers", "");
  original.countCreationsUnder("/brokers");
  original.watch(1, WatchKind::Children, "/brokers");
  ZkStore copy = original;
  copy.create("/brokers/1", "a");                      // counted in the copy only
  copy.setData("/brokers", "changed", kMatchAnyVersion);
  copy.watch(2, WatchKind::Data, "/brokers");
  copy.unwatch(1, WatchKind::Children, "/brokers");
  EXPECT_FALSE(original.exists("/brokers/1"));
  EXPECT_EQ(original.find("/brokers")->data, "");
  EXPECT_EQ(original.find("/brokers")->stat.version, 0);
  EXPECT_EQ(original.lastZxid(), 0);
  EXPECT_TRUE(original.isWatching(1, WatchKind::Children, "/brokers"));
  EXPECT_FALSE(original.isWatching(2, WatchKind::Data, "/brokers"));
  EXPECT_EQ(copy.lastZxid(), 1);
  EXPECT_EQ(copy.find("/brokers/1")->stat.czxid, 1);
  EXPECT_FALSE(copy.isWatching(1, WatchKind::Children, "/brokers"));
  // The copy's watch events are its own; the original's watch still fires in the original.
  const auto copy_events = copy.takeWatchEvents();
  ASSERT_EQ(copy_events.size(), 1u);  // NodeChildrenChanged for watcher 1, before the unwatch
  EXPECT_EQ(copy_events[0].watcher, 1);
  EXPECT_TRUE(original.takeWatchEvents().empty());
  original.create("/brokers/2", "b");
  EXPECT_EQ(original.takeWatchEvents().size(), 1u);
  EXPECT_FALSE(copy.exists("/brokers/2"));
  // Assignment makes the two equal again, and later writes part them again.
  copy = original;
  EXPECT_TRUE(copy.exists("/brokers/2"));
  EXPECT_FALSE(copy.exists("/brokers/1"));
  original.remove("/brokers/2", kMatchAnyVersion);
  EXPECT_TRUE(copy.exists("/brokers/2"));
}

// Decoding remembers texts it decoded; the partition epoch still comes from the version given
// with each read, and different texts decode differently.
TEST(ImplZkPayload, RememberedDecodesStillFollowTheTextAndTheVersion) {
  const LeaderIsrAndControllerEpoch one{LeaderAndIsr::make(1, BrokerList{1, 2}), 3};
  const LeaderIsrAndControllerEpoch two{LeaderAndIsr::make(2, BrokerList{2}), 4};
  const std::string one_json = payload::partitionState(one);
  const std::string two_json = payload::partitionState(two);
  for (int round = 0; round < 2; ++round) {  // the second round answers from memory
    const auto a = payload::decodePartitionState(one_json, 5);
    const auto b = payload::decodePartitionState(one_json, 9);
    const auto c = payload::decodePartitionState(two_json, 5);
    ASSERT_TRUE(a && b && c);
    EXPECT_EQ(a->leader_and_isr, one.leader_and_isr.withPartitionEpoch(5));
    EXPECT_EQ(b->leader_and_isr, one.leader_and_isr.withPartitionEpoch(9));
    EXPECT_EQ(a->controller_epoch, 3);
    EXPECT_EQ(c->leader_and_isr, two.leader_and_isr.withPartitionEpoch(5));
    EXPECT_EQ(c->controller_epoch, 4);
  }
  const TopicAssignment small{{0, ReplicaAssignment(BrokerList{1})}};
  const TopicAssignment large{{0, ReplicaAssignment(BrokerList{1})}, {1, ReplicaAssignment(BrokerList{2, 1})}};
  for (int round = 0; round < 2; ++round) {
    EXPECT_EQ(payload::topicAssignmentOf(payload::topicAssignment(small)), small);
    EXPECT_EQ(payload::decodeTopicAssignment(payload::topicAssignment(large)), large);
    EXPECT_EQ(payload::decodeController(payload::controller(2, 0)), BrokerId{2});
    EXPECT_EQ(payload::decodeController(payload::controller(3, 0)), BrokerId{3});
    EXPECT_TRUE(payload::decodeUncleanLeaderElectionEnable(payload::topicConfig(true)));
    EXPECT_FALSE(payload::decodeUncleanLeaderElectionEnable(payload::topicConfig(false)));
  }
  // More distinct texts than the memory holds: still decoded right (it is emptied, not wrong).
  for (int epoch = 0; epoch < 5000; ++epoch) {
    const LeaderIsrAndControllerEpoch state{LeaderAndIsr::make(1, BrokerList{1}), epoch};
    ASSERT_EQ(payload::decodePartitionState(payload::partitionState(state), 0)->controller_epoch, epoch);
  }
  EXPECT_EQ(payload::decodePartitionState(one_json, 5)->controller_epoch, 3);
}

Config oneTopic() {
  Config config;
  config.brokers = BrokerSet{1, 2};
  TopicConfig t;
  t.name = "t";
  t.assignment = {BrokerList{1, 2}};
  config.topics = {t};
  return config;
}

TEST(ImplKafkaZkClient, ControllerElectionIncrementsTheEpochAndFencesTheLoser) {
  ZkStore store;
  const Config config = oneTopic();
  KafkaZkClient client(store, config);
  client.createTopLevelPaths();
  EXPECT_EQ(client.registerControllerAndIncrementControllerEpoch(1), std::make_pair(1, 1));
  EXPECT_EQ(client.getControllerId(), 1);
  EXPECT_THROW(client.registerControllerAndIncrementControllerEpoch(2), ControllerMovedException);
  store.closeSession(controllerSession(1));
  EXPECT_FALSE(client.getControllerId().has_value());
  EXPECT_EQ(client.registerControllerAndIncrementControllerEpoch(2), std::make_pair(2, 2));
  // Controller 1 still believes in epochZkVersion 1: its fenced writes are rejected.
  client.createTopicAssignment(0, {{0, ReplicaAssignment(BrokerList{1, 2})}});
  EXPECT_THROW(client.setTopicAssignment(0, std::nullopt, {{0, ReplicaAssignment(BrokerList{2, 1})}}, 1), ControllerMovedException);
  EXPECT_EQ(client.getFullReplicaAssignmentForTopic(0)->at(0).replicas, (BrokerList{1, 2}));
  EXPECT_EQ(client.setTopicAssignment(0, std::nullopt, {{0, ReplicaAssignment(BrokerList{2, 1})}}, 2), Code::OK);
}

TEST(ImplKafkaZkClient, PartitionStatesRoundTripWithTheZnodeVersionAsPartitionEpoch) {
  ZkStore store;
  const Config config = oneTopic();
  KafkaZkClient client(store, config);
  client.createTopLevelPaths();
  client.registerControllerAndIncrementControllerEpoch(1);
  client.createTopicAssignment(0, {{0, ReplicaAssignment(BrokerList{1, 2})}});
  const TopicPartition tp{0, 0};
  const LeaderIsrAndControllerEpoch initial{LeaderAndIsr::make(1, BrokerList{1, 2}), 1};
  const auto created = client.createTopicPartitionStatesRaw({{tp, initial}}, 1);
  EXPECT_EQ(created[0].second, Code::OK);
  EXPECT_EQ(client.createTopicPartitionStatesRaw({{tp, initial}}, 1)[0].second, Code::NODEEXISTS);
  EXPECT_EQ(store.find("/brokers/topics/t/partitions/0/state")->data,
            R"({"controller_epoch":1,"isr":[1,2],"leader":1,"leader_epoch":0,"version":1})");
  const LeaderAndIsr next = initial.leader_and_isr.newLeaderAndIsr(2, BrokerList{2});
  auto update = client.updateLeaderAndIsr({{tp, next}}, 1, 1);
  EXPECT_EQ(std::get<LeaderAndIsr>(update.finished.at(tp)).partition_epoch, 1);
  update = client.updateLeaderAndIsr({{tp, next}}, 1, 1);  // stale expected version
  EXPECT_EQ(update.retry, (std::vector<TopicPartition>{tp}));
  const auto read = client.getTopicPartitionState(tp);
  EXPECT_EQ(read.state->leader_and_isr, next.withPartitionEpoch(1));
  // RECOVERING is stored only when set.
  LeaderAndIsr recovering = next.withPartitionEpoch(1).newRecoveringLeaderAndIsr(2, BrokerList{2});
  client.updateLeaderAndIsr({{tp, recovering}}, 1, 1);
  EXPECT_NE(store.find("/brokers/topics/t/partitions/0/state")->data.find(R"("leader_recovery_state":1)"), std::string::npos);
  EXPECT_EQ(client.getTopicPartitionState(tp).state->leader_and_isr.recovery_state, LeaderRecoveryState::RECOVERING);
}

TEST(ImplKafkaZkClient, TopicZnodeKeepsAddingAndRemovingReplicas) {
  zk::TopicAssignment assignment{{0, ReplicaAssignment(BrokerList{4, 5, 6, 1, 2, 3}, BrokerList{4, 5, 6}, BrokerList{1, 2, 3})},
                                 {1, ReplicaAssignment(BrokerList{1})}};
  const std::string json = payload::topicAssignment(assignment);
  EXPECT_EQ(json, R"({"adding_replicas":{"0":[4,5,6]},"partitions":{"0":[4,5,6,1,2,3],"1":[1]},"removing_replicas":{"0":[1,2,3]},"version":3})");
  EXPECT_EQ(payload::decodeTopicAssignment(json), assignment);
}

}  // namespace
}  // namespace kcspec::impl::zk
