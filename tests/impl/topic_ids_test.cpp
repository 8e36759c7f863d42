// Topic ids in the reference controller (issue 29 item 2): the same histories as the spec's
// tests/spec/topic_ids_test.cpp, checked by tests/common/topic_id_cases.hpp, plus what only the
// reference controller has: Kafka's Uuid text in the topic znode and ControllerContext.addTopicId.
#include <gtest/gtest.h>

#include <string_view>

#include "impl/controller/controller_context.hpp"
#include "impl/errors.hpp"
#include "impl/uuid.hpp"
#include "impl/zookeeper/zk_data.hpp"
#include "impl_scenario.hpp"
#include "spec/vocabulary/config_text.hpp"
#include "topic_id_cases.hpp"

namespace kcspec::impl {
namespace {

using testing::ImplRun;

Config configAt(std::string_view protocol) { return parseConfig(kcspec::testing::topicIdConfig(protocol), "topic-ids"); }

TEST(ImplTopicIds, FromTheAdminThroughTheControllerToEveryBroker) {
  ImplRun run(configAt("3.8-IV0"));
  EXPECT_EQ(run.world().zk.topics[0].topic_id, 1);
  run.step("elect-controller 3").drain();
  kcspec::testing::expectTopicIds(run.world(), 1, 1);
}

TEST(ImplTopicIds, At28IV0TheyAreGivenButNoRequestCarriesThem) {
  ImplRun run(configAt("2.8-IV0"));
  run.step("elect-controller 3").drain();
  kcspec::testing::expectTopicIds(run.world(), 1, kNoTopicId);
}

TEST(ImplTopicIds, Before28ThereAreNone) {
  ImplRun run(configAt("2.7-IV2"));
  run.step("elect-controller 3").drain();
  kcspec::testing::expectTopicIds(run.world(), kNoTopicId, kNoTopicId);
}

TEST(ImplTopicIds, ATopicCreatedAgainAfterItsDeletionCompletedMayHaveTheFreedId) {
  ImplRun run(configAt("3.8-IV0"));
  run.step("elect-controller 3").drain().step("delete-topic t").drain();
  EXPECT_EQ(run.context(3).topic_ids[0], kNoTopicId);
  EXPECT_EQ(run.world().brokers[1].replicas[0].topic_id, kNoTopicId) << "StopReplica(delete=true) removed the log";
  run.step("create-topic t").drain();
  kcspec::testing::expectTopicIds(run.world(), 1, 1);
}

TEST(ImplTopicIds, AFailoverGivesATopicWithoutOneAnIdWithAFencedWrite) {
  const ImplRun before(configAt("3.8-IV0"));
  ImplRun run(configAt("3.8-IV0"), kcspec::testing::withoutAnyTopicId(before.world()));
  run.step("elect-controller 3");
  EXPECT_EQ(run.world().zk.topics[0].topic_id, 1);
  bool modifications = false;
  for (const ControllerEvent& e : run.broker(3).controller.events) {
    modifications |= e.kind == ControllerEventKind::PartitionModifications && e.topic == 0;
  }
  EXPECT_TRUE(modifications);
  run.drain();
  kcspec::testing::expectTopicIds(run.world(), 1, 1);
}

TEST(ImplTopicIds, ALogOfAnEarlierTopicRefusesTheLeadership) {
  ImplRun settled(configAt("3.8-IV0"));
  settled.step("elect-controller 3").drain();
  ImplRun stale(configAt("3.8-IV0"), kcspec::testing::recreatedWithStaleLog(settled.world(), 2));
  stale.step("crash 1").drain();
  EXPECT_EQ(stale.stateZnode(kcspec::testing::kTopicIdT0)->leader_and_isr.leader, 2);
  const HostedReplica hosted = stale.broker(2).replicas[0];
  EXPECT_FALSE(hosted.is_leader) << "INCONSISTENT_TOPIC_ID";
  EXPECT_EQ(hosted.leader_epoch, 0);
  EXPECT_EQ(hosted.topic_id, 1);
}

TEST(ImplTopicIds, AnAlterPartitionNamingAnIdTheControllerDoesNotKnowChangesNothing) {
  ImplRun settled(configAt("3.8-IV0"));
  settled.step("elect-controller 3").drain();
  ImplRun run(configAt("3.8-IV0"), kcspec::testing::recreatedWithStaleLog(settled.world(), 1));
  run.step("shrink-isr t-0 leader 1 remove 2");
  EXPECT_TRUE(run.broker(3).controller.events.back().by_topic_id);
  run.step("process-event 3");
  EXPECT_EQ(run.stateZnode(kcspec::testing::kTopicIdT0)->leader_and_isr.isr, (BrokerList{1, 2}));
  EXPECT_TRUE(run.broker(1).replicas[0].alter_partition_pending);
  const ControlRequest metadata = run.broker(1).inbox.back();
  EXPECT_EQ(metadata.kind, RequestKind::UpdateMetadata);
  EXPECT_TRUE(metadata.update_metadata.empty());
}

TEST(ImplTopicIds, TheTopicZnodeHoldsKafkasUuidText) {
  const Uuid id = topicUuid(2, 7);
  const std::string text = id.toString();
  EXPECT_EQ(text.size(), 22u) << "URL-safe base64 of 16 bytes, no padding";
  EXPECT_EQ(Uuid::fromString(text), id);
  EXPECT_EQ(Uuid::fromString("AAAAAAAAAAAAAAAAAAAAAA"), kZeroUuid);
  EXPECT_FALSE(Uuid::fromString("not a uuid").has_value());
  EXPECT_FALSE(Uuid::fromString("AAAAAAAAAAAAAAAAAAAAA+").has_value()) << "'+' is not URL-safe base64";
  const std::string json = zk::payload::topicAssignment({{0, ReplicaAssignment(BrokerList{1, 2})}}, id);
  EXPECT_NE(json.find("\"topic_id\":\"" + text + "\""), std::string::npos) << json;
  EXPECT_EQ(zk::payload::decodeTopicId(json), id);
  EXPECT_EQ(topicIdNumber(zk::payload::decodeTopicId(json)), 7);
  EXPECT_FALSE(zk::payload::decodeTopicId(zk::payload::topicAssignment({{0, ReplicaAssignment(BrokerList{1})}})));
}

TEST(ImplTopicIds, AddTopicIdRefusesConflicts) {
  ControllerContext context;
  context.setAllTopics(TopicSet{0, 1});
  context.addTopicId(0, topicUuid(0, 1));
  context.addTopicId(0, topicUuid(0, 1));  // the same pair again is fine
  EXPECT_THROW(context.addTopicId(0, topicUuid(0, 2)), IllegalStateException) << "another id for t";
  EXPECT_THROW(context.addTopicId(1, topicUuid(0, 1)), IllegalStateException) << "t's id for another name";
  EXPECT_THROW(context.addTopicId(2, topicUuid(2, 1)), IllegalStateException) << "not in allTopics";
  context.removeTopic(0);
  EXPECT_TRUE(context.topicIds.empty());
  EXPECT_TRUE(context.topicNames.empty()) << "both directions go";
}

}  // namespace
}  // namespace kcspec::impl
