// `kcspec check-log --threads N` (proofs/conformance/log_parallel.hpp): parsing on several
// threads gives exactly the one-thread report — findings with their lines and messages, counts,
// partition summaries, the unparsed lines in order, and both renderings (text and --json) — on
// every test log, on a multi-megabyte log of the reference controller with planted findings,
// malformed, blank, overlong and very short lines, and with chunks and mmap windows small
// enough that chunk and window boundaries fall everywhere, lines spanning windows included.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "proofs/conformance/check_report_text.hpp"
#include "proofs/conformance/impl_log_run.hpp"
#include "proofs/conformance/log_checker.hpp"

namespace kcspec::conformance {
namespace {

namespace fs = std::filesystem;

const fs::path kLogs = fs::path(KCSPEC_SOURCE_DIR) / "tests" / "conformance" / "logs";

struct Unparsed {
  std::string file;
  std::uint64_t line = 0;
  std::string text;
  bool operator==(const Unparsed&) const = default;
};

struct Checked {
  CheckReport report;
  std::vector<Unparsed> unparsed;
  std::string text;  // kcspec check-log's text rendering
  std::string json;  // and --json's
};

Checked check(const std::vector<std::string>& files, const CheckOptions& options) {
  Checked run;
  LogChecker checker(options);
  checker.setUnparsedSink([&run](std::string_view file, std::uint64_t line, std::string_view text) {
    run.unparsed.push_back(Unparsed{std::string(file), line, std::string(text)});
  });
  for (const std::string& file : files) {
    const auto error = checker.checkFile(file);
    EXPECT_FALSE(error.has_value()) << *error;
  }
  run.report = checker.finish();
  run.text = conformance::checkReportText(run.report);
  run.json = conformance::checkReportJson(run.report);
  return run;
}

void expectSame(const Checked& one, const Checked& many) {
  EXPECT_EQ(one.report.files, many.report.files);
  EXPECT_EQ(one.report.lines, many.report.lines);
  EXPECT_EQ(one.report.parsed, many.report.parsed);
  EXPECT_EQ(one.report.unparsed, many.report.unparsed);
  EXPECT_EQ(one.report.blank, many.report.blank);
  EXPECT_EQ(one.report.findings_by_kind, many.report.findings_by_kind);
  ASSERT_EQ(one.report.findings.size(), many.report.findings.size());
  for (std::size_t i = 0; i < one.report.findings.size(); ++i) {
    const Finding& a = one.report.findings[i];
    const Finding& b = many.report.findings[i];
    EXPECT_EQ(a.file, b.file) << i;
    EXPECT_EQ(a.line, b.line) << i;
    EXPECT_EQ(a.kind, b.kind) << i;
    EXPECT_EQ(a.message, b.message) << i;
  }
  EXPECT_EQ(one.unparsed, many.unparsed);
  EXPECT_EQ(one.text, many.text);  // includes every partition summary
  EXPECT_EQ(one.json, many.json);
}

// Thread counts and chunk sizes against the one-thread run with the same line cap: the default
// chunks and windows, one line per chunk, and windows of a few KiB (the cap is lowered to 4 KiB
// so that the smallest window, 2 × cap + 2 pages, is small).
std::vector<CheckOptions> parallelWays(std::size_t max_line_bytes) {
  std::vector<CheckOptions> ways;
  for (std::size_t threads : {2, 3}) {
    ways.push_back(CheckOptions{.max_line_bytes = max_line_bytes, .threads = threads});
    ways.push_back(CheckOptions{.max_line_bytes = max_line_bytes, .threads = threads, .parse_chunk_bytes = 1});
    ways.push_back(CheckOptions{.max_line_bytes = max_line_bytes, .map_window_bytes = 1, .threads = threads,
                                .parse_chunk_bytes = 1000});
  }
  return ways;
}

void expectEveryWayTheSame(const std::vector<std::string>& files, std::size_t max_line_bytes, const Checked& reference) {
  for (const CheckOptions& way : parallelWays(max_line_bytes)) {
    SCOPED_TRACE("threads " + std::to_string(way.threads) + ", chunk bytes " + std::to_string(way.parse_chunk_bytes) +
                 ", window bytes " + std::to_string(way.map_window_bytes));
    expectSame(reference, check(files, way));
  }
}

std::vector<std::string> testLogs() {
  std::vector<std::string> logs;
  for (const fs::directory_entry& entry : fs::directory_iterator(kLogs)) {
    const std::string ext = entry.path().extension().string();
    if (ext == ".log" || ext == ".bin") logs.push_back(entry.path().string());
  }
  std::sort(logs.begin(), logs.end());
  return logs;
}

TEST(CheckLogThreads, EveryTestLogAloneGivesTheSameReport) {
  const std::vector<std::string> logs = testLogs();
  ASSERT_GE(logs.size(), 20u);
  for (const std::string& log : logs) {
    SCOPED_TRACE(log);
    expectEveryWayTheSame({log}, 4096, check({log}, CheckOptions{.max_line_bytes = 4096}));
  }
}

TEST(CheckLogThreads, AllTestLogsAsOneStreamGiveTheSameReport) {
  const std::vector<std::string> logs = testLogs();
  const Checked reference = check(logs, CheckOptions{.max_line_bytes = 4096});
  EXPECT_GT(reference.report.findings.size(), 10u);  // the finding_*.log files, and more
  EXPECT_GT(reference.report.unparsed, 10u);          // garbage.log, binary_garbage.bin
  expectEveryWayTheSame(logs, 4096, reference);
}

// The reference controller's log of a random run (about 3 MB), with: "from" states edited (a
// finding each), garbage and binary lines, blank lines, a stack trace after a failure, lines over
// the 4 KiB cap (one spanning several of the smallest windows), a run of 30,000 two-byte lines
// (more than a chunk holds parsed: the checking thread parses the rest) and no final '\n'.
std::string plantedLog() {
  std::string run;
  ImplLogRunOptions options;
  options.seed = 7;
  options.max_steps = 12000;
  runImplLog(options, [&run](std::string_view chunk) { run += chunk; });
  std::vector<std::string> lines;
  for (std::size_t start = 0; start < run.size();) {
    const std::size_t end = run.find('\n', start);
    lines.push_back(run.substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  const std::string change = " from OnlineReplica to OfflineReplica";
  std::size_t edits = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::size_t at = lines[i].find(change);
    if (at == std::string::npos || i % 7 != 0) continue;
    lines[i].replace(at, change.size(), " from NewReplica to OfflineReplica");
    ++edits;
  }
  EXPECT_GT(edits, 5u);
  EXPECT_GT(lines.size(), 10000u);
  const std::size_t tenth = lines.size() / 10;
  std::string text;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    text += lines[i] + "\n";
    if (i == 100) text += "this is not a log line\n\xff\xfe\x01 binary\n\n   \n";
    if (i == 2 * tenth) text += std::string(5000, 'x') + "\n";                          // over the cap
    if (i == 3 * tenth) text += std::string(64 * 1024, 'y') + "\n";                     // spans windows
    if (i == 4 * tenth) {
      text += "[2024-07-23 10:00:00,000] ERROR [Controller id=1 epoch=1] Controller 1 epoch 1 failed to change state for "
              "partition orders-0 from OnlinePartition to OnlinePartition (state.change.logger)\n"
              "kafka.common.StateChangeFailedException: Failed to elect leader for partition orders-0\n"
              "\tat kafka.controller.PartitionStateMachine.doHandleStateChanges(PartitionStateMachine.scala:1)\n";
    }
    if (i == 5 * tenth) {
      for (int k = 0; k < 30000; ++k) text += k % 3 == 0 ? "\n" : "z\n";
    }
  }
  text += "unterminated last line";
  return text;
}

TEST(CheckLogThreads, PlantedImplLogGivesTheSameReport) {
  const std::string path = ::testing::TempDir() + "/kcspec_log_threads_planted.log";
  {
    std::ofstream out(path, std::ios::binary);
    out << plantedLog();
  }
  const Checked reference = check({path}, CheckOptions{.max_line_bytes = 4096});
  EXPECT_GT(reference.report.lines, 40000u);
  EXPECT_GT(reference.report.findings.size(), 5u);
  EXPECT_GT(reference.report.unparsed, 20000u);
  EXPECT_GT(reference.report.blank, 10000u);
  expectEveryWayTheSame({path}, 4096, reference);
  // The defaults (1 MiB cap, 16 MiB windows) too, and a rotated pair: the same file twice.
  const Checked defaults = check({path, path}, CheckOptions{});
  expectSame(defaults, check({path, path}, CheckOptions{.threads = 2}));
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace kcspec::conformance
