// The text formats of spec/vocabulary: configurations, actions, scenarios, presets, and
// observations with their differences. Round trips, every kind of bad input (with its exact
// file:line), the presets' promises, and diffs along real runs of the spec.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "spec/rules/step.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/config_text.hpp"
#include "spec/vocabulary/observation_text.hpp"
#include "spec/vocabulary/presets.hpp"
#include "spec/vocabulary/scenario_text.hpp"

namespace kcspec {
namespace {

// Config has no operator== on purpose (only the tests compare configurations).
void expectSameConfig(const Config& a, const Config& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.brokers, b.brokers);
  EXPECT_EQ(a.brokers_alive_at_start, b.brokers_alive_at_start);
  EXPECT_EQ(a.delete_topic_enable, b.delete_topic_enable);
  EXPECT_EQ(a.auto_leader_rebalance_enable, b.auto_leader_rebalance_enable);
  EXPECT_EQ(a.inter_broker_protocol_version, b.inter_broker_protocol_version);
  EXPECT_EQ(a.upgrade_inter_broker_protocol_version, b.upgrade_inter_broker_protocol_version);
  ASSERT_EQ(a.topics.size(), b.topics.size());
  for (std::size_t t = 0; t < a.topics.size(); ++t) {
    SCOPED_TRACE("topic " + a.topics[t].name);
    EXPECT_EQ(a.topics[t].name, b.topics[t].name);
    EXPECT_EQ(a.topics[t].assignment, b.topics[t].assignment);
    EXPECT_EQ(a.topics[t].added_partitions, b.topics[t].added_partitions);
    EXPECT_EQ(a.topics[t].reassignment_targets, b.topics[t].reassignment_targets);
    EXPECT_EQ(a.topics[t].unclean_leader_election_enable, b.topics[t].unclean_leader_election_enable);
    EXPECT_EQ(a.topics[t].exists_at_start, b.topics[t].exists_at_start);
  }
  Bounds x = a.bounds, y = b.bounds;
  for (std::size_t i = 0; i < kBoundNames.size(); ++i) EXPECT_EQ(*boundField(x, i), *boundField(y, i)) << kBoundNames[i];
  EXPECT_EQ(a.bounds.perturbations, b.bounds.perturbations);
}

// The example of the format's documentation.
constexpr std::string_view kExample = R"(name example
brokers 1 2 3                 # every broker that may ever register (ids 0..7)
alive-at-start 1 2 3
delete.topic.enable true
auto.leader.rebalance.enable false
topic t                       # following lines belong to topic t until the next `topic`
  partition 0 replicas 1,2    # partitions numbered 0,1,2… in order
  add-partition replicas 3,1  # appended by add-partitions, in order
  reassign 0 to 2,3           # a target `reassign` may move partition 0 to
  unclean.leader.election.enable true
  exists-at-start true
topic other.topic_2-x
partition 0 replicas 3
partition 1 replicas 2,1,3
bound crashes 1               # every name of kBoundNames; unlisted bounds are 0
bound isr-shrinks 4
)";

// ---- configurations -----------------------------------------------------------------------------

TEST(ConfigText, ParsesTheDocumentedExample) {
  const Config c = parseConfig(kExample, "example.conf");
  EXPECT_EQ(c.name, "example");
  EXPECT_EQ(c.brokers, (BrokerSet{1, 2, 3}));
  EXPECT_EQ(c.brokers_alive_at_start, (BrokerSet{1, 2, 3}));
  EXPECT_TRUE(c.delete_topic_enable);
  EXPECT_FALSE(c.auto_leader_rebalance_enable);
  ASSERT_EQ(c.topics.size(), 2u);
  const TopicConfig& t = c.topics[0];
  EXPECT_EQ(t.name, "t");
  EXPECT_EQ(t.assignment, (std::vector<BrokerList>{{1, 2}}));
  EXPECT_EQ(t.added_partitions, (std::vector<BrokerList>{{3, 1}}));
  ASSERT_EQ(t.reassignment_targets.size(), 1u);
  EXPECT_EQ(t.reassignment_targets[0].first, 0);
  EXPECT_EQ(t.reassignment_targets[0].second, (BrokerList{2, 3}));
  EXPECT_TRUE(t.unclean_leader_election_enable);
  EXPECT_TRUE(t.exists_at_start);
  const TopicConfig& u = c.topics[1];
  EXPECT_EQ(u.name, "other.topic_2-x");
  EXPECT_EQ(u.assignment, (std::vector<BrokerList>{{3}, {2, 1, 3}}));
  EXPECT_FALSE(u.unclean_leader_election_enable);
  EXPECT_FALSE(u.exists_at_start);
  EXPECT_EQ(c.bounds.crashes, 1);
  EXPECT_EQ(c.bounds.isr_shrinks, 4);
  EXPECT_EQ(c.bounds.controller_failovers, 0);  // unlisted bounds are 0
  EXPECT_EQ(c.topicNamed("other.topic_2-x"), 1);
}

// `two-perturbations` is built from `default`'s text: the same configuration but its name and an
// overall bound of two.
TEST(ConfigText, TheTwoPerturbationsPresetIsDefaultWithAnOverallBoundOfTwo) {
  const Config three = *preset("default");
  Config two = *preset("two-perturbations");
  EXPECT_EQ(two.name, "two-perturbations");
  EXPECT_EQ(three.bounds.perturbations, 3);
  EXPECT_EQ(two.bounds.perturbations, 2);
  two.name = three.name;
  two.bounds.perturbations = three.bounds.perturbations;
  EXPECT_EQ(printConfig(two), printConfig(three));
}

TEST(ConfigText, DefaultsWhenStatementsAreLeftOut) {
  const Config c = parseConfig("brokers 0\ntopic t\npartition 0 replicas 0\n", "min.conf");
  EXPECT_EQ(c.name, "unnamed");
  EXPECT_TRUE(c.brokers_alive_at_start.empty());
  EXPECT_TRUE(c.delete_topic_enable);
  EXPECT_FALSE(c.auto_leader_rebalance_enable);
  EXPECT_EQ(c.inter_broker_protocol_version, MetadataVersion::IBP_3_8_IV0);
  Bounds b = c.bounds;
  for (std::size_t i = 0; i < kBoundNames.size(); ++i) EXPECT_EQ(*boundField(b, i), 0);
}

TEST(ConfigText, TheOverallBoundIsOptionalAndPrintedOnlyWhenSet) {
  const Config without = parseConfig("brokers 0\nbound crashes 2\n", "a.conf");
  EXPECT_EQ(without.bounds.perturbations, kAnyNumberOfPerturbations);
  EXPECT_EQ(printConfig(without).find("perturbations"), std::string::npos);
  const Config with = parseConfig("brokers 0\nbound crashes 2\nbound perturbations 1\n", "b.conf");
  EXPECT_EQ(with.bounds.perturbations, 1);
  EXPECT_EQ(with.bounds.crashes, 2);
  const std::string printed = printConfig(with);
  EXPECT_TRUE(printed.ends_with("bound log-dir-failures 0\nbound zk-connection-losses 0\nbound broker-session-losses 0\nbound perturbations 1\n")) << printed;
  expectSameConfig(with, parseConfig(printed, "printed.conf"));
  EXPECT_EQ(parseConfig("brokers 0\nbound perturbations 0\n", "c.conf").bounds.perturbations, 0);
}

TEST(ConfigText, TheProtocolVersionIsPrintedWhenNotTheDefault) {
  const Config old = parseConfig("brokers 0\ninter.broker.protocol.version 2.7.1\n", "a.conf");
  EXPECT_EQ(old.inter_broker_protocol_version, MetadataVersion::IBP_2_7_IV2);
  const std::string printed = printConfig(old);
  EXPECT_NE(printed.find("\ninter.broker.protocol.version 2.7-IV2\n"), std::string::npos) << printed;
  expectSameConfig(old, parseConfig(printed, "printed.conf"));
  const Config latest = parseConfig("brokers 0\ninter.broker.protocol.version 3.8\n", "b.conf");
  EXPECT_EQ(printConfig(latest).find("inter.broker.protocol.version"), std::string::npos);
}

TEST(ConfigText, ARollingUpgradeIsPrintedWithItsBound) {
  const Config c = parseConfig("brokers 0\ninter.broker.protocol.version 2.4\nupgrade inter.broker.protocol.version 3.8\n"
                               "bound ibp-upgrades 1\n",
                               "a.conf");
  EXPECT_EQ(c.upgrade_inter_broker_protocol_version, MetadataVersion::IBP_3_8_IV0);
  EXPECT_EQ(c.bounds.ibp_upgrades, 1);
  const std::string printed = printConfig(c);
  EXPECT_NE(printed.find("\nupgrade inter.broker.protocol.version 3.8-IV0\n"), std::string::npos) << printed;
  EXPECT_NE(printed.find("\nbound ibp-upgrades 1\n"), std::string::npos) << printed;
  expectSameConfig(c, parseConfig(printed, "printed.conf"));
  // Without an upgrade neither line is printed: texts from before read as they did.
  const std::string plain = printConfig(parseConfig("brokers 0\n", "b.conf"));
  EXPECT_EQ(plain.find("upgrade"), std::string::npos) << plain;
}

TEST(ConfigText, PrintThenParseGivesTheSameConfig) {
  const Config c = parseConfig(kExample, "example.conf");
  const std::string printed = printConfig(c);
  const Config again = parseConfig(printed, "printed.conf");
  expectSameConfig(c, again);
  EXPECT_EQ(printConfig(again), printed);  // canonical: printing is a fixed point
}

TEST(ConfigText, CanonicalFormSpellsEverythingOut) {
  EXPECT_EQ(printConfig(parseConfig("name n\nbrokers 3 1\nalive-at-start 3\ndelete.topic.enable false\n"
                                    "topic t\npartition 0 replicas 3,1\nadd-partition replicas 1\nreassign 1 to 3\n"
                                    "bound stop-replica-errors 2\nbound auto-rebalances 0\n",
                                    "x")),
            "name n\n"
            "brokers 1 3\n"
            "alive-at-start 3\n"
            "delete.topic.enable false\n"
            "auto.leader.rebalance.enable false\n"
            "topic t\n"
            "  partition 0 replicas 3,1\n"
            "  add-partition replicas 1\n"
            "  reassign 1 to 3\n"
            "  unclean.leader.election.enable false\n"
            "  exists-at-start false\n"
            "bound crashes 0\n"
            "bound controlled-shutdowns 0\n"
            "bound controller-failovers 0\n"
            "bound topic-creations 0\n"
            "bound topic-deletions 0\n"
            "bound partition-additions 0\n"
            "bound reassignments 0\n"
            "bound preferred-elections 0\n"
            "bound unclean-elections 0\n"
            "bound isr-shrinks 0\n"
            "bound stop-replica-errors 2\nbound auto-rebalances 0\nbound zk-reassignments 0\n"
            "bound zk-preferred-elections 0\n"
            "bound log-dir-failures 0\n"
            "bound zk-connection-losses 0\n"
            "bound broker-session-losses 0\n");
}

TEST(ConfigText, AcceptsCrLfTabsAndUtf8Comments) {
  const Config c = parseConfig("brokers\t1 2\r\n# réplicas → brokers\r\ntopic t\r\n\tpartition 0 replicas 1,2\r\n", "crlf");
  EXPECT_EQ(c.brokers, (BrokerSet{1, 2}));
  EXPECT_EQ(c.topics.at(0).assignment.at(0), (BrokerList{1, 2}));
}

// A message that quotes its input (a bad action, a name) cannot send escape codes to a terminal.
TEST(TextError, ControlCharactersAreEscaped) {
  const TextError e("in\x1b.txt", 2, "bad number `\x1b[31m1` \xc2\x9b" "and\ttab");
  EXPECT_EQ(std::string(e.what()), "in\\x1b.txt:2: bad number `\\x1b[31m1` \\u009band\ttab");
  EXPECT_EQ(e.message, "bad number `\\x1b[31m1` \\u009band\ttab");
  EXPECT_EQ(escapedControls("plain UTF-8 caf\xc3\xa9"), "plain UTF-8 caf\xc3\xa9");
}

TEST(TextError, WhatIsFileLineMessage) {
  const TextError e("a.conf", 7, "something is wrong");
  EXPECT_STREQ(e.what(), "a.conf:7: something is wrong");
  EXPECT_EQ(e.file, "a.conf");
  EXPECT_EQ(e.line, 7);
  EXPECT_EQ(e.message, "something is wrong");
}

struct BadInput {
  std::string what;     // the kind of mistake
  std::string text;
  int line;             // where it must be reported
  std::string message;  // a part of the message
};

// Expects `parse` to throw TextError at file "bad.txt", `input.line`, with `input.message` in it.
template <class Parse>
void expectRejected(const BadInput& input, Parse parse) {
  SCOPED_TRACE(input.what);
  try {
    parse(input.text);
    ADD_FAILURE() << "accepted: " << input.what;
  } catch (const TextError& e) {
    EXPECT_EQ(e.file, "bad.txt");
    EXPECT_EQ(e.line, input.line) << e.what();
    EXPECT_NE(e.message.find(input.message), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("bad.txt:" + std::to_string(input.line) + ": ", 0), 0u) << e.what();
  }
}

const std::string kHead = "brokers 1 2 3\ntopic t\n  partition 0 replicas 1,2\n";  // lines 1–3

std::vector<BadInput> badConfigs() {
  std::vector<BadInput> cases = {
      {"unknown statement", kHead + "brokrs 1\n", 4, "unknown statement `brokrs`"},
      {"wrong arity, flag", kHead + "delete.topic.enable\n", 4, "wrong number of arguments"},
      {"unknown protocol version", kHead + "inter.broker.protocol.version 3.9-IV0\n", 4,
       "inter.broker.protocol.version `3.9-IV0` is not a valid version"},
      {"protocol version with a trailing dot", kHead + "inter.broker.protocol.version 2.7.\n", 4, "`2.7.`"},
      {"protocol version twice", kHead + "inter.broker.protocol.version 2.7\ninter.broker.protocol.version 2.8\n", 5,
       "inter.broker.protocol.version"},
      {"wrong arity, protocol version", kHead + "inter.broker.protocol.version\n", 4, "wrong number of arguments"},
      {"unknown upgrade version", kHead + "upgrade inter.broker.protocol.version 4.0\n", 4,
       "upgrade inter.broker.protocol.version `4.0` is not a valid version"},
      {"upgrade of another setting", kHead + "upgrade log.message.format.version 3.8\n", 4,
       "expected `upgrade inter.broker.protocol.version <version>`"},
      {"upgrade twice", kHead + "upgrade inter.broker.protocol.version 3.8\nupgrade inter.broker.protocol.version 3.7\n",
       5, "`upgrade` is given twice (first at line 4)"},
      {"upgrade not newer", kHead + "upgrade inter.broker.protocol.version 2.4\ninter.broker.protocol.version 2.8\n", 4,
       "upgrade inter.broker.protocol.version 2.4-IV1 is not newer than inter.broker.protocol.version 2.8-IV1"},
      {"upgrade to the default", kHead + "upgrade inter.broker.protocol.version 3.8\n", 4,
       "is not newer than inter.broker.protocol.version 3.8-IV0"},
      {"ibp-upgrades without a version", kHead + "bound ibp-upgrades 1\n", 4,
       "bound ibp-upgrades needs `upgrade inter.broker.protocol.version <version>`"},
      {"wrong arity, topic", kHead + "topic a b\n", 4, "wrong number of arguments"},
      {"wrong arity, bound", kHead + "bound crashes\n", 4, "wrong number of arguments"},
      {"wrong arity, partition", kHead + "  partition 1 1,2\n", 4, "wrong number of arguments"},
      {"wrong arity, brokers", "brokers\n", 1, "wrong number of arguments"},
      {"bad number, bound", kHead + "bound crashes x\n", 4, "bad number `x`"},
      {"bad number, broker", "brokers 1 two\n", 1, "bad number `two`"},
      {"bad number, partition", kHead + "  partition one replicas 1\n", 4, "bad number `one`"},
      {"bad number, replica list", kHead + "  partition 1 replicas 1,,2\n", 4, "bad number ``"},
      {"bad number, trailing comma", kHead + "  partition 1 replicas 1,2,\n", 4, "bad number ``"},
      {"bad number, overflow", kHead + "bound crashes 99999999999\n", 4, "bad number"},
      {"number with a leading zero", "brokers 1 02\n", 1, "bad number `02`: no leading zeros"},
      {"bound with a leading zero", kHead + "bound crashes 01\n", 4, "bad number `01`: no leading zeros"},
      {"minus zero", "brokers -0 1\n", 1, "bad number `-0`: write 0"},
      {"not a boolean", kHead + "  exists-at-start yes\n", 4, "expected true or false, found `yes`"},
      {"broker id over 7", "brokers 1 8\n", 1, "broker id 8 is outside 0..7"},
      {"broker id negative", "brokers -1\n", 1, "broker id -1 is outside 0..7"},
      {"replica id over 7", kHead + "  partition 1 replicas 1,9\n", 4, "broker id 9 is outside 0..7"},
      {"replica not in brokers", kHead + "  partition 1 replicas 1,4\n", 4, "broker 4 is not listed in `brokers` (line 1)"},
      {"added replica not in brokers", kHead + "  add-partition replicas 5\n", 4, "broker 5 is not listed"},
      {"reassign target not in brokers", kHead + "  reassign 0 to 6\n", 4, "broker 6 is not listed"},
      {"replica before brokers, not in them", "topic t\n  partition 0 replicas 4\nbrokers 1\n", 2, "broker 4 is not listed in `brokers` (line 3)"},
      {"broker listed twice", "brokers 1 2 1\n", 1, "broker 1 is listed twice"},
      {"duplicate replica", kHead + "  partition 1 replicas 1,2,1\n", 4, "broker 1 appears twice in the replica list `1,2,1`"},
      {"empty replica list, partition", kHead + "  partition 1 replicas\n", 4, "empty replica list"},
      {"empty replica list, add-partition", kHead + "  add-partition replicas\n", 4, "empty replica list"},
      {"empty replica list, reassign", kHead + "  reassign 0 to\n", 4, "empty replica list"},
      {"topic statement before any topic", "brokers 1\n  partition 0 replicas 1\n", 2, "`partition` belongs to a topic"},
      {"unclean flag before any topic", "unclean.leader.election.enable true\nbrokers 1\n", 1, "belongs to a topic"},
      {"duplicate topic", kHead + "topic u\n  partition 0 replicas 1\ntopic t\n", 6, "topic `t` is defined twice (first at line 2)"},
      {"partition out of order", kHead + "  partition 2 replicas 1\n", 4, "partition 2 is out of order: topic `t` expects partition 1 next"},
      {"first partition is not 0", "brokers 1\ntopic t\n  partition 1 replicas 1\n", 3, "expects partition 0 next"},
      {"negative partition", kHead + "  reassign -1 to 1\n", 4, "bad partition number -1"},
      {"too many topics",
       "brokers 1\ntopic a\npartition 0 replicas 1\ntopic b\npartition 0 replicas 1\ntopic c\npartition 0 replicas 1\n"
       "topic d\npartition 0 replicas 1\ntopic e\npartition 0 replicas 1\n",
       10, "more than 4 topics"},
      {"too many partitions", kHead + "  partition 1 replicas 1\n  partition 2 replicas 1\n  partition 3 replicas 1\n  partition 4 replicas 1\n", 7, "more than 4 partitions"},
      {"too many partitions with added ones", kHead + "  add-partition replicas 1\n  partition 1 replicas 2\n  add-partition replicas 3\n  add-partition replicas 1\n", 7, "more than 4 partitions (counting added ones)"},
      {"replication factor over the maximum", "brokers 0 1 2 3 4 5 6 7\ntopic t\n  partition 0 replicas 0,1,2,3,4,5,6,7,0\n", 3, "replication factor 9 is over the maximum 8"},
      {"negative bound", kHead + "bound crashes -1\n", 4, "bound crashes is negative (-1)"},
      {"unknown bound", kHead + "bound crash 1\n", 4, "unknown bound `crash` (the bounds are crashes, "},
      {"bound given twice", kHead + "bound crashes 1\nbound crashes 2\n", 5, "`bound crashes` is given twice (first at line 4)"},
      {"negative overall bound", kHead + "bound perturbations -2\n", 4, "bound perturbations is negative (-2)"},
      {"bad overall bound", kHead + "bound perturbations two\n", 4, "bad number `two`"},
      {"overall bound twice", kHead + "bound perturbations 1\nbound perturbations 2\n", 5,
       "`bound perturbations` is given twice (first at line 4)"},
      {"overall bound, wrong arity", kHead + "bound perturbations\n", 4, "wrong number of arguments"},
      {"statement given twice", kHead + "name a\nname b\n", 5, "`name` is given twice (first at line 4)"},
      {"topic flag given twice", kHead + "  exists-at-start true\n  exists-at-start false\n", 5, "given twice"},
      {"alive-at-start not a subset", "brokers 1 2\nalive-at-start 2 3\ntopic t\npartition 0 replicas 1\n", 2, "alive-at-start broker 3 is not listed in `brokers`"},
      {"bad topic name", "brokers 1\ntopic t/x\n", 2, "bad topic name `t/x`"},
      {"topic name with UTF-8", "brokers 1\ntopic tö\n", 2, "bad topic name"},
      {"topic name ..", "brokers 1\ntopic ..\n", 2, "topic name `..` is not allowed"},
      {"topic name too long", "brokers 1\ntopic " + std::string(250, 'a') + "\n", 2, "the limit is 249"},
      {"topic without partitions", "brokers 1\ntopic t\ntopic u\npartition 0 replicas 1\n", 2, "topic `t` has no `partition` statement"},
      {"reassign a partition the topic cannot have", kHead + "  reassign 3 to 1\n", 4, "topic `t` has no partition 3"},
      {"reassign target listed twice", kHead + "  reassign 0 to 3\n  reassign 0 to 3\n", 5, "listed twice"},
      {"no brokers statement", "topic t\n# the end\n", 2, "no `brokers` statement"},
      {"empty file", "", 1, "no `brokers` statement"},
      {"steps in a configuration", kHead + "steps\n", 4, "`steps` belongs to a scenario"},
      {"line over 4096 bytes", kHead + "# " + std::string(4095, 'x') + "\n", 4, "line is 4097 bytes long; the limit is 4096"},
      {"not UTF-8", kHead + "# caf\xe9\n", 4, "not valid UTF-8"},
      {"overlong UTF-8", kHead + "# \xc0\xaf\n", 4, "not valid UTF-8"},
      {"UTF-8 surrogate", kHead + "# \xed\xa0\x80\n", 4, "not valid UTF-8"},
      {"truncated UTF-8", kHead + "# \xe2\x86", 4, "not valid UTF-8"},
      {"NUL byte", kHead + "bound crashes 1" + std::string(1, '\0') + "\n", 4, "NUL byte"},
      // Terminal escape codes would reach a terminal through every message that echoes a name.
      {"ESC in a name", "name a\x1b[31mred\n" + kHead, 1, "control character \\x1b in line (column 7)"},
      {"C1 control", kHead + "# \xc2\x9b" "31m\n", 4, "control character U+009B in line (column 3)"},
      {"DEL", kHead + "# \x7f\n", 4, "control character \\x7f"},
      {"CR inside a line", kHead + "bound crashes 1\rbound crashes 2\n", 4, "control character \\x0d"},
  };
  return cases;
}

TEST(ConfigText, RejectsEveryKindOfBadInputWithFileAndLine) {
  for (const BadInput& input : badConfigs()) {
    expectRejected(input, [](const std::string& text) { parseConfig(text, "bad.txt"); });
  }
}

TEST(ConfigText, ALineOfExactly4096BytesIsAccepted) {
  EXPECT_NO_THROW(parseConfig(kHead + "# " + std::string(4094, 'x') + "\n", "ok"));
}

// ---- actions ------------------------------------------------------------------------------------

Config actionConfig() {
  return parseConfig(
      "brokers 1 2 3 4 5 6\n"
      "topic t\n  partition 0 replicas 1,2,3\n  add-partition replicas 2,3,1\n"
      "topic my-topic.v2\n  partition 0 replicas 1,2\n  partition 1 replicas 2,3\n",
      "actions.conf");
}

// One action of every kind, with its text.
std::vector<std::pair<Action, std::string>> everyKind() {
  const TopicPartition t0{0, 0};
  const TopicPartition my1{1, 1};
  return {
      {{.kind = ActionKind::CreateTopic, .topic = 0}, "create-topic t"},
      {{.kind = ActionKind::DeleteTopic, .topic = 1}, "delete-topic my-topic.v2"},
      {{.kind = ActionKind::AddPartitions, .topic = 0}, "add-partitions t"},
      {{.kind = ActionKind::ReassignPartition, .tp = t0, .replicas = {4, 5, 6}}, "reassign t-0 4,5,6"},
      {{.kind = ActionKind::CancelReassignment, .tp = my1}, "cancel-reassignment my-topic.v2-1"},
      {{.kind = ActionKind::ElectPreferredLeader, .tp = t0}, "elect-preferred t-0"},
      {{.kind = ActionKind::ElectUncleanLeader, .tp = TopicPartition{0, 1}}, "elect-unclean t-1"},
      {{.kind = ActionKind::EnableTopicUnclean, .topic = 0}, "enable-unclean t"},
      {{.kind = ActionKind::ZkReassign, .tp = my1, .replicas = {2, 1}}, "zk-reassign my-topic.v2-1 2,1"},
      {{.kind = ActionKind::ZkReassignInvalid}, "zk-reassign-invalid"},
      {{.kind = ActionKind::ZkElectPreferred, .tp = t0}, "zk-elect-preferred t-0"},
      {{.kind = ActionKind::CrashBroker, .broker = 1}, "crash 1"},
      {{.kind = ActionKind::StartBroker, .broker = 1}, "start 1"},
      {{.kind = ActionKind::ControlledShutdown, .broker = 2}, "controlled-shutdown 2"},
      {{.kind = ActionKind::ShrinkIsr, .broker = 1, .tp = t0, .replica = 3}, "shrink-isr t-0 leader 1 remove 3"},
      {{.kind = ActionKind::ExpandIsr, .broker = 1, .tp = t0, .replica = 3}, "expand-isr t-0 leader 1 add 3"},
      {{.kind = ActionKind::ProcessEvent, .broker = 1}, "process-event 1"},
      {{.kind = ActionKind::LoseControllerSession, .broker = 1}, "lose-controller-session 1"},
      {{.kind = ActionKind::NoticeSessionExpiry, .broker = 1}, "notice-session-expiry 1"},
      {{.kind = ActionKind::ElectController, .broker = 1}, "elect-controller 1"},
      {{.kind = ActionKind::AutoRebalanceTimer, .broker = 1}, "auto-rebalance-timer 1"},
      {{.kind = ActionKind::DeliverRequest, .broker = 1}, "deliver-request 1"},
      {{.kind = ActionKind::DeliverStopReplicaResponse, .broker = 2}, "deliver-stop-replica-response 2"},
      {{.kind = ActionKind::DeliverStopReplicaResponse, .broker = 2, .error = true}, "deliver-stop-replica-response 2 error"},
      {{.kind = ActionKind::FailLogDir, .broker = 2, .tp = t0}, "fail-log-dir t-0 2"},
      {{.kind = ActionKind::DeliverLeaderAndIsrResponse, .broker = 3}, "deliver-leader-and-isr-response 3"},
      {{.kind = ActionKind::LoseZkConnection, .tp = my1}, "zk-connection-loss my-topic.v2-1"},
      {{.kind = ActionKind::LoseBrokerSession, .broker = 2}, "lose-broker-session 2"},
      {{.kind = ActionKind::PropagateIsrChanges, .broker = 3}, "propagate-isr-changes 3"},
      {{.kind = ActionKind::UpgradeIbp, .broker = 1}, "upgrade-ibp 1"},
      {{.kind = ActionKind::LoseZkConnectionOnFeature}, "zk-connection-loss-feature"},
      {{.kind = ActionKind::ExpireZkSession, .tp = t0}, "zk-session-expiry t-0"},
  };
}

TEST(ActionText, EveryKindPrintsAndParsesBack) {
  const Config config = actionConfig();
  std::set<ActionKind> kinds;
  for (const auto& [action, text] : everyKind()) {
    kinds.insert(action.kind);
    EXPECT_EQ(printAction(config, action), text);
    EXPECT_EQ(parseAction(config, text, "a.txt", 1), action) << text;
    EXPECT_EQ(parseAction(config, "  " + text + "   # with a comment", "a.txt", 1), action) << text;
  }
  EXPECT_EQ(kinds.size(), kActionKindCount);
}

TEST(ActionText, EveryEnabledActionAlongARunPrintsAndParsesBack) {
  const Config config = *preset("every-perturbation");
  spec::ClusterState state = spec::initialState(config);
  std::set<ActionKind> seen;
  for (int step = 0; step < 60; ++step) {
    const std::vector<Action> enabled = spec::enabledActions(config, state);
    if (enabled.empty()) break;
    for (const Action& a : enabled) {
      seen.insert(a.kind);
      const std::string text = printAction(config, a);
      EXPECT_EQ(parseAction(config, text, "run", step), a) << text;
    }
    state = spec::next(config, state, enabled[static_cast<std::size_t>(step * 7) % enabled.size()]);
  }
  EXPECT_GE(seen.size(), 8u);
}

TEST(ActionText, RejectsEveryKindOfBadInputWithFileAndLine) {
  const Config config = actionConfig();
  const std::vector<BadInput> cases = {
      {"unknown action", "crsh 1", 12, "unknown action `crsh`"},
      {"empty line", "   # nothing", 12, "expected an action"},
      {"unknown topic", "create-topic u", 12, "unknown topic `u`"},
      {"unknown topic in a partition", "elect-preferred u-0", 12, "unknown topic `u`"},
      {"partition without a dash", "elect-preferred t0", 12, "bad partition `t0`"},
      {"partition without a number", "elect-preferred t-", 12, "bad partition `t-`"},
      {"partition without a topic", "elect-preferred -0", 12, "bad partition `-0`"},
      {"partition not a number", "elect-preferred t-x", 12, "bad partition `t-x`"},
      {"partition with a sign", "elect-preferred t-+1", 12, "bad partition `t-+1`"},
      {"partition the topic cannot have", "elect-preferred t-2", 12, "topic `t` has no partition 2"},
      {"partition out of range", "elect-preferred t-99999999999", 12, "bad number"},
      {"partition with a leading zero", "elect-preferred t-00", 12, "bad number `00`: no leading zeros"},
      {"broker id with a leading zero", "crash 01", 12, "bad number `01`: no leading zeros"},
      {"bad broker id", "crash x", 12, "bad number `x`"},
      {"broker id over 7", "crash 8", 12, "broker id 8 is outside 0..7"},
      {"broker not in the configuration", "crash 7", 12, "broker 7 is not one of the configuration's brokers"},
      {"ISR member not in the configuration", "shrink-isr t-0 leader 1 remove 0", 12, "broker 0 is not one"},
      {"reassignment target not in the configuration", "reassign t-0 1,7", 12, "broker 7 is not one"},
      {"duplicate reassignment target replica", "reassign t-0 1,1", 12, "appears twice"},
      {"empty reassignment target", "reassign t-0", 12, "empty replica list"},
      {"wrong arity, too few", "crash", 12, "wrong arguments: expected `crash <broker>`"},
      {"wrong arity, too many", "create-topic t t", 12, "wrong arguments: expected `create-topic <topic>`"},
      {"wrong arity, reassign", "reassign t-0 1,2 3", 12, "wrong arguments"},
      {"wrong keyword, shrink", "shrink-isr t-0 leader 1 add 3", 12, "wrong arguments: expected `shrink-isr"},
      {"wrong keyword, expand", "expand-isr t-0 lead 1 add 3", 12, "wrong arguments: expected `expand-isr"},
      {"wrong arity, shrink", "shrink-isr t-0 leader 1 remove", 12, "wrong arguments"},
      {"wrong flag, response", "deliver-stop-replica-response 2 err", 12, "wrong arguments"},
      {"wrong arity, response", "deliver-stop-replica-response", 12, "wrong arguments"},
  };
  for (const BadInput& input : cases) {
    expectRejected(input, [&](const std::string& text) { parseAction(config, text, "bad.txt", 12); });
  }
}

// ---- scenarios ----------------------------------------------------------------------------------

constexpr std::string_view kScenario = R"(# kcspec scenario v1
# a comment
name s
brokers 1 2 3
alive-at-start 1 2 3
topic t
  partition 0 replicas 1,2,3
bound topic-creations 1
steps
elect-controller 1

create-topic t   # the admin
  process-event 1
# done
)";

TEST(ScenarioText, ParsesConfigurationStepsAndTheirLines) {
  const Scenario s = parseScenario(kScenario, "s.scenario");
  EXPECT_EQ(s.config.name, "s");
  EXPECT_EQ(s.config.bounds.topic_creations, 1);
  ASSERT_EQ(s.steps.size(), 3u);
  EXPECT_EQ(s.steps[0], (Action{.kind = ActionKind::ElectController, .broker = 1}));
  EXPECT_EQ(s.steps[1], (Action{.kind = ActionKind::CreateTopic, .topic = 0}));
  EXPECT_EQ(s.steps[2], (Action{.kind = ActionKind::ProcessEvent, .broker = 1}));
  EXPECT_EQ(s.step_lines, (std::vector<int>{10, 12, 13}));
}

TEST(ScenarioText, PrintThenParseGivesTheSameScenario) {
  const Scenario s = parseScenario(kScenario, "s.scenario");
  const std::string printed = printScenario(s);
  EXPECT_EQ(printed.rfind("# kcspec scenario v1\n", 0), 0u);
  const Scenario again = parseScenario(printed, "printed.scenario");
  expectSameConfig(s.config, again.config);
  EXPECT_EQ(again.steps, s.steps);
  EXPECT_EQ(printScenario(again), printed);
  // In the canonical text the steps are the last lines.
  const int lines = static_cast<int>(std::count(printed.begin(), printed.end(), '\n'));
  EXPECT_EQ(again.step_lines, (std::vector<int>{lines - 2, lines - 1, lines}));
}

TEST(ScenarioText, RejectsEveryKindOfBadInputWithFileAndLine) {
  const std::string config = "# kcspec scenario v1\nbrokers 1 2\ntopic t\npartition 0 replicas 1,2\n";  // lines 1–4
  const std::vector<BadInput> cases = {
      {"no header", "brokers 1\nsteps\n", 1, "expected the header `# kcspec scenario v1` on the first line, found `brokers 1`"},
      {"another version", "# kcspec scenario v2\nbrokers 1\nsteps\n", 1, "expected the header `# kcspec scenario v1`"},
      {"empty file", "", 1, "expected the header `# kcspec scenario v1` on the first line, found an empty file"},
      {"no steps line", config + "crash 1\n", 5, "no `steps` line"},
      {"no steps line at all", config, 4, "no `steps` line"},
      {"steps with arguments", config + "steps 3\n", 5, "`steps` takes no arguments"},
      {"bad configuration", "# kcspec scenario v1\nbrokers 1 9\nsteps\n", 2, "broker id 9 is outside 0..7"},
      {"configuration without brokers, reported at steps", "# kcspec scenario v1\n\nsteps\ncrash 1\n", 3, "no `brokers` statement"},
      {"bad action", config + "steps\nelect-controller 1\n\ncrash 5\n", 8, "broker 5 is not one"},
      {"unknown action", config + "steps\n# first\nelect-controler 1\n", 7, "unknown action `elect-controler`"},
      {"second steps line", config + "steps\ncrash 1\nsteps\n", 7, "unknown action `steps`"},
      {"not UTF-8 among the steps", config + "steps\ncrash 1 # \xff\n", 6, "not valid UTF-8"},
  };
  for (const BadInput& input : cases) {
    expectRejected(input, [](const std::string& text) { parseScenario(text, "bad.txt"); });
  }
}

// ---- presets ------------------------------------------------------------------------------------

TEST(Presets, EveryPresetParsesAndIsNamedAfterItself) {
  for (std::string_view name : kPresetNames) {
    SCOPED_TRACE(std::string(name));
    const std::optional<Config> c = preset(name);
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->name, name);
    ASSERT_TRUE(presetText(name).has_value());
    expectSameConfig(*c, parseConfig(printConfig(*c), "printed"));
  }
  EXPECT_FALSE(preset("huge").has_value());
  EXPECT_FALSE(presetText("").has_value());
}

// The issue's shape for `default`: at least 3 brokers, at least 2 topics with 3 partitions in
// all at replication factor ≥ 2 (and a fourth for the partition expansion to add), every
// perturbation kind enabled once; `default` adds the overall bound of two perturbations per history.
void expectEveryPerturbationOnce(const Config& c, bool exhaustive) {
  EXPECT_GE(c.brokers.size(), 3);
  EXPECT_GE(c.topicCount(), 2);
  std::size_t partitions = 0, added = 0, targets = 0;
  for (const TopicConfig& topic : c.topics) {
    partitions += topic.assignment.size();
    added += topic.added_partitions.size();
    targets += topic.reassignment_targets.size();
    for (const BrokerList& replicas : topic.assignment) EXPECT_GE(replicas.size(), 2u) << topic.name;
    for (const BrokerList& replicas : topic.added_partitions) EXPECT_GE(replicas.size(), 2u) << topic.name;
  }
  EXPECT_EQ(partitions, 3u);
  EXPECT_EQ(added, 1u);
  EXPECT_EQ(targets, 1u);
  EXPECT_TRUE(c.auto_leader_rebalance_enable);  // auto-rebalances needs it
  Bounds b = c.bounds;
  for (std::size_t i = 0; i < kBoundNames.size(); ++i) {
    // An exhaustive preset leaves /admin/preferred_replica_election out: with it the search does
    // not end (a failover loop, docs/spec/rules.md "Findings"; presets.cpp twoPerturbationsText);
    // and log-directory failures, which make `default` 3.7 times larger (the preset
    // `log-dir-failure` explores them), ZooKeeper connection losses, broker session losses and
    // session expiries in the middle of an event (the presets `zk-connection-loss`,
    // `broker-session-loss` and `zk-session-expiry`).
    const bool left_out = kBoundNames[i] == "zk-preferred-elections" || kBoundNames[i] == "log-dir-failures" ||
                          kBoundNames[i] == "zk-connection-losses" || kBoundNames[i] == "broker-session-losses" ||
                          kBoundNames[i] == "zk-session-expiries";
    // Neither names a rolling upgrade: both run 3.8-IV0, the newest version (preset `rolling-upgrade`).
    const bool never = kBoundNames[i] == "ibp-upgrades";
    const int expected = never || (exhaustive && left_out) ? 0 : 1;
    EXPECT_EQ(*boundField(b, i), expected) << kBoundNames[i];
  }
}

TEST(Presets, EveryPerturbationEnablesEveryKindWithoutAnOverallBound) {
  const Config c = *preset("every-perturbation");
  expectEveryPerturbationOnce(c, /*exhaustive=*/false);
  EXPECT_EQ(c.bounds.perturbations, kAnyNumberOfPerturbations);
}

TEST(Presets, DefaultEnablesEveryKindWithAtMostThreePerturbationsPerHistory) {
  const Config c = *preset("default");
  expectEveryPerturbationOnce(c, /*exhaustive=*/true);
  EXPECT_EQ(c.bounds.perturbations, 3);
  Bounds without_overall = c.bounds;
  without_overall.perturbations = kAnyNumberOfPerturbations;
  without_overall.zk_preferred_elections = 1;  // the five kinds `default` leaves out (see above)
  without_overall.log_dir_failures = 1;
  without_overall.zk_connection_losses = 1;
  without_overall.broker_session_losses = 1;
  without_overall.zk_session_expiries = 1;
  EXPECT_EQ(without_overall, preset("every-perturbation")->bounds);  // the same kinds, bounded overall
  // Three partitions in the topics' definitions: t-0 from the start, u-0 and u-1 created by the admin.
  ASSERT_EQ(c.topicCount(), 2);
  EXPECT_TRUE(c.topics[0].exists_at_start);
  EXPECT_EQ(c.topics[0].assignment.size(), 1u);
  EXPECT_FALSE(c.topics[1].exists_at_start);
  EXPECT_EQ(c.topics[1].assignment.size(), 2u);
}

TEST(Presets, CrashIsrHasThreeBrokersTwoTopicsThreeReplicatedPartitionsACrashAndAnIsrShrink) {
  const Config c = *preset("crash-isr");
  EXPECT_EQ(c.brokers.size(), 3);
  ASSERT_EQ(c.topicCount(), 2);
  EXPECT_EQ(c.topics[0].assignment, (std::vector<BrokerList>{BrokerList{1, 2}, BrokerList{2, 3}}));
  EXPECT_EQ(c.topics[1].assignment, (std::vector<BrokerList>{BrokerList{3, 1}}));
  EXPECT_EQ(c.bounds, (Bounds{.crashes = 1, .isr_shrinks = 1}));
}

TEST(Presets, DeletionKeepsTheFirstDefault) {
  const Config c = *preset("crash-deletion");
  EXPECT_EQ(c.brokers.size(), 3);
  ASSERT_EQ(c.topicCount(), 1);
  EXPECT_EQ(c.topics[0].assignment, (std::vector<BrokerList>{BrokerList{1, 2}}));
  EXPECT_EQ(c.bounds, (Bounds{.crashes = 1, .topic_deletions = 1, .isr_shrinks = 1, .stop_replica_errors = 1}));
}

TEST(Presets, MediumAndLargeRaiseTheBoundsOfCrashIsr) {
  const Config d = *preset("crash-isr"), m = *preset("medium"), l = *preset("large");
  Bounds bd = d.bounds, bm = m.bounds, bl = l.bounds;
  for (std::size_t i = 0; i < kBoundNames.size(); ++i) {
    EXPECT_GE(*boundField(bm, i), *boundField(bd, i)) << kBoundNames[i];
    EXPECT_GE(*boundField(bl, i), *boundField(bd, i)) << kBoundNames[i];
  }
  EXPECT_NE(bm, bd);
  EXPECT_NE(bl, bd);
  EXPECT_GE(m.brokers.size(), d.brokers.size());
  EXPECT_GE(l.brokers.size(), d.brokers.size());
  // medium: five perturbation kinds, at most three per history; large is medium with a partition
  // on every broker (t-0 at replication factor 3) where medium's are at 2 — same bounds, same
  // brokers, the other partitions unchanged.
  EXPECT_EQ(bm.perturbations, 3);
  EXPECT_EQ(bm.preferred_elections, 1);
  EXPECT_EQ(bl, bm);
  EXPECT_EQ(l.brokers, m.brokers);
  ASSERT_EQ(m.topics[0].assignment.size(), 2);
  ASSERT_EQ(l.topics[0].assignment.size(), 2);
  EXPECT_EQ(m.topics[0].assignment[0], (BrokerList{1, 2}));
  EXPECT_EQ(l.topics[0].assignment[0], (BrokerList{1, 2, 3}));
  EXPECT_EQ(l.topics[0].assignment[1], m.topics[0].assignment[1]);
  EXPECT_EQ(l.topics[1].assignment, m.topics[1].assignment);
  EXPECT_EQ(l.auto_leader_rebalance_enable, m.auto_leader_rebalance_enable);
}

// ---- observations -------------------------------------------------------------------------------

Config appendixB() { return parseScenario(kScenario, "s.scenario").config; }

const Change* find(const std::vector<Change>& changes, std::string_view path) {
  for (const Change& c : changes) {
    if (c.path == path) return &c;
  }
  return nullptr;
}

TEST(ObservationText, InitialStateShowsRegisteredBrokersOnly) {
  const Config config = appendixB();
  const ObservationEntries entries = renderObservation(config, spec::initialState(config).world);
  std::map<std::string, std::string> by_path(entries.begin(), entries.end());
  EXPECT_EQ(by_path.size(), entries.size());  // paths are unique
  EXPECT_EQ(by_path.at("/brokers/ids/1"), "broker_epoch=1");
  EXPECT_EQ(by_path.at("/brokers/ids/3"), "broker_epoch=3");
  EXPECT_EQ(by_path.count("/brokers/ids/0"), 0u);
  EXPECT_EQ(by_path.count("/controller"), 0u);
  EXPECT_EQ(by_path.count("/brokers/topics/t"), 0u);
  for (const auto& [path, value] : entries) EXPECT_FALSE(value.empty()) << path;
  EXPECT_TRUE(renderObservation(config, Observation{}).empty());
  EXPECT_NE(renderObservationText(config, spec::initialState(config).world).find("/brokers/ids/2: broker_epoch=2\n"),
            std::string::npos);
}

TEST(ObservationText, DiffOfATwoStepRun) {
  const Config config = appendixB();
  const spec::ClusterState s0 = spec::initialState(config);
  const spec::ClusterState s1 = spec::next(config, s0, Action{.kind = ActionKind::ElectController, .broker = 1});
  const spec::ClusterState s2 = spec::next(config, s1, Action{.kind = ActionKind::DeliverRequest, .broker = 2});

  EXPECT_TRUE(diffObservations(config, s0.world, s0.world).empty());

  const std::vector<Change> first = diffObservations(config, s0.world, s1.world);
  ASSERT_NE(find(first, "/controller"), nullptr);
  EXPECT_EQ(*find(first, "/controller"), (Change{"/controller", "", "brokerid=1"}));
  ASSERT_NE(find(first, "/controller_epoch"), nullptr);
  EXPECT_EQ(find(first, "/controller_epoch")->after.rfind("epoch=1 ", 0), 0u);
  ASSERT_NE(find(first, "broker 1 controller"), nullptr);
  EXPECT_EQ(find(first, "broker 1 controller")->after, "active");
  ASSERT_NE(find(first, "broker 2 inbox[0]"), nullptr);
  EXPECT_EQ(find(first, "broker 2 inbox[0]")->before, "");
  EXPECT_EQ(find(first, "broker 2 inbox[0]")->after.rfind("UpdateMetadata v8(controller=1, controller_epoch=1", 0), 0u);
  EXPECT_EQ(find(first, "/brokers/ids/1"), nullptr);  // unchanged paths are left out

  const std::vector<Change> second = diffObservations(config, s1.world, s2.world);
  ASSERT_NE(find(second, "broker 2 inbox[0]"), nullptr);
  EXPECT_EQ(find(second, "broker 2 inbox[0]")->after, "");
  EXPECT_EQ(find(second, "broker 2 inbox[0]")->before, find(first, "broker 2 inbox[0]")->after);
  for (const Change& c : second) EXPECT_EQ(c.path.rfind("broker 2", 0), 0u) << c.path;  // only broker 2 moved

  const std::string text = renderChangesText(first);
  EXPECT_NE(text.find("  /controller: (absent) -> brokerid=1\n"), std::string::npos) << text;

  const nlohmann::json json = nlohmann::json::parse(renderChangesJson(second));
  ASSERT_TRUE(json.is_array());
  ASSERT_EQ(json.size(), second.size());
  EXPECT_EQ(renderChangesJson({Change{"/x", "", "v"}}), R"([{"path":"/x","before":null,"after":"v"}])");
}

TEST(ObservationText, CreatingATopicWritesThePartitionStateZnode) {
  const Config config = appendixB();
  spec::ClusterState s = spec::initialState(config);
  for (const Action& a : parseScenario(kScenario, "s.scenario").steps) {
    if (a.kind == ActionKind::ProcessEvent) {
      // First the failover's ReplicaLeaderElection(ZkTriggered), which changes nothing but the queue.
      ASSERT_EQ(s.world.brokers[1].controller.events.size(), 2u);
      EXPECT_TRUE(s.world.brokers[1].controller.events.front().zk_triggered);
      s = spec::next(config, s, a);
    }
    const spec::ClusterState after = spec::next(config, s, a);
    if (a.kind == ActionKind::ProcessEvent) {
      const std::vector<Change> changes = diffObservations(config, s.world, after.world);
      const Change* c = find(changes, "/brokers/topics/t/partitions/0/state");
      ASSERT_NE(c, nullptr);
      EXPECT_EQ(c->after, "leader=1 leader_epoch=0 isr=1,2,3 partition_epoch=0 controller_epoch=1");
    }
    s = after;
  }
  const ObservationEntries entries = renderObservation(config, s.world);
  std::map<std::string, std::string> by_path(entries.begin(), entries.end());
  EXPECT_EQ(by_path.at("/brokers/topics/t"), "partitions={0:[1,2,3]} adding_replicas={} removing_replicas={} topic_id=1");
  EXPECT_EQ(by_path.at("/config/topics/t"), "unclean.leader.election.enable=false");
  EXPECT_EQ(by_path.at("broker 1 controller context t-0 state"), "OnlinePartition");
  EXPECT_EQ(by_path.at("broker 1 controller context t-0 replica 2 state"), "OnlineReplica");
}

// Every field of the observation is visible: along a breadth-first exploration of the default
// preset, a step changes the rendering exactly when it changes the observation.
TEST(ObservationText, EveryObservableChangeShowsInTheDiff) {
  const Config config = *preset("every-perturbation");
  std::deque<spec::ClusterState> frontier{spec::initialState(config)};
  std::vector<Observation> seen{frontier.front().world};  // states told apart by their worlds
  int transitions = 0;
  while (!frontier.empty() && seen.size() < 150) {
    const spec::ClusterState s = frontier.front();
    frontier.pop_front();
    for (const Action& a : spec::enabledActions(config, s)) {
      const spec::ClusterState after = spec::next(config, s, a);
      if (std::find(seen.begin(), seen.end(), after.world) != seen.end()) continue;
      seen.push_back(after.world);
      frontier.push_back(after);
      ++transitions;
      const std::vector<Change> changes = diffObservations(config, s.world, after.world);
      EXPECT_EQ(changes.empty(), s.world == after.world) << printAction(config, a);
      for (const Change& c : changes) EXPECT_NE(c.before, c.after) << c.path;
    }
  }
  EXPECT_GT(transitions, 100);
}

}  // namespace
}  // namespace kcspec
