// Component actions (spec/vocabulary/component_call.hpp, spec/rules/components.hpp): their text,
// and the spec's partition and replica state machines called on a given world.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "spec/rules/components.hpp"
#include "spec/rules/invariants.hpp"
#include "spec/rules/step.hpp"
#include "spec/vocabulary/scenario_text.hpp"

namespace kcspec {
namespace {

// The example: t-0 Online with leader 1 and ISR [1,2], broker 2 shutting down.
const std::string kScenario =
    "# kcspec scenario v1\n"
    "brokers 0 1 2\n"
    "topic t\n"
    "  partition 0 replicas 1,2\n"
    "  partition 1 replicas 2,1\n"
    "given\n"
    "controller 0\n"
    "broker 0 alive\n"
    "broker 1 alive\n"
    "broker 2 shutting-down\n"
    "partition t-0 leader 1 isr 1,2\n"
    "partition t-1 state NewPartition\n"
    "steps\n";  // line 13

struct CallRun {
  spec::ClusterState state;
  std::vector<spec::StateChangeRecord> changes;
  ComponentException thrown = ComponentException::None;
};

CallRun callOnGiven(const std::string& call_text) {
  const Scenario s = parseScenario(kScenario + call_text + "\n", "s.scenario");
  EXPECT_TRUE(s.steps.empty());
  EXPECT_EQ(s.calls.size(), 1u);
  CallRun run{spec::givenState(s.config, s.given->world)};
  spec::RecordingObserver observer;
  run.thrown = spec::callComponent(s.config, run.state, s.calls.at(0).call, observer).exception;
  run.changes = observer.record.state_changes;
  return run;
}

TEST(ComponentCall, ControlledShutdownElectionKeepsTheLeaderAndShrinksTheIsr) {
  const CallRun run = callOnGiven("partition-state-machine handle-state-changes t-0 OnlinePartition election controlled-shutdown");
  EXPECT_EQ(run.thrown, ComponentException::None);
  const LeaderAndIsr& lai = run.state.world.zk.topics[0].states[0]->leader_and_isr;
  EXPECT_EQ(lai.leader, 1);
  EXPECT_EQ(lai.isr, (BrokerList{1}));
  EXPECT_EQ(lai.leader_epoch, 1);
  // A LeaderAndIsr to both replicas, the shutting-down one included.
  for (BrokerId b : {1, 2}) {
    const auto& inbox = run.state.world.brokers[static_cast<std::size_t>(b)].inbox;
    ASSERT_FALSE(inbox.empty()) << b;
    EXPECT_EQ(inbox.front().kind, RequestKind::LeaderAndIsr) << b;
  }
  ASSERT_EQ(run.changes.size(), 1u);
  EXPECT_EQ(run.changes[0].outcome, spec::ChangeOutcome::Applied);
}

TEST(ComponentCall, AnInvalidTransitionIsRecordedAndSkipped) {
  // t-1 is NewPartition, which is not a valid previous state of NewPartition (kafka.md §1.4).
  const CallRun run = callOnGiven("partition-state-machine handle-state-changes t-1 NewPartition");
  ASSERT_EQ(run.changes.size(), 1u);
  EXPECT_EQ(run.changes[0].outcome, spec::ChangeOutcome::InvalidTransition);
  EXPECT_EQ(run.state.world.brokers[0].controller.context.partitions[1].state, PartitionState::NewPartition);
}

TEST(ComponentCall, ReplicaStateMachineTakesAReplicaOffline) {
  const CallRun run = callOnGiven("replica-state-machine handle-state-changes 2:t-0 OfflineReplica");
  EXPECT_EQ(run.thrown, ComponentException::None);
  EXPECT_EQ(run.state.world.brokers[0].controller.context.partitions[0].replica_states[2], ReplicaState::OfflineReplica);
  const LeaderAndIsr& lai = run.state.world.zk.topics[0].states[0]->leader_and_isr;
  EXPECT_EQ(lai.isr, (BrokerList{1}));  // removed from the ISR on the way to OfflineReplica (§3.2)
}

TEST(ComponentCall, AFencedWriteThrowsControllerMoved) {
  const Scenario s = parseScenario(kScenario + "partition-state-machine handle-state-changes t-0 OnlinePartition "
                                               "election controlled-shutdown\n",
                                   "s.scenario");
  spec::ClusterState state = spec::givenState(s.config, s.given->world);
  ++state.world.zk.controller_epoch_zk_version;  // another controller wrote /controller_epoch since
  const spec::ClusterState before = state;
  spec::RecordingObserver observer;
  EXPECT_EQ(spec::callComponent(s.config, state, s.calls[0].call, observer).exception, ComponentException::ControllerMoved);
  EXPECT_EQ(state.world.zk, before.world.zk);
}

TEST(ComponentCall, PrintsAndParsesBackInTheirPlaceAmongTheSteps) {
  const std::string text = kScenario +
                           "replica-state-machine handle-state-changes 2:t-1,1:t-0,2:t-0 OfflineReplica\n"
                           "crash 1\n"
                           "partition-state-machine handle-state-changes t-1,t-0 OnlinePartition election offline unclean\n";
  const Scenario s = parseScenario(text, "s.scenario");
  ASSERT_EQ(s.calls.size(), 2u);
  EXPECT_EQ(s.calls[0].after_steps, 0u);
  EXPECT_EQ(s.calls[0].line, 14);
  EXPECT_EQ(s.calls[1].after_steps, 1u);
  // Replicas by broker, then partition.
  EXPECT_EQ(s.calls[0].call.replicas,
            (std::vector<PartitionAndReplica>{{{0, 0}, 1}, {{0, 0}, 2}, {{0, 1}, 2}}));
  const std::string printed = printScenario(s);
  EXPECT_NE(printed.find("replica-state-machine handle-state-changes 1:t-0,2:t-0,2:t-1 OfflineReplica\ncrash 1\n"
                         "partition-state-machine handle-state-changes t-0,t-1 OnlinePartition election offline unclean\n"),
            std::string::npos)
      << printed;
  const Scenario again = parseScenario(printed, "printed.scenario");
  ASSERT_EQ(again.calls.size(), 2u);
  EXPECT_EQ(again.calls[1].call, s.calls[1].call);
  EXPECT_EQ(printScenario(again), printed);
}

TEST(ComponentCall, RejectsBadCallsWithFileAndLine) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"partition-state-machine elect t-0 OnlinePartition", "has one method"},
      {"partition-state-machine handle-state-changes t-0", "expected `partition-state-machine handle-state-changes"},
      {"partition-state-machine handle-state-changes t-0 Online", "unknown partition state `Online`"},
      {"partition-state-machine handle-state-changes t-5 OnlinePartition", "has no partition 5"},
      {"partition-state-machine handle-state-changes u-0 OnlinePartition", "unknown topic `u`"},
      {"partition-state-machine handle-state-changes t-0,t-0 OnlinePartition", "appears twice"},
      {"partition-state-machine handle-state-changes t-0 OnlinePartition election fast", "unknown election `fast`"},
      {"partition-state-machine handle-state-changes t-0 OnlinePartition unclean", "`unclean` goes with `election offline`"},
      {"partition-state-machine handle-state-changes t-0 OnlinePartition extra", "unexpected `extra`"},
      {"replica-state-machine handle-state-changes t-0 OfflineReplica", "bad replica `t-0`"},
      {"replica-state-machine handle-state-changes 7:t-0 OfflineReplica", "broker 7 is not one of the configuration's"},
      {"replica-state-machine handle-state-changes 1:t-0 Offline", "unknown replica state `Offline`"},
  };
  for (const auto& [call, message] : cases) {
    SCOPED_TRACE(call);
    try {
      parseScenario(kScenario + "crash 1\n" + call + "\n", "bad.scenario");
      ADD_FAILURE() << "accepted";
    } catch (const TextError& e) {
      EXPECT_EQ(e.line, 15) << e.what();
      EXPECT_NE(e.message.find(message), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace kcspec
