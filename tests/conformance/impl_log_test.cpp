// `kcspec check-log` on the reference controller's own state-change.log: a long random run
// (proofs/conformance/impl_log_run.hpp, the same generator bench/log_gen.cpp uses for the
// throughput figures) gives no findings and no unparsed lines; the same log with one replica
// change's "from" state edited gives exactly one finding, at exactly that line.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "impl/cluster.hpp"
#include "proofs/conformance/impl_log_run.hpp"
#include "proofs/conformance/log_checker.hpp"
#include "spec/vocabulary/scenario_text.hpp"

namespace kcspec::conformance {
namespace {

constexpr std::uint64_t kSeed = 20240723;
constexpr std::uint64_t kSteps = 8000;

struct RunLog {
  ImplLogRunStats stats;
  std::string text;
};

const RunLog& longRun() {
  static const RunLog run = [] {
    RunLog out;
    ImplLogRunOptions options;
    options.seed = kSeed;
    options.max_steps = kSteps;
    out.stats = runImplLog(options, [&out](std::string_view chunk) { out.text += chunk; });
    return out;
  }();
  return run;
}

CheckReport check(const std::string& text) {
  LogChecker checker;
  checker.checkText(text, "impl.log");
  return checker.finish();
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    out.push_back(text.substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

TEST(ImplLog, LongRandomRunHasNoFindings) {
  const RunLog& run = longRun();
  SCOPED_TRACE("seed " + std::to_string(kSeed));
  EXPECT_EQ(run.stats.steps, kSteps);  // the run never got stuck
  EXPECT_GT(run.stats.perturbations, 300u);
  const CheckReport report = check(run.text);
  EXPECT_EQ(report.lines, run.stats.log_lines);
  EXPECT_GT(report.lines, 7000u);  // a long run (7,852 lines with this seed)
  EXPECT_EQ(report.unparsed, 0u);
  EXPECT_EQ(report.parsed, report.lines);
  for (const Finding& f : report.findings) ADD_FAILURE() << "impl.log:" << f.line << ": " << f.message;
  EXPECT_GE(report.partitions.size(), 6u);
}

TEST(ImplLog, EditedFromStateIsReportedAtExactlyThatLine) {
  const RunLog& run = longRun();
  SCOPED_TRACE("seed " + std::to_string(kSeed));
  std::vector<std::string> log = lines(run.text);
  // The middle one of the replica changes OnlineReplica -> OfflineReplica. NewReplica ->
  // OfflineReplica is a valid transition, so the edit is visible only as a wrong "from".
  const std::string change = " from OnlineReplica to OfflineReplica";
  std::vector<std::size_t> candidates;
  for (std::size_t i = 0; i < log.size(); ++i) {
    if (log[i].find("Changed state of replica") != std::string::npos && log[i].find(change) != std::string::npos) {
      candidates.push_back(i);
    }
  }
  ASSERT_GT(candidates.size(), 10u);
  const std::size_t edited = candidates[candidates.size() / 2];
  std::string& line = log[edited];
  line.replace(line.find(change), change.size(), " from NewReplica to OfflineReplica");
  std::string text;
  for (const std::string& l : log) text += l + "\n";

  const CheckReport report = check(text);
  ASSERT_EQ(report.findings.size(), 1u);
  EXPECT_EQ(report.findings[0].line, edited + 1);
  EXPECT_EQ(report.findings[0].kind, FindingKind::FromStateMismatch);
  EXPECT_NE(report.findings[0].message.find("NewReplica"), std::string::npos) << report.findings[0].message;
  EXPECT_EQ(report.unparsed, 0u);
}

// Every kept scenario (tests/scenarios: every protocol version, perturbation and deviation the
// project states) run on the reference controller at TRACE: check-log parses every line it writes —
// the StopReplica lines of both request shapes, the ISR-change paths of old protocols — and finds
// nothing but the failures Kafka itself logs (failed elections, invalid transitions it reports).
TEST(ImplLog, EveryScenariosLogParsesAndHasOnlyKafkasOwnFailures) {
  std::size_t scenarios = 0;
  std::uint64_t lines = 0;
  std::size_t kafka_failures = 0;
  for (const auto& entry : std::filesystem::directory_iterator(KCSPEC_SOURCE_DIR "/tests/scenarios")) {
    if (entry.path().extension() != ".scenario") continue;
    const std::string file = entry.path().string();
    SCOPED_TRACE(file);
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    const Scenario scenario = parseScenario(text.str(), file);
    impl::TextLogSink sink(impl::LogLevel::TRACE);
    impl::FakeClock clock;
    std::optional<impl::ImplCluster> cluster;
    if (scenario.given) {
      cluster.emplace(scenario.config, scenario.given->world, impl::Mutants{}, impl::LogTarget{&sink, &clock});
    } else {
      cluster.emplace(scenario.config, impl::Mutants{}, impl::LogTarget{&sink, &clock});
    }
    if (!scenario.calls.empty()) continue;  // component actions: their own suite (kcspec suite)
    for (const Action& a : scenario.steps) {
      ASSERT_TRUE(cluster->isEnabled(a));
      cluster->apply(a);
    }
    const CheckReport report = check(sink.text());
    EXPECT_EQ(report.unparsed, 0u);
    for (const Finding& f : report.findings) {
      if (f.kind != FindingKind::KafkaFailure) ADD_FAILURE() << "line " << f.line << ": " << f.message;
      kafka_failures += f.kind == FindingKind::KafkaFailure ? 1 : 0;
    }
    lines += report.lines;
    ++scenarios;
  }
  EXPECT_GE(scenarios, 40u);
  EXPECT_GT(lines, 2000u) << "the scenarios' logs were read";
  EXPECT_GT(kafka_failures, 10u) << "the deviations' scenarios make Kafka log failures (T3, failed elections)";
}

}  // namespace
}  // namespace kcspec::conformance
