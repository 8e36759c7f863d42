// `kcspec explore`: every state of a configuration, breadth first, against the invariant catalog
// (proofs/explorer/). Prints a progress line on a terminal, a summary, each violation's shortest
// counterexample as numbered actions, and writes each counterexample as a scenario file.
//
// Exit status: 0 every property holds in the explored states (known Kafka deviations allowed,
// also when the run stopped early at --max-depth or --max-memory: "complete" says so), 1 a
// violation, 2 bad input, 130 interrupted (SIGINT) without a violation found so far.
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "cli/command.hpp"
#include "cli/files.hpp"
#include "proofs/explorer/explorer.hpp"
#include "proofs/explorer/known_deviations.hpp"
#include "proofs/explorer/spec_system.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/config_text.hpp"
#include "spec/vocabulary/presets.hpp"
#include "spec/vocabulary/scenario_text.hpp"

namespace kcspec::cli {
namespace {

using explorer::ExploreResult;
using explorer::PropertyKind;
using explorer::SpecSystem;
using explorer::Violation;

struct ExploreOptions {
  std::string preset;
  std::string config_file;
  unsigned threads = 0;
  int max_depth = -1;
  std::uint64_t max_memory_mib = 0;
  bool json = false;
  std::string out = "kcspec-out";
  bool keep_going = false;
  bool no_liveness = false;
};

std::atomic<bool> g_interrupted{false};

extern "C" void onInterrupt(int) { g_interrupted.store(true); }

// Installs the SIGINT handler for the run's duration (a second Ctrl-C kills as usual).
class InterruptGuard {
 public:
  InterruptGuard() {
    g_interrupted.store(false);
    struct sigaction action {};
    action.sa_handler = onInterrupt;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND;
    sigaction(SIGINT, &action, &previous_);
  }
  ~InterruptGuard() { sigaction(SIGINT, &previous_, nullptr); }
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

 private:
  struct sigaction previous_ {};
};

std::string grouped(std::uint64_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string mib(std::uint64_t bytes) { return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / (1024.0 * 1024.0)); }

std::string_view kindName(PropertyKind kind) {
  switch (kind) {
    case PropertyKind::StateSafety: return "state safety";
    case PropertyKind::StepSafety: return "step safety";
    case PropertyKind::Liveness: return "liveness";
  }
  return "?";
}

std::string_view occurrenceUnit(PropertyKind kind) { return kind == PropertyKind::StepSafety ? "transitions" : "states"; }

Config loadConfig(const ExploreOptions& options) {
  if (!options.config_file.empty()) {
    const std::optional<std::string> text = readFileIfExists(options.config_file);
    if (!text) throw UserError(options.config_file, "no such file");
    return parseConfig(*text, options.config_file);  // TextError: file:line: message
  }
  const std::string name = options.preset.empty() ? "default" : options.preset;
  std::optional<Config> config = preset(name);
  if (!config) {
    std::string names;
    for (std::string_view known : kPresetNames) names += (names.empty() ? "" : ", ") + std::string(known);
    throw UserError("--preset", fmt::format("no preset named '{}' (there are: {})", name, names));
  }
  return *config;
}

std::string safeFileName(std::string_view name) {
  std::string out;
  for (char c : name) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                       c == '_' || c == '.';
    out += plain ? c : '_';
  }
  return out.empty() || out[0] == '.' ? "_" + out : out;
}

// The counterexample as a scenario file (the path; a liveness violation's stuck recovery walk
// follows as comments), with what it shows in comments after the header.
std::string scenarioText(const Config& config, const Violation<SpecSystem>& v) {
  Scenario scenario;
  scenario.config = config;
  scenario.steps = v.path;
  std::string text = printScenario(scenario);
  const std::size_t header_end = text.find('\n') + 1;
  std::string about = fmt::format("# found by `kcspec explore`: {} {} ({}{}), violated in {} {}\n", v.property, v.name,
                                  kindName(v.kind), v.known_deviation ? ", known Kafka deviation" : "",
                                  grouped(v.occurrences), occurrenceUnit(v.kind));
  about += fmt::format("# shortest counterexample: the {} steps below\n", v.path.size());
  text.insert(header_end, about);
  if (!v.recovery.empty()) {
    text += "# from here, recovery actions alone never reach the goal; for example:\n";
    for (const Action& action : v.recovery) text += "#   " + printAction(config, action) + "\n";
  }
  return text;
}

struct Written {
  std::string property;
  std::string path;
};

std::vector<Written> writeScenarios(const Config& config, const ExploreResult<SpecSystem>& result,
                                    const std::string& out) {
  std::vector<Written> written;
  for (const Violation<SpecSystem>& v : result.violations) {
    const std::filesystem::path path =
        std::filesystem::path(out) / (safeFileName(config.name) + "-" + safeFileName(v.property) + ".scenario");
    writeFileAtomically(path, scenarioText(config, v));
    written.push_back({v.property, path.string()});
  }
  return written;
}

std::string scenarioPathOf(const std::vector<Written>& written, const std::string& property) {
  for (const Written& w : written) {
    if (w.property == property) return w.path;
  }
  return {};
}

void printText(const Config& config, const ExploreResult<SpecSystem>& result, const std::vector<Written>& written) {
  fmt::print("explored {} with configuration {} on {} thread{}\n", result.system, config.name, result.threads,
             result.threads == 1 ? "" : "s");
  const double rate = result.seconds > 0 ? static_cast<double>(result.states) / result.seconds : 0.0;
  fmt::print("  states       {}\n", grouped(result.states));
  fmt::print("  transitions  {}\n", grouped(result.transitions));
  fmt::print("  max depth    {}\n", result.max_depth);
  fmt::print("  time         {:.2f} s ({} states/s)\n", result.seconds, grouped(static_cast<std::uint64_t>(rate)));
  fmt::print("  memory       {}\n", mib(result.memory_bytes));
  fmt::print("  complete     {}\n", result.complete() ? "yes" : fmt::format("no ({})", explorer::stopReasonName(result.stop)));
  fmt::print("  liveness     {}\n", result.liveness_checked ? "checked" : "not checked (the exploration is incomplete or liveness is off)");

  for (const Violation<SpecSystem>& v : result.violations) {
    if (!v.known_deviation) continue;
    fmt::print("known Kafka deviation {} {} ({}): {} {}, shortest counterexample {} steps, {}\n", v.property, v.name,
               kindName(v.kind), grouped(v.occurrences), occurrenceUnit(v.kind), v.path.size(),
               scenarioPathOf(written, v.property));
  }
  bool any = false;
  for (const Violation<SpecSystem>& v : result.violations) {
    if (v.known_deviation) continue;
    any = true;
    fmt::print("\nVIOLATION {} {} ({}): {} {}; shortest counterexample, {} steps:\n", v.property, v.name,
               kindName(v.kind), grouped(v.occurrences), occurrenceUnit(v.kind), v.path.size());
    for (std::size_t i = 0; i < v.path.size(); ++i) fmt::print("  {:>3}. {}\n", i + 1, printAction(config, v.path[i]));
    if (!v.recovery.empty()) {
      fmt::print("  from there, recovery actions alone never reach the goal; for example:\n");
      for (std::size_t i = 0; i < v.recovery.size(); ++i) {
        fmt::print("  {:>3}. {}\n", v.path.size() + i + 1, printAction(config, v.recovery[i]));
      }
    }
    const std::string path = scenarioPathOf(written, v.property);
    fmt::print("  scenario: {}\n  reproduce: kcspec replay {}\n", path, path);
  }
  if (!any) fmt::print("every property holds{}\n", result.complete() ? "" : " in the explored states");
}

std::string jsonReport(const Config& config, const ExploreResult<SpecSystem>& result, const std::vector<Written>& written) {
  nlohmann::ordered_json report;
  report["system"] = result.system;
  report["config"] = config.name;
  report["threads"] = result.threads;
  report["states"] = result.states;
  report["transitions"] = result.transitions;
  report["max_depth"] = result.max_depth;
  report["seconds"] = result.seconds;
  report["complete"] = result.complete();
  report["stop"] = std::string(explorer::stopReasonName(result.stop));
  report["liveness_checked"] = result.liveness_checked;
  report["memory_bytes"] = result.memory_bytes;
  nlohmann::ordered_json violations = nlohmann::ordered_json::array();
  for (const Violation<SpecSystem>& v : result.violations) {
    nlohmann::ordered_json entry;
    entry["property"] = v.property;
    entry["name"] = v.name;
    entry["kind"] = std::string(kindName(v.kind));
    entry["known_kafka_deviation"] = v.known_deviation;
    entry["occurrences"] = v.occurrences;
    entry["length"] = v.path.size();
    nlohmann::ordered_json actions = nlohmann::ordered_json::array();
    for (const Action& action : v.path) actions.push_back(printAction(config, action));
    entry["actions"] = actions;
    if (v.kind == PropertyKind::Liveness) {
      nlohmann::ordered_json recovery = nlohmann::ordered_json::array();
      for (const Action& action : v.recovery) recovery.push_back(printAction(config, action));
      entry["recovery"] = recovery;
    }
    entry["scenario"] = scenarioPathOf(written, v.property);
    violations.push_back(entry);
  }
  report["violations"] = violations;
  return report.dump() + "\n";
}

int runExplore(const ExploreOptions& options) {
  const Config config = loadConfig(options);
  const SpecSystem system(config);

  const bool tty = isatty(STDERR_FILENO) != 0;
  struct Rate {
    std::uint64_t states = 0;
    double seconds = 0;
  } last;
  explorer::ExploreOptions run;
  run.threads = options.threads;
  run.max_depth = options.max_depth;
  run.max_memory_bytes = options.max_memory_mib * 1024 * 1024;
  run.is_known_deviation = [](std::string_view id) { return explorer::isKnownKafkaDeviation(id); };
  run.stop_at_violation = !options.keep_going;
  run.check_liveness = !options.no_liveness;
  run.cancel = &g_interrupted;
  if (tty) {
    run.progress_interval = std::chrono::milliseconds(500);
    run.on_progress = [&last](const explorer::Progress& p) {
      const double dt = p.seconds - last.seconds;
      const double rate = dt > 0 ? static_cast<double>(p.states - last.states) / dt : 0.0;
      last = {p.states, p.seconds};
      fmt::print(stderr, "\r\033[Kexplore: {} states ({}/s)  queue {}  depth {}  memory {}  {:.0f} s", grouped(p.states),
                 grouped(static_cast<std::uint64_t>(rate)), grouped(p.queue), p.depth, mib(p.memory_bytes), p.seconds);
      std::fflush(stderr);
    };
  }

  ExploreResult<SpecSystem> result;
  {
    InterruptGuard guard;
    result = explorer::explore(system, run);
  }
  if (tty) fmt::print(stderr, "\r\033[K");
  if (result.stop == explorer::StopReason::Cancelled) fmt::print(stderr, "kcspec explore: interrupted; partial report\n");

  const std::vector<Written> written = writeScenarios(config, result, options.out);
  if (options.json) {
    fmt::print("{}", jsonReport(config, result, written));
  } else {
    printText(config, result, written);
  }
  if (!result.holds()) return 1;
  if (result.stop == explorer::StopReason::Cancelled) return 130;
  return 0;
}

}  // namespace

CommandRun addExploreCommand(CLI::App& app) {
  auto options = std::make_shared<ExploreOptions>();
  auto* command = app.add_subcommand(
      "explore", "Explore every state of a configuration (breadth first) and check the invariant catalog");
  auto* preset_option =
      command->add_option("--preset", options->preset, "An embedded configuration: default, medium or large (default: default)");
  auto* config_option = command->add_option("--config", options->config_file, "A configuration file (config_text.hpp's format)");
  preset_option->excludes(config_option);
  config_option->excludes(preset_option);
  command->add_option("--threads", options->threads, "Worker threads (default: the hardware's cores)")
      ->check(CLI::Range(1u, 1024u));
  command->add_option("--max-depth", options->max_depth, "Do not expand states deeper than N steps")
      ->check(CLI::NonNegativeNumber);
  command->add_option("--max-memory", options->max_memory_mib,
                      "Stop with a partial report when the checker's memory would exceed N MiB")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 30));
  command->add_flag("--json", options->json, "Print one JSON object instead of the text report");
  command->add_option("--out", options->out, "Where counterexample scenarios are written (default: kcspec-out)");
  command->add_flag("--keep-going", options->keep_going,
                    "Explore everything even after a violation (default: stop after the level of the first)");
  command->add_flag("--no-liveness", options->no_liveness, "Skip the liveness check");
  return [options] { return runExplore(*options); };
}

}  // namespace kcspec::cli
