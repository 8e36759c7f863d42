// `kcspec trace SCENARIO [--out FILE] [--fields P,…] [--compact] [--actions-only]` writes a kcspec
// history (a scenario file; explorer counterexamples are scenario files) as a trace
// (docs/trace-format.md) that `kcspec check-trace` accepts; `kcspec itf SCENARIO [--out FILE]`
// writes it as ITF JSON for Apalache and Quint users. Exit 0 written; 1 a step of the scenario is
// not enabled; 2 bad input.
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "cli/files.hpp"
#include "proofs/conformance/trace_writer.hpp"
#include "spec/vocabulary/scenario_text.hpp"

namespace kcspec::cli {
namespace {

Scenario readScenarioFile(const std::string& file) {
  return parseScenario(readUserFile(file, "a scenario file"), file);
}

void emit(const std::string& out_file, const std::string& text) {
  if (out_file.empty() || out_file == "-") {
    fmt::print("{}", text);
  } else {
    writeFileAtomically(out_file, text);
  }
}

struct TraceOptions {
  std::string scenario;
  std::string out;
  std::vector<std::string> fields;
  bool compact = false;
  bool actions_only = false;
};

// Runs `write` (which throws std::invalid_argument for a step that is not enabled or a bad
// field) and reports such a failure as exit 1 (not enabled) or 2 (a bad field).
template <class Write>
int guarded(const std::string& file, const Scenario& scenario, Write&& write) {
  try {
    write();
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    if (message.rfind("field", 0) == 0) throw UserError("--fields", message);
    // "action N (…) is not enabled": name the scenario line of step N.
    std::size_t step = 0;
    if (std::sscanf(message.c_str(), "action %zu", &step) == 1 && step >= 1 && step <= scenario.step_lines.size()) {
      std::fflush(stdout);
      fmt::print(stderr, "{}:{}: {}\n", file, scenario.step_lines[step - 1], message);
    } else {
      fmt::print(stderr, "{}: {}\n", file, message);
    }
    return 1;
  }
  return 0;
}

}  // namespace

CommandRun addTraceCommand(CLI::App& app) {
  auto options = std::make_shared<TraceOptions>();
  auto* command = app.add_subcommand("trace", "Write a scenario's history as a trace for `kcspec check-trace`");
  command->add_option("SCENARIO", options->scenario, "A scenario file (or an explorer counterexample)")->required();
  command->add_option("--out", options->out, "Write the trace here (default: standard output)");
  command->add_option("--fields", options->fields,
                      "Only these members of each observation, as JSON pointers, e.g. "
                      "/zookeeper/topics/0/states,/brokers/1/alive (default: the whole observation)")
      ->delimiter(',');
  command->add_flag("--compact", options->compact, "Leave default members out (they are then not checked)");
  command->add_flag("--actions-only", options->actions_only, "Write no observations, only the actions");
  return [options] {
    const Scenario scenario = readScenarioFile(options->scenario);
    conformance::TraceWriteOptions write_options{options->fields, options->compact, !options->actions_only};
    return guarded(options->scenario, scenario, [&] {
      emit(options->out, conformance::writeTrace(scenario.config, scenario.steps, write_options));
    });
  };
}

CommandRun addItfCommand(CLI::App& app) {
  struct ItfOptions {
    std::string scenario;
    std::string out;
  };
  auto options = std::make_shared<ItfOptions>();
  auto* command = app.add_subcommand("itf", "Write a scenario's history as ITF JSON (Apalache / Quint traces)");
  command->add_option("SCENARIO", options->scenario, "A scenario file (or an explorer counterexample)")->required();
  command->add_option("--out", options->out, "Write the ITF here (default: standard output)");
  return [options] {
    const Scenario scenario = readScenarioFile(options->scenario);
    return guarded(options->scenario, scenario, [&] {
      const auto itf = conformance::writeItf(scenario.config, scenario.steps,
                                             std::filesystem::path(options->scenario).filename().string());
      emit(options->out, itf.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n");
    });
  };
}

}  // namespace kcspec::cli
