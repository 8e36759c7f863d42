// `kcspec explore`: every state of a configuration, breadth first, against the invariant catalog
// (proofs/explorer/), on the spec (`--system spec`, the default), the reference implementation
// (`--system impl`, optionally with `--mutant`s) or both in lockstep (`--system both`: their
// observations must agree after every step). Prints a progress line on a terminal, a summary,
// each violation's shortest counterexample as numbered actions with the observation diff at its
// last step, and writes each counterexample as a scenario file and a sequence diagram (SVG).
//
// Exit status (cli/exit_status.hpp): 0 every property holds in every reachable state (known
// Kafka deviations allowed), 1 a violation, 2 bad input (also --mutant with --system spec), 3
// incomplete — stopped at --max-depth, --max-memory or --max-seconds with no violation in the
// explored states (the summary says `incomplete` and why) — 130 interrupted (SIGINT, SIGTERM,
// SIGHUP) without a violation found so far (the partial report is printed first).
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <array>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "spec/rules/invariants.hpp"
#include "cli/command.hpp"
#include "cli/exit_status.hpp"
#include "cli/resident_memory.hpp"
#include "docs/generator/sequence_diagram.hpp"
#include "cli/files.hpp"
#include "cli/mutant_options.hpp"
#include "cli/run_folder.hpp"
#include "cli/interrupt_guard.hpp"
#include "cli/shell_word.hpp"
#include "cli/number_options.hpp"
#include "impl/mutants.hpp"
#include "proofs/explorer/both_system.hpp"
#include "proofs/explorer/distributed/distributed_explorer.hpp"
#include "proofs/explorer/distributed/mpi_communicator.hpp"
#include "proofs/explorer/explorer.hpp"
#include "proofs/explorer/impl_system.hpp"
#include "proofs/explorer/spec_system.hpp"
#include "spec/rules/step.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/capacity.hpp"
#include "spec/vocabulary/number_text.hpp"
#include "spec/vocabulary/config_text.hpp"
#include "spec/vocabulary/observation_text.hpp"
#include "spec/vocabulary/presets.hpp"
#include "spec/vocabulary/symmetry.hpp"
#include "spec/vocabulary/scenario_text.hpp"

namespace kcspec::cli {

using namespace docs;  // the generator (docs/generator/) renders what this command prints
namespace {

using explorer::BothSystem;
using explorer::ExploreResult;
using explorer::ImplSystem;
using explorer::PropertyKind;
using explorer::SpecSystem;
using explorer::Violation;

struct ExploreOptions {
  std::string system = "spec";
  std::string run_folder;  // --run-folder (run_folder.hpp)
  std::vector<std::string> mutants;
  std::string preset;
  std::string config_file;
  unsigned threads = 0;
  int max_depth = -1;
  std::uint64_t max_memory_mib = 0;
  int max_seconds = 0;  // 0: no time limit
  int progress_every_seconds = 0;  // 0: a progress line only on a terminal (rewritten twice a second)
  std::uint64_t expect_states = 0;  // 0: a preset's published count (with --reduction none, without --max-depth or --max-memory), else none
  std::string spill_dir;            // empty: the frontier and the recovery edges stay in memory
  bool json = false;
  std::string out = "kcspec-out";
  bool keep_going = false;
  bool no_liveness = false;
  std::string reduction = "full";  // none | por | full (explorer::Reduction, and SpecSystem::Symmetry for full)
  bool distributed = false;        // --distributed: over the ranks of mpirun (docs/distributed.md)
};

// A distributed run's ranks (--distributed): the communicator, and what the run reported of them.
struct Ranks {
  explorer::distributed::Communicator* communicator = nullptr;
  explorer::distributed::DistributedReport report;
  bool reporting() const { return communicator == nullptr || communicator->rank() == 0; }
};


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
    return parseConfig(readUserFile(options.config_file, "a configuration file"), options.config_file);  // TextError: file:line: message
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

// A file-name part from a name the user chose (a configuration's, a mutant list): safe characters
// only, and at most kMaxNamePart bytes — a longer name is cut and ends with 8 hex digits of a hash
// of the whole (so two long names that share a prefix still get two files), which keeps the whole
// file name (configuration, system, mutants, property, extension) under the 255 bytes of a file
// system's name limit.
constexpr std::size_t kMaxNamePart = 64;

std::string safeFileName(std::string_view name) {
  std::string out;
  for (char c : name) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                       c == '_' || c == '.';
    out += plain ? c : '_';
  }
  if (out.empty() || out[0] == '.') out = "_" + out;
  if (out.size() > kMaxNamePart) {
    std::uint32_t hash = 2166136261u;  // FNV-1a over the name as given
    for (char c : name) hash = (hash ^ static_cast<unsigned char>(c)) * 16777619u;
    out = fmt::format("{}-{:08x}", out.substr(0, kMaxNamePart - 9), hash);
  }
  return out;
}

// What a run explores: the system's name and mutants, for reports and file names.
struct Subject {
  std::string system;
  impl::Mutants mutants;
  std::string configuration;  // how the run named it: "--preset default", "--config FILE"
  std::string reduction = "none";          // --reduction: none, por or full
  std::size_t symmetry_reduced_by = 0;     // with full: the permutations the spec's fingerprint reduces by

  std::string mutantNames() const {
    std::string names;
    for (const impl::MutantInfo& info : impl::kMutants) {
      if (mutants.has(info.id)) names += (names.empty() ? "" : ",") + std::string(info.name);
    }
    return names;
  }
  // "spec", "impl, mutant M3", "both, mutants M3,M7"
  std::string label() const {
    if (mutants.none()) return system;
    const std::string names = mutantNames();
    return fmt::format("{}, mutant{} {}", system, names.find(',') == std::string::npos ? "" : "s", names);
  }
};

// What is reported of a violation besides the explorer's result: the files written, and what
// the path's last step changed (rebuilt by replaying the path).
struct Reported {
  std::string property;
  std::string scenario;      // the scenario file
  std::string diagram;       // the sequence diagram (SVG)
  std::size_t drawn_steps = 0;  // the steps it draws: the longest prefix the spec enables
  std::vector<Change> last_step;  // what the last step changed (before -> after)
  std::string disagreement;       // --system both: how spec and impl differ at the end
};

// The command that replays a counterexample's scenario file the way it was found (through the
// reference controller, with the mutants, when the run explored the impl).
std::string replayCommand(const Subject& subject, const std::string& scenario) {
  return fmt::format("kcspec replay {}{}",
                     subject.system == "spec"   ? ""
                     : subject.mutants.none() ? "--impl "
                                              : "--impl --mutant " + subject.mutantNames() + " ",
                     shellWord(scenario));
}

// The unreduced search's counterexamples are the shortest; a reduced search's need not be.
std::string_view counterexampleWord(const Subject& subject) {
  return subject.reduction == "none" ? "shortest counterexample" : "counterexample";
}

// What a run's output files are named after: the configuration, the system unless the spec, the mutants.
std::string outputBaseName(const Config& config, const Subject& subject) {
  std::string base = safeFileName(config.name);
  if (subject.system != "spec") base += "-" + subject.system;
  if (!subject.mutants.none()) base += "-" + safeFileName(subject.mutantNames());
  return base;
}

// The counterexample as a scenario file (the path; a liveness violation's stuck recovery walk
// follows as comments), with what it shows in comments after the header.
template <class S>
std::string scenarioText(const Config& config, const Subject& subject, const Violation<S>& v) {
  Scenario scenario;
  scenario.config = config;
  scenario.steps = v.path;
  std::string about = fmt::format("# found by `kcspec explore {} --system {}{}`: {} {} ({}{}), violated in {} {}\n",
                                  subject.configuration, subject.system,
                                  subject.mutants.none() ? "" : " --mutant " + subject.mutantNames(),
                                  v.property, v.name, kindName(v.kind), v.known_deviation ? ", known Kafka deviation" : "",
                                  grouped(v.occurrences), occurrenceUnit(v.kind));
  about += subject.reduction == "none"
               ? fmt::format("# shortest counterexample: the {} steps below\n", v.path.size())
               : fmt::format("# a counterexample of the reduced search (--reduction none gives the shortest): the {} "
                             "steps below\n",
                             v.path.size());
  std::string text = printScenario(scenario, about);
  if (!v.recovery.empty()) {
    text += "# from here, recovery actions alone never reach the goal; for example:\n";
    for (const Action& action : v.recovery) text += "#   " + printAction(config, action) + "\n";
  }
  return text;
}

// The longest prefix of `actions` the spec enables (a mutant's impl may take steps the spec
// does not): the sequence diagram runs it through the spec.
std::size_t specEnabledPrefix(const Config& config, const std::vector<Action>& actions) {
  spec::ClusterState state = spec::initialState(config);
  for (std::size_t i = 0; i < actions.size(); ++i) {
    if (!spec::isEnabled(config, state, actions[i])) return i;
    try {
      state = spec::next(config, state, actions[i]);
    } catch (const CapacityExceeded&) {  // beyond the modeled world: the prefix ends before it
      return i;
    }
  }
  return actions.size();
}

template <class S>
Reported report(const S& system, const Config& config, const Subject& subject, const Violation<S>& v,
                const std::string& out) {
  Reported r;
  r.property = v.property;
  const std::string base = outputBaseName(config, subject) + "-" + safeFileName(v.property);
  const std::filesystem::path folder(out);
  r.scenario = (folder / (base + ".scenario")).string();
  writeFileAtomically(r.scenario, scenarioText(config, subject, v));

  // The observation before and after the path's last step.
  typename S::State state = system.initialStates().at(v.initial_state);
  std::optional<typename S::State> before;
  for (const Action& action : v.path) {
    explorer::PropertyMask ignored = 0;
    typename S::State after = system.next(state, action, ignored);
    before = std::move(state);
    state = std::move(after);
  }
  if (before) r.last_step = diffObservations(config, system.observe(*before), system.observe(state));
  if constexpr (std::is_same_v<S, BothSystem>) r.disagreement = system.disagreement(state);

  r.drawn_steps = specEnabledPrefix(config, v.path);
  SequenceDiagramOptions options;
  options.title = fmt::format("{} {} on {} ({}): {} steps{}", v.property, v.name, config.name, subject.label(),
                              v.path.size(),
                              r.drawn_steps < v.path.size()
                                  ? fmt::format(", the first {} drawn (the spec does not enable step {})", r.drawn_steps,
                                                r.drawn_steps + 1)
                                  : "");
  const std::vector<Action> drawn(v.path.begin(), v.path.begin() + static_cast<std::ptrdiff_t>(r.drawn_steps));
  r.diagram = (folder / (base + ".svg")).string();
  writeFileAtomically(r.diagram, renderSequenceDiagramSvg(config, drawn, options));
  return r;
}

const Reported* reportOf(const std::vector<Reported>& reported, const std::string& property) {
  for (const Reported& r : reported) {
    if (r.property == property) return &r;
  }
  return nullptr;
}

// The header's symmetry line: the configuration's group, and whether the search reduced by it.
std::string symmetryLine(const Config& config, const Subject& subject) {
  const ConfigSymmetry symmetry = configSymmetry(config);
  if (symmetry.permutations.size() <= 1) return "none";
  std::string line = symmetryText(symmetry);
  if (subject.symmetry_reduced_by > 0) {
    const std::size_t group = subject.symmetry_reduced_by + 1;  // with the identity
    return line + (group == symmetry.permutations.size()
                       ? "; the search keeps one state of each class"
                       : fmt::format("; the search keeps one state of each class under the {} that keep every "
                                     "topic and partition", group));
  }
  if (subject.reduction != "full") return line + "; not reduced by (--reduction full)";
  if (subject.system != "spec") return line + fmt::format("; not reduced by: --system {} fingerprints more than the "
                                                          "world it shows", subject.system);
  return line + "; not reduced by: every permutation renames a topic or a partition (not supported yet)";
}

// A distributed run's line: the ranks, the states each owns, the bytes they sent.
std::string ranksLine(const explorer::distributed::DistributedReport& report, std::uint64_t states) {
  std::string per_rank;
  for (const explorer::distributed::RankFigures& figures : report.per_rank) {
    per_rank += fmt::format("{}{} states, {}, sent {}", per_rank.empty() ? "" : "; ", grouped(figures.states),
                            mib(figures.memory_bytes), mib(figures.bytes_sent));
  }
  return fmt::format("{} ({}); imbalance {:.2f}, {:.1f} bytes sent a state, {} rounds", report.ranks, per_rank,
                     report.imbalance(),
                     states > 0 ? static_cast<double>(report.bytesSent()) / static_cast<double>(states) : 0.0,
                     grouped(report.rounds));
}

template <class S>
void printText(const Config& config, const Subject& subject, const ExploreResult<S>& result,
               const std::vector<Reported>& reported, const Ranks* ranks) {
  fmt::print("explored {} with configuration {} on {}{} thread{}\n", subject.label(), config.name,
             ranks != nullptr ? fmt::format("{} rank{} × ", ranks->report.ranks, ranks->report.ranks == 1 ? "" : "s")
                              : "",
             result.threads, result.threads == 1 ? "" : "s");
  const double rate = result.seconds > 0 ? static_cast<double>(result.states) / result.seconds : 0.0;
  const double transition_rate = result.seconds > 0 ? static_cast<double>(result.transitions) / result.seconds : 0.0;
  fmt::print("  states       {}\n", grouped(result.states));
  fmt::print("  transitions  {}\n", grouped(result.transitions));
  fmt::print("  max depth    {}\n", result.max_depth);
  fmt::print("  time         {:.2f} s ({} states/s, {} transitions/s)\n", result.seconds,
             grouped(static_cast<std::uint64_t>(rate)), grouped(static_cast<std::uint64_t>(transition_rate)));
  fmt::print("  memory       {} at the peak (visited set {}; {} recovery edges){}\n", mib(result.memory_bytes),
             mib(result.visited_bytes), grouped(result.recovery_edges),
             result.resident_bytes > 0 ? fmt::format("; resident {} at the most", mib(result.resident_bytes)) : "");
  if (result.spilled_bytes > 0) fmt::print("  spilled      {} on disk at the most\n", mib(result.spilled_bytes));
  if (ranks != nullptr) fmt::print("  ranks        {}\n", ranksLine(ranks->report, result.states));
  if (!result.action_counts.empty()) {
    // Action coverage, as TLC reports per action: how often each kind fired, and which never did
    // (a kind the configuration never enables, or a bound of 0, shows here).
    std::string fired, never;
    for (const auto& [kind, count] : result.action_counts) {
      if (count == 0) never += fmt::format("{}{}", never.empty() ? "" : ", ", kind);
      else fired += fmt::format("{}{} {}", fired.empty() ? "" : ", ", kind, grouped(count));
    }
    fmt::print("  actions      {}\n", fired.empty() ? std::string("none fired") : fired);
    if (!never.empty()) fmt::print("  never fired  {}\n", never);
  }
  if (result.reduction == explorer::Reduction::Por && result.chained_steps > 0) {
    fmt::print("  reduction    {}: {} deliveries taken alone in chains, the states between passed through, not kept "
               "(docs/proofs.md)\n",
               subject.reduction, grouped(result.chained_steps));
  } else if (result.reduction == explorer::Reduction::Por) {
    fmt::print("  reduction    {}: {} of the states expanded through one persistent delivery (docs/proofs.md)\n",
               subject.reduction, grouped(result.reduced_states));
  } else {
    fmt::print("  reduction    none\n");
  }
  fmt::print("  symmetry     {}\n", symmetryLine(config, subject));
  fmt::print("  complete     {}\n", result.complete() ? "yes" : fmt::format("no ({})", explorer::stopReasonName(result.stop)));
  fmt::print("  liveness     {}\n", result.liveness_checked
                                        ? fmt::format("checked ({} sweep{})", result.liveness_sweeps, result.liveness_sweeps == 1 ? "" : "s")
                                        : std::string("not checked (the exploration is incomplete or liveness is off)"));

  for (const Violation<S>& v : result.violations) {
    if (!v.known_deviation) continue;
    const Reported* r = reportOf(reported, v.property);
    fmt::print("known Kafka deviation {} {} ({}): {} {}, {} {} steps, {}\n", v.property, v.name, kindName(v.kind),
               grouped(v.occurrences), occurrenceUnit(v.kind), counterexampleWord(subject), v.path.size(),
               r ? r->scenario : "");
  }
  bool any = false;
  for (const Violation<S>& v : result.violations) {
    if (v.known_deviation) continue;
    any = true;
    const Reported* r = reportOf(reported, v.property);
    fmt::print("\nVIOLATION {} {} ({}): {} {}; {}, {} steps:\n", v.property, v.name, kindName(v.kind),
               grouped(v.occurrences), occurrenceUnit(v.kind), counterexampleWord(subject), v.path.size());
    for (std::size_t i = 0; i < v.path.size(); ++i) fmt::print("  {:>3}. {}\n", i + 1, printAction(config, v.path[i]));
    if (r != nullptr && !v.path.empty()) {
      fmt::print("  observation diff at step {} (before -> after):\n{}", v.path.size(),
                 r->last_step.empty() ? "    (no change)\n" : renderChangesText(r->last_step, "    "));
    }
    if (r != nullptr && !r->disagreement.empty()) {
      fmt::print("  spec and impl disagree after step {}:\n", v.path.size());
      std::size_t begin = 0;
      while (begin < r->disagreement.size()) {
        const std::size_t end = r->disagreement.find('\n', begin);
        fmt::print("    {}\n", r->disagreement.substr(begin, end - begin));
        begin = end == std::string::npos ? r->disagreement.size() : end + 1;
      }
    }
    if (!v.recovery.empty()) {
      fmt::print("  from there, recovery actions alone never reach the goal; for example:\n");
      for (std::size_t i = 0; i < v.recovery.size(); ++i) {
        fmt::print("  {:>3}. {}\n", v.path.size() + i + 1, printAction(config, v.recovery[i]));
      }
    }
    if (r != nullptr) {
      fmt::print("  scenario: {}\n  sequence diagram: {}\n  reproduce: {}\n", r->scenario, r->diagram,
                 replayCommand(subject, r->scenario));
    }
  }
  if (!any && result.complete()) fmt::print("every property holds\n");
  if (!any && !result.complete() && result.stop != explorer::StopReason::Cancelled &&
      result.stop != explorer::StopReason::Capacity) {
    fmt::print("incomplete: stopped by the {} with no violation in the {} explored states; not a proof (exit 3)\n",
               explorer::stopReasonName(result.stop), grouped(result.states));
  }
  if (!any && result.stop == explorer::StopReason::Cancelled) {
    fmt::print("interrupted: no violation in the {} explored states\n", grouped(result.states));
  }
}

template <class S>
std::string jsonReport(const Config& config, const Subject& subject, const ExploreResult<S>& result,
                       const std::vector<Reported>& reported, const Ranks* ranks,
                       const std::string& capacity_scenario) {
  nlohmann::ordered_json report;
  report["system"] = result.system;
  nlohmann::ordered_json mutants = nlohmann::ordered_json::array();
  for (const impl::MutantInfo& info : impl::kMutants) {
    if (subject.mutants.has(info.id)) mutants.push_back(std::string(info.name));
  }
  report["mutants"] = mutants;
  report["config"] = config.name;
  report["threads"] = result.threads;
  report["states"] = result.states;
  report["transitions"] = result.transitions;
  nlohmann::ordered_json fired = nlohmann::ordered_json::object();
  for (const auto& [kind, count] : result.action_counts) fired[std::string(kind)] = count;
  report["actions"] = fired;
  report["max_depth"] = result.max_depth;
  report["seconds"] = result.seconds;
  report["complete"] = result.complete();
  report["stop"] = std::string(explorer::stopReasonName(result.stop));
  report["liveness_checked"] = result.liveness_checked;
  report["liveness_sweeps"] = result.liveness_sweeps;
  report["reduction"] = std::string(explorer::reductionName(result.reduction));
  report["reduced_states"] = result.reduced_states;
  report["chained_steps"] = result.chained_steps;
  if (result.reduction == explorer::Reduction::Por) report["reduction"] = subject.reduction;  // por or full
  const ConfigSymmetry symmetry = configSymmetry(config);
  report["symmetry"] = symmetryText(symmetry);  // the configuration's group
  report["symmetry_permutations"] = symmetry.permutations.size();
  // How many of them (besides the identity) the search reduced by: 0 unless --reduction full on the spec.
  report["symmetry_reduced_by"] = subject.symmetry_reduced_by;
  report["memory_bytes"] = result.memory_bytes;
  if (result.resident_bytes > 0) report["resident_bytes"] = result.resident_bytes;  // with --max-memory only
  report["visited_bytes"] = result.visited_bytes;
  report["recovery_edges"] = result.recovery_edges;
  report["spilled_bytes"] = result.spilled_bytes;
  if (ranks != nullptr) {
    nlohmann::ordered_json distributed;
    distributed["ranks"] = ranks->report.ranks;
    distributed["rounds"] = ranks->report.rounds;
    distributed["liveness_rounds"] = ranks->report.liveness_rounds;
    distributed["imbalance"] = ranks->report.imbalance();
    distributed["bytes_sent"] = ranks->report.bytesSent();
    nlohmann::ordered_json per_rank = nlohmann::ordered_json::array();
    for (const explorer::distributed::RankFigures& figures : ranks->report.per_rank) {
      per_rank.push_back({{"states", figures.states},
                          {"transitions", figures.transitions},
                          {"memory_bytes", figures.memory_bytes},
                          {"bytes_sent", figures.bytes_sent}});
    }
    distributed["per_rank"] = per_rank;
    report["distributed"] = distributed;
  }
  nlohmann::ordered_json violations = nlohmann::ordered_json::array();
  for (const Violation<S>& v : result.violations) {
    const Reported* r = reportOf(reported, v.property);
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
    entry["last_step_changes"] = r ? changesJson(r->last_step) : nlohmann::ordered_json::array();
    if (r != nullptr && !r->disagreement.empty()) entry["disagreement"] = r->disagreement;
    entry["scenario"] = r ? r->scenario : "";
    entry["sequence_diagram"] = r ? r->diagram : "";
    entry["reproduce"] = r ? replayCommand(subject, r->scenario) : "";
    violations.push_back(entry);
  }
  report["violations"] = violations;
  if (result.capacity) {  // a history that outgrows the modeled world (stop: "the model's capacity")
    report["capacity"] = {{"what", result.capacity->what},
                          {"steps", result.capacity->path.size()},
                          {"scenario", capacity_scenario},
                          {"reproduce", replayCommand(subject, capacity_scenario)}};
  }
  return report.dump() + "\n";
}

// A history that outgrows the modeled world (explorer::CapacityFinding): its scenario file, whose
// last step `kcspec replay` stops at with the same message.
template <class S>
std::string writeCapacityScenario(const Config& config, const Subject& subject, const explorer::CapacityFinding<S>& found,
                                  const std::string& out) {
  Scenario scenario;
  scenario.config = config;
  scenario.steps = found.path;
  const std::string text =
      printScenario(scenario, fmt::format("# found by `kcspec explore {} --system {}{}`: its last step needs more than "
                                          "the modeled world holds ({} steps)\n",
                                          subject.configuration, subject.system,
                                          subject.mutants.none() ? "" : " --mutant " + subject.mutantNames(),
                                          found.path.size()));
  const std::string file = (std::filesystem::path(out) / (outputBaseName(config, subject) + "-capacity.scenario")).string();
  writeFileAtomically(file, text);
  return file;
}

template <class S>
int runSystem(const S& system, const Config& config, const Subject& subject, const ExploreOptions& options,
              Ranks* ranks) {
  const bool tty = isatty(STDERR_FILENO) != 0;
  struct Rate {
    std::uint64_t states = 0;
    double seconds = 0;
  } last;
  explorer::ExploreOptions run;
  run.threads = options.threads;
  run.max_depth = options.max_depth;
  run.max_memory_bytes = options.max_memory_mib * 1024 * 1024;
  // --max-memory bounds the process's resident memory too, as the operating system reports it.
  if (run.max_memory_bytes != 0) run.resident_bytes = residentBytes;
  run.max_time = std::chrono::seconds(options.max_seconds);
  run.expected_states = options.expect_states;
  run.spill_directory = options.spill_dir;
  // A preset's count sizes the table when the run is meant to complete: not under --max-depth,
  // nor under --max-memory (a capped run may reach more states growing its table as it goes), nor
  // with a reduction (the published count is the unreduced one: a fifth of it may be used).
  if (run.expected_states == 0 && options.config_file.empty() && options.max_depth < 0 && options.max_memory_mib == 0 &&
      options.reduction == "none") {
    run.expected_states = presetStateCount(options.preset.empty() ? "default" : options.preset).value_or(0);
  }
  run.is_known_deviation = [](std::string_view id) { return spec::isKnownKafkaDeviation(id); };
  run.stop_at_violation = !options.keep_going;
  run.check_liveness = !options.no_liveness;
  run.reduction = options.reduction != "none" ? explorer::Reduction::Por : explorer::Reduction::None;
  run.cancel = &interruptFlag();
  // On a terminal one line, rewritten twice a second; with --progress-every N, a line of its own
  // every N seconds (a log of a long run: stderr redirected, or a terminal that keeps them all).
  const bool progress_lines = options.progress_every_seconds > 0;
  const bool rewrite = tty && !progress_lines;
  if (rewrite || progress_lines) {
    run.progress_interval = progress_lines ? std::chrono::milliseconds(1000LL * options.progress_every_seconds)
                                           : std::chrono::milliseconds(500);
    run.on_progress = [&last, rewrite](const explorer::Progress& p) {
      const double dt = p.seconds - last.seconds;
      const double rate = dt > 0 ? static_cast<double>(p.states - last.states) / dt : 0.0;
      last = {p.states, p.seconds};
      const std::string_view start = rewrite ? "\r\033[K" : "";
      const std::string_view end = rewrite ? "" : "\n";
      if (p.liveness_sweep > 0) {
        const std::uint64_t percent = p.states > 0 ? std::min<std::uint64_t>(100, 100 * p.liveness_swept / p.states) : 0;
        fmt::print(stderr, "{}explore: {} states explored; liveness: sweep {} over the recovery edges, {} %  {:.0f} s{}",
                   start, grouped(p.states), p.liveness_sweep, percent, p.seconds, end);
      } else {
        fmt::print(stderr, "{}explore: {} states ({}/s)  queue {}  depth {}  memory {}  {:.0f} s{}", start,
                   grouped(p.states), grouped(static_cast<std::uint64_t>(rate)), grouped(p.queue), p.depth,
                   mib(p.memory_bytes), p.seconds, end);
      }
      std::fflush(stderr);
    };
  }

  ExploreResult<S> result;
  try {
    InterruptGuard guard;
    result = ranks != nullptr
                 ? explorer::distributed::exploreDistributed(system, run, *ranks->communicator, &ranks->report)
                 : explorer::explore(system, run);
  } catch (const std::runtime_error& e) {  // a spill file failed (a full disk): no report can be made
    if (rewrite) fmt::print(stderr, "\r\033[K");
    throw UserError("--spill-dir", fmt::format("{}; the exploration stopped without a report", e.what()));
  }
  if (rewrite) fmt::print(stderr, "\r\033[K");
  // Every rank has the same verdict (and so exits with the same status); rank 0 reports.
  if (ranks == nullptr || ranks->reporting()) {
    if (result.stop == explorer::StopReason::Cancelled) fmt::print(stderr, "kcspec explore: interrupted; partial report\n");
    std::vector<Reported> reported;
    for (const Violation<S>& v : result.violations) reported.push_back(report(system, config, subject, v, options.out));
    std::string capacity_scenario;
    if (result.capacity) capacity_scenario = writeCapacityScenario(config, subject, *result.capacity, options.out);
    if (options.json) {
      fmt::print("{}", jsonReport(config, subject, result, reported, ranks, capacity_scenario));
    } else {
      printText(config, subject, result, reported, ranks);
    }
    std::fflush(stdout);
    if (result.capacity) {
      fmt::print(stderr,
                 "kcspec explore: {}: {}\n  the history that gets there ({} steps): {}\n  reproduce: {}\n"
                 "  the explored states before it are no proof (exit 2)\n",
                 subject.configuration, result.capacity->what, result.capacity->path.size(), capacity_scenario,
                 replayCommand(subject, capacity_scenario));
    }
  }
  // No rank ends before rank 0 has reported: mpirun ends every rank once one exits non-zero.
  if (ranks != nullptr) {
    std::array<std::uint64_t, 1> reported{1};
    ranks->communicator->sumAll(reported);
  }
  if (!result.holds()) return kExitViolation;
  if (result.stop == explorer::StopReason::Capacity) return kExitBadInput;  // a configuration beyond the model
  if (result.stop == explorer::StopReason::Cancelled) return kExitInterrupted;
  return result.complete() ? kExitHolds : kExitIncomplete;
}

int runExplore(const ExploreOptions& options, RunFolder* run_folder, Ranks* ranks) {
  checkWritableLater(options.out, /*folder=*/true, "--out");  // before the work, not after it
  Subject subject{options.system, impl::Mutants{},
                  options.config_file.empty()
                      ? "--preset " + shellWord(options.preset.empty() ? "default" : options.preset)
                      : "--config " + shellWord(options.config_file),
                  options.reduction};
  subject.mutants = mutantsNamed(options.mutants);
  if (options.system == "spec" && !subject.mutants.none()) {
    throw UserError("--mutant", "mutants belong to the reference implementation: use --system impl or --system both");
  }
  if (!options.spill_dir.empty()) {
    if (const std::string problem = explorer::spillDirectoryProblem(options.spill_dir); !problem.empty()) {
      throw UserError("--spill-dir", problem);
    }
  }
  const Config config = loadConfig(options);
  if (run_folder != nullptr) run_folder->writeConfig(config);
  const auto gibibytes = [](std::uint64_t bytes) { return static_cast<double>(bytes) / double(1 << 30); };
  // A table the machine cannot hold would end the run in an allocation failure (or the kernel's
  // out-of-memory killer) before its first state: say so now.
  if (options.expect_states != 0) {
    // Distributed: this rank's share (each rank sizes its own table).
    const std::uint64_t needed =
        ranks != nullptr
            ? explorer::distributed::OwnedStates::bytesToHold(static_cast<std::size_t>(
                  explorer::distributed::expectedShare(options.expect_states, ranks->communicator->size())))
            : explorer::presizedTableBytes(options.expect_states, !options.no_liveness || options.reduction != "none");
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page_bytes = sysconf(_SC_PAGE_SIZE);
    const std::uint64_t machine = pages > 0 && page_bytes > 0 ? std::uint64_t(pages) * std::uint64_t(page_bytes) : 0;
    if (machine != 0 && needed > machine) {
      throw UserError("--expect-states", fmt::format("{} for {} states takes {:.1f} GiB, more than this machine's "
                                                     "{:.1f} GiB of memory",
                                                     ranks != nullptr ? "a rank's share of the states" : "a visited set",
                                                     options.expect_states, gibibytes(needed), gibibytes(machine)));
    }
  }
  if (options.system == "impl") return runSystem(ImplSystem(config, subject.mutants), config, subject, options, ranks);
  if (options.system == "both") return runSystem(BothSystem(config, subject.mutants), config, subject, options, ranks);
  const SpecSystem spec(config, options.reduction == "full" ? SpecSystem::Symmetry::Reduced : SpecSystem::Symmetry::Ignored);
  subject.symmetry_reduced_by = spec.symmetryPermutations();
  return runSystem(spec, config, subject, options, ranks);
}

// --distributed: the ranks mpirun started (one, without mpirun). A rank that fails ends them all:
// the others would wait for it in a collective.
int runDistributed(const ExploreOptions& options) {
  if (!explorer::distributed::startedByMpirun()) {
    explorer::distributed::LocalCommunicator local;
    Ranks ranks{&local, {}};
    return runExplore(options, nullptr, &ranks);
  }
  explorer::distributed::MpiCommunicator mpi;
  Ranks ranks{&mpi, {}};
  try {
    return runExplore(options, nullptr, &ranks);
  } catch (const std::exception& e) {
    if (mpi.size() == 1) throw;
    mpi.abortAll(e.what(), kExitBadInput);
  }
}

}  // namespace

CommandRun addExploreCommand(CLI::App& app) {
  auto options = std::make_shared<ExploreOptions>();
  auto* command = app.add_subcommand(
      "explore", "Explore every state of a configuration (breadth first) and check the invariant catalog");
  command->footer(std::string(kExitStatusFooter));
  auto* preset_option =
      command->add_option("--preset", options->preset, "An embedded configuration: default (every perturbation kind, at most three per history; about a minute on 2 cores with the default reduction, far too large without), medium (five perturbation kinds, at most three per history; about 10 seconds with the default reduction, 26 minutes and 13 GB without), large (medium with a partition at replication factor 3; about 50 seconds with the default reduction, hours without: use --spill-dir), two-perturbations (default with at most two per history; about a second with the default reduction, 45 without), or one of " + presetNameList(4) + " (default: default)");
  auto* config_option = command->add_option("--config", options->config_file, "A configuration file (config_text.hpp's format)");
  preset_option->excludes(config_option);
  config_option->excludes(preset_option);
  command->add_option("--threads", options->threads, "Worker threads (default: the hardware's cores)")
      ->check(CLI::Range(1u, 1024u));
  command->add_option("--max-depth", options->max_depth, "Do not expand states deeper than N steps")
      ->check(wholeNumber(0, kMaxInt));
  command->add_option("--max-memory", options->max_memory_mib,
                      "Stop with a partial report (exit 3) when the checker's memory, or the process's resident memory as the OS reports it, would exceed N MiB")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 30));
  command->add_option("--expect-states", options->expect_states,
                      "Size the visited set up front for N states, so that it never grows below N (memory only: "
                      "no effect on results; default: a preset's published count, with --reduction none and without --max-depth or "
                      "--max-memory)")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 32));
  command->add_option("--spill-dir", options->spill_dir,
                      "Write the frontier's full blocks and liveness' recovery edges to unnamed files in DIR instead "
                      "of holding them in memory (memory only: no effect on results; for runs that would not fit)");
  command->add_option("--max-seconds", options->max_seconds,
                      "Stop with a partial report once the exploration has run N seconds")
      ->check(CLI::Range(1, 100'000'000));
  command->add_option("--progress-every", options->progress_every_seconds,
                      "Print a progress line of its own every N seconds, also when stderr is not a terminal (a log "
                      "of a long run; default: on a terminal only, one line rewritten twice a second)")
      ->check(CLI::Range(1, 86'400));
  command->add_option("--system", options->system,
                      "What to explore: spec (the executable spec, default), impl (the reference implementation) or "
                      "both (spec and impl in lockstep; their observations must agree after every step)")
      ->check(CLI::IsMember({"spec", "impl", "both"}));
  command->add_option("--mutant", options->mutants,
                      "With --system impl or both: re-introduce this mutant of the reference implementation (M1…M" + std::to_string(impl::kMutants.size()) + ", "
                      "see `kcspec mutants`); repeatable, or several separated by commas")
      ->delimiter(',');
  command->add_flag("--json", options->json, "Print one JSON object instead of the text report");
  CLI::Option* out = command->add_option(
      "--out", options->out, "Where counterexample scenarios and sequence diagrams (SVG) are written (default: kcspec-out)");
  addRunFolderOption(command, options->run_folder, out);
  command->add_flag("--keep-going", options->keep_going,
                    "Explore everything even after a violation (default: stop after the level of the first)");
  command->add_flag("--no-liveness", options->no_liveness, "Skip the liveness check");
  command->add_flag("--distributed", options->distributed,
                    "Explore over the processes `mpirun -np N` started, each owning the states its fingerprints hash "
                    "to (the same counts and verdicts as one process; rank 0 reports; --max-memory applies per "
                    "rank; without mpirun: one rank); docs/distributed.md");
  command->add_option("--reduction", options->reduction,
                      "none (expand every enabled action: the shortest counterexamples), por (partial-order reduction: where a "
                      "request delivery is independent of everything that can happen before it and invisible to the "
                      "checked properties, expand it alone) or full (por, and on the spec one state of each class of "
                      "states that differ only by the configuration's broker symmetries and the numbering of broker "
                      "epochs; the default); same verdicts, fewer states; docs/proofs.md")
      ->check(CLI::IsMember({"none", "por", "full"}));
  return [options] {
    if (options->distributed) {
      if (!options->run_folder.empty()) {
        throw UserError("--run-folder", "not with --distributed (every rank would write one); use --out");
      }
      return runDistributed(*options);
    }
    return withRunFolder(options->run_folder, options->json, [&](RunFolder* folder) {
      ExploreOptions run_options = *options;
      if (folder != nullptr) run_options.out = folder->counterexamples().string();
      return runExplore(run_options, folder, nullptr);
    });
  };
}

}  // namespace kcspec::cli
