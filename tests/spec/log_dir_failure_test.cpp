// Log-directory failures and LeaderAndIsr responses with KAFKA_STORAGE_ERROR (issue 29 item 5;
// kafka.md §5.5.6, §5.6.1, §5.2, §5.5.2–§5.5.4; docs/world.md §5 and §6): a replica's directory
// fails, the broker notifies the controller through /log_dir_event_notification, the controller
// probes the broker with LeaderAndIsr and learns from the answers which replicas are offline.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "spec_run.hpp"

namespace kcspec::spec {
namespace {

constexpr TopicPartition kT0{0, 0};

// Three brokers; t-0 on 1,2,3 (so 1 leads it); the controller runs on broker 3.
const std::string kConfig =
    "# kcspec scenario v1\n"
    "brokers 1 2 3\n"
    "alive-at-start 1 2 3\n"
    "topic t\n"
    "  partition 0 replicas 1,2,3\n"
    "  exists-at-start true\n"
    "bound log-dir-failures 2\n"
    "bound crashes 1\n"
    "bound topic-deletions 1\n"
    "bound controller-failovers 1\n";

const ControllerEvent kLogDirEvent{.kind = ControllerEventKind::LogDirEventNotification};

class LogDirRun : public BasicSpecRun<LogDirRun> {
 public:
  explicit LogDirRun(const std::string& steps) : BasicSpecRun(kConfig + "steps\n" + steps, "log-dir.scenario") {}


  const ControllerContextData& context(BrokerId b) const { return controller(b).context; }
  const HostedReplica& hosted(BrokerId b) const { return broker(b).replicas[static_cast<std::size_t>(partitionIndex(kT0))]; }
  std::optional<ReplicaState> replicaState(BrokerId controller_id, BrokerId replica) const {
    return context(controller_id).partitions[static_cast<std::size_t>(partitionIndex(kT0))]
        .replica_states[static_cast<std::size_t>(replica)];
  }
  const LeaderAndIsr& stateZnode() const { return zk().topics[0].states[0]->leader_and_isr; }
};

TEST(LogDirFailure, TheLeadersFailedDirectoryMovesLeadershipOnceTheControllerHearsTheStorageError) {
  LogDirRun run("elect-controller 3\n");
  run.drain();
  ASSERT_EQ(run.stateZnode().leader, 1);
  ASSERT_TRUE(run.hosted(1).is_leader);
  EXPECT_TRUE(run.broker(1).leader_and_isr_responses.empty()) << "a response without errors is not kept";

  run.then("fail-log-dir t-0 1");
  EXPECT_TRUE(run.broker(1).offline_log_dir_replicas.contains(kT0));
  EXPECT_EQ(run.hosted(1), HostedReplica{}) << "the replica leads nothing any more";
  EXPECT_TRUE(run.world().zk.log_dir_event_notifications.contains(1));
  ASSERT_EQ(run.broker(3).controller.events.size(), 1u);
  EXPECT_EQ(run.broker(3).controller.events.front(), kLogDirEvent);
  EXPECT_EQ(run.stateZnode().leader, 1) << "ZooKeeper does not know yet";

  // onBrokerLogDirFailure probes broker 1 with LeaderAndIsr; deleting the notification re-arms
  // the watch, which fires once more.
  run.then("process-event 3");
  EXPECT_TRUE(run.world().zk.log_dir_event_notifications.empty());
  ASSERT_EQ(run.broker(3).controller.events.size(), 1u);
  EXPECT_EQ(run.broker(3).controller.events.front(), kLogDirEvent);
  ASSERT_FALSE(run.broker(1).inbox.empty());
  EXPECT_EQ(run.broker(1).inbox.front().kind, RequestKind::LeaderAndIsr);

  run.then("deliver-request 1");
  ASSERT_EQ(run.broker(1).leader_and_isr_responses.size(), 1u);
  const LeaderAndIsrResponse response = run.broker(1).leader_and_isr_responses.front();
  EXPECT_EQ(response.controller_id, 3);
  EXPECT_EQ(response.storage_errors, PartitionSet{kT0});
  EXPECT_EQ(run.hosted(1), HostedReplica{}) << "an entry on a failed directory changes nothing";

  run.then("process-event 3");  // the re-armed watch: no notification left, nothing to probe
  run.then("deliver-leader-and-isr-response 1");
  ASSERT_EQ(run.broker(3).controller.events.size(), 1u);
  EXPECT_EQ(run.broker(3).controller.events.front().kind, ControllerEventKind::LeaderAndIsrResponseReceived);
  EXPECT_EQ(run.broker(3).controller.events.front().partition_errors, PartitionSet{kT0});

  run.then("process-event 3").drain();
  EXPECT_EQ(run.context(3).replicas_on_offline_dirs[1], PartitionSet{kT0});
  EXPECT_EQ(run.stateZnode().leader, 2) << "the Offline strategy elects among the online replicas";
  EXPECT_FALSE(run.stateZnode().isr.contains(1));
  EXPECT_EQ(run.replicaState(3, 1), ReplicaState::OfflineReplica);
  EXPECT_TRUE(run.hosted(2).is_leader);
  const auto& cached = run.broker(2).metadata_cache[static_cast<std::size_t>(partitionIndex(kT0))];
  ASSERT_TRUE(cached.has_value());
  EXPECT_TRUE(cached->offline_replicas.contains(1)) << "UpdateMetadata lists the replica as offline";
  EXPECT_FALSE(run.enabled("fail-log-dir t-0 1")) << "a directory fails once";
}

TEST(LogDirFailure, ARestartHealsTheDirectoryAndTheControllerForgetsTheBrokersEntry) {
  LogDirRun run("elect-controller 3\n");
  run.drain().then("fail-log-dir t-0 2").drain();
  ASSERT_EQ(run.context(3).replicas_on_offline_dirs[2], PartitionSet{kT0});
  ASSERT_EQ(run.replicaState(3, 2), ReplicaState::OfflineReplica);
  ASSERT_EQ(run.stateZnode().leader, 1) << "a follower's failure moves no leadership";

  run.then("crash 2").drain();
  EXPECT_TRUE(run.context(3).replicas_on_offline_dirs[2].empty()) << "onBrokerFailure forgets it";
  run.then("start 2").drain();
  EXPECT_TRUE(run.broker(2).offline_log_dir_replicas.empty());
  EXPECT_EQ(run.replicaState(3, 2), ReplicaState::OnlineReplica);
  EXPECT_TRUE(run.hosted(2).present);
  EXPECT_FALSE(run.hosted(2).is_leader);
}

TEST(LogDirFailure, AStopReplicaToAFailedDirectoryFailsTheReplicasDeletion) {
  // The deletion is queued before the notification: the controller sends StopReplica(delete=true)
  // to broker 2 before it knows, and the broker answers KAFKA_STORAGE_ERROR.
  LogDirRun run("elect-controller 3\n");
  run.drain().then("delete-topic t").then("fail-log-dir t-0 2").then("process-event 3");
  for (int i = 0; i < 4 && !run.broker(2).inbox.empty(); ++i) run.then("deliver-request 2");
  ASSERT_EQ(run.broker(2).outbox.size(), 1u);
  EXPECT_EQ(run.broker(2).outbox.front().storage_errors, PartitionSet{kT0});
  run.then("deliver-stop-replica-response 2");  // no error of the delivery's own
  const auto& events = run.broker(3).controller.events;
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.back().kind, ControllerEventKind::TopicDeletionStopReplicaResponseReceived);
  EXPECT_EQ(events.back().partition_errors, PartitionSet{kT0});
  while (run.broker(3).controller.events.size() > 1) run.then("process-event 3");
  run.then("process-event 3");  // the response
  EXPECT_EQ(run.replicaState(3, 2), ReplicaState::ReplicaDeletionIneligible);
  EXPECT_TRUE(run.context(3).topics_ineligible_for_deletion.contains(0));
  run.drain();
  EXPECT_TRUE(run.world().zk.topics[0].exists) << "the deletion waits: broker 2 answers the same error";
  EXPECT_NE(run.replicaState(3, 2), ReplicaState::ReplicaDeletionSuccessful);
}

TEST(LogDirFailure, AResponseToAControllerThatIsGoneIsDropped) {
  LogDirRun run("elect-controller 3\n");
  run.drain().then("fail-log-dir t-0 1").then("process-event 3").then("deliver-request 1");
  ASSERT_EQ(run.broker(1).leader_and_isr_responses.size(), 1u);
  run.then("crash 3").then("deliver-leader-and-isr-response 1");
  EXPECT_TRUE(run.broker(1).leader_and_isr_responses.empty());
  for (BrokerId b : {1, 2, 3}) {
    for (const ControllerEvent& e : run.broker(b).controller.events) {
      EXPECT_NE(e.kind, ControllerEventKind::LeaderAndIsrResponseReceived) << "on broker " << b;
    }
  }
}

TEST(LogDirFailure, TheNextControllerDeletesPendingNotificationsAndLearnsAgainFromItsOwnProbe) {
  LogDirRun run("elect-controller 3\n");
  run.drain().then("lose-controller-session 3").then("fail-log-dir t-0 1");
  EXPECT_TRUE(run.world().zk.log_dir_event_notifications.contains(1));
  EXPECT_TRUE(run.broker(3).controller.events.empty()) << "a controller without its session has no watch";
  run.then("elect-controller 2");
  EXPECT_TRUE(run.world().zk.log_dir_event_notifications.empty()) << "failover step 3";
  bool queued = false;
  for (const ControllerEvent& e : run.broker(2).controller.events) queued |= e == kLogDirEvent;
  EXPECT_TRUE(queued) << "the deletion fires the watch the failover re-armed";
  EXPECT_TRUE(run.context(2).replicas_on_offline_dirs[1].empty()) << "a new context starts empty";
  run.then("notice-session-expiry 3").drain();
  EXPECT_EQ(run.context(2).replicas_on_offline_dirs[1], PartitionSet{kT0});
  EXPECT_NE(run.stateZnode().leader, 1);
}

TEST(LogDirFailure, OnlyAReplicaWithALogOnALiveBrokerCanFailAndOnlyWithinTheBound) {
  LogDirRun run("");
  EXPECT_FALSE(run.enabled("fail-log-dir t-0 1")) << "no controller has made broker 1 host t-0 yet";
  run.then("elect-controller 3").drain();
  EXPECT_TRUE(run.enabled("fail-log-dir t-0 1"));
  run.then("fail-log-dir t-0 1").then("fail-log-dir t-0 2");
  EXPECT_FALSE(run.enabled("fail-log-dir t-0 3")) << "log-dir-failures 2 is spent";
  const Config& config = run.config();
  const Action a = parseAction(config, "fail-log-dir t-0 3", "x", 1);
  EXPECT_EQ(printAction(config, a), "fail-log-dir t-0 3");
  EXPECT_THROW(parseAction(config, "fail-log-dir t-0", "x", 1), TextError);
  EXPECT_THROW(parseAction(config, "fail-log-dir t-0 9", "x", 1), TextError);
  EXPECT_THROW(parseAction(config, "deliver-leader-and-isr-response 1 error", "x", 1), TextError);
}

}  // namespace
}  // namespace kcspec::spec
