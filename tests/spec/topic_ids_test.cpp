// Topic ids in the executable spec (issue 29 item 2; docs/kafka.md Appendix A.6, docs/world.md
// convention 13): given by the admin at creation from 2.8-IV0, by a controller to a topic that
// lacks one, carried by LeaderAndIsr and UpdateMetadata from 2.8-IV1, new for a topic created
// again; a log refuses an entry of another id, the controller an AlterPartition naming an id it
// does not know.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>

#include "spec/rules/invariants.hpp"
#include "spec/rules/step.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/config_text.hpp"
#include "spec/vocabulary/topic_ids.hpp"
#include "topic_id_cases.hpp"

namespace kcspec::spec {
namespace {

using kcspec::testing::kTopicIdT0;

// A history of the spec from any state, checking the step properties on the way.
class IdRun {
 public:
  explicit IdRun(std::string_view protocol) : config_(parseConfig(kcspec::testing::topicIdConfig(protocol), "topic-ids")),
                                            state_(initialState(config_)) {}
  IdRun(std::string_view protocol, const Observation& world) : IdRun(protocol) { state_.world = world; }

  IdRun& then(std::string_view text) {
    take(parseAction(config_, text, "topic-ids", 1));
    return *this;
  }
  IdRun& drain() {
    for (int steps = 0; steps < 1000; ++steps) {
      std::optional<Action> recovery;
      config_.brokers.forEach([&](BrokerId b) {
        for (const ActionKind kind : {ActionKind::ProcessEvent, ActionKind::DeliverRequest,
                                      ActionKind::DeliverStopReplicaResponse, ActionKind::DeliverLeaderAndIsrResponse}) {
          const Action a{.kind = kind, .broker = b};
          if (!recovery && isEnabled(config_, state_, a)) recovery = a;
        }
      });
      if (!recovery) return *this;
      take(*recovery);
    }
    ADD_FAILURE() << "drain did not settle";
    return *this;
  }
  const Observation& world() const { return state_.world; }
  const HostedReplica& hosted(BrokerId b) const { return world().brokers[static_cast<std::size_t>(b)].replicas[0]; }

 private:
  void take(const Action& a) {
    ASSERT_TRUE(isEnabled(config_, state_, a)) << "not enabled: " << printAction(config_, a);
    RecordingObserver observer;
    ClusterState after = next(config_, state_, a, observer);
    for (std::string_view id : violatedStepProperties(config_, state_, after, observer.record)) {
      if (id != "T3") ADD_FAILURE() << "step property " << id << " after " << printAction(config_, a);
    }
    state_ = std::move(after);
  }
  Config config_;
  ClusterState state_;
};

TEST(TopicIds, FromTheAdminThroughTheControllerToEveryBroker) {
  IdRun run("3.8-IV0");
  EXPECT_EQ(run.world().zk.topics[0].topic_id, 1) << "ZkAdminManager.createTopics writes one (usesTopicId)";
  run.then("elect-controller 3").drain();
  kcspec::testing::expectTopicIds(run.world(), 1, 1);
}

TEST(TopicIds, At28IV0TheyAreGivenButNoRequestCarriesThem) {
  IdRun run("2.8-IV0");
  run.then("elect-controller 3").drain();
  kcspec::testing::expectTopicIds(run.world(), 1, kNoTopicId);  // LeaderAndIsr v4, UpdateMetadata v6
}

TEST(TopicIds, Before28ThereAreNone) {
  IdRun run("2.7-IV2");
  run.then("elect-controller 3").drain();
  kcspec::testing::expectTopicIds(run.world(), kNoTopicId, kNoTopicId);
}

TEST(TopicIds, ATopicCreatedAgainAfterItsDeletionCompletedMayHaveTheFreedId) {
  IdRun run("3.8-IV0");
  run.then("elect-controller 3").drain().then("delete-topic t").drain();
  EXPECT_FALSE(run.world().zk.topics[0].exists);
  EXPECT_EQ(run.world().brokers[3].controller.context.topic_ids[0], kNoTopicId) << "removeTopic drops its topicIds entry";
  EXPECT_EQ(freshTopicId(run.world(), 0), 1) << "nothing holds t's old id: a new random one is as good";
  run.then("create-topic t").drain();
  kcspec::testing::expectTopicIds(run.world(), 1, 1);
}

TEST(TopicIds, ANewIdIsOneNothingHolds) {
  IdRun settled("3.8-IV0");
  settled.then("elect-controller 3").drain();
  EXPECT_EQ(freshTopicId(settled.world(), 0), 2) << "t's id 1 is held";
  EXPECT_EQ(freshTopicId(settled.world(), 1), 1) << "per topic name";
  const Observation stale = kcspec::testing::recreatedWithStaleLog(settled.world(), 2);
  EXPECT_EQ(freshTopicId(stale, 0), 3) << "a stale log holds 1, the topic 2";
  Observation queued = kcspec::testing::withoutAnyTopicId(settled.world());
  for (BrokerData& broker : queued.brokers) {
    broker.replicas[0].topic_id = kNoTopicId;
    if (broker.metadata_cache[0]) broker.metadata_cache[0]->topic_id = kNoTopicId;
    broker.controller.context.topic_ids = {};
  }
  EXPECT_EQ(freshTopicId(queued, 0), 1);
  queued.brokers[1].controller.events.push_back(
      ControllerEvent{.kind = ControllerEventKind::AlterPartitionReceived, .by_topic_id = true, .topic_ids = {1}});
  EXPECT_EQ(freshTopicId(queued, 0), 2) << "a queued request holds 1";
}

TEST(TopicIds, AFailoverGivesATopicWithoutOneAnIdWithAFencedWrite) {
  IdRun before("3.8-IV0");
  IdRun run("3.8-IV0", kcspec::testing::withoutAnyTopicId(before.world()));
  run.then("elect-controller 3");
  EXPECT_EQ(run.world().zk.topics[0].topic_id, 1) << "setTopicIds";
  EXPECT_EQ(run.world().brokers[3].controller.context.topic_ids[0], 1);
  bool modifications = false;
  for (const ControllerEvent& e : run.world().brokers[3].controller.events) {
    modifications |= e.kind == ControllerEventKind::PartitionModifications && e.topic == 0;
  }
  EXPECT_TRUE(modifications) << "the controller's own data watch on /brokers/topics/t fires";
  run.drain();
  kcspec::testing::expectTopicIds(run.world(), 1, 1);
}

TEST(TopicIds, BelowTheProtocolAFailoverGivesNone) {
  IdRun run("2.7-IV2");
  run.then("elect-controller 3");
  EXPECT_EQ(run.world().zk.topics[0].topic_id, kNoTopicId);
  EXPECT_EQ(run.world().brokers[3].controller.context.topic_ids[0], kNoTopicId);
}

TEST(TopicIds, ALogOfAnEarlierTopicRefusesTheLeadership) {
  IdRun settled("3.8-IV0");
  settled.then("elect-controller 3").drain();
  IdRun fresh("3.8-IV0", kcspec::testing::recreatedWithStaleLog(settled.world(), 1));
  fresh.then("crash 1").drain();
  EXPECT_TRUE(fresh.hosted(2).is_leader) << "broker 2's log has the topic's id: it takes the leadership";
  IdRun stale("3.8-IV0", kcspec::testing::recreatedWithStaleLog(settled.world(), 2));
  stale.then("crash 1").drain();
  EXPECT_EQ(stale.world().zk.topics[0].states[0]->leader_and_isr.leader, 2) << "the controller elected it";
  EXPECT_FALSE(stale.hosted(2).is_leader) << "INCONSISTENT_TOPIC_ID";
  EXPECT_EQ(stale.hosted(2).leader_epoch, 0);
  EXPECT_EQ(stale.hosted(2).topic_id, 1);
}

TEST(TopicIds, AnAlterPartitionNamingAnIdTheControllerDoesNotKnowChangesNothing) {
  IdRun settled("3.8-IV0");
  settled.then("elect-controller 3").drain();
  IdRun run("3.8-IV0", kcspec::testing::recreatedWithStaleLog(settled.world(), 1));
  run.then("shrink-isr t-0 leader 1 remove 2");
  const ControllerEvent& request = run.world().brokers[3].controller.events.back();
  EXPECT_TRUE(request.by_topic_id);
  EXPECT_EQ(request.topic_ids[0], 1);
  run.then("process-event 3");
  EXPECT_EQ(run.world().zk.topics[0].states[0]->leader_and_isr.isr, (BrokerList{1, 2})) << "UNKNOWN_TOPIC_ID";
  EXPECT_TRUE(run.hosted(1).alter_partition_pending) << "kept until a LeaderAndIsr";
  const ControlRequest& metadata = run.world().brokers[1].inbox.back();
  EXPECT_EQ(metadata.kind, RequestKind::UpdateMetadata);
  EXPECT_TRUE(metadata.update_metadata.empty()) << "the partition is not among those to alter";
}

TEST(TopicIds, ByNameBefore28TheSameRequestIsTakenUp) {
  IdRun run("2.7-IV2");
  run.then("elect-controller 3").drain().then("shrink-isr t-0 leader 1 remove 2");
  EXPECT_FALSE(run.world().brokers[3].controller.events.back().by_topic_id);
  run.then("process-event 3");
  EXPECT_EQ(run.world().zk.topics[0].states[0]->leader_and_isr.isr, BrokerList{1});
}

TEST(TopicIds, ALeaderAndIsrResponseNamesTopicsByIdFromVersion5) {
  IdRun settled("3.8-IV0");
  settled.then("elect-controller 3").drain();
  const auto respond = [&](bool by_topic_id, TopicId id) {
    Observation world = settled.world();
    world.brokers[2].leader_and_isr_responses.push_back(LeaderAndIsrResponse{
        .controller_id = 3, .controller_epoch = 1, .partitions = PartitionSet{kTopicIdT0},
        .storage_errors = PartitionSet{kTopicIdT0}, .by_topic_id = by_topic_id, .topic_ids = {id}});
    IdRun run("3.8-IV0", world);
    run.then("deliver-leader-and-isr-response 2").then("process-event 3");
    return run.world().brokers[3].controller.context.replicas_on_offline_dirs[2];
  };
  EXPECT_EQ(respond(true, 1), PartitionSet{kTopicIdT0}) << "t's id";
  EXPECT_TRUE(respond(true, 2).empty()) << "an id the controller maps to no topic: dropped";
  EXPECT_TRUE(respond(true, kNoTopicId).empty()) << "ZERO_UUID maps to no topic";
  EXPECT_EQ(respond(false, kNoTopicId), PartitionSet{kTopicIdT0}) << "before version 5, by name";
}

TEST(TopicIds, StepPropertiesCatchAStaleEntryTakenUp) {
  IdRun settled("3.8-IV0");
  settled.then("elect-controller 3").drain();
  const Config config = parseConfig(kcspec::testing::topicIdConfig("3.8-IV0"), "topic-ids");
  ClusterState before = initialState(config);
  before.world = kcspec::testing::recreatedWithStaleLog(settled.world(), 2);
  ControlRequest request{.kind = RequestKind::LeaderAndIsr, .controller_id = 3,
                         .controller_epoch = before.world.brokers[2].known_controller_epoch};
  LeaderAndIsrPartitionState entry{kTopicIdT0, {}, ReplicaAssignment(BrokerList{1, 2}), false, 2};
  entry.leadership.leader_and_isr = LeaderAndIsr{2, 1, LeaderRecoveryState::RECOVERED, BrokerList{2}, 1};
  request.leader_and_isr.push_back(entry);
  before.world.brokers[2].inbox.push_back(request);
  RecordingObserver observer;
  ClusterState after = next(config, before, Action{.kind = ActionKind::DeliverRequest, .broker = 2}, observer);
  EXPECT_EQ(after.world.brokers[2].replicas[0], before.world.brokers[2].replicas[0]) << "the spec refuses it";
  EXPECT_TRUE(violatedStepProperties(config, before, after, observer.record).empty());
  // A broker that took it up, as one without the topic-id check would.
  after.world.brokers[2].replicas[0].leader_epoch = 1;
  after.world.brokers[2].replicas[0].is_leader = true;
  const auto violated = violatedStepProperties(config, before, after, observer.record);
  EXPECT_NE(std::find(violated.begin(), violated.end(), "T6"), violated.end());
}

}  // namespace
}  // namespace kcspec::spec
