// What the parsing threads hand the checking thread besides the values (log_line.hpp): the
// partition key (ParsedLine::partition_hash and topic_prefix, computed from the line's text by
// word loads when the line extends far enough past the topic, by bytes when not) equals
// PartitionIndex::hash and the topic's zero-padded first bytes; and parsing into a ParsedLine
// that held another line gives exactly what parsing into a fresh one gives (the reset keeps
// nothing of the line before).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "proofs/conformance/log_line.hpp"
#include "proofs/conformance/log_partition_index.hpp"

namespace kcspec::conformance {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> allTestLogLines() {
  std::vector<fs::path> files;
  for (const fs::directory_entry& entry : fs::directory_iterator(fs::path(KCSPEC_SOURCE_DIR) / "tests/conformance/logs")) {
    const std::string ext = entry.path().extension().string();
    if (ext == ".log" || ext == ".bin") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  std::vector<std::string> lines;
  for (const fs::path& file : files) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    std::string line;
    while (std::getline(text, line)) lines.push_back(line);
  }
  return lines;
}

void expectEqual(const ParsedLine& a, const ParsedLine& b) {
  EXPECT_EQ(a.shape, b.shape);
  EXPECT_EQ(a.level, b.level);
  EXPECT_EQ(a.kind, b.kind);
  EXPECT_EQ(a.controller_prefix, b.controller_prefix);
  EXPECT_EQ(a.controller_id, b.controller_id);
  EXPECT_EQ(a.controller_epoch, b.controller_epoch);
  EXPECT_EQ(a.trace_only, b.trace_only);
  EXPECT_EQ(a.topic, b.topic);
  EXPECT_EQ(a.partition, b.partition);
  EXPECT_EQ(a.partition_hash, b.partition_hash);
  EXPECT_EQ(a.topic_prefix, b.topic_prefix);
  EXPECT_EQ(a.replica, b.replica);
  EXPECT_EQ(a.from, b.from);
  EXPECT_EQ(a.to, b.to);
  EXPECT_EQ(a.has_leadership, b.has_leadership);
  EXPECT_EQ(a.leadership.leader, b.leadership.leader);
  EXPECT_EQ(a.leadership.leader_epoch, b.leadership.leader_epoch);
  EXPECT_EQ(a.leadership.partition_epoch, b.leadership.partition_epoch);
  EXPECT_EQ(a.leadership.isr, b.leadership.isr);
  EXPECT_EQ(a.leadership.rendering, b.leadership.rendering);
  EXPECT_EQ(a.message, b.message);
}

void expectKeyOf(const ParsedLine& p) {
  if (p.topic.empty()) {
    EXPECT_EQ(p.partition_hash, 0u);
    EXPECT_EQ(p.topic_prefix, (std::array<std::uint64_t, 3>{}));
    return;
  }
  EXPECT_EQ(p.partition_hash, PartitionIndex::hash(p.topic, p.partition)) << p.topic;
  std::array<std::uint64_t, 3> prefix{};
  std::memcpy(prefix.data(), p.topic.data(), std::min(p.topic.size(), sizeof(prefix)));
  EXPECT_EQ(p.topic_prefix, prefix) << p.topic;
}

TEST(LogLineKey, ReusedParsedLineEqualsFreshOneOnEveryTestLogLine) {
  const std::vector<std::string> lines = allTestLogLines();
  ASSERT_GT(lines.size(), 300u);
  ParsedLine reused;
  std::size_t keyed = 0;
  // Each line parsed after the one before it, and after the line furthest from it in the list.
  for (std::size_t i = 0; i < lines.size(); ++i) {
    for (const std::string* before : {&lines[(i + lines.size() - 1) % lines.size()], &lines[lines.size() - 1 - i]}) {
      SCOPED_TRACE(lines[i]);
      parseLine(*before, reused);
      parseLine(lines[i], reused);
      ParsedLine fresh;
      parseLine(lines[i], fresh);
      expectEqual(fresh, reused);
      expectKeyOf(fresh);
      keyed += fresh.topic.empty() ? 0 : 1;
    }
  }
  EXPECT_GT(keyed, 200u);
}

TEST(LogLineKey, KeyOfTopicsShortLongAndAtTheEndOfTheLine) {
  const std::vector<std::string> topics = {"t", "orders", "topic.000000", "exactly-24-bytes-long-ab", "twenty-five-bytes-long-ab",
                                           std::string(249, 'q'), "a_b.c-d"};
  for (const std::string& topic : topics) {
    SCOPED_TRACE(topic);
    // Far from the end (word loads), and as the line's last bytes but three (byte loads).
    const std::string far = "[Controller id=1 epoch=2] Changed state of replica 3 for partition " + topic +
                            "-17 from OnlineReplica to OfflineReplica (state.change.logger)";
    const std::string near = "Controller 1 epoch 2 encountered error while electing leader for partition [" + topic + ",17]";
    for (const std::string* line : {&far, &near}) {
      ParsedLine p;
      parseLine(*line, p);
      ASSERT_EQ(p.shape, LineShape::Head) << *line;
      ASSERT_EQ(p.topic, topic);
      EXPECT_EQ(p.partition, 17);
      expectKeyOf(p);
    }
    // The key tells partitions of one topic apart, and topics sharing their first 24 bytes by
    // the hash and the length (the checker compares the rest of the name then).
    ParsedLine a;
    ParsedLine b;
    parseLine(far, a);
    std::string other = far;
    other.replace(other.find("-17 "), 4, "-18 ");
    parseLine(other, b);
    EXPECT_NE(a.partition_hash, b.partition_hash);
  }
}

// The straight-through reader of the 3.2+ LeaderAndIsr rendering (P2/P3) and the general
// key=value reader agree: the same members in another order (which only the general reader
// takes) give the same values, and shapes the fast reader refuses still parse as before.
TEST(LogLineKey, LeaderAndIsrFastAndGeneralReadersAgree) {
  const std::string head = "[2024-07-23 10:00:00,049] INFO [Controller id=2 epoch=1] Changed partition t-0 from "
                           "OnlinePartition to OnlinePartition with state ";
  const std::string tail = " (state.change.logger)";
  struct Case {
    std::string canonical;
    std::string reordered;
    std::int32_t leader;
    std::vector<std::int32_t> isr;
  };
  const std::vector<Case> cases = {
      {"LeaderAndIsr(leader=2, leaderEpoch=7, isrWithBrokerEpoch=List(BrokerState(brokerId=2, brokerEpoch=-1), "
       "BrokerState(brokerId=3, brokerEpoch=12)), leaderRecoveryState=RECOVERED, partitionEpoch=9)",
       "LeaderAndIsr(partitionEpoch=9, leaderRecoveryState=RECOVERED, isrWithBrokerEpoch=List(BrokerState(brokerId=2, "
       "brokerEpoch=-1), BrokerState(brokerId=3, brokerEpoch=12)), leaderEpoch=7, leader=2)",
       2, {2, 3}},
      {"LeaderAndIsr(leader=-1, leaderEpoch=3, isrWithBrokerEpoch=List(), leaderRecoveryState=RECOVERING, partitionEpoch=4)",
       "LeaderAndIsr(leaderEpoch=3, leader=-1, isrWithBrokerEpoch=List(), partitionEpoch=4, leaderRecoveryState=RECOVERING)",
       -1, {}},
      {"LeaderAndIsr(leader=1, leaderEpoch=0, isr=List(1, 2, 3), leaderRecoveryState=RECOVERED, partitionEpoch=0)",
       "LeaderAndIsr(isr=List(1, 2, 3), leader=1, leaderEpoch=0, leaderRecoveryState=RECOVERED, partitionEpoch=0)",
       1, {1, 2, 3}},
      {"LeaderAndIsr(leader=3, leaderEpoch=5, isr=List(), leaderRecoveryState=RECOVERED, partitionEpoch=6)",
       "LeaderAndIsr(leaderEpoch=5, isr=List(), leader=3, leaderRecoveryState=RECOVERED, partitionEpoch=6)",
       3, {}},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.canonical);
    const std::string a_line = head + k.canonical + tail;
    const std::string b_line = head + k.reordered + tail;
    ParsedLine a;
    ParsedLine b;
    parseLine(a_line, a);
    parseLine(b_line, b);
    ASSERT_EQ(a.shape, LineShape::Head);
    ASSERT_EQ(b.shape, LineShape::Head);
    ASSERT_TRUE(a.has_leadership);
    ASSERT_TRUE(b.has_leadership);
    EXPECT_EQ(a.leadership.leader, k.leader);
    EXPECT_EQ(a.leadership.isr, k.isr);
    EXPECT_EQ(a.leadership.leader, b.leadership.leader);
    EXPECT_EQ(a.leadership.leader_epoch, b.leadership.leader_epoch);
    EXPECT_EQ(a.leadership.partition_epoch, b.leadership.partition_epoch);
    EXPECT_EQ(a.leadership.isr, b.leadership.isr);
    EXPECT_EQ(a.leadership.rendering, k.canonical);
    EXPECT_EQ(b.leadership.rendering, k.reordered);
  }
  // Refused by the fast reader, then read (or refused) by the general one exactly as before.
  ParsedLine p;
  parseLine(head + "LeaderAndIsr(leader=1, leaderEpoch=0, isr=List(1,2), leaderRecoveryState=RECOVERED, partitionEpoch=0)" + tail, p);
  EXPECT_EQ(p.shape, LineShape::Head);
  EXPECT_EQ(p.leadership.isr, (std::vector<std::int32_t>{1, 2}));
  parseLine(head + "LeaderAndIsr(leader=1, leaderEpoch=0, isrWithBrokerEpoch=List(BrokerState(brokerId=x, brokerEpoch=-1)), "
                   "leaderRecoveryState=RECOVERED, partitionEpoch=0)" + tail, p);
  EXPECT_EQ(p.shape, LineShape::Unparsed);
  parseLine(head + "LeaderAndIsr(leader=1, leaderEpoch=0, isr=List(1, 2), leaderRecoveryState=RECOVERED)" + tail, p);
  EXPECT_EQ(p.shape, LineShape::Head);  // no partitionEpoch: the general reader takes it without one
  EXPECT_EQ(p.leadership.partition_epoch, -1);
}

}  // namespace
}  // namespace kcspec::conformance
