// `kcspec mutants`: mutation testing of the checks. Every mutant of impl/mutants.hpp is run
// against the spec on random biased histories (proofs/agreement/random_histories.hpp) over every check
// configuration; a mutant is killed by an observation or enabled-set mismatch or by a violated
// safety property. Reproducible: a fixed seed and budget give the same histories. The shortest
// counterexample found (after shrinking) is reported, and written as a scenario with --out.
// On a terminal a progress line (the mutant, the configuration, the histories run) is rewritten
// twice a second on stderr; Ctrl-C prints the mutants finished so far and exits 130.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "proofs/agreement/random_histories.hpp"
#include "cli/files.hpp"
#include "cli/run_folder.hpp"
#include "cli/generated_mutants.hpp"
#include "cli/interrupt_guard.hpp"
#include "cli/number_options.hpp"
#include "cli/terminal_line.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/scenario_text.hpp"

namespace kcspec::cli {

using agreement::Counterexample;
using agreement::checkConfigs;
using agreement::checkConfig;
using agreement::historySeed;
using agreement::randomHistory;
using agreement::shrink;
namespace {

struct MutantsOptions {
  bool json = false;
  int budget = 100;         // histories per configuration and mutant
  std::uint64_t seed = 1;
  int max_steps = 100;
  std::vector<std::string> only;  // mutant names; empty = all
  std::string out;                // folder for the counterexample scenarios
  std::string run_folder;         // --run-folder (run_folder.hpp)
};

struct MutantResult {
  const impl::MutantInfo* info = nullptr;
  bool killed = false;
  bool interrupted = false;  // Ctrl-C came before every history ran
  std::string by;
  std::string config;
  std::optional<Counterexample> shortest;
};

// The progress line on a terminal: which mutant (or the baseline), configuration and history.
class Progress {
 public:
  explicit Progress(std::size_t mutants) : mutants_(mutants) {}
  void show(std::string_view subject, std::size_t done, std::string_view config, std::size_t c, int history, int budget) {
    if (!line_.due()) return;
    line_.show(fmt::format("mutants: {} ({} of {} mutants done), configuration {} ({}/{}), history {}/{}", subject,
                           done, mutants_, config, c + 1, checkConfigs().size(), history + 1, budget));
  }
  void clear() { line_.clear(); }

 private:
  TerminalLine line_;
  std::size_t mutants_;
};

// The first `budget` histories of every configuration with `mutants`; the shortest shrunk
// counterexample.
MutantResult huntMutant(const MutantsOptions& o, impl::Mutants mutants,
                        const std::function<void(std::string_view config, std::size_t c, int history)>& progress) {
  MutantResult result;
  const auto& configs = checkConfigs();
  for (std::size_t c = 0; c < configs.size(); ++c) {
    int shrunk_here = 0;
    for (int i = 0; i < o.budget; ++i) {
      if (interruptFlag().load()) {
        result.interrupted = true;
        return result;
      }
      progress(configs[c].name, c, i);
      std::optional<Counterexample> failure =
          randomHistory(configs[c].config, mutants, historySeed(o.seed, c, i), o.max_steps);
      if (!failure) continue;
      result.killed = true;
      // Shrinking costs hundreds of replays: only the first failure of a configuration, and a
      // later one whose unshrunk length already beats the best.
      const bool shorter = result.shortest && failure->steps.size() < result.shortest->steps.size();
      if (shrunk_here >= 1 && !shorter) continue;
      ++shrunk_here;
      Counterexample small = shrink(configs[c].config, mutants, std::move(*failure));
      if (!result.shortest || small.steps.size() < result.shortest->steps.size()) {
        result.shortest = std::move(small);
        result.by = result.shortest->verdict.by;
        result.config = std::string(configs[c].name);
      }
    }
  }
  return result;
}

// Writes `r`'s shortest counterexample as <name>.scenario into --out; `mutant` is empty for the
// impl without mutants (the baseline).
std::string writeCounterexample(const MutantsOptions& o, std::string_view mutant, const MutantResult& r) {
  const std::string file = mutant.empty() ? "baseline.scenario" : fmt::format("mutant-{}.scenario", mutant);
  const std::string path = (std::filesystem::path(o.out) / file).string();
  Scenario scenario;
  scenario.config = checkConfig(r.config);
  scenario.steps = r.shortest->steps;
  // What it shows and how to see it again, as comments after the header line.
  const std::string subject = mutant.empty() ? "the impl without mutants" : std::string(mutant);
  const std::string impl_replay =
      mutant.empty() ? fmt::format("kcspec replay --impl {}", path) : fmt::format("kcspec replay --impl --mutant {} {}", mutant, path);
  const std::string text = printScenario(
      scenario, fmt::format("# kcspec mutants: {} {} by {} on {} (seed {}, budget {}, at most {} steps)\n"
                            "# replay: {} (the {}'s state-change.log); kcspec replay {} (the spec's)\n",
                            subject, mutant.empty() ? "fails the checks" : "killed", r.by, r.config, o.seed, o.budget,
                            o.max_steps, impl_replay, mutant.empty() ? "impl" : "mutant", path));
  writeFileAtomically(path, text);  // creates the folder; UserError when it cannot
  return path;
}

int runMutants(const MutantsOptions& o) {
  std::vector<const impl::MutantInfo*> chosen;
  for (const impl::MutantInfo& info : impl::kMutants) {
    // --mutant takes what mutantNamed does: "M3", "m3" or the ticket.
    const auto requested = [&](const std::string& name) { return impl::mutantNamed(name) == info.id; };
    if (o.only.empty() || std::any_of(o.only.begin(), o.only.end(), requested)) chosen.push_back(&info);
  }
  if (!o.out.empty()) checkWritableLater(o.out, /*folder=*/true, "--out");  // before the work, not after it
  InterruptGuard guard;
  Progress progress(chosen.size());
  // The checks are only meaningful if the impl without mutants passes them.
  MutantResult baseline = huntMutant(o, impl::Mutants{}, [&](std::string_view config, std::size_t c, int i) {
    progress.show("the impl without mutants", 0, config, c, i, o.budget);
  });
  if (baseline.killed) {
    progress.clear();
    fmt::print(stderr, "kcspec mutants: the impl without mutants fails the checks ({} on {}, {} steps); fix that first\n",
               baseline.by, baseline.config, baseline.shortest->steps.size());
    if (!baseline.shortest->verdict.detail.empty()) fmt::print(stderr, "{}", baseline.shortest->verdict.detail);
    // The failing history, so that it can be replayed (kcspec replay shows what the spec does).
    for (std::size_t i = 0; i < baseline.shortest->steps.size(); ++i) {
      fmt::print(stderr, "  {:>3}. {}\n", i + 1, printAction(checkConfig(baseline.config), baseline.shortest->steps[i]));
    }
    if (!o.out.empty()) fmt::print(stderr, "  scenario: {}\n", writeCounterexample(o, "", baseline));
    return 1;
  }
  std::vector<MutantResult> results;
  bool interrupted = baseline.interrupted;
  for (const impl::MutantInfo* info : chosen) {
    if (interrupted) break;
    MutantResult r = huntMutant(o, impl::Mutants::of({info->id}), [&](std::string_view config, std::size_t c, int i) {
      progress.show(info->name, results.size(), config, c, i, o.budget);
    });
    r.info = info;
    // A mutant Ctrl-C stopped before it was killed is left out of the report; one killed already is kept.
    interrupted = r.interrupted;
    if (r.interrupted && !r.killed) break;
    results.push_back(std::move(r));
  }
  progress.clear();
  if (interrupted) {
    fmt::print(stderr, "kcspec mutants: interrupted; partial report ({} of {} mutants)\n", results.size(), chosen.size());
  }
  bool all_killed = true;
  nlohmann::ordered_json json = nlohmann::ordered_json::array();
  for (const MutantResult& r : results) {
    all_killed = all_killed && r.killed;
    std::string scenario;
    if (r.shortest && !o.out.empty()) scenario = writeCounterexample(o, r.info->name, r);
    if (o.json) {
      nlohmann::ordered_json entry;
      entry["name"] = r.info->name;
      entry["description"] = fmt::format("{}: {}", r.info->ticket, r.info->description);
      entry["killed"] = r.killed;
      entry["by"] = r.killed ? nlohmann::ordered_json(r.by) : nlohmann::ordered_json(nullptr);
      entry["counterexample_length"] =
          r.shortest ? nlohmann::ordered_json(r.shortest->steps.size()) : nlohmann::ordered_json(nullptr);
      entry["config"] = r.killed ? nlohmann::ordered_json(r.config) : nlohmann::ordered_json(nullptr);
      if (!scenario.empty()) entry["scenario"] = scenario;
      json.push_back(entry);
    } else {
      fmt::print("{:<4} {:<8} {:>6}  {:<14} {}\n", r.info->name, r.killed ? "killed" : "SURVIVED",
                 r.shortest ? std::to_string(r.shortest->steps.size()) : "-", r.killed ? r.config : "-",
                 r.killed ? r.by : std::string(r.info->description));
      if (r.shortest) {
        for (std::size_t i = 0; i < r.shortest->steps.size(); ++i) {
          fmt::print("       {:>3}. {}\n", i + 1, printAction(checkConfig(r.config), r.shortest->steps[i]));
        }
      }
      if (!scenario.empty()) fmt::print("       scenario: {}\n", scenario);
    }
  }
  if (o.json) fmt::print("{}\n", json.dump(2));
  else fmt::print("{} of {} mutants killed (budget {} histories per configuration, seed {}{}){}\n",
                  std::count_if(results.begin(), results.end(), [](const MutantResult& r) { return r.killed; }),
                  results.size(), o.budget, o.seed,
                  o.max_steps == MutantsOptions{}.max_steps ? "" : fmt::format(", at most {} steps", o.max_steps),
                  interrupted ? fmt::format("; interrupted: {} of {} mutants not run", chosen.size() - results.size(),
                                            chosen.size())
                              : "");
  if (!all_killed) return 1;
  return interrupted ? 130 : 0;
}

}  // namespace

CommandRun addMutantsCommand(CLI::App& app) {
  auto options = std::make_shared<MutantsOptions>();
  CLI::App* cmd = app.add_subcommand(
      "mutants", "Run the differential checks (impl with one mutant against the spec) on every mutant; exit 1 if one survives");
  cmd->add_flag("--json", options->json, "print [{name, description, killed, by, counterexample_length, config}, …]");
  cmd->add_option("--budget", options->budget, "random histories per configuration and mutant (default 100)")
      ->check(wholeNumber(1, kMaxInt));
  cmd->add_option("--seed", options->seed, "the seed of the histories (default 1)")
      ->check(wholeNumber(0, std::numeric_limits<std::uint64_t>::max()));
  cmd->add_option("--max-steps", options->max_steps, "actions per history at most (default 100)")->check(wholeNumber(1, kMaxInt));
  cmd->add_option("--mutant", options->only, "only these mutants (M3, m3 or its ticket KAFKA-3175), repeatable");
  CLI::Option* out = cmd->add_option("--out", options->out,
                                     "write each shortest counterexample as mutant-<name>.scenario into this folder "
                                     "(with --generated: the report generated-mutants.json)");
  addRunFolderOption(cmd, options->run_folder, out);
  // The generated mutants (cli/generated_mutants.hpp): only kcspec-schemata has them.
  auto generated = std::make_shared<GeneratedMutantsOptions>();
  auto use_generated = std::make_shared<bool>(false);
  cmd->add_flag("--generated", *use_generated,
                "run the generated mutants of impl/controller instead (kcspec-schemata only; docs/testing.md)");
  cmd->add_option("--id", generated->only, "with --generated: only these mutant ids (G12 is 12), repeatable")
      ->check(wholeNumber(0, kMaxInt));
  cmd->add_option("--sample", generated->sample, "with --generated: only N mutants, spread evenly over the table")
      ->check(wholeNumber(1, kMaxInt));
  cmd->add_option("--jobs", generated->jobs, "with --generated: mutants run at once, one process each (default: the cores)")
      ->check(wholeNumber(1, 1024));
  cmd->add_option("--max-seconds-per-mutant", generated->max_seconds_per_mutant,
                  "with --generated: a mutant still running after N seconds is killed, counted as killed by timeout (default 60)")
      ->check(wholeNumber(1, 86400));
  cmd->add_option("--explore-depth", generated->explore_depth,
                  "with --generated: explore --system both to this depth for mutants the histories miss "
                  "(default 6; 0: none; beyond a configuration's diameter: all of it)")
      ->check(wholeNumber(0, 10000));
  cmd->add_option("--explore-config", generated->explore_configs,
                  "with --generated: what explore runs on: a preset, a scope of the theorem catalog (kcspec prove --list) "
                  "or a configuration file, repeatable (default: the preset two-perturbations)");
  cmd->add_option("--fail-under", generated->fail_under,
                  "with --generated: exit 1 when fewer than PERCENT of the mutants run are killed (default 0)")
      ->check(CLI::Range(0.0, 100.0));
  cmd->add_option("--equivalent", generated->equivalent,
                  "with --generated: the triaged equivalent mutants (tests/mutate/equivalent.txt), left out of the score");
  cmd->add_option("--scenarios", generated->scenarios,
                  "with --generated: replay these scenario files (or every .scenario of these folders) through both "
                  "versions before the random histories, repeatable");
  cmd->add_flag("--shrink", generated->shrink,
                "with --generated --out: shrink each killed mutant's history before writing it (slower)");
  cmd->add_flag("--list", generated->list, "with --generated: print the mutants (with --json: as JSON) instead of running them");
  CLI::Option* budget = cmd->get_option("--budget");
  const auto run = [generated, use_generated, budget](const MutantsOptions& o) {
    if (*use_generated) {
      if (!o.only.empty()) throw UserError("--mutant", "--mutant names hand-written mutants; with --generated use --id");
      generated->json = o.json;
      generated->seed = o.seed;
      generated->max_steps = o.max_steps;
      generated->out = o.out;
      if (budget->count() > 0) generated->budget = o.budget;
      return runGeneratedMutants(*generated);
    }
    for (const std::string& name : o.only) {
      if (!impl::mutantNamed(name)) throw UserError("--mutant", fmt::format("no mutant called {}", name));
    }
    return runMutants(o);
  };
  return [options, run] {
    return withRunFolder(options->run_folder, options->json, [&](RunFolder* folder) {
      MutantsOptions run_options = *options;
      if (folder != nullptr) run_options.out = folder->counterexamples().string();
      const int status = run(run_options);
      if (folder != nullptr) folder->drawCounterexamples();
      return status;
    });
  };
}

}  // namespace kcspec::cli
