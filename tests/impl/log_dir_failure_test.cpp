// Log-directory failures (kafka.md §5.5.6, §5.6.1, §5.5.2–3, §5.4 step 3): a broker's replica on
// a failed directory (ReplicaManager.handleLogDirFailure, HostedPartition.Offline), the
// /log_dir_event_notification children it writes, the controller's LeaderAndIsr probe, the
// KAFKA_STORAGE_ERROR answers (LeaderAndIsr and StopReplica), replicasOnOfflineDirs and what
// isReplicaOnline makes of it, as the reference controller runs them.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "impl/zookeeper/zk_data.hpp"
#include "impl_scenario.hpp"
#include "spec/vocabulary/config_text.hpp"

namespace kcspec::impl {
namespace {

using testing::ImplRun;

constexpr TopicPartition kT0{0, 0};
constexpr TopicPartition kU0{1, 0};

const ControllerEvent kLogDirEventNotification{.kind = ControllerEventKind::LogDirEventNotification};

// t-0 = [1,2,3] (leader 1 once a controller is elected); u is configured but never created.
Config logDirConfig(int log_dir_failures = 1, std::string_view extra = "") {
  return parseConfig(fmt::format(R"(name log-dir-failures
brokers 1 2 3
alive-at-start 1 2 3
delete.topic.enable true
topic t
  partition 0 replicas 1,2,3
  exists-at-start true
topic u
  partition 0 replicas 1,2
  exists-at-start false
bound log-dir-failures {}
bound crashes 1
bound controller-failovers 2
bound topic-deletions 1
bound controlled-shutdowns 1
{})",
                                 log_dir_failures, extra),
                     "log-dir.config");
}

Action failLogDir(TopicPartition tp, BrokerId b) { return Action{.kind = ActionKind::FailLogDir, .broker = b, .tp = tp}; }

std::vector<ControllerEvent> queue(const ImplRun& run, BrokerId b) {
  const BrokerData broker = run.broker(b);
  return std::vector<ControllerEvent>(broker.controller.events.begin(), broker.controller.events.end());
}

// Broker b takes every request in its inbox.
void deliverRequests(ImplRun& run, BrokerId b) {
  while (!run.broker(b).inbox.empty()) run.step(Action{.kind = ActionKind::DeliverRequest, .broker = b});
}

// Every request to every broker (no event processed, no response delivered).
void deliverAllRequests(ImplRun& run) {
  for (BrokerId b : {1, 2, 3}) {
    if (run.broker(b).alive) deliverRequests(run, b);
  }
}

std::optional<ReplicaState> replicaState(const ImplRun& run, BrokerId controller, TopicPartition tp, BrokerId replica) {
  return run.partitionContext(controller, tp).replica_states[static_cast<std::size_t>(replica)];
}

PartitionSet offlineDirs(const ImplRun& run, BrokerId controller, BrokerId broker) {
  return run.context(controller).replicas_on_offline_dirs[static_cast<std::size_t>(broker)];
}

HostedReplica hostedOf(const BrokerData& broker, TopicPartition tp) {
  return broker.replicas[static_cast<std::size_t>(partitionIndex(tp))];
}

// The children of /log_dir_event_notification with their data.
std::vector<std::pair<std::string, std::string>> notificationZnodes(const ImplRun& run) {
  std::vector<std::pair<std::string, std::string>> out;
  const zk::Store& store = run.cluster().zookeeper();
  for (const std::string& child : store.getChildren(zk::paths::kLogDirEventNotification).second) {
    const zk::Znode* node = store.find(fmt::format("{}/{}", zk::paths::kLogDirEventNotification, child));
    out.emplace_back(child, node != nullptr ? node->data : "");
  }
  return out;
}

// ------------------------------------------------------------------ the whole chain

TEST(ImplLogDirFailure, TheLeadersDirectoryFailsAndTheControllerElectsAnotherLeader) {
  ImplRun run(logDirConfig());
  run.step("elect-controller 1").drain();
  ASSERT_EQ(run.stateZnode(kT0)->leader_and_isr.leader, 1);
  ASSERT_EQ(run.stateZnode(kT0)->leader_and_isr.isr, (BrokerList{1, 2, 3}));
  const std::int32_t leader_epoch = run.stateZnode(kT0)->leader_and_isr.leader_epoch;
  run.takeLog();

  // ReplicaManager.handleLogDirFailure, then propagateLogDirEvent; the child watch fires.
  run.step("fail-log-dir t-0 1");
  EXPECT_EQ(run.broker(1).offline_log_dir_replicas, PartitionSet{kT0});
  EXPECT_EQ(hostedOf(run.broker(1), kT0), HostedReplica{});
  EXPECT_EQ(run.world().zk.log_dir_event_notifications, BrokerSet{1});
  const auto znodes = notificationZnodes(run);
  ASSERT_EQ(znodes.size(), 1U);
  EXPECT_EQ(znodes[0].first, "log_dir_event_0000000000");
  EXPECT_EQ(zk::payload::decodeLogDirEventNotification(znodes[0].second), 1);
  EXPECT_EQ(queue(run, 1), std::vector<ControllerEvent>{kLogDirEventNotification});
  EXPECT_EQ(run.cluster().remaining().log_dir_failures, 0);
  // The controller has not heard of it yet: the replica is still online in its view.
  EXPECT_EQ(replicaState(run, 1, kT0, 1), ReplicaState::OnlineReplica);

  // onBrokerLogDirFailure: every replica on broker 1 to OnlineReplica (the LeaderAndIsr probe);
  // then the processed children are deleted, which fires the watch again.
  run.step("process-event 1");
  EXPECT_TRUE(run.world().zk.log_dir_event_notifications.empty());
  EXPECT_TRUE(notificationZnodes(run).empty());
  EXPECT_EQ(queue(run, 1), std::vector<ControllerEvent>{kLogDirEventNotification});
  bool probe = false;
  const BrokerData probed = run.broker(1);
  for (const ControlRequest& r : probed.inbox) {
    if (r.kind != RequestKind::LeaderAndIsr) continue;
    for (const LeaderAndIsrPartitionState& e : r.leader_and_isr) probe = probe || e.tp == kT0;
  }
  EXPECT_TRUE(probe) << "no LeaderAndIsr for t-0 to broker 1";

  // Broker 1 answers KAFKA_STORAGE_ERROR and changes nothing.
  deliverRequests(run, 1);
  const BrokerData b1 = run.broker(1);
  ASSERT_EQ(b1.leader_and_isr_responses.size(), 1U);
  EXPECT_EQ(b1.leader_and_isr_responses[0],
            (LeaderAndIsrResponse{.controller_id = 1, .controller_epoch = 1, .partitions = PartitionSet{kT0},
                                  .storage_errors = PartitionSet{kT0}, .by_topic_id = true, .topic_ids = {1}}));
  EXPECT_EQ(hostedOf(b1, kT0), HostedReplica{});

  // The response reaches controller 1: appended after the re-fired notification.
  run.step("deliver-leader-and-isr-response 1");
  EXPECT_TRUE(run.broker(1).leader_and_isr_responses.empty());
  const ControllerEvent received{.kind = ControllerEventKind::LeaderAndIsrResponseReceived,
                                 .broker = 1,
                                 .partitions = PartitionSet{kT0},
                                 .partition_errors = PartitionSet{kT0},
                                 .by_topic_id = true,
                                 .topic_ids = {1}};
  EXPECT_EQ(queue(run, 1), (std::vector<ControllerEvent>{kLogDirEventNotification, received}));
  run.step("process-event 1");  // no child left: nothing
  EXPECT_EQ(queue(run, 1), std::vector<ControllerEvent>{received});
  EXPECT_TRUE(run.broker(1).inbox.empty());

  run.step("process-event 1");
  EXPECT_EQ(offlineDirs(run, 1, 1), PartitionSet{kT0});
  EXPECT_NE(run.log().find("INFO [Controller id=1] Mark replicas t-0 on broker 1 as offline (state.change.logger)"),
            std::string::npos)
      << run.log();
  // onReplicasBecomeOffline: 1 is no leader any more (Offline election among the ISR's online
  // replicas), its replica OfflineReplica, outside the ISR.
  const LeaderAndIsr now = run.stateZnode(kT0)->leader_and_isr;
  EXPECT_EQ(now.leader, 2);
  EXPECT_EQ(now.isr, (BrokerList{2, 3}));
  EXPECT_EQ(now.leader_epoch, leader_epoch + 1);
  EXPECT_EQ(replicaState(run, 1, kT0, 1), ReplicaState::OfflineReplica);
  EXPECT_EQ(run.partitionContext(1, kT0).state, PartitionState::OnlinePartition);

  run.drain();
  // UpdateMetadata lists the replica as offline; the new leader leads.
  for (BrokerId b : {1, 2, 3}) {
    const std::optional<UpdateMetadataPartitionState> cached =
        run.broker(b).metadata_cache[static_cast<std::size_t>(partitionIndex(kT0))];
    ASSERT_TRUE(cached.has_value()) << b;
    EXPECT_EQ(cached->leader, 2) << b;
    EXPECT_EQ(cached->offline_replicas, BrokerList{1}) << b;
  }
  EXPECT_TRUE(hostedOf(run.broker(2), kT0).is_leader);
  EXPECT_EQ(hostedOf(run.broker(1), kT0), HostedReplica{});  // every later request: KAFKA_STORAGE_ERROR
  EXPECT_TRUE(run.broker(1).leader_and_isr_responses.empty());
  EXPECT_TRUE(run.world().zk.log_dir_event_notifications.empty());
}

TEST(ImplLogDirFailure, AFollowersDirectoryFailsAndTheIsrShrinks) {
  ImplRun run(logDirConfig());
  run.step("elect-controller 1").drain();
  const std::int32_t leader_epoch = run.stateZnode(kT0)->leader_and_isr.leader_epoch;
  run.step("fail-log-dir t-0 2").drain();
  EXPECT_EQ(offlineDirs(run, 1, 2), PartitionSet{kT0});
  EXPECT_TRUE(offlineDirs(run, 1, 1).empty());
  const LeaderAndIsr now = run.stateZnode(kT0)->leader_and_isr;
  EXPECT_EQ(now.leader, 1);
  EXPECT_EQ(now.isr, (BrokerList{1, 3}));
  EXPECT_EQ(now.leader_epoch, leader_epoch + 1);  // removeReplicasFromIsr bumps it
  EXPECT_EQ(replicaState(run, 1, kT0, 2), ReplicaState::OfflineReplica);
  EXPECT_EQ(replicaState(run, 1, kT0, 1), ReplicaState::OnlineReplica);
  EXPECT_EQ(hostedOf(run.broker(1), kT0).isr, (BrokerList{1, 3}));
  const std::optional<UpdateMetadataPartitionState> cached = run.broker(3).metadata_cache[0];
  ASSERT_TRUE(cached.has_value());
  EXPECT_EQ(cached->offline_replicas, BrokerList{2});
  EXPECT_NE(run.log().find("Mark replicas t-0 on broker 2 as offline"), std::string::npos);
  // The broker with the failed directory cannot be proposed back into the ISR (it hosts nothing).
  EXPECT_FALSE(run.cluster().isEnabled(
      Action{.kind = ActionKind::ExpandIsr, .broker = 1, .tp = kT0, .replica = 2}));
}

// ------------------------------------------------------------------ StopReplica and topic deletion

TEST(ImplLogDirFailure, StopReplicaToAnOfflineReplicaFailsItsDeletion) {
  ImplRun run(logDirConfig());
  run.step("elect-controller 1").drain();
  // The controller has not learned of the failure when the topic's deletion starts.
  run.step("fail-log-dir t-0 2").step("delete-topic t");
  run.step("process-event 1");  // LogDirEventNotification: the probe to broker 2
  run.step("process-event 1");  // TopicDeletion: StopReplica(delete=false), then (delete=true)
  ASSERT_EQ(replicaState(run, 1, kT0, 2), ReplicaState::ReplicaDeletionStarted);
  deliverAllRequests(run);
  // Broker 2 answered KAFKA_STORAGE_ERROR to both the probe and the StopReplica.
  const BrokerData b2 = run.broker(2);
  ASSERT_EQ(b2.outbox.size(), 1U);
  EXPECT_EQ(b2.outbox[0].partitions, PartitionSet{kT0});
  EXPECT_EQ(b2.outbox[0].storage_errors, PartitionSet{kT0});
  EXPECT_EQ(b2.leader_and_isr_responses.size(), 1U);
  EXPECT_TRUE(run.broker(3).outbox[0].storage_errors.empty());

  // The error-free delivery still reports the storage error for t-0.
  run.step("deliver-stop-replica-response 2");
  const auto events = queue(run, 1);
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.back().kind, ControllerEventKind::TopicDeletionStopReplicaResponseReceived);
  EXPECT_EQ(events.back().partition_errors, PartitionSet{kT0});
  run.step("deliver-stop-replica-response 3");
  while (queue(run, 1).front().kind != ControllerEventKind::TopicDeletionStopReplicaResponseReceived) {
    run.step("process-event 1");
  }
  run.step("process-event 1");  // broker 2's response
  EXPECT_EQ(replicaState(run, 1, kT0, 2), ReplicaState::ReplicaDeletionIneligible);
  EXPECT_TRUE(run.context(1).topics_ineligible_for_deletion.contains(0));
  run.step("process-event 1");  // broker 3's response: deleted
  EXPECT_EQ(replicaState(run, 1, kT0, 3), ReplicaState::ReplicaDeletionSuccessful);
  EXPECT_TRUE(run.world().zk.topics[0].exists);  // not all replicas deleted
}

TEST(ImplLogDirFailure, AnOfflineReplicaKnownAtDeletionMakesTheTopicIneligible) {
  // replicasOnOfflineDirs already holds t-0 on 2: startReplicaDeletion finds it offline
  // (isReplicaOnline takes the partition) and never asks broker 2 to delete it.
  ImplRun run(logDirConfig());
  run.step("elect-controller 1").drain();
  run.step("fail-log-dir t-0 2").drain();
  ASSERT_EQ(offlineDirs(run, 1, 2), PartitionSet{kT0});
  run.step("delete-topic t").step("process-event 1");
  EXPECT_EQ(replicaState(run, 1, kT0, 2), ReplicaState::ReplicaDeletionIneligible);
  EXPECT_EQ(replicaState(run, 1, kT0, 1), ReplicaState::ReplicaDeletionStarted);
  EXPECT_TRUE(run.context(1).topics_ineligible_for_deletion.contains(0));
  deliverRequests(run, 2);
  EXPECT_TRUE(run.broker(2).outbox.empty());
  run.drain();
  // The others are deleted; the topic waits (retryDeletionForIncompleteReplicas moved 2's replica
  // back to OfflineReplica, but the topic stays ineligible).
  EXPECT_EQ(replicaState(run, 1, kT0, 1), ReplicaState::ReplicaDeletionSuccessful);
  EXPECT_EQ(replicaState(run, 1, kT0, 3), ReplicaState::ReplicaDeletionSuccessful);
  EXPECT_NE(replicaState(run, 1, kT0, 2), ReplicaState::ReplicaDeletionSuccessful);
  EXPECT_TRUE(run.context(1).topics_to_be_deleted.contains(0));
  EXPECT_TRUE(run.world().zk.topics[0].exists);
}

// ------------------------------------------------------------------ restarts

TEST(ImplLogDirFailure, ACrashAndRestartBringsTheReplicaBack) {
  ImplRun run(logDirConfig());
  run.step("elect-controller 1").drain();
  run.step("fail-log-dir t-0 2").drain();
  ASSERT_EQ(offlineDirs(run, 1, 2), PartitionSet{kT0});
  run.step("crash 2");
  EXPECT_TRUE(run.broker(2).offline_log_dir_replicas.empty());  // a crash resets the broker
  run.step("process-event 1");                                  // BrokerChange: onBrokerFailure
  EXPECT_TRUE(offlineDirs(run, 1, 2).empty());
  run.drain();
  run.step("start 2").drain();  // onBrokerStartup: the replica is online again (a healthy dir)
  EXPECT_TRUE(offlineDirs(run, 1, 2).empty());
  EXPECT_EQ(replicaState(run, 1, kT0, 2), ReplicaState::OnlineReplica);
  const HostedReplica hosted = hostedOf(run.broker(2), kT0);
  EXPECT_TRUE(hosted.present);
  EXPECT_FALSE(hosted.is_leader);
  EXPECT_TRUE(run.broker(2).leader_and_isr_responses.empty());
  run.step("expand-isr t-0 leader 1 add 2").drain();
  EXPECT_EQ(run.stateZnode(kT0)->leader_and_isr.isr, (BrokerList{1, 3, 2}));
  // And its directory can fail again only with budget left.
  EXPECT_FALSE(run.cluster().isEnabled(failLogDir(kT0, 2)));
}

TEST(ImplLogDirFailure, OnBrokerStartupDropsTheBrokersEntry) {
  // A stated world where the controller still holds an entry for a broker that is not live (no
  // history leaves one: onBrokerFailure dropped it), so that only onBrokerStartup can drop it.
  ImplRun before(logDirConfig());
  before.step("elect-controller 1").drain();
  before.step("crash 3").drain();
  Observation given = before.world();
  given.brokers[1].controller.context.replicas_on_offline_dirs[3] = PartitionSet{kT0};
  Config config = logDirConfig();
  config.bounds = before.cluster().remaining();
  ImplRun run(config, given);
  EXPECT_EQ(run.world(), given);
  run.step("start 3").step("process-event 1");  // BrokerChange: onBrokerStartup(3)
  EXPECT_TRUE(offlineDirs(run, 1, 3).empty());
  EXPECT_EQ(replicaState(run, 1, kT0, 3), ReplicaState::OnlineReplica);
}

// ------------------------------------------------------------------ responses the controller drops

TEST(ImplLogDirFailure, AResponseToAnOlderControllerEpochIsDropped) {
  ImplRun run(logDirConfig());
  run.step("elect-controller 1").drain();
  run.step("fail-log-dir t-0 2").step("process-event 1");
  deliverRequests(run, 2);
  ASSERT_EQ(run.broker(2).leader_and_isr_responses.size(), 1U);
  ASSERT_EQ(run.broker(2).leader_and_isr_responses[0].controller_epoch, 1);
  // Controller 1 loses its session, resigns and is elected again with epoch 2.
  run.step("lose-controller-session 1").step("notice-session-expiry 1").step("process-event 1");
  ASSERT_FALSE(run.broker(1).controller.active);
  run.step("elect-controller 1");
  ASSERT_EQ(run.context(1).epoch, 2);
  const auto queued = queue(run, 1);
  run.step("deliver-leader-and-isr-response 2");  // epoch 1's: its channel manager is gone
  EXPECT_EQ(queue(run, 1), queued);
  // The new controller's own failover LeaderAndIsr (RSM startup) probes broker 2 again.
  deliverRequests(run, 2);
  ASSERT_EQ(run.broker(2).leader_and_isr_responses.size(), 1U);
  EXPECT_EQ(run.broker(2).leader_and_isr_responses[0].controller_epoch, 2);
  run.drain();
  EXPECT_EQ(offlineDirs(run, 1, 2), PartitionSet{kT0});
  EXPECT_EQ(run.stateZnode(kT0)->leader_and_isr.isr, (BrokerList{1, 3}));
}

TEST(ImplLogDirFailure, AResponseReachingAControllerThatResignedIsDropped) {
  ImplRun run(logDirConfig());
  run.step("elect-controller 1").drain();
  run.step("fail-log-dir t-0 2").step("process-event 1");
  deliverRequests(run, 2);
  run.step("lose-controller-session 1").step("notice-session-expiry 1").step("process-event 1");
  ASSERT_FALSE(run.broker(1).controller.active);
  run.step("deliver-leader-and-isr-response 2");
  EXPECT_TRUE(queue(run, 1).empty());
}

// A world with a LeaderAndIsr response (v7: by topic id) in broker 2's queue naming `partitions`,
// `storage_errors`; t's id is 1, u has none (a topic the controller never saw).
Observation withResponse(const ImplRun& run, PartitionSet partitions, PartitionSet storage_errors) {
  Observation world = run.world();
  world.brokers[2].leader_and_isr_responses.push_back(
      LeaderAndIsrResponse{.controller_id = 1, .controller_epoch = 1, .partitions = partitions, .storage_errors = storage_errors,
                           .by_topic_id = true, .topic_ids = {1}});
  return world;
}

TEST(ImplLogDirFailure, PartitionsOfATopicTheContextDoesNotKnowAreDropped) {
  ImplRun before(logDirConfig());
  before.step("elect-controller 1").drain();
  ASSERT_FALSE(before.context(1).all_topics.contains(1));  // u was never created
  Config config = logDirConfig();
  config.bounds = before.cluster().remaining();

  // u-0 alone: nothing is marked, nothing moves.
  {
    ImplRun run(config, withResponse(before, PartitionSet{kT0, kU0}, PartitionSet{kU0}));
    run.step("deliver-leader-and-isr-response 2");
    ASSERT_EQ(queue(run, 1).size(), 1U);
    EXPECT_EQ(queue(run, 1)[0].partitions, (PartitionSet{kT0, kU0}));  // the delivery does not filter
    Observation expected = run.world();
    expected.brokers[1].controller.events.clear();
    run.step("process-event 1");
    EXPECT_TRUE(run.world() == expected);
    EXPECT_TRUE(offlineDirs(run, 1, 2).empty());
  }
  // The same with t-0 in error: t-0 is marked, u-0 still dropped.
  {
    ImplRun run(config, withResponse(before, PartitionSet{kT0, kU0}, PartitionSet{kT0, kU0}));
    run.step("deliver-leader-and-isr-response 2").step("process-event 1");
    EXPECT_EQ(offlineDirs(run, 1, 2), PartitionSet{kT0});
    EXPECT_EQ(replicaState(run, 1, kT0, 2), ReplicaState::OfflineReplica);
  }
  // An id the controller maps to no topic (t's earlier id) drops t-0 as well.
  {
    Observation given = withResponse(before, PartitionSet{kT0}, PartitionSet{kT0});
    given.brokers[2].leader_and_isr_responses[0].topic_ids[0] = 2;
    ImplRun run(config, given);
    run.step("deliver-leader-and-isr-response 2").step("process-event 1");
    EXPECT_TRUE(offlineDirs(run, 1, 2).empty());
  }
  // Before version 5 (by name) nothing is dropped: u-0, of no topic the controller knows, is marked.
  {
    Observation given = withResponse(before, PartitionSet{kT0, kU0}, PartitionSet{kU0});
    given.brokers[2].leader_and_isr_responses[0].by_topic_id = false;
    given.brokers[2].leader_and_isr_responses[0].topic_ids = {};
    ImplRun run(config, given);
    run.step("deliver-leader-and-isr-response 2").step("process-event 1");
    EXPECT_EQ(offlineDirs(run, 1, 2), PartitionSet{kU0});
  }
}

TEST(ImplLogDirFailure, AnOnlineAnswerClearsAnEntryAndMarksNothingNew) {
  ImplRun before(logDirConfig());
  before.step("elect-controller 1").drain();
  // t-0 answered NONE (u-0's error is dropped: u is not in the context).
  Observation given = withResponse(before, PartitionSet{kT0, kU0}, PartitionSet{kU0});
  given.brokers[1].controller.context.replicas_on_offline_dirs[2] = PartitionSet{kT0};
  Config config = logDirConfig();
  config.bounds = before.cluster().remaining();
  ImplRun run(config, given);
  run.step("deliver-leader-and-isr-response 2").step("process-event 1");
  EXPECT_TRUE(offlineDirs(run, 1, 2).empty());  // (prev − online) ∪ offline
  EXPECT_EQ(run.log().find("Mark replicas"), std::string::npos);
}

// ------------------------------------------------------------------ failover

TEST(ImplLogDirFailure, AFailoverDeletesPendingNotifications) {
  ImplRun run(logDirConfig(/*log_dir_failures=*/2));
  run.step("elect-controller 1").drain();
  // Controller 1 resigns (Expire): with no controller nobody watches, the notification waits.
  run.step("lose-controller-session 1").step("notice-session-expiry 1").step("process-event 1");
  ASSERT_FALSE(run.cluster().activeController().has_value());
  run.step("fail-log-dir t-0 3");
  EXPECT_EQ(run.world().zk.log_dir_event_notifications, BrokerSet{3});
  EXPECT_TRUE(queue(run, 1).empty());
  run.step("elect-controller 2");
  // Step 3 deleted it (fenced), and the child watch registered at step 2 saw that.
  EXPECT_TRUE(run.world().zk.log_dir_event_notifications.empty());
  EXPECT_TRUE(notificationZnodes(run).empty());
  const auto events = queue(run, 2);
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.front(), kLogDirEventNotification);
  EXPECT_TRUE(offlineDirs(run, 2, 3).empty());  // a new context starts empty
  // The failover's own LeaderAndIsr (RSM startup) is what finds the offline replica.
  run.drain();
  EXPECT_EQ(offlineDirs(run, 2, 3), PartitionSet{kT0});
  EXPECT_EQ(run.stateZnode(kT0)->leader_and_isr.isr, (BrokerList{1, 2}));

  // A controller change with a notification pending: the new controller deletes it; the old one,
  // still believing it is active, finds no child and so writes nothing.
  run.step("fail-log-dir t-0 2");
  EXPECT_EQ(run.world().zk.log_dir_event_notifications, BrokerSet{2});
  ASSERT_EQ(queue(run, 2), std::vector<ControllerEvent>{kLogDirEventNotification});
  run.step("lose-controller-session 2").step("elect-controller 3");
  EXPECT_TRUE(run.world().zk.log_dir_event_notifications.empty());
  EXPECT_TRUE(offlineDirs(run, 3, 3).empty());
  EXPECT_EQ(queue(run, 3).front(), kLogDirEventNotification);
  run.step("process-event 2");
  EXPECT_TRUE(run.broker(2).controller.active);  // no fenced write was attempted
  EXPECT_TRUE(queue(run, 2).empty());
}

TEST(ImplLogDirFailure, AStaleControllerIsFencedAtTheNotificationsDelete) {
  ImplRun run(logDirConfig(/*log_dir_failures=*/2));
  run.step("elect-controller 1").drain();
  // Controller 1 loses its session; 2 is elected; a notification reaches only the new one.
  run.step("lose-controller-session 1").step("elect-controller 2").drain();
  run.step("fail-log-dir t-0 3");
  EXPECT_TRUE(queue(run, 1).empty());
  ASSERT_EQ(queue(run, 2), std::vector<ControllerEvent>{kLogDirEventNotification});
  // A world where 1 also had it queued: it reads the child and its delete is fenced.
  Observation given = run.world();
  given.brokers[1].controller.events.push_back(kLogDirEventNotification);
  Config config = logDirConfig(2);
  config.bounds = run.cluster().remaining();
  ImplRun stale(config, given);
  stale.step("process-event 1");
  EXPECT_FALSE(stale.broker(1).controller.active);  // ControllerMovedException: maybeResign
  EXPECT_EQ(stale.world().zk.log_dir_event_notifications, BrokerSet{3});
  stale.step("process-event 2");
  EXPECT_TRUE(stale.world().zk.log_dir_event_notifications.empty());
}

// ------------------------------------------------------------------ actions

TEST(ImplLogDirFailure, TheActionsTextRoundTrips) {
  const Config config = logDirConfig();
  const Action fail = parseAction(config, "fail-log-dir t-0 2", "test", 1);
  EXPECT_EQ(fail.kind, ActionKind::FailLogDir);
  EXPECT_EQ(fail.tp, kT0);
  EXPECT_EQ(fail.broker, 2);
  EXPECT_EQ(printAction(config, fail), "fail-log-dir t-0 2");
  const Action deliver = parseAction(config, "deliver-leader-and-isr-response 3", "test", 1);
  EXPECT_EQ(deliver.kind, ActionKind::DeliverLeaderAndIsrResponse);
  EXPECT_EQ(deliver.broker, 3);
  EXPECT_EQ(printAction(config, deliver), "deliver-leader-and-isr-response 3");
}

TEST(ImplLogDirFailure, FailLogDirNeedsBudgetALogAndALiveBroker) {
  {
    ImplRun run(logDirConfig(/*log_dir_failures=*/0));
    run.step("elect-controller 1").drain();
    EXPECT_FALSE(run.cluster().isEnabled(failLogDir(kT0, 1)));  // no budget
  }
  {
    // The overall bound is spent with it.
    ImplRun run(logDirConfig(/*log_dir_failures=*/2, "bound perturbations 1"));
    run.step("elect-controller 1").drain();
    EXPECT_TRUE(run.cluster().isEnabled(failLogDir(kT0, 1)));
    run.step(failLogDir(kT0, 1));
    EXPECT_FALSE(run.cluster().isEnabled(failLogDir(kT0, 2)));
  }
  ImplRun run(logDirConfig(/*log_dir_failures=*/3, "topic v\n  partition 0 replicas 1,2\n  exists-at-start true\n"));
  // Before any LeaderAndIsr no broker holds a log.
  EXPECT_FALSE(run.cluster().isEnabled(failLogDir(kT0, 1)));
  run.step("elect-controller 1").drain();
  const TopicPartition v0{2, 0};
  EXPECT_TRUE(run.cluster().isEnabled(failLogDir(v0, 1)));
  EXPECT_FALSE(run.cluster().isEnabled(failLogDir(v0, 3)));  // not a replica: no log
  EXPECT_FALSE(run.cluster().isEnabled(failLogDir(kU0, 1)));  // u does not exist
  std::vector<Action> enabled = run.cluster().enabledActions();
  const auto has = [&](const Action& a) { return std::find(enabled.begin(), enabled.end(), a) != enabled.end(); };
  EXPECT_TRUE(has(failLogDir(kT0, 3)));
  EXPECT_FALSE(has(failLogDir(v0, 3)));
  EXPECT_FALSE(run.cluster().isEnabled(Action{.kind = ActionKind::DeliverLeaderAndIsrResponse, .broker = 1}));

  run.step(failLogDir(kT0, 1));
  EXPECT_FALSE(run.cluster().isEnabled(failLogDir(kT0, 1)));  // not twice
  EXPECT_TRUE(run.cluster().isEnabled(failLogDir(v0, 1)));    // another replica's directory

  // A replica stopped by StopReplica(delete=false) keeps its log: controlled shutdown of a follower.
  run.drain();
  run.step("controlled-shutdown 3").drain();
  const HostedReplica stopped = hostedOf(run.broker(3), kT0);
  ASSERT_FALSE(stopped.present);
  ASSERT_GE(stopped.leader_epoch, 0);
  EXPECT_TRUE(run.cluster().isEnabled(failLogDir(kT0, 3)));
  run.step("crash 3");
  EXPECT_FALSE(run.cluster().isEnabled(failLogDir(kT0, 3)));  // not alive
}

TEST(ImplLogDirFailure, DeliverLeaderAndIsrResponseIsEnabledWhileOneIsQueued) {
  ImplRun run(logDirConfig());
  run.step("elect-controller 1").drain();
  run.step("fail-log-dir t-0 2").step("process-event 1");
  const Action deliver{.kind = ActionKind::DeliverLeaderAndIsrResponse, .broker = 2};
  EXPECT_FALSE(run.cluster().isEnabled(deliver));
  deliverRequests(run, 2);
  EXPECT_TRUE(run.cluster().isEnabled(deliver));
  // A crash resets the broker, its responses included.
  run.step("crash 2");
  EXPECT_FALSE(run.cluster().isEnabled(deliver));
}

// ------------------------------------------------------------------ given world

TEST(ImplLogDirFailure, AGivenWorldWithEveryNewFieldStepsAsTheClusterThatReachedIt) {
  ImplRun reached(logDirConfig(/*log_dir_failures=*/3));
  reached.step("elect-controller 1").drain();
  reached.step("fail-log-dir t-0 2").step("process-event 1");
  deliverRequests(reached, 2);
  reached.step("fail-log-dir t-0 3");  // a notification pending
  Observation world = reached.world();
  ASSERT_EQ(world.zk.log_dir_event_notifications, BrokerSet{3});
  ASSERT_EQ(world.brokers[2].leader_and_isr_responses.size(), 1U);
  ASSERT_EQ(world.brokers[3].offline_log_dir_replicas, PartitionSet{kT0});

  Config config = logDirConfig(3);
  config.bounds = reached.cluster().remaining();
  ImplRun loaded(config, world);
  ASSERT_EQ(loaded.world(), world);
  // The same steps from both, compared after each.
  const std::vector<std::string_view> steps = {
      "deliver-leader-and-isr-response 2", "process-event 1", "process-event 1", "process-event 1",
      "fail-log-dir t-0 1",
  };
  for (std::string_view text : steps) {
    SCOPED_TRACE(text);
    reached.step(text);
    loaded.step(text);
    ASSERT_EQ(loaded.world(), reached.world());
  }
  reached.drain();
  loaded.drain();
  EXPECT_EQ(loaded.world(), reached.world());
  EXPECT_EQ(offlineDirs(loaded, 1, 2), PartitionSet{kT0});
  // The loaded notification took a new sequence number: t-0 1's did not collide with it.
  EXPECT_TRUE(loaded.world().zk.log_dir_event_notifications.empty());
}

TEST(ImplLogDirFailure, AGivenWorldRestoresNotificationsStorageErrorsAndTheContextsSets) {
  ImplRun before(logDirConfig());
  before.step("elect-controller 1").drain();
  Observation given = before.world();
  given.zk.log_dir_event_notifications = BrokerSet{1, 3};
  given.brokers[2].offline_log_dir_replicas = PartitionSet{kT0};
  given.brokers[2].replicas[0] = HostedReplica{};
  given.brokers[2].outbox.push_back(StopReplicaResponse{.controller_id = 1, .controller_epoch = 1,
                                                        .partitions = PartitionSet{kT0}, .storage_errors = PartitionSet{kT0}});
  given.brokers[1].controller.context.replicas_on_offline_dirs[2] = PartitionSet{kT0};
  Config config = logDirConfig();
  config.bounds = before.cluster().remaining();
  const ImplCluster cluster(config, given);
  EXPECT_EQ(cluster.observe(), given);
  std::vector<std::string> children = cluster.zookeeper().getChildren(zk::paths::kLogDirEventNotification).second;
  EXPECT_EQ(children, (std::vector<std::string>{"log_dir_event_0000000000", "log_dir_event_0000000001"}));
  // The active controller's child watch is restored: a new notification queues the event.
  ImplCluster copy = cluster;
  copy.apply(Action{.kind = ActionKind::FailLogDir, .broker = 1, .tp = kT0});
  const auto& events = copy.broker(1).controller().events;
  EXPECT_TRUE(events.contains(kLogDirEventNotification));
  EXPECT_EQ(copy.observe().zk.log_dir_event_notifications, (BrokerSet{1, 3}));
  EXPECT_EQ(copy.zookeeper().getChildren(zk::paths::kLogDirEventNotification).second.size(), 3U);
}

}  // namespace
}  // namespace kcspec::impl
