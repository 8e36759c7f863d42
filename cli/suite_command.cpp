// `kcspec suite [--list] [--json] [DIR]`: runs a folder of scenarios — a given world and component
// actions, or any scenario (docs/scenarios.md) — on the spec and the reference controller in
// lockstep and reports, per scenario, whether they agree after every step, or the first difference.
// Without DIR, the component suite built into kcspec (tests/components/ of its source). Exit 0 every
// scenario agrees, 1 one does not, 2 bad input — a scenario that does not parse, or (after every
// scenario ran) one with a step that outgrows the modeled world (`BEYOND THE MODEL FILE:LINE: …`).
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "cli/component_suite.hpp"
#include "cli/exit_status.hpp"
#include "cli/files.hpp"
#include "cli/mutant_options.hpp"
#include "impl/mutants.hpp"
#include "proofs/agreement/agreement.hpp"
#include "spec/vocabulary/scenario_text.hpp"

namespace kcspec::cli {
namespace {

struct SuiteFile {
  std::string name;  // the file name, or the built-in scenario's
  std::string text;
};

std::vector<SuiteFile> suiteFiles(const std::string& dir) {
  std::vector<SuiteFile> files;
  if (dir.empty()) {
    for (const auto& [name, text] : componentSuite()) files.push_back({std::string(name), std::string(text)});
    return files;
  }
  std::error_code error;
  if (!std::filesystem::is_directory(dir, error)) throw UserError("DIR", fmt::format("{} is not a folder", dir));
  std::vector<std::filesystem::path> paths;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    if (entry.path().extension() == ".scenario") paths.push_back(entry.path());
  }
  if (error) throw UserError("DIR", fmt::format("cannot read {}: {}", dir, error.message()));
  std::sort(paths.begin(), paths.end());
  for (const auto& path : paths) files.push_back({path.string(), readUserFile(path.string(), "a scenario file")});
  return files;
}

// The comment lines right after the header: what the scenario is about.
std::string purpose(const std::string& text) {
  std::string out;
  std::size_t at = text.find('\n');
  while (at != std::string::npos && at + 1 < text.size() && text[at + 1] == '#') {
    const std::size_t end = text.find('\n', at + 1);
    std::string line = text.substr(at + 2, end == std::string::npos ? std::string::npos : end - at - 2);
    if (!line.empty() && line.front() == ' ') line.erase(0, 1);
    out += (out.empty() ? "" : " ") + line;
    at = end;
  }
  return out;
}

}  // namespace

CommandRun addSuiteCommand(CLI::App& app) {
  struct Options {
    std::string dir;
    bool list = false;
    bool json = false;
    std::vector<std::string> mutants;
  };
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand(
      "suite", "Run a folder of scenarios (a given world, component actions) on the spec and the reference controller "
               "and report per scenario whether they agree after every step");
  command->add_option("DIR", options->dir,
                      "A folder of .scenario files (default: the component suite built into kcspec, tests/components/)");
  command->add_flag("--list", options->list, "List the scenarios and what each is about; run nothing");
  command->add_flag("--json", options->json,
                    "One JSON object per scenario: {\"scenario\",\"passed\",\"steps\",\"component_actions\"[,\"line\","
                    "\"step\",\"by\",\"detail\"][,\"beyond_model\":{\"line\",\"what\"}]}");
  command->add_option("--mutant", options->mutants,
                      "Switch on these mutants of the reference controller (M3, m3 or KAFKA-3175; repeatable): does the "
                      "suite tell them apart?")
      ->delimiter(',')
      ->allow_extra_args(false);  // one value (or a comma list) per --mutant: DIR may follow
  return [options] {
    const impl::Mutants mutants = mutantsNamed(options->mutants);
    const std::vector<SuiteFile> files = suiteFiles(options->dir);
    if (options->list) {
      for (const SuiteFile& f : files) fmt::print("{}  {}\n", f.name, purpose(f.text));
      return kExitHolds;
    }
    std::vector<Scenario> scenarios;  // every file parses before any runs: a bad one is bad input
    for (const SuiteFile& f : files) scenarios.push_back(parseScenario(f.text, f.name));
    int failed = 0;
    int beyond_model = 0;
    for (std::size_t i = 0; i < files.size(); ++i) {
      const agreement::ScenarioRun run = agreement::runScenarioBoth(scenarios[i], mutants);
      const bool passed = !run.disagreement.has_value() && !run.beyond_model.has_value();
      failed += run.disagreement ? 1 : 0;
      beyond_model += run.beyond_model ? 1 : 0;
      if (options->json) {
        nlohmann::ordered_json object = {{"scenario", files[i].name},
                                         {"passed", passed},
                                         {"steps", run.steps},
                                         {"component_actions", run.calls}};
        if (run.disagreement) {
          object["line"] = run.disagreement->line;
          object["step"] = run.disagreement->step;
          object["by"] = run.disagreement->verdict.by;
          object["detail"] = run.disagreement->verdict.detail;
        }
        if (run.stopped_at != 0) object["stopped_at"] = run.stopped_at;
        if (run.beyond_model) object["beyond_model"] = {{"line", run.beyond_model->line}, {"what", run.beyond_model->what}};
        fmt::print("{}\n", object.dump());
      } else if (passed) {
        fmt::print("PASS {} ({} steps, {} component actions{})\n", files[i].name, run.steps, run.calls,
                   run.stopped_at != 0 ? fmt::format("; stopped at line {}: neither version can take it", run.stopped_at)
                                        : "");
      } else if (run.beyond_model) {  // bad input: the scenario is beyond what kcspec can model
        fmt::print("BEYOND THE MODEL {}:{}: {}\n", files[i].name, run.beyond_model->line, run.beyond_model->what);
      } else {
        const agreement::ScenarioDisagreement& d = *run.disagreement;
        fmt::print("FAIL {}:{}: {}: {}\n{}{}", files[i].name, d.line, d.step, d.verdict.by, d.verdict.detail,
                   d.verdict.detail.empty() || d.verdict.detail.back() == '\n' ? "" : "\n");
      }
      std::fflush(stdout);
    }
    if (!options->json) fmt::print("{} of {} scenarios agree\n", files.size() - static_cast<std::size_t>(failed + beyond_model), files.size());
    return failed != 0 ? kExitViolation : beyond_model != 0 ? kExitBadInput : kExitHolds;
  };
}

}  // namespace kcspec::cli
