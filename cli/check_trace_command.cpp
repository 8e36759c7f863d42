// `kcspec check-trace FILE [--json]`: replays a recorded trace (docs/trace-format.md) through the
// spec. Exit 0: the trace conforms; 1: it diverges (the first diverging line and member, with the
// spec's value); 2: bad input (file:line: message on stderr).
#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/command.hpp"
#include "cli/files.hpp"
#include "proofs/conformance/trace_checker.hpp"

namespace kcspec::cli {
namespace {

struct CheckTraceOptions {
  std::string file;
  bool json = false;
};

int runCheckTrace(const CheckTraceOptions& options) {
  const std::string text = readUserFile(options.file, "a trace", options.file + ":0");
  const conformance::TraceVerdict verdict = conformance::checkTrace(text, options.file);
  using Json = nlohmann::ordered_json;
  if (options.json) {
    Json out = Json::object();
    out["file"] = options.file;
    out["verdict"] = verdict.divergence ? "diverges" : "conforms";
    out["config"] = verdict.config_name;
    out["steps"] = verdict.steps;
    out["observations_checked"] = verdict.observations_checked;
    if (verdict.divergence) {
      const conformance::TraceDivergence& d = *verdict.divergence;
      Json divergence = Json::object();
      divergence["line"] = d.line;
      divergence["action"] = d.action;
      divergence["pointer"] = d.pointer;
      divergence["expected"] = d.expected;
      divergence["actual"] = d.actual;
      out["divergence"] = std::move(divergence);
    }
    fmt::print("{}\n", out.dump(-1, ' ', false, Json::error_handler_t::replace));
  } else if (verdict.divergence) {
    fmt::print("{}\n", conformance::divergenceText(*verdict.divergence, options.file));
    fmt::print("check-trace: {}: diverges at line {} (step {})\n", options.file, verdict.divergence->line, verdict.steps);
  } else {
    fmt::print("check-trace: {}: conforms ({} steps, {} observations checked, configuration {})\n", options.file,
               verdict.steps, verdict.observations_checked, verdict.config_name);
  }
  return verdict.divergence ? 1 : 0;
}

}  // namespace

CommandRun addCheckTraceCommand(CLI::App& app) {
  auto options = std::make_shared<CheckTraceOptions>();
  auto* command = app.add_subcommand(
      "check-trace", "Replay a recorded trace (docs/trace-format.md) through the spec; report the first divergence");
  command->add_option("FILE", options->file, "An NDJSON trace: a header line, then one line per step")->required();
  command->add_flag("--json", options->json,
                    "Print one JSON object: {\"file\",\"verdict\",\"config\",\"steps\",\"observations_checked\","
                    "\"divergence\":{\"line\",\"action\",\"pointer\",\"expected\",\"actual\"}}");
  return [options] { return runCheckTrace(*options); };
}

}  // namespace kcspec::cli
