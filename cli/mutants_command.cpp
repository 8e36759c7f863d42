// `kcspec mutants`: mutation testing of the checks. Every mutant of impl/mutants.hpp is run
// against the spec on random biased histories (cli/differential_check.hpp) over every check
// configuration; a mutant is killed by an observation or enabled-set mismatch or by a violated
// safety property. Reproducible: a fixed seed and budget give the same histories. The shortest
// counterexample found (after shrinking) is reported, and written as a scenario with --out.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "cli/differential_check.hpp"
#include "cli/files.hpp"
#include "cli/number_options.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/scenario_text.hpp"

namespace kcspec::cli {
namespace {

struct MutantsOptions {
  bool json = false;
  int budget = 100;         // histories per configuration and mutant
  std::uint64_t seed = 1;
  int max_steps = 100;
  std::vector<std::string> only;  // mutant names; empty = all
  std::string out;                // folder for the counterexample scenarios
};

struct MutantResult {
  const impl::MutantInfo* info = nullptr;
  bool killed = false;
  std::string by;
  std::string config;
  std::optional<Counterexample> shortest;
};

std::uint64_t historySeed(std::uint64_t seed, std::size_t config, int i) {
  return seed * 1000003u + config * 7919u + static_cast<std::uint64_t>(i);
}

// The first `budget` histories of every configuration with `mutants`; the shortest shrunk
// counterexample.
MutantResult huntMutant(const MutantsOptions& o, impl::Mutants mutants) {
  MutantResult result;
  const auto& configs = checkConfigs();
  for (std::size_t c = 0; c < configs.size(); ++c) {
    int shrunk_here = 0;
    for (int i = 0; i < o.budget; ++i) {
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

std::string writeCounterexample(const std::string& folder, std::string_view mutant, const Config& config,
                                const Counterexample& counterexample) {
  const std::string path = (std::filesystem::path(folder) / fmt::format("mutant-{}.scenario", mutant)).string();
  Scenario scenario;
  scenario.config = config;
  scenario.steps = counterexample.steps;
  writeFileAtomically(path, printScenario(scenario));  // creates the folder; UserError when it cannot
  return path;
}

int runMutants(const MutantsOptions& o) {
  // The checks are only meaningful if the impl without mutants passes them.
  if (MutantResult baseline = huntMutant(o, impl::Mutants{}); baseline.killed) {
    fmt::print(stderr, "kcspec mutants: the impl without mutants fails the checks ({} on {}, {} steps); fix that first\n",
               baseline.by, baseline.config, baseline.shortest->steps.size());
    return 1;
  }
  std::vector<MutantResult> results;
  for (const impl::MutantInfo& info : impl::kMutants) {
    // --mutant takes what mutantNamed does: "M3", "m3" or the ticket.
    const auto requested = [&](const std::string& name) { return impl::mutantNamed(name) == info.id; };
    if (!o.only.empty() && std::none_of(o.only.begin(), o.only.end(), requested)) continue;
    MutantResult r = huntMutant(o, impl::Mutants::of({info.id}));
    r.info = &info;
    results.push_back(std::move(r));
  }
  bool all_killed = true;
  nlohmann::ordered_json json = nlohmann::ordered_json::array();
  for (const MutantResult& r : results) {
    all_killed = all_killed && r.killed;
    std::string scenario;
    if (r.shortest && !o.out.empty()) scenario = writeCounterexample(o.out, r.info->name, checkConfig(r.config), *r.shortest);
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
  else fmt::print("{} of {} mutants killed (budget {} histories per configuration, seed {})\n",
                  std::count_if(results.begin(), results.end(), [](const MutantResult& r) { return r.killed; }),
                  results.size(), o.budget, o.seed);
  return all_killed ? 0 : 1;
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
  cmd->add_option("--out", options->out, "write each shortest counterexample as mutant-<name>.scenario into this folder");
  return [options] {
    for (const std::string& name : options->only) {
      if (!impl::mutantNamed(name)) throw UserError("--mutant", fmt::format("no mutant called {}", name));
    }
    return runMutants(*options);
  };
}

}  // namespace kcspec::cli
