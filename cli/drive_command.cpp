// `kcspec drive [--mode random|exhaustive|replay] [--preset NAME | --config FILE | --scenario FILE]
// … -- COMMAND…`: drives a system under test over the driver protocol (docs/driver-protocol.md)
// with the spec's enabled actions and compares its observations with the spec's
// (proofs/conformance/driver_engine.hpp). With --scenario, the run takes the scenario file's
// configuration and starts every history from its given world (protocol 2's `given`), or from
// the initial state without one; `--mode replay` drives the scenario's own steps. Exit status
// (cli/exit_status.hpp) 0: every observation agreed, in every history asked for or every state of
// the configuration; 1: a finding (mismatch, refusal, error, timeout, exit, malformed output),
// printed with its history and written as a scenario file; 2: bad input (flags, configuration, a
// scenario whose given world breaks a rule or whose step the spec does not enable, a command that
// cannot be started, a SUT that cannot start from a given world, a configuration whose exhaustive
// graph has a step that outgrows the modeled world — printed with its history and written as a
// scenario file, before any transition is checked in the SUT; random histories just end before
// such a step, counted); 3: exhaustive mode stopped at
// --steps or --max-states before the configuration's last state, every observation agreeing so
// far; 130: interrupted (SIGINT,
// SIGTERM, SIGHUP) before a finding — the partial report is printed first (a finding found before
// that is reported as usual, exit 1).
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "cli/command.hpp"
#include "cli/exit_status.hpp"
#include "cli/starting_state.hpp"
#include "proofs/agreement/random_histories.hpp"
#include "cli/files.hpp"
#include "cli/run_folder.hpp"
#include "cli/number_options.hpp"
#include "cli/shell_word.hpp"
#include "proofs/conformance/driver_child.hpp"
#include "proofs/conformance/driver_engine.hpp"
#include "proofs/conformance/driver_session.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/config_text.hpp"
#include "spec/vocabulary/presets.hpp"
#include "spec/rules/step.hpp"
#include "spec/vocabulary/capacity.hpp"
#include "spec/vocabulary/scenario_text.hpp"
#include "spec/vocabulary/text_error.hpp"

namespace kcspec::cli {
namespace {

struct DriveCommandOptions {
  std::string mode = "random";
  std::uint64_t seed = 1;
  std::optional<int> steps;  // default by mode
  int histories = 100;
  std::uint64_t max_states = 20'000;
  int timeout_ms = 10'000;
  std::size_t max_line_bytes = conformance::kDefaultMaxLineBytes;
  std::string preset;
  std::string config_file;
  std::string scenario_file;  // --scenario: its configuration, given world and (replay) steps
  std::string out = "drive-counterexample.scenario";
  std::string run_folder;  // --run-folder (run_folder.hpp)
  bool uniform = false;
  bool json = false;
  bool quiet = false;
  std::vector<std::string> command;
};

constexpr int kDefaultRandomSteps = 30;
constexpr int kDefaultExhaustiveDepth = 12;

// An embedded configuration (spec/vocabulary/presets.hpp), a configuration file, or a scenario file's.
Config loadConfig(const DriveCommandOptions& o, const std::optional<Scenario>& scenario) {
  if (scenario) return scenario->config;
  if (!o.config_file.empty()) {
    return parseConfig(readUserFile(o.config_file, "a configuration file"), o.config_file);
  }
  const std::string name = o.preset.empty() ? "default" : o.preset;
  if (std::optional<Config> config = preset(name)) return *config;
  std::string names;
  for (std::string_view n : kPresetNames) names += (names.empty() ? "" : ", ") + std::string(n);
  throw UserError("--preset", fmt::format("no configuration named '{}' (there are: {})", name, names));
}

// --scenario FILE: the scenario, its given world judged as `kcspec replay` judges it (bad input at
// the `given` line for one that breaks a rule), cluster actions only; for replay mode every step
// enabled in the spec from its start (bad input at the step's line otherwise).
Scenario loadScenario(const DriveCommandOptions& o) {
  Scenario scenario = parseScenario(readUserFile(o.scenario_file, "a scenario file"), o.scenario_file);
  requireNoComponentActions(scenario, o.scenario_file, "drive");
  std::vector<GivenWorldBreak> breaks;
  spec::ClusterState state = startingState(scenario, o.scenario_file, breaks);
  if (o.mode == "replay") {
    for (std::size_t i = 0; i < scenario.steps.size(); ++i) {
      if (!spec::isEnabled(scenario.config, state, scenario.steps[i])) {
        throw TextError(o.scenario_file, scenario.step_lines[i],
                        fmt::format("action not enabled in this state: {} (the spec does not take this history)",
                                    printAction(scenario.config, scenario.steps[i])));
      }
      try {
        state = spec::next(scenario.config, state, scenario.steps[i]);
      } catch (const CapacityExceeded& e) {  // beyond the modeled world (docs/spec/rules.md)
        throw TextError(o.scenario_file, scenario.step_lines[i], e.what());
      }
    }
  }
  return scenario;
}

std::string reproduceCommand(const DriveCommandOptions& o, int steps, const conformance::Finding& finding) {
  std::string line = "kcspec drive";
  if (o.mode == "replay") {
    line += " --mode replay";
  } else if (o.mode == "exhaustive") {
    line += fmt::format(" --mode exhaustive --steps {} --max-states {}", steps, o.max_states);
  } else {
    line += fmt::format(" --seed {} --steps {} --histories {}", o.seed, steps, finding.history_index + 1);
    if (o.uniform) line += " --uniform";
  }
  line += fmt::format(" --timeout-ms {}", o.timeout_ms);
  // A reply's length limit decides whether a long reply is a finding: keep one that is not the default.
  if (o.max_line_bytes != conformance::kDefaultMaxLineBytes) line += fmt::format(" --max-line-bytes {}", o.max_line_bytes);
  line += !o.scenario_file.empty() ? " --scenario " + shellWord(o.scenario_file)
          : o.config_file.empty()   ? " --preset " + shellWord(o.preset.empty() ? "default" : o.preset)
                                    : " --config " + shellWord(o.config_file);
  line += " --";
  for (const std::string& word : o.command) line += " " + shellWord(word);
  return line;
}

// A scenario file: the configuration (and the given world the run started from) and a history,
// with `comments` (whole `# …` lines) after its header line.
std::string scenarioText(const Config& config, const std::optional<Given>& given, const std::vector<Action>& history,
                         const std::string& comments) {
  Scenario scenario;
  scenario.config = config;
  scenario.given = given;
  scenario.steps = history;
  return printScenario(scenario, comments);
}

// A finding's scenario: the failing history, the finding and its reproduce line as comments.
std::string findingScenarioText(const Config& config, const std::optional<Given>& given,
                                const conformance::Finding& finding, const std::string& reproduce) {
  return scenarioText(config, given, finding.history,
                      fmt::format("# kcspec drive finding ({}): {}\n# reproduce: {}\n",
                                  conformance::findingKindName(finding.failure.kind), finding.failure.message, reproduce));
}

// Exhaustive mode's history that outgrows the modeled world: `kcspec replay` stops at its last
// step with the same message.
std::string capacityScenarioText(const Config& config, const std::optional<Given>& given,
                                 const conformance::CapacityStop& stop) {
  return scenarioText(config, given, stop.history,
                      fmt::format("# kcspec drive: the last step needs more than the modeled world holds ({} steps): {}\n",
                                  stop.history.size(), stop.what));
}

// Raised by the first Ctrl-C (conformance::setInterruptFlag): the run stops at its next step.
std::atomic<bool> g_interrupted{false};

int runDrive(const DriveCommandOptions& o, RunFolder* run_folder) {
  if (o.mode != "random" && o.mode != "exhaustive" && o.mode != "replay") {
    throw UserError("--mode", fmt::format("expected random, exhaustive or replay, got '{}'", o.mode));
  }
  if (o.mode == "replay" && o.scenario_file.empty()) {
    throw UserError("--mode", "replay drives a scenario's steps: it needs --scenario FILE");
  }
  if (o.command.empty()) throw UserError("drive", "no command: put the SUT's command line after --");
  if (!o.out.empty()) checkWritableLater(o.out, /*folder=*/false, "--out");  // before the work, not after it
  std::optional<Scenario> scenario;
  if (!o.scenario_file.empty()) scenario = loadScenario(o);
  const std::optional<Given> given = scenario ? scenario->given : std::nullopt;
  const Config config = loadConfig(o, scenario);
  if (run_folder != nullptr) run_folder->writeConfig(config);
  const bool exhaustive = o.mode == "exhaustive";
  const bool replay = o.mode == "replay";
  const int steps = replay ? static_cast<int>(scenario->steps.size())
                           : o.steps.value_or(exhaustive ? kDefaultExhaustiveDepth : kDefaultRandomSteps);

  conformance::SutOptions sut_options;
  sut_options.command = o.command;
  sut_options.timeout = std::chrono::milliseconds(o.timeout_ms);
  sut_options.max_line_bytes = o.max_line_bytes;
  if (run_folder != nullptr) sut_options.stderr_log = run_folder->sutStderr().string();
  // A replay sends the scenario's steps, whatever the SUT's version and init_ok's "actions".
  const std::span<const Action> replayed = replay ? std::span<const Action>(scenario->steps) : std::span<const Action>();
  std::unique_ptr<conformance::SutSession> sut;
  g_interrupted.store(false);
  conformance::setInterruptFlag(&g_interrupted);
  try {
    sut = std::make_unique<conformance::SutSession>(sut_options, config,
                                                    given ? std::optional<Observation>(given->world) : std::nullopt,
                                                    replayed);
  } catch (const std::runtime_error& e) {
    throw UserError(o.command.front(), e.what());
  }
  if (conformance::neededProtocol(config, given.has_value(), replayed) > 1 || replay) {
    // A SUT that cannot make this run — one that does not speak the protocol it needs (2 for a
    // given world, 3 for a configuration naming inter.broker.protocol.version, 5 or 6 for a
    // replayed step of a newer kind), or answers `given` with `unsupported`, or (a replay) does not
    // implement a step's kind — is said so once, before the run starts, not as a finding.
    const conformance::SutResult first = sut->begin();
    if (const auto* failure = std::get_if<conformance::SutFailure>(&first); failure && failure->cannot_run) {
      sut->quit();
      if (replay) {
        throw UserError("drive", fmt::format("the SUT cannot replay {} (docs/driver-protocol.md, \"Versions\"): {}",
                                             o.scenario_file, failure->message));
      }
      if (given) {
        throw UserError("drive", fmt::format("the SUT cannot start from the given world of {} "
                                             "(docs/driver-protocol.md, `given`): {}",
                                             o.scenario_file, failure->message));
      }
      throw UserError("drive", fmt::format("the SUT cannot run this configuration (docs/driver-protocol.md, "
                                           "\"Versions\"): {}",
                                           failure->message));
    }
    if (const auto& implemented = sut->implementedActions(); replay && implemented && std::holds_alternative<Observation>(first)) {
      for (std::size_t i = 0; i < scenario->steps.size(); ++i) {  // bounded by the scenario
        const ActionKind kind = scenario->steps[i].kind;
        if (std::find(implemented->begin(), implemented->end(), kind) != implemented->end()) continue;
        sut->quit();
        throw TextError(o.scenario_file, scenario->step_lines[i],
                        fmt::format("the SUT cannot replay this step: `{}` is not among the action kinds its "
                                    "init_ok lists (docs/driver-protocol.md, `init`)",
                                    printAction(config, scenario->steps[i])));
      }
    }
  }

  conformance::DriveOptions options;
  options.exhaustive = exhaustive;
  options.seed = o.seed;
  options.histories = o.histories;
  options.max_steps = steps;
  options.max_states = o.max_states;
  options.cancel = &g_interrupted;
  if (!o.uniform) {
    options.choose = [&config](const spec::ClusterState& state, const std::vector<Action>& enabled, std::uint64_t random) {
      return static_cast<std::size_t>(&agreement::chooseAction(config, state, enabled, random) - enabled.data());
    };
  }
  if (!o.quiet) {
    options.progress = [exhaustive, max_replays = options.max_shrink_replays](const conformance::DriveProgress& p) {
      const auto step_count = [](std::size_t n) { return fmt::format("{} step{}", n, n == 1 ? "" : "s"); };
      if (p.shrinking && p.shrink_replays == 0) {
        fmt::print(stderr, "drive: a history of {} failed; shrinking it (at most {} replays)\n",
                   step_count(p.found_length), max_replays);
      } else if (p.shrinking) {
        fmt::print(stderr, "drive: shrinking: {} replays, the shortest failing history so far {} (of {}), {} SUT steps\n",
                   p.shrink_replays, step_count(p.shortest_failing), p.found_length, p.sut_steps);
      } else if (exhaustive) {
        fmt::print(stderr, "drive: depth {}, {} states, {} transitions checked, {} SUT steps\n", p.depth, p.states,
                   p.transitions, p.sut_steps);
      } else {
        fmt::print(stderr, "drive: {} histories, {} SUT steps\n", p.histories, p.sut_steps);
      }
    };
  }

  const conformance::DriveReport report =
      replay ? conformance::driveHistory(config, *sut, scenario->steps) : conformance::drive(config, *sut, options);
  sut->quit();
  if (report.interrupted) fmt::print(stderr, "kcspec drive: interrupted; partial report\n");

  std::string scenario_path;
  std::string reproduce;
  if (report.capacity && !o.out.empty()) {
    writeFileAtomically(o.out, capacityScenarioText(config, given, *report.capacity));
    scenario_path = o.out;
    reproduce = "kcspec replay " + shellWord(scenario_path);
  }
  if (report.finding) {
    reproduce = reproduceCommand(o, steps, *report.finding);
    if (!o.out.empty()) {
      writeFileAtomically(o.out, findingScenarioText(config, given, *report.finding, reproduce));
      scenario_path = o.out;
      if (run_folder != nullptr) run_folder->drawCounterexamples();
    }
  }

  if (o.json) {
    nlohmann::ordered_json out;
    out["mode"] = o.mode;
    out["config"] = config.name;
    if (scenario) out["scenario"] = o.scenario_file;  // only then: the usual object is unchanged
    if (given) out["from_given"] = true;
    out["seed"] = o.seed;
    out["steps"] = steps;
    out["histories"] = report.totals.histories;
    out["states"] = report.totals.states;
    out["transitions"] = report.totals.transitions;
    out["sut_steps"] = report.totals.sut_steps;
    out["complete"] = report.complete;
    out["interrupted"] = report.interrupted;
    if (!exhaustive && !replay) out["histories_at_capacity"] = report.totals.histories_at_capacity;
    out["verdict"] = report.finding    ? "finding"
                     : report.capacity ? "capacity"
                     : report.interrupted ? "interrupted"
                                          : "conform";
    if (report.capacity) {
      nlohmann::ordered_json history = nlohmann::ordered_json::array();
      for (const Action& a : report.capacity->history) history.push_back(printAction(config, a));
      out["capacity"] = {{"what", report.capacity->what},
                         {"steps", report.capacity->history.size()},
                         {"history", std::move(history)},
                         {"scenario", scenario_path.empty() ? nlohmann::ordered_json(nullptr)
                                                            : nlohmann::ordered_json(scenario_path)},
                         {"reproduce", reproduce.empty() ? nlohmann::ordered_json(nullptr)
                                                         : nlohmann::ordered_json(reproduce)}};
    }
    if (report.finding) {
      const conformance::Finding& f = *report.finding;
      nlohmann::ordered_json finding;
      finding["kind"] = conformance::findingKindName(f.failure.kind);
      finding["message"] = f.failure.message;
      finding["detail"] = f.failure.detail;
      nlohmann::ordered_json history = nlohmann::ordered_json::array();
      for (const Action& a : f.history) history.push_back(printAction(config, a));
      finding["history"] = std::move(history);
      if (!exhaustive && !replay) {
        finding["history_index"] = f.history_index;
        finding["history_seed"] = f.history_seed;
        finding["unshrunk_length"] = f.unshrunk_length;
        finding["reproduces_alone"] = f.reproduces_alone;
        finding["shrink_interrupted"] = f.shrink_interrupted;
      }
      finding["scenario"] = scenario_path.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(scenario_path);
      finding["reproduce"] = reproduce;
      out["finding"] = std::move(finding);
    }
    fmt::print("{}\n", out.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
    return report.finding ? kExitViolation
           : report.capacity  ? kExitBadInput
           : report.interrupted ? kExitInterrupted
           : exhaustive && !report.complete ? kExitIncomplete
                                            : kExitHolds;
  }

  const std::string from = given ? fmt::format(", from the given world of {}", o.scenario_file) : "";
  if (replay) {
    fmt::print("drive: replay of {}, configuration {}{}: {} step{}, {} SUT steps\n", o.scenario_file, config.name,
               given ? ", from its given world" : "", steps, steps == 1 ? "" : "s", report.totals.sut_steps);
  } else if (exhaustive) {
    fmt::print("drive: exhaustive, configuration {}{}, depth {}: {} states, {} transitions checked, {} SUT steps{}\n",
               config.name, from, steps, report.totals.states, report.totals.transitions, report.totals.sut_steps,
               report.finding        ? ""
               : report.capacity     ? " (stopped: the model's capacity)"
               : report.interrupted  ? " (interrupted)"
               : report.complete     ? " (complete)"
                                     : " (bounded: depth or --max-states reached)");
  } else {
    fmt::print("drive: random, configuration {}{}, seed {}: {} histories of at most {} steps, {} SUT steps{}{}\n",
               config.name, from, o.seed, report.totals.histories, steps, report.totals.sut_steps,
               report.interrupted && !report.finding ? fmt::format(" (interrupted: {} asked for)", o.histories) : "",
               report.totals.histories_at_capacity == 0
                   ? ""
                   : fmt::format("; {} ended where a step outgrew the modeled world (docs/spec/rules.md)",
                                 report.totals.histories_at_capacity));
  }
  if (report.capacity) {
    const conformance::CapacityStop& stop = *report.capacity;
    fmt::print("beyond the model: {}\n", stop.what);
    fmt::print("history ({} step{}, a shortest; its last step is not sent to the SUT):\n", stop.history.size(),
               stop.history.size() == 1 ? "" : "s");
    for (std::size_t i = 0; i < stop.history.size(); ++i) {
      fmt::print("  {:>3}. {}\n", i + 1, printAction(config, stop.history[i]));
    }
    if (!scenario_path.empty()) fmt::print("scenario: {}\nreproduce: {}\n", scenario_path, reproduce);
    fmt::print("the configuration is beyond what kcspec can model (docs/spec/rules.md, \"Histories that outgrow the "
               "model\"); no transition was checked in the SUT (exit 2)\n");
    return kExitBadInput;
  }
  if (!report.finding && report.interrupted) {
    fmt::print("interrupted: no finding so far; the SUT's observation equalled the spec's in every step taken\n");
    return kExitInterrupted;
  }
  if (!report.finding) {
    fmt::print("conform: the SUT's observation equals the spec's after {} and after every step\n",
               given ? "given" : "init");
    if (exhaustive && !report.complete) {
      fmt::print("incomplete: the depth or --max-states bound stopped the search before the last state; not every "
                 "reachable state was checked (exit 3)\n");
      return kExitIncomplete;
    }
    return kExitHolds;
  }
  const conformance::Finding& f = *report.finding;
  fmt::print("FINDING ({}): {}\n", conformance::findingKindName(f.failure.kind), f.failure.message);
  if (!f.failure.detail.empty()) {
    std::string detail = f.failure.detail;
    if (detail.back() != '\n') detail += '\n';
    fmt::print("{}", detail);
  }
  if (replay) {
    fmt::print("history ({} step{} of the scenario's {}):\n", f.history.size(), f.history.size() == 1 ? "" : "s",
               steps);
  } else if (exhaustive) {
    fmt::print("history ({} step{}, a shortest):\n", f.history.size(), f.history.size() == 1 ? "" : "s");
  } else {
    if (f.shrink_interrupted) {
      fmt::print("history ({} step{}, shrunk from {} in {} replays, then interrupted; history {} of seed {}):\n",
                 f.history.size(), f.history.size() == 1 ? "" : "s", f.unshrunk_length, f.shrink_replays,
                 f.history_index, o.seed);
    } else if (f.reproduces_alone) {
      fmt::print("history ({} step{}, shrunk from {} in {} replays; history {} of seed {}):\n", f.history.size(),
                 f.history.size() == 1 ? "" : "s", f.unshrunk_length, f.shrink_replays, f.history_index, o.seed);
    } else {
      fmt::print("history ({} step{}, history {} of seed {}; NOT shrunk: it does not fail in a fresh SUT process, only "
                 "after the histories before it — rerun the reproduce command):\n",
                 f.history.size(), f.history.size() == 1 ? "" : "s", f.history_index, o.seed);
    }
  }
  if (f.history.empty()) fmt::print("  (none: at {})\n", given ? "given" : "init");
  for (std::size_t i = 0; i < f.history.size(); ++i) fmt::print("  {:>3}. {}\n", i + 1, printAction(config, f.history[i]));
  if (!scenario_path.empty()) fmt::print("scenario: {} (kcspec replay {})\n", scenario_path, shellWord(scenario_path));
  fmt::print("reproduce: {}\n", reproduce);
  return kExitViolation;
}

}  // namespace

CommandRun addDriveCommand(CLI::App& app) {
  auto o = std::make_shared<DriveCommandOptions>();
  CLI::App* cmd = app.add_subcommand(
      "drive", "Drive a system under test over stdio (docs/driver-protocol.md) and compare it with the spec; exit 1 on a finding");
  cmd->footer(std::string(kExitStatusFooter));
  cmd->add_option("--mode", o->mode,
                  "random (default): random histories, shrunk on failure; exhaustive: breadth first; replay: the "
                  "steps of --scenario's file");
  cmd->add_option("--seed", o->seed, "random mode: the seed (default 1)")
      ->check(wholeNumber(0, std::numeric_limits<std::uint64_t>::max()));
  cmd->add_option("--steps", o->steps,
                  fmt::format("random: actions per history at most (default {}); exhaustive: depth (default {})",
                              kDefaultRandomSteps, kDefaultExhaustiveDepth))
      ->check(wholeNumber(0, kMaxInt));
  cmd->add_option("--histories", o->histories, "random mode: how many histories (default 100)")->check(wholeNumber(1, kMaxInt));
  cmd->add_option("--max-states", o->max_states, "exhaustive mode: distinct states at most (default 20000)")
      ->check(wholeNumber(1, std::numeric_limits<std::uint64_t>::max()));
  cmd->add_option("--timeout-ms", o->timeout_ms, "per reply of the SUT, in milliseconds (default 10000)")
      ->check(CLI::Range(1, 3'600'000));
  cmd->add_option("--max-line-bytes", o->max_line_bytes, "longest reply line accepted (default 8 MiB)")
      ->check(CLI::Range(std::size_t{1024}, std::size_t{1} << 30));
  auto* preset_option = cmd->add_option(
      "--preset", o->preset, "an embedded configuration: " + presetNameList() + " (default: default)");
  auto* config_option = cmd->add_option("--config", o->config_file, "a configuration file (config_text.hpp's format)");
  auto* scenario_option = cmd->add_option(
      "--scenario", o->scenario_file,
      "a scenario file: its configuration, and its given world, from which every history starts (protocol 2's "
      "`given`); its steps are driven by --mode replay only");
  preset_option->excludes(config_option);
  config_option->excludes(preset_option);
  scenario_option->excludes(preset_option)->excludes(config_option);
  preset_option->excludes(scenario_option);
  config_option->excludes(scenario_option);
  CLI::Option* out = cmd->add_option(
      "--out", o->out, "where to write the failing history as a scenario (default drive-counterexample.scenario; '' for none)");
  addRunFolderOption(cmd, o->run_folder, out);
  cmd->add_flag("--uniform", o->uniform, "random mode: choose actions uniformly (default: weighted toward controller corners)");
  cmd->add_flag("--json", o->json, "print the report as JSON");
  cmd->add_flag("--quiet", o->quiet, "no progress lines on stderr");
  cmd->add_option("command", o->command, "the SUT's command line, after --")->required();
  return [o] {
    return withRunFolder(o->run_folder, o->json, [&](RunFolder* folder) {
      DriveCommandOptions run_options = *o;
      if (folder != nullptr) run_options.out = (folder->counterexamples() / "drive-counterexample.scenario").string();
      return runDrive(run_options, folder);
    });
  };
}

}  // namespace kcspec::cli
