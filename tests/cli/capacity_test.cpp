// A configuration whose histories outgrow the modeled world's bounded queues (docs/spec/rules.md,
// "Histories that outgrow the model"): kcspec says so, names the history, and exits 2 — it used to
// stop with "invariant broken: size_ < N" and a core dump, and with no history to look at.
//
// - `explore` (spec, reference implementation, both; reduced and not) ends with `complete no (the
//   model's capacity)`, the message on stderr and the history as a scenario file whose every step
//   but the last replays, the last being the one that needs more room;
// - `--json` carries the same as a `capacity` object;
// - `replay` of that file stops at its last step with FILE:LINE and exits 2 (`--impl` too);
// - `check-trace` of the same history stops at the trace's line of that step and exits 2;
// - `drive --mode exhaustive` stops with the history (exit 2), random `drive` histories end before
//   the step, counted; `sut` answers the step `internal` and takes none until a reset;
// - `trace`, `itf` and `suite` name the scenario's line of that step (exit 2).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "failover_loop.hpp"  // tests/common/
#include "run_kcspec.hpp"

namespace kcspec::cli_test {
namespace {

namespace fs = std::filesystem;

constexpr const char* kWhat = "more than 16 StopReplica responses on their way back from one broker (kMaxResponsesPerBroker";

fs::path work(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("kcspec-capacity-" + std::to_string(::getpid())) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// The configuration as a file (tests/common/failover_loop.hpp), as a user gives it.
const std::string& configFile() {
  static const std::string file = [] {
    const fs::path path = work("config") / "failover_loop.config";
    std::ofstream(path) << test::kFailoverLoopConfig;
    return path.string();
  }();
  return file;
}

// The scenario file the message names (`the history that gets there (N steps): FILE`).
std::string scenarioNamed(const std::string& err) {
  const std::string marker = " steps): ";
  const std::size_t at = err.find(marker);
  if (at == std::string::npos) return "";
  const std::size_t begin = at + marker.size();
  return err.substr(begin, err.find('\n', begin) - begin);
}

// The line numbers of the scenario's steps (every line after `steps` that is not a comment).
std::vector<int> stepLines(const std::string& file) {
  std::ifstream in(file);
  std::vector<int> lines;
  bool steps = false;
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (steps && !line.empty() && line[0] != '#') lines.push_back(number);
    if (line == "steps") steps = true;
  }
  return lines;
}

TEST(Capacity, ExploreNamesTheHistoryAndExits2OnEverySystem) {
  for (const std::string system : {"spec", "impl", "both"}) {
    for (const std::string reduction : {"full", "none"}) {
      SCOPED_TRACE(system + " " + reduction);
      const fs::path dir = work(system + "-" + reduction);
      const RunResult run = runKcspec({"explore", "--config", configFile(), "--system", system, "--reduction", reduction,
                                       "--threads", "2", "--out", (dir / "out").string()},
                                      dir);
      EXPECT_EQ(run.status, 2) << run.describe();
      EXPECT_NE(run.out.find("complete     no (the model's capacity)"), std::string::npos) << run.describe();
      EXPECT_EQ(run.out.find("incomplete: stopped by"), std::string::npos) << run.describe();
      EXPECT_NE(run.err.find(kWhat), std::string::npos) << run.describe();
      EXPECT_EQ(run.err.find("invariant broken"), std::string::npos) << run.describe();
      const std::string scenario = scenarioNamed(run.err);
      ASSERT_TRUE(fs::exists(scenario)) << run.describe();
      const std::string suffix = system == "spec" ? "failover-loop-capacity.scenario"
                                                  : "failover-loop-" + system + "-capacity.scenario";
      EXPECT_EQ(fs::path(scenario).filename().string(), suffix);
      EXPECT_NE(run.err.find("reproduce: kcspec replay " + std::string(system == "spec" ? "" : "--impl ") + scenario),
                std::string::npos)
          << run.describe();

      // The history replays through the spec up to its last step, which needs more room.
      const std::vector<int> lines = stepLines(scenario);
      ASSERT_GT(lines.size(), 2u);
      const fs::path replay_dir = dir / "replay";
      fs::create_directories(replay_dir);
      const RunResult replay = runKcspec({"replay", scenario}, replay_dir);
      EXPECT_EQ(replay.status, 2) << replay.describe();
      EXPECT_NE(replay.out.find("step " + std::to_string(lines.size() - 1) + " ("), std::string::npos)
          << replay.describe();
      EXPECT_EQ(replay.out.find("step " + std::to_string(lines.size()) + " ("), std::string::npos)
          << replay.describe();
      EXPECT_NE(replay.err.find(scenario + ":" + std::to_string(lines.back()) + ": a step needs more than the modeled "
                                           "world holds: " + kWhat),
                std::string::npos)
          << replay.describe();
      const RunResult through_impl = runKcspec({"replay", "--impl", scenario}, replay_dir);
      EXPECT_EQ(through_impl.status, 2) << through_impl.describe();
      EXPECT_NE(through_impl.err.find(scenario + ": through the reference controller, "), std::string::npos)
          << through_impl.describe();
    }
  }
}

// A recorded trace of the same history (actions only): check-trace names the trace's line of the
// step that needs more room, and exits 2.
TEST(Capacity, CheckTraceNamesTheLineOfTheStep) {
  const fs::path dir = work("trace");
  const RunResult run = runKcspec({"explore", "--config", configFile(), "--out", (dir / "out").string()}, dir);
  ASSERT_EQ(run.status, 2) << run.describe();
  const std::string scenario = scenarioNamed(run.err);
  std::ifstream in(scenario);
  std::string config_text;
  std::vector<std::string> steps;
  bool in_steps = false;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    if (line == "steps") {
      in_steps = true;
    } else if (in_steps) {
      steps.push_back(line);
    } else {
      config_text += line + "\n";
    }
  }
  ASSERT_GT(steps.size(), 2u);
  const fs::path trace = dir / "loop.ndjson";
  std::ofstream out(trace);
  out << nlohmann::json{{"kcspec-trace", 1}, {"config", config_text}}.dump() << '\n';
  for (const std::string& step : steps) out << nlohmann::json{{"action", step}}.dump() << '\n';
  out.close();
  const RunResult check = runKcspec({"check-trace", trace.string()}, dir);
  EXPECT_EQ(check.status, 2) << check.describe();
  // The header is line 1: the last step is line steps.size() + 1.
  EXPECT_NE(check.err.find(trace.string() + ":" + std::to_string(steps.size() + 1) +
                           ": a step needs more than the modeled world holds: " + kWhat),
            std::string::npos)
      << check.describe();
}

TEST(Capacity, JsonReportCarriesTheHistory) {
  const fs::path dir = work("json");
  const RunResult run =
      runKcspec({"explore", "--config", configFile(), "--json", "--out", (dir / "out").string()}, dir);
  EXPECT_EQ(run.status, 2) << run.describe();
  const nlohmann::json report = nlohmann::json::parse(run.out, nullptr, /*allow_exceptions=*/false);
  ASSERT_FALSE(report.is_discarded()) << run.describe();
  EXPECT_EQ(report.at("complete"), false);
  EXPECT_EQ(report.at("stop"), "the model's capacity");
  ASSERT_TRUE(report.contains("capacity")) << run.out;
  EXPECT_NE(report["capacity"].at("what").get<std::string>().find(kWhat), std::string::npos);
  const std::string scenario = report["capacity"].at("scenario");
  EXPECT_TRUE(fs::exists(scenario));
  EXPECT_EQ(report["capacity"].at("steps").get<std::size_t>(), stepLines(scenario).size());
}

// The same configuration without the legacy preferred election cannot enter the loop: no capacity
// object, and it completes.
TEST(Capacity, AFiniteConfigurationHasNoCapacityFinding) {
  const fs::path dir = work("finite");
  std::ifstream in(configFile());
  std::ofstream finite(dir / "finite.config");
  for (std::string line; std::getline(in, line);) {
    finite << (line == "bound zk-preferred-elections 1" ? "bound zk-preferred-elections 0" : line) << '\n';
  }
  finite.close();
  const RunResult run =
      runKcspec({"explore", "--config", (dir / "finite.config").string(), "--json", "--out", (dir / "out").string()}, dir);
  EXPECT_NE(run.status, 2) << run.describe();
  const nlohmann::json report = nlohmann::json::parse(run.out, nullptr, /*allow_exceptions=*/false);
  ASSERT_FALSE(report.is_discarded()) << run.describe();
  EXPECT_FALSE(report.contains("capacity"));
  EXPECT_EQ(report.at("stop"), "complete");
}

// The steps of a scenario file, as text (the lines after `steps` that are not comments).
std::vector<std::string> stepTexts(const std::string& file) {
  std::ifstream in(file);
  std::vector<std::string> texts;
  bool steps = false;
  for (std::string line; std::getline(in, line);) {
    if (steps && !line.empty() && line[0] != '#') texts.push_back(line);
    if (line == "steps") steps = true;
  }
  return texts;
}

// `drive --mode exhaustive` builds the spec's graph before it checks a transition in the SUT: a
// step of it that needs more room stops the run there, with a shortest history written as a
// scenario that `replay` (and `drive --mode replay`) stop at on its last step, exit 2.
TEST(Capacity, DriveExhaustiveNamesTheHistoryAndExits2) {
  const fs::path dir = work("drive-exhaustive");
  const std::string scenario = (dir / "beyond.scenario").string();
  const RunResult run = runKcspec({"drive", "--mode", "exhaustive", "--steps", "200", "--max-states", "100000", "--config",
                                   configFile(), "--out", scenario, "--quiet", "--", KCSPEC_EXE, "sut"},
                                  dir);
  EXPECT_EQ(run.status, 2) << run.describe();
  EXPECT_NE(run.out.find("(stopped: the model's capacity)"), std::string::npos) << run.describe();
  EXPECT_NE(run.out.find("beyond the model: a step needs more than the modeled world holds: " + std::string(kWhat)),
            std::string::npos)
      << run.describe();
  EXPECT_NE(run.out.find("reproduce: kcspec replay " + scenario), std::string::npos) << run.describe();
  EXPECT_EQ(run.out.find("FINDING"), std::string::npos) << run.describe();
  const std::vector<int> lines = stepLines(scenario);
  ASSERT_GT(lines.size(), 2u) << run.describe();
  EXPECT_NE(run.out.find("history (" + std::to_string(lines.size()) + " steps, a shortest"), std::string::npos)
      << run.describe();
  const std::string at_last_step = scenario + ":" + std::to_string(lines.back()) + ": a step needs more than the "
                                                                                  "modeled world holds: " + kWhat;
  const RunResult replay = runKcspec({"replay", scenario}, dir / "replay");
  EXPECT_EQ(replay.status, 2) << replay.describe();
  EXPECT_NE(replay.err.find(at_last_step), std::string::npos) << replay.describe();
  const RunResult drive_replay =
      runKcspec({"drive", "--mode", "replay", "--scenario", scenario, "--quiet", "--", KCSPEC_EXE, "sut"},
                dir / "drive-replay");
  EXPECT_EQ(drive_replay.status, 2) << drive_replay.describe();
  EXPECT_NE(drive_replay.err.find(at_last_step), std::string::npos) << drive_replay.describe();

  const RunResult json = runKcspec({"drive", "--mode", "exhaustive", "--steps", "200", "--max-states", "100000",
                                    "--config", configFile(), "--out", scenario, "--quiet", "--json", "--", KCSPEC_EXE,
                                    "sut"},
                                   dir / "json");
  EXPECT_EQ(json.status, 2) << json.describe();
  const nlohmann::json report = nlohmann::json::parse(json.out, nullptr, /*allow_exceptions=*/false);
  ASSERT_FALSE(report.is_discarded()) << json.describe();
  EXPECT_EQ(report.at("verdict"), "capacity");
  EXPECT_EQ(report["capacity"].at("steps").get<std::size_t>(), lines.size());
  EXPECT_EQ(report["capacity"].at("history").size(), lines.size());
  EXPECT_EQ(report["capacity"].at("scenario"), scenario);
}

// Random histories end before a step that needs more room (it is not sent to the SUT), are
// counted, and the run goes on: the reference controller conforms, exit 0. (Seed 1's eight
// uniform histories: two of them get there, each some hundreds of steps long.)
TEST(Capacity, DriveRandomHistoriesEndBeforeTheStepAndAreCounted) {
  const fs::path dir = work("drive-random");
  const RunResult run = runKcspec({"drive", "--steps", "1000", "--histories", "8", "--uniform", "--config",
                                   configFile(), "--quiet", "--json", "--", KCSPEC_EXE, "sut"},
                                  dir);
  EXPECT_EQ(run.status, 0) << run.describe();
  const nlohmann::json report = nlohmann::json::parse(run.out, nullptr, /*allow_exceptions=*/false);
  ASSERT_FALSE(report.is_discarded()) << run.describe();
  EXPECT_EQ(report.at("verdict"), "conform");
  EXPECT_EQ(report.at("histories"), 8);
  const std::uint64_t at_capacity = report.at("histories_at_capacity").get<std::uint64_t>();
  EXPECT_GT(at_capacity, 0u) << run.out;
  EXPECT_LT(at_capacity, 8u) << run.out;
  const RunResult text = runKcspec({"drive", "--steps", "1000", "--histories", "8", "--uniform", "--config",
                                    configFile(), "--quiet", "--", KCSPEC_EXE, "sut"},
                                   dir / "text");
  EXPECT_EQ(text.status, 0) << text.describe();
  EXPECT_NE(text.out.find("; " + std::to_string(at_capacity) + " ended where a step outgrew the modeled world"),
            std::string::npos)
      << text.describe();
}

// `kcspec sut` sent the step that needs more room (another driver may send it) answers `internal`
// naming what was full, refuses further steps until a reset, and goes on after it.
TEST(Capacity, SutAnswersInternalAndTakesNoStepUntilAReset) {
  const fs::path dir = work("sut");
  const std::string scenario = (dir / "beyond.scenario").string();
  const RunResult found = runKcspec({"explore", "--config", configFile(), "--out", dir.string()}, dir / "explore");
  ASSERT_EQ(found.status, 2) << found.describe();
  const std::vector<std::string> steps = stepTexts(scenarioNamed(found.err));
  ASSERT_GT(steps.size(), 2u) << found.describe();
  const fs::path requests = dir / "requests.ndjson";
  {
    std::ofstream out(requests);
    int id = 1;
    out << nlohmann::json{{"type", "init"}, {"id", id++}, {"protocol", 1}, {"config", std::string(test::kFailoverLoopConfig)}}
               .dump()
        << '\n';
    for (const std::string& step : steps) out << nlohmann::json{{"type", "step"}, {"id", id++}, {"action", step}}.dump() << '\n';
    out << nlohmann::json{{"type", "step"}, {"id", id++}, {"action", "deliver-request 1"}}.dump() << '\n';
    out << nlohmann::json{{"type", "reset"}, {"id", id++}}.dump() << '\n';
    out << nlohmann::json{{"type", "step"}, {"id", id++}, {"action", steps.front()}}.dump() << '\n';
    out << nlohmann::json{{"type", "quit"}, {"id", id++}}.dump() << '\n';
  }
  const RunResult run = runKcspec({"sut"}, dir / "run", 300000, requests);
  EXPECT_EQ(run.status, 0) << run.describe();
  std::vector<nlohmann::json> replies;
  std::istringstream lines(run.out);
  for (std::string line; std::getline(lines, line);) replies.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(replies.size(), steps.size() + 5) << run.describe();
  for (std::size_t i = 1; i < steps.size(); ++i) EXPECT_EQ(replies[i].at("type"), "step_ok") << i;
  const nlohmann::json& beyond = replies[steps.size()];
  EXPECT_EQ(beyond.at("type"), "error");
  EXPECT_EQ(beyond.at("code"), "internal");
  EXPECT_NE(beyond.at("message").get<std::string>().find(kWhat), std::string::npos) << beyond;
  const nlohmann::json& after = replies[steps.size() + 1];
  EXPECT_EQ(after.at("type"), "error");
  EXPECT_NE(after.at("message").get<std::string>().find("reset to go on"), std::string::npos) << after;
  EXPECT_EQ(replies[steps.size() + 2].at("type"), "reset_ok");
  EXPECT_EQ(replies[steps.size() + 3].at("type"), "step_ok");
  EXPECT_EQ(replies[steps.size() + 4].at("type"), "quit_ok");
}

// `trace` and `itf` write a history a step at a time: they stop at the step that needs more room
// with the scenario's FILE:LINE (exit 2), and leave --out unwritten.
TEST(Capacity, TraceAndItfNameTheLineOfTheStep) {
  const fs::path dir = work("trace-itf");
  const RunResult found = runKcspec({"explore", "--config", configFile(), "--out", dir.string()}, dir / "explore");
  ASSERT_EQ(found.status, 2) << found.describe();
  const std::string scenario = scenarioNamed(found.err);
  const std::vector<int> lines = stepLines(scenario);
  ASSERT_GT(lines.size(), 2u);
  for (const std::string command : {"trace", "itf"}) {
    SCOPED_TRACE(command);
    const fs::path out = dir / (command + ".out");
    const RunResult run = runKcspec({command, scenario, "--out", out.string()}, dir / command);
    EXPECT_EQ(run.status, 2) << run.describe();
    EXPECT_NE(run.err.find(scenario + ":" + std::to_string(lines.back()) + ": a step needs more than the modeled "
                                         "world holds: " + kWhat),
              std::string::npos)
        << run.describe();
    EXPECT_FALSE(fs::exists(out));
  }
}

// `suite` runs every scenario of a folder, says which one is beyond the model at which line, and
// ends with exit 2 when none disagreed.
TEST(Capacity, SuiteNamesTheScenarioBeyondTheModel) {
  const fs::path dir = work("suite");
  const RunResult found = runKcspec({"explore", "--config", configFile(), "--out", (dir / "out").string()}, dir / "explore");
  ASSERT_EQ(found.status, 2) << found.describe();
  const std::string scenario = scenarioNamed(found.err);
  const std::vector<int> lines = stepLines(scenario);
  ASSERT_GT(lines.size(), 2u);
  fs::create_directories(dir / "folder");
  fs::copy_file(scenario, dir / "folder" / "beyond.scenario");
  const RunResult run = runKcspec({"suite", (dir / "folder").string()}, dir / "run");
  EXPECT_EQ(run.status, 2) << run.describe();
  EXPECT_NE(run.out.find("BEYOND THE MODEL " + (dir / "folder" / "beyond.scenario").string() + ":" +
                         std::to_string(lines.back()) + ": a step needs more than the modeled world holds: " + kWhat),
            std::string::npos)
      << run.describe();
  EXPECT_NE(run.out.find("0 of 1 scenarios agree"), std::string::npos) << run.describe();
  const RunResult json = runKcspec({"suite", "--json", (dir / "folder").string()}, dir / "json");
  EXPECT_EQ(json.status, 2) << json.describe();
  const nlohmann::json object = nlohmann::json::parse(json.out, nullptr, /*allow_exceptions=*/false);
  ASSERT_FALSE(object.is_discarded()) << json.describe();
  EXPECT_EQ(object.at("passed"), false);
  EXPECT_EQ(object["beyond_model"].at("line"), lines.back());
  EXPECT_EQ(object.at("steps").get<std::size_t>(), lines.size() - 1);
}

}  // namespace
}  // namespace kcspec::cli_test
