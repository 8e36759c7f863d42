// Bad input never crashes: every kcspec command × every kind of bad input (a missing file, an
// empty file, binary garbage, a 10 MB line, truncated JSON where JSON is read, an unknown flag, an
// out-of-range bound) ends with exit status 2 and a message naming the file (`file:line: message`)
// or the flag (a usage message) — never a signal, a sanitizer report or a hang. A command that
// accepts any content by design (check-log counts lines it cannot parse) is listed with that
// expectation instead: no crash, its summary, and exit 3 for check-log (nothing checked, the file
// named), 0 or 1 for the others.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "run_kcspec.hpp"

namespace kcspec::cli_test {
namespace {

namespace fs = std::filesystem;

enum class Input { Missing, Empty, Garbage, HugeLine, TruncatedJson, UnknownFlag, OutOfRange };

std::string inputName(Input kind) {
  switch (kind) {
    case Input::Missing: return "missing_file";
    case Input::Empty: return "empty_file";
    case Input::Garbage: return "binary_garbage";
    case Input::HugeLine: return "huge_line";
    case Input::TruncatedJson: return "truncated_json";
    case Input::UnknownFlag: return "unknown_flag";
    case Input::OutOfRange: return "out_of_range";
  }
  return "unknown";
}

// An out-of-range bound: the arguments, and what stderr must name (the flag, or file:line).
struct BadBound {
  std::string name;
  std::vector<std::string> args;
  std::string names;
};

// One command of the table. In arguments, `{FILE}` stands for the bad file, `{DIR}` for the test's
// folder, `{KCSPEC}` for the kcspec executable; `{FLAG}` marks where the unknown flag goes in
// `plain` (at the end when it has none).
struct Command {
  std::string name;
  std::vector<std::string> args;    // how the command reads a file (empty: it reads none)
  bool reads_json = false;          // the file is JSON (lines): truncated JSON applies
  bool from_stdin = false;          // the bad file is the command's standard input, not an argument
  bool any_content_ok = false;      // empty, garbage and huge files are valid input for it
  std::string summary;              // with any_content_ok: what its stdout shows for such a file
  int content_status = 0;           // with any_content_ok: the exit status for such a file (-1: 0 or 1)
  std::vector<std::string> plain;   // the command with valid arguments, for the unknown flag
  std::vector<BadBound> out_of_range;
};

fs::path folder() { return fs::temp_directory_path() / ("kcspec-bad-input-" + std::to_string(::getpid())); }

// Files with bad bounds, in the formats the commands read.
constexpr std::string_view kNegativeBound = "name n\nbrokers 1 2\ntopic t\npartition 0 replicas 1,2\nbound crashes -1\n";
constexpr std::string_view kHugeBound = "name n\nbrokers 1 2\ntopic t\npartition 0 replicas 1,2\nbound crashes 99999999999\n";

void write(const fs::path& path, std::string_view contents) {
  std::ofstream(path, std::ios::binary) << contents;
}

// Writes every bad file once; returns the path standing for `kind`.
fs::path badFile(Input kind) {
  const fs::path dir = folder();
  static const bool written = [&] {
    fs::create_directories(dir);
    write(dir / "empty_file", "");
    std::string garbage;
    std::uint32_t x = 2463534242u;  // xorshift: the same bytes every run
    for (int i = 0; i < 65536; ++i) {
      x ^= x << 13, x ^= x >> 17, x ^= x << 5;
      garbage += static_cast<char>(x & 0xFF);
    }
    write(dir / "binary_garbage", garbage);
    write(dir / "huge_line", std::string(10u << 20, 'x') + "\n");
    // A whole trace header, then a step cut off in the middle of its observation.
    write(dir / "truncated_json",
          "{\"kcspec-trace\":1,\"preset\":\"default\"}\n{\"action\":\"elect-controller 1\",\"observation\":{\"zook");
    write(dir / "negative_bound.conf", kNegativeBound);
    write(dir / "negative_bound.scenario", std::string("# kcspec scenario v1\n") + std::string(kNegativeBound) + "steps\n");
    write(dir / "huge_bound.conf", kHugeBound);
    write(dir / "huge_bound.scenario", std::string("# kcspec scenario v1\n") + std::string(kHugeBound) + "steps\n");
    write(dir / "version_99.ndjson", "{\"kcspec-trace\":99,\"preset\":\"default\"}\n");
    write(dir / "negative_bound.ndjson", "{\"kcspec-trace\":1,\"config\":\"brokers 1 2\\nbound crashes -1\\n\"}\n");
    return true;
  }();
  (void)written;
  return dir / inputName(kind);  // missing_file is never written
}

std::vector<std::string> substitute(const std::vector<std::string>& args, const fs::path& file) {
  std::vector<std::string> out;
  for (std::string arg : args) {
    for (const auto& [key, value] : {std::pair<std::string, std::string>{"{FILE}", file.string()},
                                     std::pair<std::string, std::string>{"{DIR}", folder().string()},
                                     std::pair<std::string, std::string>{"{KCSPEC}", KCSPEC_EXE}}) {
      if (const std::size_t at = arg.find(key); at != std::string::npos) arg.replace(at, key.size(), value);
    }
    out.push_back(arg);
  }
  return out;
}

// Every command of `kcspec --help`, with how it reads input and its bounds.
std::vector<Command> commands() {
  return {
      {.name = "tables", .plain = {"tables"}},
      {.name = "docs_check",
       .args = {"docs", "--check", "--dir", "{FILE}"},
       .plain = {"docs", "--check"},
       // An empty --dir once wrote the pages into the working folder and printed 64 "removed" lines.
       .out_of_range = {{"dir_empty", {"docs", "--dir", ""}, "--dir: empty"}}},
      {.name = "explore",
       .args = {"explore", "--config", "{FILE}", "--out", "{DIR}/out"},
       .plain = {"explore", "--preset", "default"},
       .out_of_range = {{"threads_0", {"explore", "--threads", "0"}, "--threads"},
                        {"threads_huge", {"explore", "--threads", "100000"}, "--threads"},
                        {"max_depth_negative", {"explore", "--max-depth", "-1"}, "--max-depth"},
                        {"max_depth_overflow", {"explore", "--max-depth", "99999999999"}, "--max-depth"},
                        {"max_depth_exponent", {"explore", "--max-depth", "1e3"},
                         "--max-depth: 1e3 is not a whole number from 0 to 2147483647"},
                        {"max_memory_0", {"explore", "--max-memory", "0"}, "--max-memory"},
                        // 2^32 states take about 73 GiB of table: more than this machine kind's 24 GiB.
                        {"expect_states_beyond_memory", {"explore", "--expect-states", "4294967296"},
                         "--expect-states: a visited set for 4294967296 states takes"},
                        // Distributed (one rank without mpirun): the rank's share of 3 × 10^9 states,
                        // about 111 GiB of table and records.
                        {"expect_states_beyond_memory_distributed",
                         {"explore", "--distributed", "--expect-states", "3000000000"},
                         "--expect-states: a rank's share of the states for 3000000000 states takes"},
                        {"spill_dir_missing", {"explore", "--spill-dir", "{DIR}/no/such/dir"}, "--spill-dir: spill file in"},
                        {"progress_every_0", {"explore", "--progress-every", "0"}, "--progress-every"},
                        {"no_such_preset", {"explore", "--preset", "no-such"}, "--preset"},
                        {"config_negative_bound", {"explore", "--config", "{DIR}/negative_bound.conf"}, "negative_bound.conf:5:"},
                        {"config_huge_bound", {"explore", "--config", "{DIR}/huge_bound.conf"}, "huge_bound.conf:5:"},
                        {"config_folder", {"explore", "--config", "{DIR}"}, "is a folder, not a configuration file"},
                        {"run_folder_is_a_file", {"explore", "--run-folder", "{DIR}/negative_bound.conf"},
                         "--run-folder: "},
                        {"run_folder_with_out", {"explore", "--run-folder", "{DIR}/run", "--out", "{DIR}/out"},
                         "--out excludes --run-folder"}}},
      {.name = "replay",
       .args = {"replay", "{FILE}"},
       .plain = {"replay", "{DIR}/negative_bound.scenario"},
       .out_of_range = {{"negative_bound", {"replay", "{DIR}/negative_bound.scenario"}, "negative_bound.scenario:6:"},
                        {"huge_bound", {"replay", "--json", "{DIR}/huge_bound.scenario"}, "huge_bound.scenario:6:"}}},
      {.name = "replay_impl",
       .args = {"replay", "--impl", "{FILE}"},
       .plain = {"replay", "--impl", "{DIR}/negative_bound.scenario"},
       .out_of_range = {{"huge_bound", {"replay", "--impl", "{DIR}/huge_bound.scenario"}, "huge_bound.scenario:6:"}}},
      {.name = "check_log",
       .args = {"check-log", "{FILE}"},
       .any_content_ok = true,
       .summary = "check-log: 1 file,",
       .plain = {"check-log", "{DIR}/empty_file"}},
      {.name = "check_trace",
       .args = {"check-trace", "{FILE}"},
       .reads_json = true,
       .plain = {"check-trace", "{DIR}/version_99.ndjson"},
       .out_of_range = {{"version_99", {"check-trace", "{DIR}/version_99.ndjson"}, "version_99.ndjson:1:"},
                        {"negative_bound", {"check-trace", "--json", "{DIR}/negative_bound.ndjson"}, "negative_bound.ndjson:1:"}}},
      {.name = "trace",
       .args = {"trace", "{FILE}", "--out", "{DIR}/out.ndjson"},
       .plain = {"trace", "{DIR}/huge_bound.scenario"},
       .out_of_range = {{"huge_bound", {"trace", "{DIR}/huge_bound.scenario"}, "huge_bound.scenario:6:"}}},
      {.name = "itf",
       .args = {"itf", "{FILE}"},
       .plain = {"itf", "{DIR}/huge_bound.scenario"},
       .out_of_range = {{"negative_bound", {"itf", "{DIR}/negative_bound.scenario"}, "negative_bound.scenario:6:"}}},
      {.name = "prove",
       .plain = {"prove", "--list"},
       .out_of_range = {{"threads_0", {"prove", "--threads", "0", "--list"}, "--threads"},
                        {"no_such_theorem", {"prove", "--only", "no-such-theorem"}, "--only"}}},
      {.name = "drive",
       .args = {"drive", "--config", "{FILE}", "--", "{KCSPEC}", "sut"},
       .plain = {"drive", "{FLAG}", "--", "{KCSPEC}", "sut"},
       .out_of_range = {{"seed_negative", {"drive", "--seed", "-1", "--", "{KCSPEC}", "sut"}, "--seed"},
                        // Too large for 64 bits: refused, not clamped to 2^64-1.
                        {"seed_overflow", {"drive", "--seed", "99999999999999999999", "--", "{KCSPEC}", "sut"},
                         "--seed: 99999999999999999999 is not a whole number from 0 to 18446744073709551615"},
                        {"histories_0", {"drive", "--histories", "0", "--", "{KCSPEC}", "sut"}, "--histories"},
                        {"timeout_0", {"drive", "--timeout-ms", "0", "--", "{KCSPEC}", "sut"}, "--timeout-ms"},
                        {"max_line_bytes_tiny", {"drive", "--max-line-bytes", "10", "--", "{KCSPEC}", "sut"}, "--max-line-bytes"},
                        {"max_states_0", {"drive", "--mode", "exhaustive", "--max-states", "0", "--", "{KCSPEC}", "sut"}, "--max-states"},
                        {"no_such_sut", {"drive", "--", "{DIR}/no-such-program"}, "no-such-program"},
                        {"config_negative_bound", {"drive", "--config", "{DIR}/negative_bound.conf", "--", "{KCSPEC}", "sut"}, "negative_bound.conf:5:"},
                        {"config_folder", {"drive", "--config", "{DIR}", "--", "{KCSPEC}", "sut"}, "is a folder, not a configuration file"}}},
      {.name = "sut",
       .args = {"sut"},
       .reads_json = true,
       .from_stdin = true,
       .any_content_ok = true,
       .summary = "",
       .plain = {"sut"},
       .out_of_range = {{"no_such_mutant", {"sut", "--mutant", "M999"}, "--mutant"}}},
      {.name = "check_zk",
       .plain = {"check-zk", "--zookeeper", "127.0.0.1:1"},
       .out_of_range = {{"connect_timeout_0", {"check-zk", "--zookeeper", "127.0.0.1:1", "--connect-timeout-ms", "0"}, "--connect-timeout-ms"},
                        {"rounds_0", {"check-zk", "--zookeeper", "127.0.0.1:1", "--rounds", "0"}, "--rounds"},
                        {"watch_0", {"check-zk", "--zookeeper", "127.0.0.1:1", "--watch", "0"}, "--watch: 0 is not"},
                        // NaN compares false with everything: it would pass `> 0` checks unnoticed.
                        {"watch_nan", {"check-zk", "--zookeeper", "127.0.0.1:1", "--watch", "nan"},
                         "--watch: nan is not a number of seconds above 0 and at most 86400"},
                        {"unreachable", {"check-zk", "--zookeeper", "127.0.0.1:1", "--connect-timeout-ms", "100"}, "--zookeeper"}}},
      {.name = "run_controller",
       .args = {"run-controller", "--zookeeper", "127.0.0.1:1", "--connect-timeout-ms", "100", "--scenario", "{FILE}"},
       .plain = {"run-controller", "--zookeeper", "127.0.0.1:1", "--scenario", "{DIR}/huge_bound.scenario"},
       .out_of_range = {{"session_timeout_1", {"run-controller", "--zookeeper", "127.0.0.1:1", "--scenario", "{DIR}/huge_bound.scenario", "--session-timeout-ms", "1"}, "--session-timeout-ms"},
                        {"pause_before_step_0", {"run-controller", "--zookeeper", "127.0.0.1:1", "--scenario", "{DIR}/huge_bound.scenario", "--pause-before-step", "0"}, "--pause-before-step: 0 is not"},
                        {"serve_until_elected_nan", {"run-controller", "--zookeeper", "127.0.0.1:1", "--scenario", "{DIR}/huge_bound.scenario", "--serve-until-elected", "nan"}, "--serve-until-elected: nan is not"},
                        {"huge_bound", {"run-controller", "--zookeeper", "127.0.0.1:1", "--connect-timeout-ms", "100", "--scenario", "{DIR}/huge_bound.scenario"}, "huge_bound.scenario:6:"}}},
      {.name = "mutants",
       .plain = {"mutants", "--mutant", "M1"},
       .out_of_range = {{"budget_0", {"mutants", "--budget", "0"}, "--budget"},
                        {"budget_negative", {"mutants", "--budget", "-5"}, "--budget"},
                        {"budget_overflow", {"mutants", "--budget", "99999999999"}, "--budget"},
                        {"max_steps_0", {"mutants", "--max-steps", "0"}, "--max-steps"},
                        {"seed_negative", {"mutants", "--seed", "-1"}, "--seed"},
                        {"seed_overflow", {"mutants", "--seed", "18446744073709551616"},
                         "--seed: 18446744073709551616 is not a whole number from 0 to 18446744073709551615"},
                        {"no_such_mutant", {"mutants", "--mutant", "M999"}, "--mutant"},
                        {"run_folder_is_a_file", {"mutants", "--run-folder", "{DIR}/negative_bound.conf"},
                         "--run-folder: "}}},
  };
}

struct Cell {
  Command command;
  Input input;
  BadBound bound;  // with Input::OutOfRange
  std::string name() const {
    return command.name + "_" + inputName(input) + (bound.name.empty() ? "" : "_" + bound.name);
  }
};

std::vector<Cell> cells() {
  std::vector<Cell> all;
  for (const Command& command : commands()) {
    if (!command.args.empty()) {
      for (Input kind : {Input::Missing, Input::Empty, Input::Garbage, Input::HugeLine}) {
        if (kind == Input::Missing && command.from_stdin) continue;  // the shell opens stdin, not kcspec
        all.push_back({command, kind, {}});
      }
      if (command.reads_json) all.push_back({command, Input::TruncatedJson, {}});
    }
    all.push_back({command, Input::UnknownFlag, {}});
    for (const BadBound& bound : command.out_of_range) all.push_back({command, Input::OutOfRange, bound});
  }
  return all;
}

// GoogleTest names a failing cell by this.
void PrintTo(const Cell& cell, std::ostream* out) { *out << cell.name(); }

class BadInput : public testing::TestWithParam<Cell> {};

TEST_P(BadInput, ExitsTwoNamingTheFileOrTheFlag) {
  const Cell& cell = GetParam();
  (void)badFile(Input::Empty);  // writes every bad file, those the bounds use too (CTest runs each cell alone)
  std::vector<std::string> args;
  std::string must_name;
  fs::path stdin_file = "/dev/null";
  switch (cell.input) {
    case Input::UnknownFlag:
      args = substitute(cell.command.plain, {});
      if (auto at = std::find(args.begin(), args.end(), "{FLAG}"); at != args.end()) *at = "--no-such-flag";
      else args.push_back("--no-such-flag");
      must_name = "--no-such-flag";
      break;
    case Input::OutOfRange:
      args = substitute(cell.bound.args, {});
      must_name = cell.bound.names;
      break;
    default: {
      const fs::path file = badFile(cell.input);
      args = substitute(cell.command.args, cell.command.from_stdin ? fs::path() : file);
      must_name = file.string() + ":";
      if (cell.command.from_stdin) stdin_file = file;
    }
  }
  const RunResult run = runKcspec(args, folder() / ("run-" + cell.name()), 300000, stdin_file);
  ASSERT_FALSE(run.hung) << run.describe();
  ASSERT_FALSE(run.signalled) << run.describe();
  const bool content = cell.input == Input::Empty || cell.input == Input::Garbage || cell.input == Input::HugeLine;
  const bool bad_content = cell.input != Input::Empty && (content || cell.input == Input::TruncatedJson);
  if (cell.command.from_stdin && bad_content) {
    // A server on stdin (sut) answers each bad line with an error reply and keeps serving.
    EXPECT_EQ(run.status, 0) << run.describe();
    EXPECT_NE(run.out.find("\"type\":\"error\""), std::string::npos) << run.describe();
    for (std::size_t start = 0, end = 0; start < run.out.size(); start = end + 1) {
      end = std::min(run.out.find('\n', start), run.out.size());
      ASSERT_LT(end - start, 4096u) << "a reply should be short, not the input echoed\n" << run.describe();
    }
    return;
  }
  if (cell.command.any_content_ok && (content || cell.input == Input::TruncatedJson)) {
    EXPECT_NE(run.out.find(cell.command.summary), std::string::npos) << run.describe();
    if (std::string_view(cell.command.name) == "check_log") {
      // No line of such a file is one check-log reads: "nothing checked", exit 3 — never the
      // exit 0 of a clean check.
      EXPECT_EQ(run.status, 3) << run.describe();
      EXPECT_NE(run.out.find("nothing checked in "), std::string::npos) << run.describe();
    } else {
      EXPECT_TRUE(run.status == 0 || run.status == 1) << run.describe();
    }
    return;
  }
  EXPECT_EQ(run.status, 2) << run.describe();
  EXPECT_NE(run.err.find(must_name), std::string::npos) << "stderr should name `" << must_name << "`\n" << run.describe();
  EXPECT_LT(run.err.size(), 4096u) << "the message should be short, not the input echoed\n" << run.describe();
}

// `kcspec drive` against systems under test that misbehave: each is a finding against the SUT
// (exit 1, "FINDING" and its kind on stdout), never a crash or a hang of the driver.
TEST(HostileSut, EveryMisbehaviourIsAFindingNotACrashOrAHang) {
  const fs::path garbage = badFile(Input::Garbage);
  const std::vector<std::pair<std::string, std::vector<std::string>>> suts = {
      {"floods", {"yes", "{\"type\":\"init_ok\"}"}},
      {"hangs", {"sleep", "600"}},
      {"dies_mid_message", {"sh", "-c", "printf '{\"type\":\"init_ok\",\"id\":1,\"obs'"}},
      {"prints_garbage", {"cat", garbage.string()}},
      {"prints_a_huge_line", {"cat", badFile(Input::HugeLine).string()}},
      {"crashes", {"sh", "-c", "read line; kill -SEGV $$"}},
      {"exits_at_once", {"true"}},
  };
  for (const auto& [name, sut] : suts) {
    SCOPED_TRACE(name);
    std::vector<std::string> args = {"drive", "--histories", "1", "--timeout-ms", "500", "--quiet", "--out", ""};
    args.push_back("--");
    args.insert(args.end(), sut.begin(), sut.end());
    const RunResult run = runKcspec(args, folder() / ("hostile-" + name), 120000);
    ASSERT_FALSE(run.hung) << run.describe();
    ASSERT_FALSE(run.signalled) << run.describe();
    EXPECT_EQ(run.status, 1) << run.describe();
    EXPECT_NE(run.out.find("FINDING"), std::string::npos) << run.describe();
    EXPECT_LT(run.out.size() + run.err.size(), 16384u) << "the report should not echo what the SUT printed\n" << run.describe();
  }
}

// The bad files go when the tests are done.
class RemoveFolder : public testing::Environment {
 public:
  void TearDown() override {
    std::error_code error;
    fs::remove_all(folder(), error);
  }
};
const testing::Environment* const kRemoveFolder = testing::AddGlobalTestEnvironment(new RemoveFolder);

INSTANTIATE_TEST_SUITE_P(EveryCommand, BadInput, testing::ValuesIn(cells()),
                         [](const testing::TestParamInfo<Cell>& cell) { return cell.param.name(); });

}  // namespace
}  // namespace kcspec::cli_test
