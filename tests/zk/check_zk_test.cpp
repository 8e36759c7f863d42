// `kcspec check-zk` on a real ZooKeeper: populated by the reference controller for the Appendix B
// flows (no findings at the end; the expected finding midway), and hand-made broken states, one
// per finding kind, each reported exactly. Plus the command line: JSON, exit statuses, bad
// input, an unreachable server, --watch reporting a change, and that nothing is ever written.
#include <gtest/gtest.h>
#include <sys/wait.h>
#ifndef THREADED
#define THREADED  // the synchronous API of libzookeeper_mt
#endif
#include <zookeeper/zookeeper.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "impl/cluster.hpp"
#include "impl/zookeeper/kafka_zk_client.hpp"
#include "impl/zookeeper/real_zk_store.hpp"
#include "proofs/zk_check/zk_findings.hpp"
#include "spec/vocabulary/scenario_text.hpp"
#include "recovery_walk.hpp"  // tests/common/
#include "zk_env.hpp"

namespace kcspec {
namespace {

using impl::zk::RealZkOptions;
using impl::zk::RealZkStore;

// A ZooKeeper chroot populated by the reference controller running the steps
// of a scenario (those on lines up to `last_line`). The store stays open (its sessions own the brokers' and controller's znodes).
struct Populated {
  std::string connect;  // host:port/chroot
  std::unique_ptr<RealZkStore> store;
  std::unique_ptr<impl::ImplCluster> cluster;
};

Populated populate(const std::string& server, const std::string& file, int last_line = 1 << 30) {
  Populated out;
  out.connect = server + zktest::freshChroot("check");
  RealZkOptions options;
  options.connect = out.connect;
  options.create_chroot = true;
  options.session_timeout_ms = 10000;
  out.store = std::make_unique<RealZkStore>(options);
  const std::string path = std::string(KCSPEC_SOURCE_DIR) + "/" + file;
  const Scenario scenario = parseScenario(zktest::readFile(path), path);
  out.cluster = std::make_unique<impl::ImplCluster>(scenario.config, *out.store);
  for (std::size_t i = 0; i < scenario.steps.size() && scenario.step_lines[i] <= last_line; ++i) {
    EXPECT_TRUE(out.cluster->isEnabled(scenario.steps[i])) << file << " step " << i + 1;
    out.cluster->apply(scenario.steps[i]);
  }
  return out;
}

zkcheck::ZkSnapshot snapshotOf(const std::string& connect) {
  RealZkOptions options;
  options.connect = connect;
  const RealZkStore reader(options);
  return zkcheck::readSnapshot(reader);
}

std::vector<std::string> kindsAt(const std::string& connect) {
  std::vector<std::string> kinds;
  for (const zkcheck::ZkFinding& f : zkcheck::findViolations(snapshotOf(connect))) kinds.push_back(f.kind);
  return kinds;
}

using Kinds = std::vector<std::string>;

TEST(CheckZk, AppendixBFlowsLeaveNothingToReport) {
  KCSPEC_REQUIRE_ZK(server);
  for (const char* file : {"tests/cli/appendix_b1.scenario", "tests/scenarios/appendix_b2.scenario",
                           "tests/scenarios/appendix_b3.scenario", "tests/scenarios/appendix_b4.scenario"}) {
    const Populated zk = populate(server, file);
    EXPECT_EQ(kindsAt(zk.connect), Kinds{}) << file;
  }
  // What the flows wrote, as check-zk reads it (kafka.md Appendix B).
  const Populated b2 = populate(server, "tests/scenarios/appendix_b2.scenario");
  const zkcheck::ZkSnapshot s = snapshotOf(b2.connect);
  const zkcheck::PartitionStateSnapshot& st = *s.topics.at("t").partitions.at(0).state;
  EXPECT_EQ(st.leader, 2);
  EXPECT_EQ(st.isr, (std::vector<int>{2, 3}));
  EXPECT_EQ(st.leader_epoch, 1);
  EXPECT_EQ(st.partition_epoch, 1);
  EXPECT_EQ(s.controller, 2);
  EXPECT_EQ(s.controller_epoch, 1);
  EXPECT_EQ(s.brokers.size(), 2u);
  // The load docs/zookeeper.md states: 12 requests + 2 per broker + 5 per topic + 2 per partition.
  EXPECT_EQ(s.requests, 12u + 2 * 2 + 5 + 2);
  const Populated b4 = populate(server, "tests/scenarios/appendix_b4.scenario");
  EXPECT_TRUE(snapshotOf(b4.connect).topics.empty());
}

TEST(CheckZk, AppendixBFlowsMidwayShowWhatIsPending) {
  KCSPEC_REQUIRE_ZK(server);
  // B.2 right after broker 1 crashed, before BrokerChange: the leader is no longer registered.
  const Populated b2 = populate(server, "tests/scenarios/appendix_b2.scenario", 26);  // `crash 1`
  EXPECT_EQ(kindsAt(b2.connect), Kinds{"leader-not-registered"});
  // B.4 right after the deletion request: queued, all brokers up.
  const Populated b4 = populate(server, "tests/scenarios/appendix_b4.scenario", 17);  // `delete-topic t`
  const std::vector<zkcheck::ZkFinding> findings = zkcheck::findViolations(snapshotOf(b4.connect));
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, "deletion-pending");
  EXPECT_EQ(findings[0].property_id, "L1");
  EXPECT_EQ(findings[0].property_name, "DeletionCompletes");
  EXPECT_NE(findings[0].message.find("should complete"), std::string::npos);
}

// tests/scenarios/partition_gap_after_restore.scenario right after the controller restored u's
// assignment to {"1":[2]} (kafka.md §5.10.2): the znode lists no partition 0, whose replica is on
// the dead broker 1, so u's deletion is not said to be one that should complete.
TEST(CheckZk, ADeletionWhoseRestoredAssignmentHasAGapNamesTheUnlistedPartitions) {
  KCSPEC_REQUIRE_ZK(server);
  const Populated gap = populate(server, "tests/scenarios/partition_gap_after_restore.scenario", 36);
  const zkcheck::ZkSnapshot snapshot = snapshotOf(gap.connect);
  ASSERT_EQ(snapshot.topics.count("u"), 1u);
  const zkcheck::TopicSnapshot& u = snapshot.topics.at("u");
  EXPECT_FALSE(u.partitions.count(0) && u.partitions.at(0).in_assignment);
  ASSERT_EQ(u.partitions.count(1), 1u);
  EXPECT_TRUE(u.partitions.at(1).in_assignment);
  EXPECT_EQ(u.partitions.at(1).replicas, (std::vector<int>{2}));
  bool found = false;
  for (const zkcheck::ZkFinding& f : zkcheck::findViolations(snapshot)) {
    if (f.kind != "deletion-pending" || f.topic != "u") continue;
    found = true;
    EXPECT_EQ(f.message.find("should complete"), std::string::npos) << f.message;
    EXPECT_NE(f.message.find("does not list partition(s) 0"), std::string::npos) << f.message;
  }
  EXPECT_TRUE(found);
}

// tests/scenarios/deviation_l11_reassigned_before_creation.scenario, then its commented recovery
// walk, run by the reference controller on a real ZooKeeper: t-0 was reassigned to broker 2 before
// it had a state znode, and New->Online wrote a first ISR holding every replica. The reassignment
// is complete but pending for good (L11, a known Kafka deviation), and check-zk says so.
TEST(CheckZk, AReassignmentCompleteAtCreationIsReportedAsL11s) {
  KCSPEC_REQUIRE_ZK(server);
  const std::string file = "tests/scenarios/deviation_l11_reassigned_before_creation.scenario";
  Populated l11 = populate(server, file);
  const std::string path = std::string(KCSPEC_SOURCE_DIR) + "/" + file;
  const std::string text = zktest::readFile(path);
  const Scenario scenario = parseScenario(text, path);
  int walked = 0;
  for (const test_common::WalkStep& step : test_common::recoveryWalk(scenario.config, text, path)) {
    ASSERT_TRUE(l11.cluster->isEnabled(step.action)) << file << ":" << step.line;
    l11.cluster->apply(step.action);
    ++walked;
  }
  ASSERT_GT(walked, 0);
  const std::vector<zkcheck::ZkFinding> findings = zkcheck::findViolations(snapshotOf(l11.connect));
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, "reassignment-pending");
  EXPECT_EQ(findings[0].property_id, "L11");
  EXPECT_EQ(findings[0].property_name, "NewPartitionReassignmentsComplete");
  EXPECT_NE(findings[0].message.find("only a controller failover completes it"), std::string::npos) << findings[0].message;
  // Written again (data version 1), the same state is a reassignment L5 waits for.
  l11.store->setData("/brokers/topics/t/partitions/0/state",
                     "{\"controller_epoch\":1,\"leader\":2,\"version\":1,\"leader_epoch\":0,\"isr\":[2,1]}", -1);
  const std::vector<zkcheck::ZkFinding> rewritten = zkcheck::findViolations(snapshotOf(l11.connect));
  ASSERT_EQ(rewritten.size(), 1u);
  EXPECT_EQ(rewritten[0].property_id, "L5");
}

// Broken states: the healthy Appendix B.1 end state (t-0 leader 1, ISR [1,2,3], brokers 1,2,3,
// controller 1 at epoch 1) with one thing planted.
constexpr const char* kState = "/brokers/topics/t/partitions/0/state";

std::string state(int leader, const std::string& isr, int controller_epoch = 1) {
  return "{\"controller_epoch\":" + std::to_string(controller_epoch) + ",\"leader\":" + std::to_string(leader) +
         ",\"version\":1,\"leader_epoch\":0,\"isr\":[" + isr + "]}";
}

TEST(CheckZk, EachPlantedViolationIsReportedExactly) {
  KCSPEC_REQUIRE_ZK(server);
  struct Plant {
    std::string kind;
    std::string property;
    void (*plant)(RealZkStore&);
  };
  const std::vector<Plant> plants = {
      {"malformed-znode", "", [](RealZkStore& zk) { zk.setData(kState, "{leader:1", -1); }},
      {"controller-epoch-behind", "T1", [](RealZkStore& zk) { zk.setData(kState, state(1, "1,2,3", 5), -1); }},
      {"leader-not-in-isr", "S1", [](RealZkStore& zk) { zk.setData(kState, state(1, "2,3"), -1); }},
      {"isr-outside-assignment", "S2", [](RealZkStore& zk) { zk.setData(kState, state(1, "1,2,3,4"), -1); }},
      {"empty-isr", "S3", [](RealZkStore& zk) { zk.setData(kState, state(-1, ""), -1); }},
      {"leader-not-registered", "", [](RealZkStore& zk) { zk.closeSession(impl::zk::registrationSession(1)); }},
      {"leaderless-with-live-isr", "L2", [](RealZkStore& zk) { zk.setData(kState, state(-1, "1,2,3"), -1); }},
      {"deletion-pending", "L1", [](RealZkStore& zk) { zk.create("/admin/delete_topics/t", ""); }},
      {"leftover-of-deleted-topic", "S5", [](RealZkStore& zk) { zk.create("/config/topics/gone", "{\"version\":1,\"config\":{}}"); }},
      {"reassignment-pending", "L5",
       [](RealZkStore& zk) {
         zk.setData("/brokers/topics/t",
                    "{\"version\":3,\"partitions\":{\"0\":[4,1,2,3]},\"adding_replicas\":{\"0\":[4]},\"removing_replicas\":{}}", -1);
       }},
      {"preferred-election-pending", "",
       [](RealZkStore& zk) {
         zk.create("/admin/preferred_replica_election", "{\"version\":1,\"partitions\":[{\"topic\":\"t\",\"partition\":0}]}");
       }},
  };
  EXPECT_EQ(plants.size(), std::size(zkcheck::kFindingKinds));  // one planted state per kind
  for (const Plant& p : plants) {
    const Populated zk = populate(server, "tests/cli/appendix_b1.scenario");
    ASSERT_EQ(kindsAt(zk.connect), Kinds{}) << p.kind;
    p.plant(*zk.store);
    const std::vector<zkcheck::ZkFinding> findings = zkcheck::findViolations(snapshotOf(zk.connect));
    ASSERT_EQ(findings.size(), 1u) << p.kind << ": " << (findings.empty() ? "" : findings[0].kind);
    EXPECT_EQ(findings[0].kind, p.kind);
    EXPECT_EQ(findings[0].property_id, p.property) << p.kind;
  }
  // The other leftover shape and the legacy reassignment znode.
  const Populated leftover = populate(server, "tests/cli/appendix_b1.scenario");
  leftover.store->create("/brokers/topics/t/partitions/7", "");
  EXPECT_EQ(kindsAt(leftover.connect), Kinds{"leftover-of-deleted-topic"});
  const Populated legacy = populate(server, "tests/cli/appendix_b1.scenario");
  legacy.store->create("/admin/reassign_partitions",
                       "{\"version\":1,\"partitions\":[{\"topic\":\"t\",\"partition\":0,\"replicas\":[3,2,1]}]}");
  EXPECT_EQ(kindsAt(legacy.connect), Kinds{"reassignment-pending"});
}

// Fields of the wrong JSON type (which nlohmann's value() throws on) are malformed znodes, never
// an exception out of readSnapshot.
TEST(CheckZk, MistypedFieldsAreMalformedZnodes) {
  KCSPEC_REQUIRE_ZK(server);
  const std::vector<std::pair<std::string, std::string>> plants = {
      {"/brokers/topics/t/partitions/0/state",
       "{\"controller_epoch\":1,\"leader\":1,\"version\":1,\"leader_epoch\":0,\"isr\":[1,2,3],"
       "\"leader_recovery_state\":\"recovering\"}"},
      {"/brokers/topics/t", "{\"version\":\"two\",\"partitions\":{\"0\":[1,2,3]}}"},
      {"/config/topics/t", "{\"version\":1,\"config\":{\"unclean.leader.election.enable\":true}}"},
  };
  for (const auto& [path, data] : plants) {
    const Populated zk = populate(server, "tests/cli/appendix_b1.scenario");
    if (zk.store->find(path) != nullptr) {
      zk.store->setData(path, data, -1);
    } else {
      zk.store->create(path, data);
    }
    zkcheck::ZkSnapshot snapshot;
    ASSERT_NO_THROW(snapshot = snapshotOf(zk.connect)) << path;
    ASSERT_EQ(snapshot.malformed.size(), 1u) << path;
    EXPECT_EQ(snapshot.malformed[0].path, path);
    EXPECT_EQ(kindsAt(zk.connect), Kinds{"malformed-znode"}) << path;
  }
}

// A value with terminal escape codes (anything may be in a cluster's ZooKeeper) is reported with
// them escaped, in the text report and in its lines (--watch).
TEST(CheckZk, EscapeCodesInZnodeValuesAreEscapedInTheReport) {
  KCSPEC_REQUIRE_ZK(server);
  const Populated zk = populate(server, "tests/cli/appendix_b1.scenario");
  // Valid JSON: the escape is a \u001b in a string, which the reader decodes and quotes.
  zk.store->setData("/brokers/topics/t", "{\"version\":\"\\u001b[2J\\u001b[31mtwo\",\"partitions\":{\"0\":[1,2,3]}}", -1);
  const zkcheck::ZkSnapshot snapshot = snapshotOf(zk.connect);
  const std::vector<zkcheck::ZkFinding> findings = zkcheck::findViolations(snapshot);
  const std::string text = zkcheck::renderText(snapshot, findings);
  EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
  EXPECT_NE(text.find("\\u001b[2J"), std::string::npos) << text;
  for (const std::string& line : zkcheck::reportLines(snapshot, findings)) EXPECT_EQ(line.find('\x1b'), std::string::npos) << line;
}

// An integer that does not fit Kafka's 32-bit Int is a malformed znode naming the field and the
// value — never read as another number (4294967298 as 2 would hide an ISR member outside the
// assignment; 4294967297 as broker 1 a controller that does not exist).
TEST(CheckZk, IntegersThatDoNotFitAreMalformedZnodesWithTheirValue) {
  KCSPEC_REQUIRE_ZK(server);
  struct Plant {
    std::string path, data, message;
  };
  const std::vector<Plant> plants = {
      {"/brokers/topics/t/partitions/0/state",
       "{\"controller_epoch\":1,\"leader\":1,\"version\":1,\"leader_epoch\":0,\"isr\":[1,4294967298]}",
       "\"isr\" is 4294967298, which does not fit Kafka's 32-bit Int"},
      {"/brokers/topics/t/partitions/0/state",
       "{\"controller_epoch\":1,\"leader\":-2147483649,\"version\":1,\"leader_epoch\":0,\"isr\":[1]}",
       "\"leader\" is -2147483649, which does not fit Kafka's 32-bit Int"},
      {"/controller", "{\"version\":1,\"brokerid\":4294967297,\"timestamp\":\"1\"}",
       "\"brokerid\" is 4294967297, which does not fit Kafka's 32-bit Int"},
      {"/brokers/topics/t", "{\"version\":2,\"partitions\":{\"0\":[1,18446744073709551615]}}",
       "partition \"0\" is not a number with a list of broker ids: \"replicas\" is 18446744073709551615, which does not fit "
       "Kafka's 32-bit Int"},
  };
  for (const Plant& plant : plants) {
    const Populated zk = populate(server, "tests/cli/appendix_b1.scenario");
    if (zk.store->find(plant.path) != nullptr) {
      zk.store->setData(plant.path, plant.data, -1);
    } else {
      zk.store->create(plant.path, plant.data);
    }
    zkcheck::ZkSnapshot snapshot;
    ASSERT_NO_THROW(snapshot = snapshotOf(zk.connect)) << plant.data;
    ASSERT_EQ(snapshot.malformed.size(), 1u) << plant.data;
    EXPECT_EQ(snapshot.malformed[0].path, plant.path);
    EXPECT_EQ(snapshot.malformed[0].message, plant.message);
  }
}

// ------------------------------------------------------------------ the command line

struct CommandResult {
  int exit_status = -1;
  std::string output;  // stdout and stderr
};

CommandResult runKcspec(const std::string& args) {
  CommandResult run;
  FILE* pipe = ::popen((std::string(KCSPEC_BINARY) + " " + args + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return run;
  char buffer[4096];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) run.output.append(buffer, n);
  const int status = ::pclose(pipe);
  run.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

TEST(CheckZkCommand, JsonListsExactlyThePlantedViolation) {
  KCSPEC_REQUIRE_ZK(server);
  const Populated zk = populate(server, "tests/cli/appendix_b1.scenario");
  const CommandResult healthy = runKcspec("check-zk --zookeeper " + zk.connect + " --json");
  ASSERT_EQ(healthy.exit_status, 0) << healthy.output;
  zk.store->setData(kState, state(1, "2,3"), -1);
  const CommandResult broken = runKcspec("check-zk --zookeeper " + zk.connect + " --json");
  ASSERT_EQ(broken.exit_status, 1) << broken.output;
  const nlohmann::json report = nlohmann::json::parse(broken.output);
  ASSERT_EQ(report["findings"].size(), 1u);
  EXPECT_EQ(report["findings"][0]["kind"], "leader-not-in-isr");
  EXPECT_EQ(report["findings"][0]["property"], "S1");
  EXPECT_EQ(report["findings"][0]["property_name"], "LeaderInIsr");
  EXPECT_EQ(report["findings"][0]["path"], kState);
  EXPECT_EQ(report["controller"], 1);
  EXPECT_EQ(report["topics"][0]["topic"], "t");
  EXPECT_EQ(report["topics"][0]["partitions"][0]["state"]["isr"], (nlohmann::json{2, 3}));
  const CommandResult text = runKcspec("check-zk --zookeeper " + zk.connect);
  EXPECT_EQ(text.exit_status, 1);
  EXPECT_NE(text.output.find("topic t: 1 partitions, 0 offline, 1 under-replicated"), std::string::npos) << text.output;
  EXPECT_NE(text.output.find("leader-not-in-isr (S1 LeaderInIsr): t-0 leader 1 is not in its ISR [2,3]"), std::string::npos)
      << text.output;
}

TEST(CheckZkCommand, NeverWrites) {
  KCSPEC_REQUIRE_ZK(server);
  const Populated zk = populate(server, "tests/scenarios/appendix_b2.scenario");
  const auto before = zk.store->dump(10000);
  EXPECT_EQ(runKcspec("check-zk --zookeeper " + zk.connect + " --watch 0.1 --rounds 3").exit_status, 0);
  const auto after = zk.store->dump(10000);
  ASSERT_EQ(before.size(), after.size());
  for (std::size_t i = 0; i < before.size(); ++i) {
    EXPECT_EQ(before[i].first, after[i].first);
    EXPECT_EQ(before[i].second.data, after[i].second.data) << before[i].first;
    EXPECT_EQ(before[i].second.stat.version, after[i].second.stat.version) << before[i].first;
  }
  // A missing chroot is reported, not created.
  const std::string missing = server + zktest::freshChroot("missing");
  const CommandResult run = runKcspec("check-zk --zookeeper " + missing);
  EXPECT_EQ(run.exit_status, 2);
  EXPECT_NE(run.output.find("no /brokers znode"), std::string::npos) << run.output;
  RealZkOptions root;
  root.connect = server;
  EXPECT_EQ(RealZkStore(root).find(missing.substr(missing.find('/'))), nullptr);
}

TEST(CheckZkCommand, WatchReportsWhatChanged) {
  KCSPEC_REQUIRE_ZK(server);
  const Populated zk = populate(server, "tests/cli/appendix_b1.scenario");
  FILE* pipe = ::popen((std::string(KCSPEC_BINARY) + " check-zk --zookeeper " + zk.connect + " --watch 0.2 --rounds 25 2>&1").c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string output;
  char line[4096];
  bool planted = false;
  bool seen = false;
  while (std::fgets(line, sizeof line, pipe) != nullptr) {
    output += line;
    if (!planted && std::string(line).find("0 findings") != std::string::npos) {
      zk.store->setData(kState, state(-1, "1,2,3"), -1);
      planted = true;
    }
    if (std::string(line).find("+ finding leaderless-with-live-isr (L2 LiveIsrMemberMeansLeader)") != std::string::npos) seen = true;
  }
  const int status = ::pclose(pipe);
  EXPECT_TRUE(planted) << output;
  EXPECT_TRUE(seen) << output;
  EXPECT_NE(output.find("- topic t: 1 partitions, 0 offline"), std::string::npos) << output;
  EXPECT_NE(output.find("+   t-0 replicas [1,2,3] leader -1"), std::string::npos) << output;
  EXPECT_EQ(WEXITSTATUS(status), 1) << output;  // findings in the last round
}

// Ctrl-C ends a watch between rounds: each round's report is whole, and the exit status is the
// last round's (0 here: nothing to report), not death by the signal.
TEST(CheckZkCommand, CtrlCEndsAWatchBetweenRoundsWithTheLastRoundsStatus) {
  KCSPEC_REQUIRE_ZK(server);
  const Populated zk = populate(server, "tests/cli/appendix_b1.scenario");
  // `exec` keeps the shell's pid for kcspec, which the first line reports.
  FILE* pipe = ::popen(("echo $$; exec " + std::string(KCSPEC_BINARY) + " check-zk --zookeeper " + zk.connect +
                        " --watch 0.2 --rounds 100000 2>&1")
                           .c_str(),
                       "r");
  ASSERT_NE(pipe, nullptr);
  std::string output;
  char line[4096];
  pid_t pid = 0;
  bool sent = false;
  while (std::fgets(line, sizeof line, pipe) != nullptr) {  // ends when kcspec exits
    if (pid == 0) {
      pid = static_cast<pid_t>(std::stol(line));
      continue;
    }
    output += line;
    if (!sent && std::string(line).rfind("round 3: ", 0) == 0) {
      ::kill(pid, SIGINT);
      sent = true;
    }
  }
  const int status = ::pclose(pipe);
  ASSERT_TRUE(sent) << output;
  ASSERT_TRUE(WIFEXITED(status)) << "killed by a signal\n" << output;
  EXPECT_EQ(WEXITSTATUS(status), 0) << output;
  EXPECT_NE(output.find("check-zk: interrupted after round "), std::string::npos) << output;
}

// A znode the check may not read (an ACL for another identity) stops it with the server's answer.
TEST(CheckZkCommand, AZnodeItMayNotReadExitsTwo) {
  KCSPEC_REQUIRE_ZK(server);
  const Populated zk = populate(server, "tests/cli/appendix_b1.scenario");
  zhandle_t* raw = zookeeper_init(zk.connect.c_str(), nullptr, 10000, nullptr, nullptr, 0);
  ASSERT_NE(raw, nullptr);
  char scheme[] = "digest";
  char id[] = "someone:bm90IGEgcmVhbCBoYXNo";
  ACL acl{ZOO_PERM_ALL, {scheme, id}};
  ACL_vector acls{1, &acl};
  int rc = ZCONNECTIONLOSS;
  for (int attempt = 0; attempt < 50 && rc == ZCONNECTIONLOSS; ++attempt) {  // until connected
    rc = zoo_create(raw, "/config/topics/secret", "{}", 2, &acls, 0, nullptr, 0);
    if (rc == ZCONNECTIONLOSS) ::usleep(100000);
  }
  zookeeper_close(raw);
  ASSERT_EQ(rc, ZOK);
  const CommandResult run = runKcspec("check-zk --zookeeper " + zk.connect);
  EXPECT_EQ(run.exit_status, 2);
  EXPECT_NE(run.output.find("not authenticated (-102) for /config/topics/secret"), std::string::npos) << run.output;
}

TEST(CheckZkCommand, BadInputAndUnreachableServersExitTwo) {
  const CommandResult bad = runKcspec("check-zk --zookeeper nonsense");
  EXPECT_EQ(bad.exit_status, 2);
  EXPECT_NE(bad.output.find("--zookeeper: 'nonsense': 'nonsense' is not HOST:PORT"), std::string::npos) << bad.output;
  const CommandResult port = runKcspec("check-zk --zookeeper 127.0.0.1:99999");
  EXPECT_EQ(port.exit_status, 2);
  EXPECT_NE(port.output.find("is not a port number"), std::string::npos) << port.output;
  const CommandResult unreachable = runKcspec("check-zk --zookeeper 127.0.0.1:1 --connect-timeout-ms 500");
  EXPECT_EQ(unreachable.exit_status, 2);
  EXPECT_NE(unreachable.output.find("cannot connect to ZooKeeper at '127.0.0.1:1' within 500 ms"), std::string::npos)
      << unreachable.output;
  const CommandResult missing = runKcspec("check-zk");
  EXPECT_EQ(missing.exit_status, 2);
}

}  // namespace
}  // namespace kcspec
