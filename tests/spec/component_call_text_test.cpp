// The text of every component action (spec/vocabulary/component_call.hpp): each method's canonical
// form parses and prints back to itself, and each kind of mistake is a TextError at its line.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "spec/vocabulary/component_call.hpp"
#include "spec/vocabulary/config_text.hpp"
#include "spec/vocabulary/scenario_text.hpp"

namespace kcspec {
namespace {

const Config& config() {
  static const Config c = parseConfig(
      "brokers 1 2 3 4\n"
      "topic t\n"
      "  partition 0 replicas 1,2\n"
      "  partition 1 replicas 2,3\n"
      "topic u\n"
      "  partition 0 replicas 3,4\n",
      "c.config");
  return c;
}

// One canonical line per method and per shape of arguments.
const std::vector<std::string> kCanonical = {
    "topic-deletion-manager init t,u ineligible u",
    "topic-deletion-manager init none",
    "topic-deletion-manager try-topic-deletion",
    "topic-deletion-manager enqueue-topics-for-deletion t",
    "topic-deletion-manager resume-deletion-for-topics t,u",
    "topic-deletion-manager fail-replica-deletion 1:t-0,2:t-0,2:t-1",
    "topic-deletion-manager complete-replica-deletion 3:u-0",
    "topic-deletion-manager mark-topic-ineligible-for-deletion u",
    "topic-deletion-manager is-topic-queued-up-for-deletion t",
    "elect offline assignment 2,4 isr 2,4 live 4",
    "elect offline assignment 2,4 isr none live 4 unclean",
    "elect reassign target 3,1 isr 1 live 1,3",
    "elect preferred assignment 1,2 isr 2 live 1,2",
    "elect controlled-shutdown assignment 1,2,3 isr 1,2 live-or-shutting-down 1,2,3 shutting-down 1",
    "elect offline partitions t-0,u-0 unclean",
    "elect controlled-shutdown partitions t-1",
    "request-batch send leader-and-isr 2,1 t-0 is-new; stop-replica 3 t-1 delete; update-metadata 1,2,3 t-0,t-1",
    "request-batch send update-metadata none",
    "request-batch send stop-replica 1 t-0",
    "controller-context live-broker-ids",
    "controller-context is-replica-online 2 t-1 include-shutting-down",
    "controller-context is-replica-online 2 t-1",
    "controller-context partition-full-replica-assignment u-0",
    "controller-context replicas-on-brokers 1,3",
    "controller-context replicas-for-partition t-0,u-0",
    "controller-context partitions-in-states NewPartition,OfflinePartition topic t",
    "controller-context partitions-in-states OnlinePartition",
    "controller-context replicas-in-state u ReplicaDeletionIneligible",
    "controller-context partition-leaders-on-broker 4",
    "controller-context offline-partition-count",
    "controller-context offline-partition-count => 3",
    "elect offline partitions t-0 => t-0: leader 2 leader-epoch 5 isr 2 recovery RECOVERING partition-epoch 6 to 2",
    "topic-deletion-manager try-topic-deletion => throws ControllerMovedException",
};

TEST(ComponentCallText, EveryCanonicalFormPrintsBackToItself) {
  for (const std::string& line : kCanonical) {
    SCOPED_TRACE(line);
    ASSERT_TRUE(isComponentCallText(line));
    const ComponentCall call = parseComponentCall(config(), line, "c.scenario", 3);
    EXPECT_EQ(printComponentCall(config(), call), line);
    EXPECT_EQ(parseComponentCall(config(), printComponentCall(config(), call), "again", 1), call);
  }
}

TEST(ComponentCallText, EveryContextGetterHasItsWord) {
  for (const ContextQueryInfo& q : kContextQueries) {
    SCOPED_TRACE(q.name);
    std::string line = "controller-context " + std::string(q.name);
    switch (q.arguments) {
      case QueryArguments::None: break;
      case QueryArguments::Broker: line += " 2"; break;
      case QueryArguments::Brokers: line += " 1,2"; break;
      case QueryArguments::Partition: line += " t-1"; break;
      case QueryArguments::Partitions: line += " t-0,t-1"; break;
      case QueryArguments::Topic: line += " u"; break;
      case QueryArguments::TopicAndReplicaState: line += " u OnlineReplica"; break;
      case QueryArguments::PartitionStates: line += " OfflinePartition"; break;
      case QueryArguments::BrokerAndPartition: line += " 3 u-0"; break;
    }
    const ComponentCall call = parseComponentCall(config(), line, "c.scenario", 1);
    EXPECT_EQ(call.method, ComponentMethod::ControllerContextQuery);
    EXPECT_EQ(call.query, q.query);
    EXPECT_EQ(printComponentCall(config(), call), line);
  }
}

TEST(ComponentCallText, ReadsWhatEachMethodTakes) {
  const ComponentCall batch = parseComponentCall(
      config(), "request-batch send leader-and-isr 2,1 t-0 is-new ;stop-replica 3 t-1 delete;update-metadata none", "c", 1);
  ASSERT_EQ(batch.batch.size(), 3u);
  EXPECT_EQ(batch.batch[0].kind, BatchEntry::Kind::LeaderAndIsr);
  EXPECT_EQ(batch.batch[0].brokers, (BrokerList{2, 1}));  // in the order given
  EXPECT_TRUE(batch.batch[0].flag);
  EXPECT_EQ(batch.batch[1].kind, BatchEntry::Kind::StopReplica);
  EXPECT_TRUE(batch.batch[1].flag);
  EXPECT_TRUE(batch.batch[2].brokers.empty());
  const ComponentCall shutdown = parseComponentCall(
      config(), "elect controlled-shutdown assignment 3,1,2 isr 1,2 live-or-shutting-down 1,2 shutting-down 1", "c", 1);
  EXPECT_EQ(shutdown.method, ComponentMethod::ElectionAlgorithm);
  EXPECT_EQ(shutdown.assignment, (BrokerList{3, 1, 2}));
  EXPECT_EQ(shutdown.live, (BrokerSet{1, 2}));
  EXPECT_EQ(shutdown.shutting_down, (BrokerSet{1}));
  EXPECT_FALSE(needsActiveController(shutdown));
  const ComponentCall leader_for = parseComponentCall(config(), "elect offline partitions u-0,t-1 unclean", "c", 1);
  EXPECT_EQ(leader_for.method, ComponentMethod::ElectionLeaderFor);
  EXPECT_TRUE(leader_for.unclean);
  EXPECT_EQ(leader_for.partitions.size(), 2);
  EXPECT_TRUE(needsActiveController(leader_for));
  const ComponentCall init = parseComponentCall(config(), "topic-deletion-manager init t ineligible t,u", "c", 1);
  EXPECT_EQ(init.method, ComponentMethod::TopicDeletionManagerInit);
  EXPECT_EQ(init.ineligible_topics.size(), 2);
}

TEST(ComponentCallText, RejectsEachMistakeAtItsLine) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"topic-deletion-manager", "expected a method of topic-deletion-manager: init, try-topic-deletion"},
      {"topic-deletion-manager enqueue t", "unknown method `topic-deletion-manager enqueue`"},
      {"topic-deletion-manager enqueue-topics-for-deletion", "expected `topic-deletion-manager enqueue-topics-for-deletion <topic>,…`"},
      {"topic-deletion-manager enqueue-topics-for-deletion none", "at least one topic"},
      {"topic-deletion-manager enqueue-topics-for-deletion v", "unknown topic `v`"},
      {"topic-deletion-manager enqueue-topics-for-deletion t,t", "topic `t` appears twice"},
      {"topic-deletion-manager try-topic-deletion t", "expected `topic-deletion-manager try-topic-deletion`"},
      {"topic-deletion-manager complete-replica-deletion t-0", "bad replica `t-0`"},
      {"topic-deletion-manager init t eligible u", "expected `topic-deletion-manager init <topic>,…|none [ineligible"},
      {"topic-deletion-manager is-topic-queued-up-for-deletion t,u", "unknown topic `t,u`"},
      {"elect offline", "expected `elect offline|reassign|preferred|controlled-shutdown partitions"},
      {"elect fastest partitions t-0", "unknown election `fastest`"},
      {"elect preferred partitions t-0 unclean", "`unclean` goes with `elect offline` only"},
      {"elect reassign assignment 1,2 isr 1 live 1", "expected `target` where `assignment` is"},
      {"elect offline assignment 1,1 isr 1 live 1", "broker 1 appears twice"},
      {"elect offline assignment 1,2 isr 1 live", "expected `elect"},
      {"elect controlled-shutdown assignment 1 isr 1 live 1 shutting-down 1", "expected `live-or-shutting-down`"},
      {"elect offline partitions t-9", "has no partition 9"},
      {"request-batch", "expected `request-batch send <entry>; <entry>; …`"},
      {"request-batch flush update-metadata 1", "expected `request-batch send"},
      {"request-batch send leader-and-isr 1 t-0 delete", "expected `leader-and-isr <b>,… <t>-<p> [is-new]`"},
      {"request-batch send stop-replica none t-0", "`stop-replica` needs at least one broker"},
      {"request-batch send update-metadata 5", "broker 5 is not one of the configuration's"},
      {"request-batch send fetch 1 t-0", "unknown batch entry `fetch`"},
      {"request-batch send update-metadata 1;; update-metadata 2", "an empty entry"},
      {"request-batch send update-metadata 1;", "an empty entry"},
      {"controller-context", "expected a getter of controller-context: live-broker-ids"},
      {"controller-context partitionsOnBroker 1", "unknown getter `controller-context partitionsOnBroker`"},
      {"controller-context partitions-on-broker", "expected `controller-context partitions-on-broker <broker>`"},
      {"controller-context partitions-on-broker 5", "broker 5 is not one of the configuration's"},
      {"controller-context replicas-in-state t Deleted", "unknown replica state `Deleted`"},
      {"controller-context partitions-in-states OnlinePartition,OnlinePartition", "state `OnlinePartition` appears twice"},
      {"controller-context partitions-in-states OnlinePartition for t", "[topic <topic>]"},
      {"controller-context is-replica-online 1 t-0 shutting-down", "[include-shutting-down]"},
      {"controller-context offline-partition-count =>", "expected the result after `=>`"},
      {"controller-context offline-partition-count => 1 => 2", "`=>` appears twice"},
      {"controller-context offline-partition-count 1 => 2", "expected `controller-context offline-partition-count`"},
  };
  const std::string header = "# kcspec scenario v1\nbrokers 1 2 3 4\ntopic t\n  partition 0 replicas 1,2\n"
                             "topic u\n  partition 0 replicas 3,4\nsteps\nelect-controller 1\n";  // line 8
  for (const auto& [call, message] : cases) {
    SCOPED_TRACE(call);
    try {
      parseScenario(header + call + "\n", "bad.scenario");
      ADD_FAILURE() << "accepted";
    } catch (const TextError& e) {
      EXPECT_EQ(e.file, "bad.scenario");
      EXPECT_EQ(e.line, 9) << e.what();
      EXPECT_NE(e.message.find(message), std::string::npos) << e.what();
    }
  }
}

TEST(ComponentCallText, AStatedResultIsKeptAndComparedAsText) {
  const ComponentCall call = parseComponentCall(config(), "elect preferred   assignment 1,2 isr 2 live 1,2  =>  leader   none", "c", 1);
  ASSERT_TRUE(call.expected.has_value());
  EXPECT_EQ(*call.expected, "leader none");  // words joined by one space, as answers are printed
  EXPECT_EQ(printComponentCall(config(), call), "elect preferred assignment 1,2 isr 2 live 1,2 => leader none");
  ComponentResult result;
  EXPECT_EQ(resultText(config(), result), "done");
  result.answer.kind = ComponentAnswer::Kind::Leader;
  EXPECT_EQ(resultText(config(), result), "leader none");
  result.exception = ComponentException::Other;
  EXPECT_EQ(resultText(config(), result), "throws KafkaException");  // the exception wins over an answer
}

TEST(ComponentCallText, PrintsEachKindOfAnswer) {
  ComponentAnswer a;
  EXPECT_EQ(printComponentAnswer(config(), a), "");
  a.kind = ComponentAnswer::Kind::Boolean;
  a.boolean = true;
  EXPECT_EQ(printComponentAnswer(config(), a), "true");
  a.kind = ComponentAnswer::Kind::Leader;
  EXPECT_EQ(printComponentAnswer(config(), a), "leader none");
  a.leader = 4;
  EXPECT_EQ(printComponentAnswer(config(), a), "leader 4");
  a.kind = ComponentAnswer::Kind::Replicas;
  a.replicas = {{{0, 0}, 2}, {{1, 0}, 3}};
  EXPECT_EQ(printComponentAnswer(config(), a), "replicas 2:t-0,3:u-0");
  a.kind = ComponentAnswer::Kind::Elections;
  ElectionAnswer elected{{0, 0}, true, LeaderAndIsr{2, 4, LeaderRecoveryState::RECOVERING, {2}, 7}, {1, 2}};
  ElectionAnswer none{{0, 1}, true, std::nullopt, {}};
  ElectionAnswer no_znode{{1, 0}, false, std::nullopt, {}};
  a.elections = {elected, none, no_znode};
  EXPECT_EQ(printComponentAnswer(config(), a),
            "t-0: leader 2 leader-epoch 4 isr 2 recovery RECOVERING partition-epoch 7 to 1,2; t-1: none to none; "
            "u-0: no state znode");
}

}  // namespace
}  // namespace kcspec
