// Golden state-change.log lines (Kafka 3.8 formats, kafka.md §7) for kafka.md Appendix B's four flows,
// at Kafka's default INFO level, plus the full line layout and a TRACE line.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "impl_scenario.hpp"

namespace kcspec::impl {
namespace {

using testing::appendixBConfig;
using testing::ImplRun;

constexpr std::string_view kTimestamp = "[2024-07-23 00:00:00,000] ";
constexpr std::string_view kLogger = " (state.change.logger)";

// The log's lines without the fixed timestamp and logger name (both checked on every line).
std::vector<std::string> messages(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    EXPECT_EQ(line.substr(0, kTimestamp.size()), kTimestamp) << line;
    EXPECT_TRUE(line.ends_with(kLogger)) << line;
    out.push_back(line.substr(kTimestamp.size(), line.size() - kTimestamp.size() - kLogger.size()));
  }
  return out;
}

TEST(ImplGoldenLog, FailoverSendsUpdateMetadataToEveryBroker) {
  ImplRun run(appendixBConfig(), {}, LogLevel::INFO);
  run.step("elect-controller 1").drain();
  EXPECT_EQ(messages(run.takeLog()), (std::vector<std::string>{
      "INFO [Controller id=1 epoch=1] Sending UpdateMetadata request to brokers HashSet(1, 2, 3) for 0 partitions",
  }));
}

TEST(ImplGoldenLog, B1TopicCreation) {
  ImplRun run(appendixBConfig(), {}, LogLevel::INFO);
  run.step("elect-controller 1").drain();
  run.takeLog();
  run.step("create-topic t").drain();
  EXPECT_EQ(messages(run.takeLog()), (std::vector<std::string>{
      "INFO [Controller id=1 epoch=1] Changed partition t-0 state from NonExistentPartition to NewPartition with assigned replicas 1,2,3",
      "INFO [Controller id=1 epoch=1] Sending UpdateMetadata request to brokers HashSet() for 0 partitions",
      "INFO [Controller id=1 epoch=1] Sending UpdateMetadata request to brokers HashSet() for 0 partitions",
      "INFO [Controller id=1 epoch=1] Changed partition t-0 from NewPartition to OnlinePartition with state LeaderAndIsr(leader=1, leaderEpoch=0, isrWithBrokerEpoch=List(BrokerState(brokerId=1, brokerEpoch=-1), BrokerState(brokerId=2, brokerEpoch=-1), BrokerState(brokerId=3, brokerEpoch=-1)), leaderRecoveryState=RECOVERED, partitionEpoch=0)",
      "INFO [Controller id=1 epoch=1] Sending LeaderAndIsr request to broker 1 with 1 become-leader and 0 become-follower partitions",
      "INFO [Controller id=1 epoch=1] Sending LeaderAndIsr request to broker 2 with 0 become-leader and 1 become-follower partitions",
      "INFO [Controller id=1 epoch=1] Sending LeaderAndIsr request to broker 3 with 0 become-leader and 1 become-follower partitions",
      "INFO [Controller id=1 epoch=1] Sending UpdateMetadata request to brokers HashSet(1, 2, 3) for 1 partitions",
      "INFO [Controller id=1 epoch=1] Sending UpdateMetadata request to brokers HashSet() for 0 partitions",
  }));
}

TEST(ImplGoldenLog, B1FullLineLayoutAndTraceLines) {
  ImplRun run(appendixBConfig());
  run.step("elect-controller 1").drain();
  run.takeLog();
  run.step("create-topic t").step("process-event 1");
  const std::string log = run.takeLog();
  EXPECT_NE(log.find("[2024-07-23 00:00:00,000] INFO [Controller id=1 epoch=1] Changed partition t-0 from NewPartition to "
                     "OnlinePartition with state LeaderAndIsr(leader=1, leaderEpoch=0, isrWithBrokerEpoch=List("
                     "BrokerState(brokerId=1, brokerEpoch=-1), BrokerState(brokerId=2, brokerEpoch=-1), "
                     "BrokerState(brokerId=3, brokerEpoch=-1)), leaderRecoveryState=RECOVERED, partitionEpoch=0) "
                     "(state.change.logger)\n"),
            std::string::npos);
  EXPECT_NE(log.find("TRACE [Controller id=1 epoch=1] Changed state of replica 2 for partition t-0 from NonExistentReplica "
                     "to NewReplica (state.change.logger)\n"),
            std::string::npos);
  EXPECT_NE(log.find("TRACE [Controller id=1 epoch=1] Sending become-leader LeaderAndIsr request LeaderAndIsrPartitionState("
                     "topicName='t', partitionIndex=0, controllerEpoch=1, leader=1, leaderEpoch=0, isr=[1, 2, 3], "
                     "partitionEpoch=0, replicas=[1, 2, 3], addingReplicas=[], removingReplicas=[], isNew=true, "
                     "leaderRecoveryState=0) to broker 1 for partition t-0 (state.change.logger)\n"),
            std::string::npos);
}

TEST(ImplGoldenLog, B2HardFailureOfTheLeader) {
  ImplRun run(appendixBConfig(), {}, LogLevel::INFO);
  run.step("elect-controller 2").drain();
  run.step("create-topic t").drain();
  run.takeLog();
  run.step("crash 1").step("process-event 2");
  EXPECT_EQ(messages(run.takeLog()), (std::vector<std::string>{
      "INFO [Controller id=2 epoch=1] Sending UpdateMetadata request to brokers HashSet() for 0 partitions",
      "INFO [Controller id=2 epoch=1] Changed partition t-0 from OfflinePartition to OnlinePartition with state LeaderAndIsr(leader=2, leaderEpoch=1, isrWithBrokerEpoch=List(BrokerState(brokerId=2, brokerEpoch=-1), BrokerState(brokerId=3, brokerEpoch=-1)), leaderRecoveryState=RECOVERED, partitionEpoch=1)",
      "INFO [Controller id=2 epoch=1] Sending LeaderAndIsr request to broker 2 with 1 become-leader and 0 become-follower partitions",
      "INFO [Controller id=2 epoch=1] Sending LeaderAndIsr request to broker 3 with 0 become-leader and 1 become-follower partitions",
      "INFO [Controller id=2 epoch=1] Sending UpdateMetadata request to brokers HashSet(2, 3) for 1 partitions",
      "INFO [Controller id=2 epoch=1] Partition t-0 state changed to (Leader:2,ISR:2,3,LeaderRecoveryState:RECOVERED,LeaderEpoch:1,ZkVersion:1,ControllerEpoch:1) after removing replica 1 from the ISR as part of transition to OfflineReplica",
      "INFO [Controller id=2 epoch=1] Sending LeaderAndIsr request to broker 2 with 1 become-leader and 0 become-follower partitions",
      "INFO [Controller id=2 epoch=1] Sending LeaderAndIsr request to broker 3 with 0 become-leader and 1 become-follower partitions",
      "INFO [Controller id=2 epoch=1] Sending UpdateMetadata request to brokers HashSet(2, 3) for 1 partitions",
  }));
}

TEST(ImplGoldenLog, B3ControlledShutdownOfTheLeader) {
  ImplRun run(appendixBConfig(), {}, LogLevel::INFO);
  run.step("elect-controller 2").drain();
  run.step("create-topic t").drain();
  run.takeLog();
  run.step("controlled-shutdown 1").step("process-event 2");
  EXPECT_EQ(messages(run.takeLog()), (std::vector<std::string>{
      "INFO [Controller id=2 epoch=1] Changed partition t-0 from OnlinePartition to OnlinePartition with state LeaderAndIsr(leader=2, leaderEpoch=1, isrWithBrokerEpoch=List(BrokerState(brokerId=2, brokerEpoch=-1), BrokerState(brokerId=3, brokerEpoch=-1)), leaderRecoveryState=RECOVERED, partitionEpoch=1)",
      "INFO [Controller id=2 epoch=1] Sending LeaderAndIsr request to broker 1 with 0 become-leader and 1 become-follower partitions",
      "INFO [Controller id=2 epoch=1] Sending LeaderAndIsr request to broker 2 with 1 become-leader and 0 become-follower partitions",
      "INFO [Controller id=2 epoch=1] Sending LeaderAndIsr request to broker 3 with 0 become-leader and 1 become-follower partitions",
      "INFO [Controller id=2 epoch=1] Sending UpdateMetadata request to brokers HashSet(1, 2, 3) for 1 partitions",
      "INFO [Controller id=2 epoch=1] Sending UpdateMetadata request to brokers HashSet() for 0 partitions",
  }));
}

TEST(ImplGoldenLog, B4TopicDeletion) {
  ImplRun run(appendixBConfig(), {}, LogLevel::INFO);
  run.step("elect-controller 1").drain();
  run.step("create-topic t").drain();
  run.takeLog();
  run.step("delete-topic t").drain();
  EXPECT_EQ(messages(run.takeLog()), (std::vector<std::string>{
      "INFO [Controller id=1 epoch=1] Sending UpdateMetadata request to brokers HashSet() for 0 partitions",
      "INFO [Controller id=1 epoch=1] Sending UpdateMetadata request to brokers HashSet() for 0 partitions",
      "INFO [Controller id=1 epoch=1] Sending UpdateMetadata request to brokers HashSet(1, 2, 3) for 1 partitions",
      "INFO [Controller id=1 epoch=1] Partition t-0 state changed to (Leader:-1,ISR:2,3,LeaderRecoveryState:RECOVERED,LeaderEpoch:1,ZkVersion:1,ControllerEpoch:1) after removing replica 1 from the ISR as part of transition to OfflineReplica",
      "INFO [Controller id=1 epoch=1] Partition t-0 state changed to (Leader:-1,ISR:3,LeaderRecoveryState:RECOVERED,LeaderEpoch:2,ZkVersion:2,ControllerEpoch:1) after removing replica 2 from the ISR as part of transition to OfflineReplica",
      "INFO [Controller id=1 epoch=1] Partition t-0 state changed to (Leader:-1,ISR:3,LeaderRecoveryState:RECOVERED,LeaderEpoch:3,ZkVersion:3,ControllerEpoch:1) after removing replica 3 from the ISR as part of transition to OfflineReplica",
      "INFO [Controller id=1 epoch=1] Sending UpdateMetadata request to brokers HashSet() for 0 partitions",
      "INFO [Controller id=1 epoch=1] Sending StopReplica request for 1 replicas to broker 1",
      "INFO [Controller id=1 epoch=1] Sending StopReplica request for 1 replicas to broker 2",
      "INFO [Controller id=1 epoch=1] Sending StopReplica request for 1 replicas to broker 3",
      "INFO [Controller id=1 epoch=1] Sending UpdateMetadata request to brokers HashSet() for 0 partitions",
      "INFO [Controller id=1 epoch=1] Sending StopReplica request for 1 replicas to broker 1",
      "INFO [Controller id=1 epoch=1] Sending StopReplica request for 1 replicas to broker 2",
      "INFO [Controller id=1 epoch=1] Sending StopReplica request for 1 replicas to broker 3",
      "INFO [Controller id=1 epoch=1] Sending UpdateMetadata request to brokers HashSet() for 0 partitions",
      "INFO [Controller id=1 epoch=1] Sending UpdateMetadata request to brokers HashSet() for 0 partitions",
      "INFO [Controller id=1 epoch=1] Sending UpdateMetadata request to brokers HashSet() for 0 partitions",
      "INFO [Controller id=1 epoch=1] Sending UpdateMetadata request to brokers HashSet() for 0 partitions",
  }));
}

}  // namespace
}  // namespace kcspec::impl
