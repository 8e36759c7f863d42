// `kcspec check-log`: the log checker on logs written from the templates of kafka.md §7
// (tests/conformance/logs/, one file per format generation and per finding kind), and on inline
// text for the edge cases. Line numbers below are the planted lines of those files.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "proofs/conformance/check_report_text.hpp"
#include "proofs/conformance/log_checker.hpp"
#include "proofs/conformance/log_line.hpp"

namespace kcspec::conformance {
namespace {

const std::filesystem::path kLogs = std::filesystem::path(KCSPEC_SOURCE_DIR) / "tests" / "conformance" / "logs";

struct Checked {
  CheckReport report;
  std::vector<std::uint64_t> unparsed_lines;
};

Checked checkFiles(const std::vector<std::string>& names, CheckOptions options = {}) {
  LogChecker checker(options);
  Checked out;
  checker.setUnparsedSink([&out](std::string_view, std::uint64_t line, std::string_view) { out.unparsed_lines.push_back(line); });
  for (const std::string& name : names) {
    const auto error = checker.checkFile((kLogs / name).string());
    EXPECT_FALSE(error.has_value()) << *error;
  }
  out.report = checker.finish();
  return out;
}

Checked checkFile(const std::string& name) { return checkFiles({name}); }

Checked checkText(const std::string& text) {
  LogChecker checker;
  Checked out;
  checker.setUnparsedSink([&out](std::string_view, std::uint64_t line, std::string_view) { out.unparsed_lines.push_back(line); });
  checker.checkText(text, "inline.log");
  out.report = checker.finish();
  return out;
}

// (line, kind) of every finding, in report order.
std::vector<std::pair<std::uint64_t, std::string>> findings(const CheckReport& report) {
  std::vector<std::pair<std::uint64_t, std::string>> out;
  for (const Finding& f : report.findings) out.emplace_back(f.line, std::string(findingKindName(f.kind)));
  return out;
}

using Expected = std::vector<std::pair<std::uint64_t, std::string>>;

void expectAccounted(const CheckReport& report) {
  EXPECT_EQ(report.lines, report.parsed + report.unparsed + report.blank);
}

// --- Appendix B, clean -------------------------------------------------------------------------

TEST(CheckLog, CleanAppendixBLogsHaveNoFindings) {
  for (const char* name : {"clean_3.8_create_delete_recreate.log",  // B.1, B.4, B.1 again (TRACE)
                           "clean_3.8_hard_failure_info.log",       // B.1, B.2 at INFO: P4 lines absent
                           "clean_3.8_controlled_shutdown.log"}) {  // B.1, B.3 (TRACE)
    SCOPED_TRACE(name);
    const Checked c = checkFile(name);
    EXPECT_EQ(findings(c.report), Expected{});
    EXPECT_EQ(c.report.unparsed, 0u);
    EXPECT_GT(c.report.parsed, 10u);
    expectAccounted(c.report);
    ASSERT_EQ(c.report.partitions.size(), 1u);
    EXPECT_EQ(c.report.partitions[0].topic, "t");
    EXPECT_EQ(c.report.partitions[0].last_state, "OnlinePartition");
  }
}

TEST(CheckLog, CreateDeleteRecreateCountsEveryChange) {
  const Checked c = checkFile("clean_3.8_create_delete_recreate.log");
  ASSERT_EQ(c.report.partitions.size(), 1u);
  // B.1 (2) + B.4 (2) + B.1 (2) partition changes; B.1 has 6 replica changes, B.4 has 12.
  EXPECT_EQ(c.report.partitions[0].partition_changes, 6u);
  EXPECT_EQ(c.report.partitions[0].replica_changes, 24u);
  EXPECT_EQ(c.report.partitions[0].replicas, 3u);
}

// --- one finding of each kind, planted after a clean B.1 ---------------------------------------

class PlantedFinding : public ::testing::TestWithParam<std::tuple<const char*, const char*, std::uint64_t>> {};

TEST_P(PlantedFinding, ExactlyThatFindingAtThatLine) {
  const auto& [file, kind, line] = GetParam();
  const Checked c = checkFile(file);
  EXPECT_EQ(findings(c.report), (Expected{{line, kind}}));
  EXPECT_EQ(c.report.unparsed, 0u);
  ASSERT_EQ(c.report.findings.size(), 1u);
  EXPECT_EQ(c.report.files[c.report.findings[0].file], (kLogs / file).string());
  EXPECT_FALSE(c.report.findings[0].message.empty());
}

INSTANTIATE_TEST_SUITE_P(
    EveryKind, PlantedFinding,
    ::testing::Values(std::make_tuple("finding_invalid_transition.log", "invalid-transition", 19),
                      std::make_tuple("finding_kafka_failure.log", "kafka-failure", 19),
                      std::make_tuple("finding_from_state_mismatch.log", "from-state-mismatch", 19),
                      std::make_tuple("finding_leader_not_in_isr.log", "leader-not-in-isr", 19),
                      std::make_tuple("finding_leader_epoch_backwards.log", "leader-epoch-backwards", 20),
                      std::make_tuple("finding_partition_epoch_backwards.log", "partition-epoch-backwards", 20),
                      std::make_tuple("finding_controller_epoch_backwards.log", "controller-epoch-backwards", 19)),
    [](const ::testing::TestParamInfo<PlantedFinding::ParamType>& param) {
      std::string name = std::get<1>(param.param);
      for (char& ch : name) {
        if (ch == '-') ch = '_';
      }
      return name;
    });

TEST(CheckLog, FindingMessagesNameWhatWasSeen) {
  EXPECT_NE(checkFile("finding_invalid_transition.log").report.findings.at(0).message.find(
                "partition t-0 changed from OnlinePartition to NonExistentPartition"),
            std::string::npos);
  const std::string failure = checkFile("finding_kafka_failure.log").report.findings.at(0).message;
  EXPECT_NE(failure.find("from OnlinePartition to NewPartition"), std::string::npos) << failure;
  EXPECT_NE(failure.find("should be in one of NonExistentPartition states"), std::string::npos) << failure;
  const std::string mismatch = checkFile("finding_from_state_mismatch.log").report.findings.at(0).message;
  EXPECT_NE(mismatch.find("last logged state is OnlinePartition"), std::string::npos) << mismatch;
  EXPECT_NE(checkFile("finding_leader_not_in_isr.log").report.findings.at(0).message.find("leader 4 is not in ISR [2,3]"),
            std::string::npos);
}

// --- exceptions, garbage, layouts ------------------------------------------------------------------

TEST(CheckLog, WrappedStackTracesFoldIntoTheirRecord) {
  const Checked c = checkFile("stack_traces.log");
  // P5 no live replica, P5 ZK error (New→New quirk) with a Caused by block, R3 invalid replica
  // transition, P5 failed election, and a lone IllegalStateException whose record head is not a
  // failure line: one finding each, at the record's first line.
  EXPECT_EQ(findings(c.report), (Expected{{4, "kafka-failure"},
                                          {8, "kafka-failure"},
                                          {23, "kafka-failure"},
                                          {29, "kafka-failure"},
                                          {33, "kafka-failure"}}));
  EXPECT_EQ(c.report.unparsed, 0u);
  EXPECT_EQ(c.report.parsed, c.report.lines);
  EXPECT_NE(c.report.findings[3].message.find("Failed to elect leader for partition t-0"), std::string::npos);
  EXPECT_NE(c.report.findings[2].message.find("replica 1 of partition t-0"), std::string::npos);
}

TEST(CheckLog, GarbageLinesAreCountedNotFatal) {
  const Checked c = checkFile("garbage.log");
  EXPECT_EQ(findings(c.report), Expected{});
  EXPECT_EQ(c.report.lines, 29u);
  EXPECT_EQ(c.report.blank, 2u);
  EXPECT_EQ(c.report.unparsed, 9u);
  // Prose, a line cut short, control bytes, another logger, an unknown state name, a replica id
  // that is not a number, punctuation, a 1.1+ message without its prefix, invalid UTF-8.
  EXPECT_EQ(c.unparsed_lines, (std::vector<std::uint64_t>{2, 5, 8, 9, 12, 13, 16, 20, 29}));
  expectAccounted(c.report);
}

TEST(CheckLog, BinaryGarbageIsUnparsedNotBadInput) {
  const Checked c = checkFile("binary_garbage.bin");
  EXPECT_EQ(findings(c.report), Expected{});
  EXPECT_GT(c.report.unparsed, 0u);
  EXPECT_EQ(c.report.parsed, 0u);
  expectAccounted(c.report);
}

TEST(CheckLog, DockerComposePrefixes) {
  const Checked c = checkFile("docker_compose.log");
  EXPECT_EQ(findings(c.report), (Expected{{21, "kafka-failure"}}));
  EXPECT_EQ(c.report.unparsed, 0u);
}

TEST(CheckLog, CustomLayout) {
  const Checked c = checkFile("custom_layout.log");
  EXPECT_EQ(findings(c.report), (Expected{{19, "invalid-transition"}}));
  EXPECT_EQ(c.report.unparsed, 0u);
}

TEST(CheckLog, ControllerLogLinesAreParsedAndQuiet) {
  const Checked c = checkFile("controller.log");
  EXPECT_EQ(findings(c.report), Expected{});
  EXPECT_EQ(c.report.parsed, 18u);
  EXPECT_EQ(c.report.unparsed, 0u);
}

// A state-change line whose first word is misspelt is no message kcspec knows: it is counted
// unparsed (and listed by --verbose), never taken for a record that carries nothing.
TEST(CheckLog, MisspeltFirstWordIsUnparsedNotDropped) {
  const std::string misspelt =
      "[2024-07-23 00:00:00,000] INFO [Controller id=2 epoch=1] Chnaged partition t-0 state from OnlinePartition to "
      "NewPartition (state.change.logger)\n";
  const Checked c = checkText(misspelt);
  EXPECT_EQ(findings(c.report), Expected{});
  EXPECT_EQ(c.report.parsed, 0u);
  EXPECT_EQ(c.report.unparsed, 1u);
  EXPECT_EQ(c.unparsed_lines, (std::vector<std::uint64_t>{1}));
  expectAccounted(c.report);

  // Spelt right, the same line is an invalid transition.
  const Checked spelt = checkText(
      "[2024-07-23 00:00:00,000] INFO [Controller id=2 epoch=1] Changed partition t-0 state from OnlinePartition to "
      "NewPartition (state.change.logger)\n");
  EXPECT_EQ(findings(spelt.report), (Expected{{1, "invalid-transition"}}));
  EXPECT_EQ(spelt.report.unparsed, 0u);
}

TEST(CheckLog, MisspeltFirstWordsInALog) {
  const Checked c = checkFile("misspelt_first_word.log");
  EXPECT_EQ(findings(c.report), Expected{});
  // `Chnaged`, `Sendng` (C1, C3), `Prtition` (R2) with the epoch; `Recieved` (K3) from the
  // state-change logger without the epoch; `Chnaged … from OnlineReplica to OfflineReplica` with
  // neither; 0.8's `chnaged`.
  EXPECT_EQ(c.unparsed_lines, (std::vector<std::uint64_t>{1, 2, 3, 4, 5, 6, 7}));
  // KafkaController's own controller.log line, a broker-side line, K5, 0.8's `started leader election`.
  EXPECT_EQ(c.report.parsed, 4u);
  expectAccounted(c.report);
}

// --- format generations ----------------------------------------------------------------------------

TEST(CheckLog, Format08) {
  const Checked c = checkFile("format_0.8.log");
  EXPECT_EQ(findings(c.report), (Expected{{12, "kafka-failure"}, {18, "invalid-transition"}}));
  EXPECT_EQ(c.report.unparsed, 0u);
  ASSERT_EQ(c.report.partitions.size(), 2u);
  EXPECT_EQ(c.report.partitions[0].replica_changes, 6u);  // lines with and without the log4j layout
}

TEST(CheckLog, Format10) {
  const Checked c = checkFile("format_1.0.log");
  EXPECT_EQ(findings(c.report), (Expected{{7, "from-state-mismatch"}}));
  EXPECT_EQ(c.report.unparsed, 0u);
}

TEST(CheckLog, Format11To23) {
  const Checked c = checkFile("format_1.1_2.3.log");
  EXPECT_EQ(findings(c.report), (Expected{{6, "leader-not-in-isr"}}));  // in a hand-written PartitionState
  EXPECT_EQ(c.report.unparsed, 0u);
}

TEST(CheckLog, Format24To31) {
  const Checked c = checkFile("format_2.4_3.1.log");
  EXPECT_EQ(findings(c.report), (Expected{{9, "partition-epoch-backwards"}}));  // LICE ZkVersion (3.1)
  EXPECT_EQ(c.report.unparsed, 0u);
}

TEST(CheckLog, Formats32And33AreClean) {
  for (const char* name : {"format_3.2.log", "format_3.3.log"}) {
    SCOPED_TRACE(name);
    const Checked c = checkFile(name);
    EXPECT_EQ(findings(c.report), Expected{});
    EXPECT_EQ(c.report.unparsed, 0u);
  }
}

// --- rules on inline text ----------------------------------------------------------------------------

constexpr const char* kP1 =
    "[2024-07-23 10:00:00,001] INFO [Controller id=1 epoch=1] Changed partition t-0 state from NonExistentPartition to NewPartition with assigned replicas 1,2 (state.change.logger)\n";
// A TRACE line: it shows the log has TRACE on, so P4/R1 changes are not missing from it.
constexpr const char* kTrace =
    "[2024-07-23 10:00:00,000] TRACE [Controller id=1 epoch=1] Changed state of replica 1 for partition t-0 from NonExistentReplica to NewReplica (state.change.logger)\n";
constexpr const char* kP2 =
    "[2024-07-23 10:00:00,002] INFO [Controller id=1 epoch=1] Changed partition t-0 from NewPartition to OnlinePartition with state LeaderAndIsr(leader=1, leaderEpoch=0, isrWithBrokerEpoch=List(BrokerState(brokerId=1, brokerEpoch=-1), BrokerState(brokerId=2, brokerEpoch=-1)), leaderRecoveryState=RECOVERED, partitionEpoch=0) (state.change.logger)\n";

TEST(CheckLog, InfoLevelLogsAllowTheTraceOnlyChangesInBetween) {
  // At INFO (2.6+ default) Online→Offline is not logged; Offline→Online must not look wrong.
  const std::string p3 =
      "[2024-07-23 10:00:00,003] INFO [Controller id=1 epoch=1] Changed partition t-0 from OfflinePartition to OnlinePartition with state LeaderAndIsr(leader=2, leaderEpoch=1, isrWithBrokerEpoch=List(BrokerState(brokerId=2, brokerEpoch=-1)), leaderRecoveryState=RECOVERED, partitionEpoch=1) (state.change.logger)\n";
  EXPECT_EQ(findings(checkText(std::string(kP1) + kP2 + p3).report), Expected{});
  // Once a TRACE line shows TRACE is logged, the same gap is a finding.
  const std::string trace =
      "[2024-07-23 10:00:00,002] TRACE [Controller id=1 epoch=1] Changed state of replica 1 for partition t-0 from NonExistentReplica to NewReplica (state.change.logger)\n";
  EXPECT_EQ(findings(checkText(std::string(kP1) + trace + kP2 + p3).report), (Expected{{4, "from-state-mismatch"}}));
}

TEST(CheckLog, ControllerChangeResetsWhatIsKnown) {
  const std::string trace_offline =
      "[2024-07-23 10:00:00,003] TRACE [Controller id=%d epoch=%d] Changed partition t-0 state from OfflinePartition to NonExistentPartition (state.change.logger)\n";
  auto line = [&](int id, int epoch) {
    std::string out(trace_offline.size() + 8, '\0');
    out.resize(static_cast<std::size_t>(std::snprintf(out.data(), out.size(), trace_offline.c_str(), id, epoch)));
    return out;
  };
  // Same controller: Online, then "from Offline" — a mismatch.
  EXPECT_EQ(findings(checkText(std::string(kTrace) + kP1 + kP2 + line(1, 1)).report), (Expected{{4, "from-state-mismatch"}}));
  // A new epoch or a new controller id: the new controller's state is not known.
  EXPECT_EQ(findings(checkText(std::string(kTrace) + kP1 + kP2 + line(1, 2)).report), Expected{});
  EXPECT_EQ(findings(checkText(std::string(kTrace) + kP1 + kP2 + line(2, 1)).report), Expected{});
}

TEST(CheckLog, EpochsMayRestartUnderANewControllerOrAfterRecreation) {
  const std::string p3_epoch5 =
      "[2024-07-23 10:00:00,003] INFO [Controller id=1 epoch=%d] Changed partition t-0 from OnlinePartition to OnlinePartition with state LeaderAndIsr(leader=1, leaderEpoch=%d, isr=List(1, 2), leaderRecoveryState=RECOVERED, partitionEpoch=%d) (state.change.logger)\n";
  auto p3 = [&](int controller_epoch, int leader_epoch, int partition_epoch) {
    std::string out(p3_epoch5.size() + 16, '\0');
    out.resize(static_cast<std::size_t>(
        std::snprintf(out.data(), out.size(), p3_epoch5.c_str(), controller_epoch, leader_epoch, partition_epoch)));
    return out;
  };
  EXPECT_EQ(findings(checkText(p3(1, 5, 5) + p3(1, 4, 5)).report), (Expected{{2, "leader-epoch-backwards"}}));
  EXPECT_EQ(findings(checkText(p3(1, 5, 5) + p3(1, 5, 4)).report), (Expected{{2, "partition-epoch-backwards"}}));
  EXPECT_EQ(findings(checkText(p3(1, 5, 5) + p3(2, 1, 1)).report), Expected{});  // another controller epoch
  // Deleted and re-created (P1 in between): epochs start again at 0.
  const std::string p1 =
      "[2024-07-23 10:00:00,004] INFO [Controller id=1 epoch=1] Changed partition t-0 state from NonExistentPartition to NewPartition with assigned replicas 1,2 (state.change.logger)\n";
  const std::string p2 =
      "[2024-07-23 10:00:00,005] INFO [Controller id=1 epoch=1] Changed partition t-0 from NewPartition to OnlinePartition with state LeaderAndIsr(leader=1, leaderEpoch=0, isr=List(1, 2), leaderRecoveryState=RECOVERED, partitionEpoch=0) (state.change.logger)\n";
  EXPECT_EQ(findings(checkText(p3(1, 5, 5) + p1 + p2 + p3(1, 1, 1)).report), Expected{});
  EXPECT_EQ(findings(checkText(p3(1, 5, 5) + p2).report), (Expected{{2, "from-state-mismatch"},
                                                                     {2, "leader-epoch-backwards"},
                                                                     {2, "partition-epoch-backwards"}}));
}

TEST(CheckLog, NoLeaderAndLeaderDuringDeleteNeedNotBeInTheIsr) {
  const std::string r2 =
      "[2024-07-23 10:00:00,005] INFO [Controller id=1 epoch=1] Partition t-0 state changed to (Leader:%d,ISR:3,LeaderRecoveryState:RECOVERED,LeaderEpoch:2,ZkVersion:2,ControllerEpoch:1) after removing replica 2 from the ISR as part of transition to OfflineReplica (state.change.logger)\n";
  auto line = [&](int leader) {
    std::string out(r2.size() + 8, '\0');
    out.resize(static_cast<std::size_t>(std::snprintf(out.data(), out.size(), r2.c_str(), leader)));
    return out;
  };
  EXPECT_EQ(findings(checkText(line(-1)).report), Expected{});
  EXPECT_EQ(findings(checkText(line(-2)).report), Expected{});
  EXPECT_EQ(findings(checkText(line(3)).report), Expected{});
  EXPECT_EQ(findings(checkText(line(2)).report), (Expected{{1, "leader-not-in-isr"}}));
}

TEST(CheckLog, ReplicaTimelines) {
  const std::string r1 =
      "TRACE [Controller id=1 epoch=1] Changed state of replica 2 for partition t-0 from %s to %s\n";
  auto line = [&](const char* from, const char* to) {
    std::string out(r1.size() + 64, '\0');
    out.resize(static_cast<std::size_t>(std::snprintf(out.data(), out.size(), r1.c_str(), from, to)));
    return out;
  };
  const Checked c = checkText(line("NonExistentReplica", "NewReplica") + line("NewReplica", "OnlineReplica") +
                              line("OnlineReplica", "ReplicaDeletionStarted") +          // invalid
                              line("OfflineReplica", "ReplicaDeletionIneligible"));     // from ≠ Started
  EXPECT_EQ(findings(c.report), (Expected{{3, "invalid-transition"}, {4, "from-state-mismatch"}}));
  EXPECT_NE(c.report.findings[0].message.find("valid previous states: OfflineReplica"), std::string::npos);
}

TEST(CheckLog, ControllerEpochBackwardsIsPerFile) {
  // Two files of two brokers: the second (controller 1, epoch 1) starts below the first
  // (controller 0, epoch 3), which is no finding.
  const Checked c = checkFiles({"format_1.0.log", "finding_kafka_failure.log"});
  EXPECT_EQ(findings(c.report), (Expected{{7, "from-state-mismatch"}, {19, "kafka-failure"}}));
  EXPECT_EQ(c.report.files.size(), 2u);
  EXPECT_EQ(c.report.findings[0].file, 0u);
  EXPECT_EQ(c.report.findings[1].file, 1u);
}

TEST(CheckLog, RotatedFilesOfOneControllerAreOneTimeline) {
  const std::string dir = ::testing::TempDir();
  const std::string first = dir + "/state-change.log.1";
  const std::string second = dir + "/state-change.log";
  std::ofstream(first) << kTrace << kP1 << kP2;
  std::ofstream(second)
      << "[2024-07-23 10:00:00,009] TRACE [Controller id=1 epoch=1] Changed partition t-0 state from OfflinePartition to NonExistentPartition (state.change.logger)\n";
  LogChecker checker;
  EXPECT_FALSE(checker.checkFile(first).has_value());
  EXPECT_FALSE(checker.checkFile(second).has_value());
  const CheckReport report = checker.finish();
  ASSERT_EQ(findings(report), (Expected{{1, "from-state-mismatch"}}));
  EXPECT_EQ(report.files[report.findings[0].file], second);
}

// --- streaming ----------------------------------------------------------------------------------------

TEST(CheckLog, SmallReadBuffersAndLongLinesGiveTheSameAnswer) {
  const std::string path = ::testing::TempDir() + "/long_lines.log";
  const std::string valid(kP2);
  {
    std::ofstream out(path, std::ios::binary);
    out << kP1 << std::string(300 * 1024, 'x') << '\n'  // long, under the cap: read by growing the buffer
        << kP2 << std::string(3 * 1024 * 1024, 'y') << '\n'  // over the 1 MiB cap: skipped
        << valid.substr(0, valid.size() - 1);  // the last line has no '\n'
  }
  // read(2) with buffers of several sizes (map_window_bytes 0), and mmap windows: the smallest
  // window (2 × the line cap + 2 pages: the over-cap line spans windows) and the default.
  const std::vector<CheckOptions> ways = {
      CheckOptions{.read_buffer_bytes = 4096, .map_window_bytes = 0},
      CheckOptions{.read_buffer_bytes = std::size_t{256} << 10, .map_window_bytes = 0},
      CheckOptions{.read_buffer_bytes = std::size_t{8} << 20, .map_window_bytes = 0},
      CheckOptions{.map_window_bytes = 1},
      CheckOptions{}};
  for (std::size_t way = 0; way < ways.size(); ++way) {
    SCOPED_TRACE(way);
    LogChecker checker(ways[way]);
    std::vector<std::uint64_t> unparsed;
    checker.setUnparsedSink([&](std::string_view, std::uint64_t line, std::string_view) { unparsed.push_back(line); });
    ASSERT_FALSE(checker.checkFile(path).has_value());
    const CheckReport report = checker.finish();
    EXPECT_EQ(report.lines, 5u);
    EXPECT_EQ(report.parsed, 3u);
    EXPECT_EQ(unparsed, (std::vector<std::uint64_t>{2, 4}));
    // Line 5 repeats New→Online after Online. No TRACE line was seen, so the TRACE-only changes
    // may be missing from the log, but NewPartition is not reachable from Online through them.
    EXPECT_EQ(findings(report), (Expected{{5, "from-state-mismatch"}}));
  }
}

TEST(CheckLog, UnreadableInputIsReported) {
  LogChecker checker;
  const auto missing = checker.checkFile((kLogs / "no-such.log").string());
  ASSERT_TRUE(missing.has_value());
  EXPECT_NE(missing->find("cannot open"), std::string::npos);
  EXPECT_TRUE(cannotOpen(kLogs.string()).has_value());  // a directory
  EXPECT_FALSE(cannotOpen((kLogs / "garbage.log").string()).has_value());
}

// --- the line parser ------------------------------------------------------------------------------------

TEST(LogLine, LayoutsAroundOneMessage) {
  const std::string message =
      "[Controller id=7 epoch=9] Changed partition my-topic.v2-12 state from OnlinePartition to OfflinePartition";
  for (const std::string& line : {message, "[2024-07-23 10:00:00,001] TRACE " + message + " (state.change.logger)",
                                  "2024-07-23 10:00:00 TRACE state.change.logger:123 - " + message,
                                  "kafka_1  | [2024-07-23 10:00:00,001] TRACE " + message + " (state.change.logger)",
                                  "\x1b[36mkafka-1  |\x1b[0m " + message,
                                  "2024-07-23T10:00:00.1234567Z [2024-07-23 10:00:00,001] TRACE " + message,
                                  "[2024-07-23 10:00:00,001] TRACE [controller-event-thread] " + message + "\r",
                                  // `date LEVEL logger: message` (a timestamp, the level, the full
                                  // logger name and a colon: the layout of some distributions)
                                  "2024-07-23 10:00:00,001 TRACE state.change.logger: " + message,
                                  // `LEVEL Logger:NN - message` with a logger name without a dot
                                  "2024-07-23 10:00:00 TRACE StateChange:123 - " + message,
                                  "TRACE KafkaController:77 - " + message,
                                  // behind a test harness's prefix: sequence, uptime, service, level letter
                                  "[  1204] [  35.118] [kafka-1]  [I] [2024-07-23 10:00:00,001] TRACE " + message +
                                      " (state.change.logger)",
                                  "[     7] [   0.002] [kafka]  [I] " + message}) {
    SCOPED_TRACE(line);
    ParsedLine p;
    parseLine(line, p);
    ASSERT_EQ(p.shape, LineShape::Head);
    EXPECT_EQ(p.kind, RecordKind::PartitionChange);
    EXPECT_EQ(p.controller_id, 7);
    EXPECT_EQ(p.controller_epoch, 9);
    EXPECT_EQ(p.topic, "my-topic.v2");
    EXPECT_EQ(p.partition, 12);
    EXPECT_TRUE(p.trace_only);
  }
}

// The controller's request-send thread: an ERROR line of it (Kafka's `failed to send request …
// Reconnecting to broker.`) is a failure Kafka logged, like K2's `Failed to send LeaderAndIsr
// request`; its WARN lines are records that carry nothing.
TEST(LogLine, RequestSendThreadErrorsAreFailures) {
  const std::string send_failed =
      "[RequestSendThread controllerId=1] Controller 1 epoch 3 failed to send request (type=UpdateMetadataRequest, "
      "controllerId=1, controllerEpoch=3, brokerEpoch=25) to broker localhost:9093 (id: 2 rack: null). Reconnecting to broker.";
  for (const std::string& line : {"[2024-07-23 10:00:00,001] ERROR " + send_failed + " (kafka.controller.RequestSendThread)",
                                  send_failed,
                                  std::string("[2024-07-23 10:00:00,001] ERROR [RequestSendThread controllerId=1] Something "
                                              "else went wrong (kafka.controller.RequestSendThread)")}) {
    SCOPED_TRACE(line);
    ParsedLine p;
    parseLine(line, p);
    ASSERT_EQ(p.shape, LineShape::Head);
    EXPECT_EQ(p.kind, RecordKind::Failure);
  }
  ParsedLine warn;
  parseLine("[2024-07-23 10:00:00,001] WARN [RequestSendThread controllerId=1] Controller 1 epoch 3 fails to send "
            "request (type=LeaderAndIsRequest) to broker 2. Reconnecting to broker. (kafka.controller.RequestSendThread)",
            warn);
  ASSERT_EQ(warn.shape, LineShape::Head);
  EXPECT_EQ(warn.kind, RecordKind::Other);
}

TEST(CheckLog, RequestSendThreadErrorIsAKafkaFailureFinding) {
  const Checked c = checkText(
      "[2024-07-23 10:00:00,001] ERROR [RequestSendThread controllerId=1] Controller 1 epoch 3 failed to send request "
      "(type=StopReplicaRequest) to broker localhost:9093 (id: 2 rack: null). Reconnecting to broker. "
      "(kafka.controller.RequestSendThread)\n"
      "java.io.IOException: Connection to 2 was disconnected before the response was read\n"
      "\tat org.apache.kafka.clients.NetworkClientUtils.sendAndReceive(NetworkClientUtils.java:100)\n");
  EXPECT_EQ(findings(c.report), (Expected{{1, "kafka-failure"}}));
  ASSERT_EQ(c.report.findings.size(), 1u);
  EXPECT_NE(c.report.findings[0].message.find("failed to send request"), std::string::npos);
  EXPECT_NE(c.report.findings[0].message.find("Connection to 2 was disconnected"), std::string::npos);
}

TEST(LogLine, ContinuationShapes) {
  for (const char* line : {"java.lang.IllegalStateException: Partition t-0 should be in one of NewPartition states",
                           "\tat kafka.controller.ZkPartitionStateMachine.handleStateChanges(PartitionStateMachine.scala:1)",
                           "    at scala.collection.immutable.List.foreach(List.scala:333)",
                           "Caused by: java.io.IOException: reset", "\t... 12 more", "... 3 more",
                           "org.apache.zookeeper.KeeperException$NodeExistsException: KeeperErrorCode = NodeExists",
                           "kafka_1  | \tat kafka.Kafka.main(Kafka.scala:1)", "kafka.common.StateChangeFailedException"}) {
    SCOPED_TRACE(line);
    ParsedLine p;
    parseLine(line, p);
    EXPECT_EQ(p.shape, LineShape::Continuation);
  }
  for (const char* line : {"Partition t-0 state changed to", "hello world", "at noon", "a.b c"}) {
    SCOPED_TRACE(line);
    ParsedLine p;
    parseLine(line, p);
    EXPECT_EQ(p.shape, LineShape::Unparsed);
  }
}

// Which lines are state-change lines kcspec must read (an unknown message is unparsed) and which
// are records whose messages it does not read (docs/conformance.md, "Formats read").
TEST(LogLine, UnknownMessagesOfStateChangeLinesAreUnparsed) {
  for (const char* line : {
           // The epoch prefix: only the controller's state-change logger writes it.
           "[Controller id=2 epoch=1] Chnaged partition t-0 state from OnlinePartition to NewPartition",
           "[Controller id=2 epoch=1] Sendng UpdateMetadata request to brokers HashSet(1, 2) for 1 partitions",
           "[Controller id=2 epoch=1] Sending UpdateMetadta request to brokers HashSet(1, 2) for 1 partitions",
           "[Controller id=2 epoch=1] Partition t-0 completed preferred replica leader election. New leader is 1",
           "[Controller id=2 epoch=1] Starting become-controller",
           // No epoch, but the state-change logger's suffix or custom-layout logger.
           "[2024-07-23 00:00:00,000] ERROR [Controller id=2] Recieved error NOT_CONTROLLER in UpdateMetadata response x "
           "from broker 1 (state.change.logger)",
           "[2024-07-23 00:00:00,000] INFO [Controller id=2] Mark replica t-0 on broker 1 as offline (state.change.logger)  ",
           "2024-07-23 00:00:00 INFO state.change.logger:42 - [Controller id=2] Mrak replicas t-0 on broker 1 as offline",
           "2024-07-23 00:00:00,000 INFO state.change.logger: [Controller id=2] Mrak replicas t-0 on broker 1 as offline",
           // No epoch, no logger, but a state transition named.
           "[Controller id=2] Chnaged state of replica 1 for partition t-0 from OnlineReplica to OfflineReplica",
           // 0.8–0.11: a first word that is none of the verbs Kafka wrote after this prefix.
           "Controller 0 epoch 5 chnaged partition [t,0] state from NonExistentPartition to NewPartition",
           "Controller 0 epoch 5 strated leader election for partition [t,0]"}) {
    SCOPED_TRACE(line);
    ParsedLine p;
    parseLine(line, p);
    EXPECT_EQ(p.shape, LineShape::Unparsed);
  }
  for (const char* line : {
           // KafkaController's own controller.log lines share the prefix without the epoch.
           "[2024-07-23 10:00:01,000] INFO [Controller id=1] Registering handlers (kafka.controller.KafkaController)",
           "[Controller id=1] Partition t-0 completed preferred replica leader election. New leader is 1",
           "2024-07-23 10:00:01 INFO kafka.controller.KafkaController:42 - [Controller id=1] Resigning",
           "2024-07-23 10:00:01,000 INFO kafka.controller.KafkaController: [Controller id=1] Resigning",
           "2024-07-23 10:00:01 INFO KafkaController:42 - [Controller id=1] Resigning",
           // Templates read but not checked: C2, C3 (both generations), C5, C6, K5.
           "[Controller id=1 epoch=1] Sending LeaderAndIsr request to broker 1 with 1 become-leader and 0 become-follower partitions",
           "[Controller id=1 epoch=1] Sending UpdateMetadata request to brokers HashSet() for 0 partitions",
           "[Controller id=1 epoch=1] Sending UpdateMetadata request PartitionState(controllerEpoch=1, leader=1, leaderEpoch=0, "
           "isr=[1], zkVersion=0, replicas=[1], offlineReplicas=[]) to brokers Set(1) for partition t-0",
           "[Controller id=1 epoch=1] Sending StopReplica request (delete = true) for 1 replicas to broker 2",
           "[Controller id=1 epoch=1] Received response LeaderAndIsrResponseData(errorCode=0) for request LEADER_AND_ISR with "
           "correlation id 0 sent to broker localhost:9092 (id: 1 rack: null)",
           "[2024-07-23 00:00:00,000] INFO [Controller id=1] Mark replicas t-0 on broker 1 as offline (state.change.logger)",
           // Broker-side lines and class-logger prefixes: their messages are not read.
           "[2024-07-23 00:00:00,000] INFO [Broker id=1] Hnadling LeaderAndIsr request correlationId 1 (state.change.logger)",
           "[PartitionStateMachine controllerId=1] Initializing partition state",
           "Broker 1 cached leader info (LeaderAndIsrInfo:(Leader:0,ISR:0,LeaderEpoch:0,ControllerEpoch:5),ReplicationFactor:1),"
           "AllReplicas:0) for partition [t,0]",
           // 0.8–0.11 messages that are not checked.
           "Controller 0 epoch 5 started leader election for partition [t,0]",
           "Controller 0 epoch 5 elected leader 1 for Offline partition [t,0]",
           "Controller 0 epoch 5 sending become-leader LeaderAndIsr request x with correlationId 3 to broker 0 for partition [t,0]",
           "Controller 0 epoch 5 received response x for a request sent to broker id:0"}) {
    SCOPED_TRACE(line);
    ParsedLine p;
    parseLine(line, p);
    EXPECT_EQ(p.shape, LineShape::Head);
    EXPECT_EQ(p.kind, RecordKind::Other);
  }
}

TEST(LogLine, Renderings) {
  ParsedLine p;
  parseLine("[Controller id=1 epoch=1] Sending become-follower LeaderAndIsr request LeaderAndIsrPartitionState("
            "topicName='t', partitionIndex=0, controllerEpoch=1, leader=3, leaderEpoch=4, isr=[3, 2], partitionEpoch=5, "
            "replicas=[2, 1, 3], addingReplicas=[1], removingReplicas=[3], isNew=false, leaderRecoveryState=0) to broker 2 "
            "for partition t-0",
            p);
  ASSERT_EQ(p.shape, LineShape::Head);
  ASSERT_TRUE(p.has_leadership);
  EXPECT_EQ(p.leadership.leader, 3);
  EXPECT_EQ(p.leadership.leader_epoch, 4);
  EXPECT_EQ(p.leadership.partition_epoch, 5);
  EXPECT_EQ(p.leadership.isr, (std::vector<std::int32_t>{3, 2}));

  parseLine("[Controller id=1 epoch=1] Partition t-0 state changed to (Leader:-1,ISR:,LeaderEpoch:3,ControllerEpoch:1) "
            "after removing replica 3 from the ISR as part of transition to OfflineReplica",
            p);
  ASSERT_EQ(p.shape, LineShape::Head);
  EXPECT_EQ(p.leadership.leader, -1);
  EXPECT_TRUE(p.leadership.isr.empty());
  EXPECT_EQ(p.leadership.leader_epoch, 3);
  EXPECT_EQ(p.leadership.partition_epoch, -1);

  parseLine("[Controller id=1 epoch=1] Changed partition t-0 from NewPartition to OnlinePartition with state "
            "LeaderAndIsr(leader=1, leaderEpoch=0, isr=List(1, 2), leaderRecoveryState=RECOVERED, zkVersion=0)",
            p);
  ASSERT_EQ(p.shape, LineShape::Head);
  EXPECT_EQ(p.leadership.isr, (std::vector<std::int32_t>{1, 2}));
  EXPECT_EQ(p.leadership.partition_epoch, 0);

  // A rendering cut short is not a record.
  parseLine("[Controller id=1 epoch=1] Changed partition t-0 from NewPartition to OnlinePartition with state "
            "LeaderAndIsr(leader=1, leaderEpoch=0, isr=List(1, 2",
            p);
  EXPECT_EQ(p.shape, LineShape::Unparsed);
}

// --- the CLI's JSON -------------------------------------------------------------------------------------

TEST(CheckLogJson, ExactlyTheDocumentedShape) {
  const Checked c = checkFile("format_0.8.log");
  const std::string text = conformance::checkReportJson(c.report);
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
  EXPECT_EQ(text.find('\n'), text.size() - 1);  // one line
  const auto json = nlohmann::ordered_json::parse(text);
  std::vector<std::string> keys;
  for (const auto& item : json.items()) keys.push_back(item.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"files", "lines", "parsed", "unparsed", "findings"}));
  EXPECT_EQ(json["files"], 1);
  EXPECT_EQ(json["lines"], 18);
  EXPECT_EQ(json["parsed"], 18);
  EXPECT_EQ(json["unparsed"], 0);
  ASSERT_EQ(json["findings"].size(), 2u);
  const auto& first = json["findings"][0];
  std::vector<std::string> finding_keys;
  for (const auto& item : first.items()) finding_keys.push_back(item.key());
  EXPECT_EQ(finding_keys, (std::vector<std::string>{"file", "line", "kind", "message"}));
  EXPECT_EQ(first["file"], (kLogs / "format_0.8.log").string());
  EXPECT_EQ(first["line"], 12);
  EXPECT_EQ(first["kind"], "kafka-failure");
  EXPECT_TRUE(first["message"].is_string());
}

TEST(CheckLogJson, InvalidUtf8InMessagesStillDumps) {
  const Checked c = checkText("java.lang.IllegalStateException: Partition \xff\xfe should be in one of A states before moving to B\n");
  ASSERT_EQ(c.report.findings.size(), 1u);
  nlohmann::json parsed;
  EXPECT_NO_THROW(parsed = nlohmann::json::parse(conformance::checkReportJson(c.report)));
  EXPECT_EQ(parsed["findings"].size(), 1u);
}

}  // namespace
}  // namespace kcspec::conformance
