// The `given` section of scenarios (spec/vocabulary/given_text.hpp): its statements, what it
// derives, its rules G1–G9 and its errors.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "spec/rules/step.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/observation_json.hpp"
#include "spec/vocabulary/observation_text.hpp"
#include "spec/vocabulary/scenario_text.hpp"

namespace kcspec {
namespace {

// Lines 1–6; a given section starts on line 7.
const std::string kConfig =
    "# kcspec scenario v1\n"
    "brokers 1 2 3\n"
    "topic t\n"
    "  partition 0 replicas 1,2,3\n"
    "topic u\n"
    "  partition 0 replicas 2,3\n";

Scenario withGiven(const std::string& given, const std::string& steps = "") {
  return parseScenario(kConfig + given + "steps\n" + steps, "given.scenario");
}

std::string rendered(const Config& config, const Observation& world) { return renderObservationText(config, world); }

// The derived world equals the one a history reaches: a controller elected on 2, both topics
// created and every request delivered (the derivation's "every live broker has received what the
// controller sent").
TEST(GivenSection, DerivesTheWorldAHistoryReaches) {
  const Scenario stated = withGiven(
      "given\n"
      "controller 2\n"
      "broker 1 alive\n"
      "broker 2 alive\n"
      "broker 3 alive\n"
      "topic t\n"
      "topic u\n");
  ASSERT_TRUE(stated.given.has_value());
  Config config = stated.config;
  config.brokers_alive_at_start = BrokerSet{1, 2, 3};
  config.bounds.topic_creations = 2;
  spec::ClusterState state = spec::initialState(config);
  const auto step = [&](std::string_view text) {
    const Action action = parseAction(config, text, "history", 1);
    ASSERT_TRUE(spec::isEnabled(config, state, action)) << text;
    state = spec::next(config, state, action);
  };
  step("elect-controller 2");
  step("process-event 2");  // the failover's ReplicaLeaderElection(ZkTriggered): no znode, nothing to do
  step("create-topic t");
  step("create-topic u");
  step("process-event 2");  // one TopicChange for both (the watch coalesces)
  ASSERT_TRUE(state.world.brokers[2].controller.events.empty());
  for (int rounds = 0; rounds < 64; ++rounds) {  // every request delivered; bounded by the queues' sizes
    bool delivered = false;
    for (BrokerId b : {1, 2, 3}) {
      if (!state.world.brokers[static_cast<std::size_t>(b)].inbox.empty()) {
        step("deliver-request " + std::to_string(b));
        delivered = true;
      }
    }
    if (!delivered) break;
  }
  EXPECT_EQ(rendered(config, stated.given->world), rendered(config, state.world));
  EXPECT_EQ(stated.given->world, state.world);
}

TEST(GivenSection, StatesLeadershipEpochsAndShuttingDownBrokers) {
  const Scenario s = withGiven(
      "given\n"
      "controller 1 epoch 3\n"
      "broker 1 alive epoch 10\n"
      "broker 2 shutting-down\n"
      "broker 3 alive\n"
      "partition t-0 leader 2 isr 2,3 leader-epoch 4 partition-epoch 7\n"
      "replica 3 t-0 OfflineReplica\n");
  const Observation& w = s.given->world;
  EXPECT_EQ(w.zk.controller, 1);
  EXPECT_EQ(w.zk.controller_epoch, 3);
  EXPECT_EQ(w.zk.controller_epoch_zk_version, 3);
  // Unstated epochs are the next unused ones from 1, in broker order.
  EXPECT_EQ(w.zk.brokers[1].broker_epoch, 10);
  EXPECT_EQ(w.zk.brokers[2].broker_epoch, 1);
  EXPECT_EQ(w.zk.brokers[3].broker_epoch, 2);
  EXPECT_EQ(w.zk.last_zxid, 10);
  const auto& znode = w.zk.topics[0].states[0];
  ASSERT_TRUE(znode.has_value());
  EXPECT_EQ(znode->leader_and_isr.leader, 2);
  EXPECT_EQ(znode->leader_and_isr.isr, (BrokerList{2, 3}));
  EXPECT_EQ(znode->leader_and_isr.leader_epoch, 4);
  EXPECT_EQ(znode->leader_and_isr.partition_epoch, 7);
  EXPECT_EQ(znode->controller_epoch, 3);
  // Topic u is not stated: it does not exist.
  EXPECT_FALSE(w.zk.topics[1].exists);
  const ControllerContextData& context = w.brokers[1].controller.context;
  EXPECT_TRUE(w.brokers[1].controller.active);
  EXPECT_EQ(context.shutting_down_broker_ids, (BrokerSet{2}));
  EXPECT_EQ(context.partitions[0].state, PartitionState::OnlinePartition);
  EXPECT_EQ(context.partitions[0].replica_states[1], ReplicaState::OnlineReplica);
  EXPECT_EQ(context.partitions[0].replica_states[2], ReplicaState::OnlineReplica);
  EXPECT_EQ(context.partitions[0].replica_states[3], ReplicaState::OfflineReplica);  // stated
  // Brokers see the leadership; a shutting-down broker's replica is offline in the metadata.
  ASSERT_TRUE(w.brokers[3].metadata_cache[0].has_value());
  EXPECT_EQ(w.brokers[3].metadata_cache[0]->offline_replicas, (BrokerList{2}));
  EXPECT_TRUE(w.brokers[2].replicas[0].is_leader);
  EXPECT_EQ(w.brokers[2].replicas[0].isr, (BrokerList{2, 3}));
  EXPECT_FALSE(w.brokers[3].replicas[0].is_leader);
  EXPECT_EQ(w.brokers[3].replicas[0].leader_epoch, 4);
}

struct Rejected {
  std::string what;
  std::string given;  // the section, from line 7
  int line;
  std::string message;
};

void expectRejected(const Rejected& input) {
  SCOPED_TRACE(input.what);
  try {
    parseScenario(kConfig + input.given, "bad.scenario");
    ADD_FAILURE() << "accepted: " << input.what;
  } catch (const TextError& e) {
    EXPECT_EQ(e.file, "bad.scenario");
    EXPECT_EQ(e.line, input.line) << e.what();
    EXPECT_NE(e.message.find(input.message), std::string::npos) << e.what();
  }
}

const std::string kLive = "given\ncontroller 1\nbroker 1 alive\nbroker 2 alive\nbroker 3 alive\n";  // lines 7–11

TEST(GivenSection, RejectsAWorldThatBreaksARuleAtTheLineThatBreaksIt) {
  const std::vector<Rejected> cases = {
      {"leader outside the assignment", kLive + "partition u-0 leader 1 isr 1\nsteps\n", 12, "breaks G1"},
      {"ISR member not a replica", kLive + "partition u-0 leader 2 isr 2,1\nsteps\n", 12, "breaks G2"},
      {"leader outside the ISR", kLive + "partition t-0 leader 1 isr 2,3\nsteps\n", 12, "breaks G3"},
      {"replica state of a broker that is not a replica", kLive + "replica 1 u-0 OnlineReplica\nsteps\n", 12, "breaks G4"},
      {"online partition with an offline leader", kLive + "replica 2 u-0 OfflineReplica\nsteps\n", 12, "breaks G5"},
      {"online partition without a live leader", "given\ncontroller 1\nbroker 1 alive\npartition u-0 state OnlinePartition\nsteps\n", 10, "breaks G5"},
      {"online replica on a dead broker", "given\ncontroller 1\nbroker 1 alive\nbroker 2 alive\nreplica 3 t-0 OnlineReplica\nsteps\n", 11, "breaks G6"},
      {"deletion state outside a deletion", kLive + "replica 3 u-0 ReplicaDeletionStarted\nsteps\n", 12, "breaks G7"},
      {"deletion started but not to be deleted", kLive + "topic t deletion-started\nsteps\n", 12, "breaks G8"},
      {"dead controller", "given\ncontroller 1\nbroker 2 alive\nsteps\n", 8, "breaks G9"},
      {"shared broker epochs", "given\nbroker 1 alive epoch 4\nbroker 2 alive epoch 4\nsteps\n", 9, "breaks G9"},
  };
  for (const Rejected& input : cases) expectRejected(input);
}

TEST(GivenSection, UncheckedKeepsTheBrokenRulesAndGoesOn) {
  const Scenario s = parseScenario(kConfig + "given unchecked\ncontroller 1\nbroker 1 alive\nbroker 2 alive\n"
                                             "partition t-0 leader 1 isr none\nsteps\n",
                                   "s.scenario");
  ASSERT_TRUE(s.given.has_value());
  EXPECT_TRUE(s.given->unchecked);
  ASSERT_EQ(s.given->breaks.size(), 1u);
  EXPECT_EQ(s.given->breaks[0].rule, "G3");
  EXPECT_EQ(s.given->breaks[0].line, 11);
  EXPECT_TRUE(s.given->world.zk.topics[0].states[0]->leader_and_isr.isr.empty());
}

TEST(GivenSection, RejectsBadStatementsWithFileAndLine) {
  const std::vector<Rejected> cases = {
      {"unknown statement", "given\nleader t-0 1\nsteps\n", 8, "unknown given statement `leader`"},
      {"unknown partition state", "given\npartition t-0 state Online\nsteps\n", 8, "unknown partition state `Online`"},
      {"unknown replica state", "given\nreplica 1 t-0 Online\nsteps\n", 8, "unknown replica state `Online`"},
      {"broker outside the configuration", "given\nbroker 5 alive\nsteps\n", 8, "broker 5 is not one of the configuration's"},
      {"unknown topic", "given\ntopic v\nsteps\n", 8, "unknown topic `v`"},
      {"partition the topic lacks", "given\npartition t-3\nsteps\n", 8, "has no partition 3"},
      {"unknown partition field", "given\npartition t-0 leeder 1\nsteps\n", 8, "unknown partition field `leeder`"},
      {"field without a value", "given\npartition t-0 leader\nsteps\n", 8, "`leader` needs a value"},
      {"field twice", "given\npartition t-0 leader 1 leader 2\nsteps\n", 8, "`leader` appears twice"},
      {"a broker stated twice", "given\nbroker 1 alive\nbroker 1 shutting-down\nsteps\n", 9, "already stated on line 8"},
      {"a second controller", "given\ncontroller 1\ncontroller 2\nsteps\n", 9, "a second `controller`"},
      {"bad broker state", "given\nbroker 1 dead\nsteps\n", 8, "expected `broker <id> alive|shutting-down"},
      {"epoch 0", "given\nbroker 1 alive epoch 0\nsteps\n", 8, "at least 1"},
      {"unknown topic flag", "given\ntopic t deleting\nsteps\n", 8, "unknown topic flag `deleting`"},
      {"reassign-partitions without a target", "given\nreassign-partitions t-0\nsteps\n", 8,
       "expected `reassign-partitions invalid-json` or"},
      {"reassign-partitions listing a partition twice", "given\nreassign-partitions t-0 1,2 t-0 2,3\nsteps\n", 8,
       "partition t-0 is listed twice"},
      {"reassign-partitions with an unknown broker", "given\nreassign-partitions t-0 1,9\nsteps\n", 8, "9"},
      {"reassign-partitions stated twice", "given\nreassign-partitions invalid-json\nreassign-partitions t-0 1,2\nsteps\n",
       9, "/admin/reassign_partitions is already stated on line 8"},
      {"preferred-replica-election without partitions", "given\npreferred-replica-election\nsteps\n", 8,
       "expected `preferred-replica-election <topic>-<p>"},
      {"preferred-replica-election of an unknown topic", "given\npreferred-replica-election v-0\nsteps\n", 8,
       "unknown topic `v`"},
      {"unknown given argument", "given checked\nsteps\n", 7, "`given` takes `json` and `unchecked`"},
      {"a second given", "given\ngiven\nsteps\n", 8, "a second `given` line"},
      {"given after steps", "steps\nelect-controller 1\ngiven\n", 9, "a `given` section comes before `steps`"},
      {"no steps line", "given\nbroker 1 alive\n", 8, "no `steps` line"},
      {"json that is not JSON", "given json\n{\"zookeeper\":\n  [\nsteps\n", 9, "not JSON"},
      {"json with an unknown member", "given json\n{\"zookeper\": {}}\nsteps\n", 7, "zookeper"},
      {"json naming a broker the configuration lacks", "given json\n{\"brokers\": {\"5\": {\"alive\": true}}}\nsteps\n", 7,
       "broker 5 is not one of the configuration's brokers"},
  };
  for (const Rejected& input : cases) expectRejected(input);
}

TEST(GivenSection, PrintsAndParsesBackToTheSameScenario) {
  const Scenario s = withGiven("given unchecked\ncontroller 1 epoch 2   # a comment stays\nbroker 1 alive\n"
                               "partition t-0 leader 1 isr 1\n",
                               "crash 1\n");
  const std::string printed = printScenario(s);
  const Scenario again = parseScenario(printed, "printed.scenario");
  ASSERT_TRUE(again.given.has_value());
  EXPECT_EQ(again.given->world, s.given->world);
  EXPECT_EQ(again.given->unchecked, s.given->unchecked);
  EXPECT_EQ(again.steps, s.steps);
  EXPECT_EQ(printScenario(again), printed);
}

// The legacy admin znodes as statements: what they list, and nothing derived from them.
TEST(GivenSection, StatesTheLegacyAdminZnodes) {
  const Scenario s = withGiven("given\ncontroller 1\nbroker 1 alive\nbroker 2 alive\n"
                               "reassign-partitions t-0 2,1 u-0 3,2\npreferred-replica-election t-0 u-0\n");
  const ZooKeeperData& zk = s.given->world.zk;
  EXPECT_TRUE(zk.reassign_partitions.exists);
  EXPECT_FALSE(zk.reassign_partitions.invalid_json);
  EXPECT_EQ(zk.reassign_partitions.partitions, (PartitionSet{TopicPartition{0, 0}, TopicPartition{1, 0}}));
  EXPECT_EQ(zk.reassign_partitions.targets[static_cast<std::size_t>(partitionIndex({0, 0}))], (BrokerList{2, 1}));
  EXPECT_EQ(zk.reassign_partitions.targets[static_cast<std::size_t>(partitionIndex({1, 0}))], (BrokerList{3, 2}));
  EXPECT_EQ(zk.preferred_replica_election,
            (PreferredReplicaElectionZnode{.exists = true, .partitions = PartitionSet{TopicPartition{0, 0}, TopicPartition{1, 0}}}));
  EXPECT_FALSE(zk.topics[1].exists) << "naming u-0 in a znode does not create u";
  const Scenario invalid = withGiven("given\nreassign-partitions invalid-json\n");
  EXPECT_EQ(invalid.given->world.zk.reassign_partitions, (ReassignPartitionsZnode{.exists = true, .invalid_json = true}));
  // And through JSON, as traces and the driver protocol carry them.
  const Scenario json = withGiven("given json\n" + observationJson(s.given->world).dump() + "\n");
  EXPECT_EQ(json.given->world.zk, zk);
}

// `given json`: any observation, as the driver protocol and traces carry it, with nothing derived.
TEST(GivenSection, JsonStatesAnyWorldAsItIs) {
  const Scenario reached = withGiven("given\ncontroller 2 epoch 5\nbroker 1 alive\nbroker 2 alive\nbroker 3 shutting-down\n"
                                     "topic t to-be-deleted\npartition u-0 leader 3 isr 3,2\n");
  Observation world = reached.given->world;
  world.brokers[1].inbox.push_back(ControlRequest{});  // a request in flight no statement can say
  const std::string json = observationJson(world).dump(2);
  const Scenario s = withGiven("given json\n" + json + "\n");
  ASSERT_TRUE(s.given.has_value());
  EXPECT_TRUE(s.given->json);
  EXPECT_EQ(s.given->world, world);
  EXPECT_EQ(parseScenario(printScenario(s), "printed.scenario").given->world, world);
}

// The steps run from the given world: Kafka's controlled shutdown of a leader moves leadership to
// the other ISR member with the leader epoch and partition epoch one higher (kafka.md §5.5).
TEST(GivenSection, StepsStartFromTheGivenWorld) {
  Scenario s = parseScenario(kConfig + "bound controlled-shutdowns 1\ngiven\ncontroller 1 epoch 3\nbroker 1 alive\n"
                                       "broker 2 alive\nbroker 3 alive\npartition u-0 leader 3 isr 2,3 leader-epoch 4 "
                                       "partition-epoch 7\nsteps\ncontrolled-shutdown 3\nprocess-event 1\n",
                             "s.scenario");
  spec::ClusterState state = spec::givenState(s.config, s.given->world);
  for (const Action& action : s.steps) {
    ASSERT_TRUE(spec::isEnabled(s.config, state, action)) << printAction(s.config, action);
    state = spec::next(s.config, state, action);
  }
  const auto& znode = state.world.zk.topics[1].states[0];
  ASSERT_TRUE(znode.has_value());
  EXPECT_EQ(znode->leader_and_isr.leader, 2);
  EXPECT_EQ(znode->leader_and_isr.isr, (BrokerList{2}));
  EXPECT_EQ(znode->leader_and_isr.leader_epoch, 5);
  EXPECT_EQ(znode->leader_and_isr.partition_epoch, 8);
}

}  // namespace
}  // namespace kcspec
