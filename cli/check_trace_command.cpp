// `kcspec check-trace FILE [--json]`: replays a recorded trace (docs/trace-format.md) through the
// spec, from the configuration's initial state or from the header's given world (version 2),
// judged as a scenario's `given json` is. Exit status (cli/exit_status.hpp) 0: the trace
// conforms; 1: it diverges (the first diverging line and member, with the spec's value); 2: bad
// input (file:line: message on stderr; also a given world that breaks a rule without
// "unchecked"); 3: nothing checked (a header with neither an observation nor a step after it);
// 130: interrupted by SIGINT, SIGTERM or SIGHUP (the lines checked so far conform: a partial
// report is printed).
//
// On a terminal a progress line on stderr (the line and the steps checked so far) is rewritten
// twice a second; nothing when stderr is not a terminal.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/command.hpp"
#include "cli/exit_status.hpp"
#include "cli/files.hpp"
#include "cli/interrupt_guard.hpp"
#include "cli/terminal_line.hpp"
#include "proofs/conformance/trace_checker.hpp"

namespace kcspec::cli {
namespace {

struct CheckTraceOptions {
  std::string file;
  bool json = false;
};

// The progress line on a terminal: "check-trace: line 1234 (12.0 of 80.0 MiB), 1200 steps checked".
class TraceProgress {
 public:
  explicit TraceProgress(const UserFileLines& lines) : lines_(lines) {}

  void show(const conformance::TraceProgress& p) {
    if (!line_.due()) return;
    const double mib = static_cast<double>(lines_.bytesRead()) / (1024.0 * 1024.0);
    line_.show(lines_.fileBytes() > 0
                   ? fmt::format("check-trace: line {} ({:.1f} of {:.1f} MiB), {} steps checked", p.line, mib,
                                 static_cast<double>(lines_.fileBytes()) / (1024.0 * 1024.0), p.steps)
                   : fmt::format("check-trace: line {} ({:.1f} MiB read), {} steps checked", p.line, mib, p.steps));
  }

  void clear() { line_.clear(); }

 private:
  TerminalLine line_;
  const UserFileLines& lines_;
};

// A trace line holds at most one observation: far below this.
constexpr std::size_t kMaxTraceLineBytes = std::size_t{64} << 20;

// A trace that starts from a given world stated "unchecked": the rules that world breaks, one a line
// before the verdict (as `kcspec replay` prints a `given unchecked` section's).
void printGivenBreaks(const conformance::TraceVerdict& verdict) {
  for (const std::string& rule : verdict.given_breaks) fmt::print("given world BREAKS {}\n", rule);
}

int runCheckTrace(const CheckTraceOptions& options) {
  InterruptGuard guard;  // Ctrl-C: stop before the next line and report what was checked
  // One line in memory at a time: a trace of any length is checked in bounded memory, and a file
  // that is no trace (/dev/zero) is refused at its first overlong line.
  UserFileLines lines(options.file, "a trace", kMaxTraceLineBytes);
  TraceProgress progress(lines);
  conformance::TraceVerdict verdict;
  try {
    verdict = conformance::checkTrace(
        [&lines](std::string& line) { return lines.next(line); }, options.file,
        conformance::TraceCheckOptions{
            .cancel = &interruptFlag(),
            .progress = [&progress](const conformance::TraceProgress& p) { progress.show(p); }});
  } catch (...) {
    progress.clear();  // the error goes on a clean line
    throw;
  }
  progress.clear();
  // A divergence is reported as usual; `interrupted` is set only when none was found.
  if (verdict.interrupted) {
    fmt::print(stderr, "kcspec check-trace: interrupted; partial report\n");
    std::fflush(stderr);
  }
  const bool nothing_checked =
      !verdict.divergence && !verdict.interrupted && verdict.steps == 0 && verdict.observations_checked == 0;
  using Json = nlohmann::ordered_json;
  if (!options.json) printGivenBreaks(verdict);
  if (options.json) {
    Json out = Json::object();
    out["file"] = options.file;
    out["verdict"] = verdict.divergence      ? "diverges"
                     : verdict.interrupted ? "interrupted"
                     : nothing_checked     ? "nothing checked"
                                           : "conforms";
    out["config"] = verdict.config_name;
    out["steps"] = verdict.steps;
    out["observations_checked"] = verdict.observations_checked;
    if (verdict.from_given) out["given_breaks"] = verdict.given_breaks;  // only then: the usual object is unchanged
    if (verdict.interrupted) {  // only then: the usual object is unchanged
      out["interrupted"] = true;
      out["lines_checked"] = verdict.lines_checked;
    }
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
  } else if (verdict.interrupted) {
    fmt::print("check-trace: {}: interrupted after line {}: conforms so far ({} steps, {} observations checked, "
               "configuration {}); the rest was not checked\n",
               options.file, verdict.lines_checked, verdict.steps, verdict.observations_checked,
               verdict.config_name.empty() ? "not read yet" : verdict.config_name);
  } else if (nothing_checked) {
    fmt::print("check-trace: {}: nothing checked: the trace has no step and no observation after its header "
               "(configuration {})\n",
               options.file, verdict.config_name);
  } else {
    fmt::print("check-trace: {}: conforms ({} steps, {} observations checked, configuration {}{})\n", options.file,
               verdict.steps, verdict.observations_checked, verdict.config_name,
               verdict.from_given ? ", from the given world" : "");
  }
  if (verdict.divergence) return kExitViolation;
  if (verdict.interrupted) return kExitInterrupted;
  return nothing_checked ? kExitIncomplete : kExitHolds;
}

}  // namespace

CommandRun addCheckTraceCommand(CLI::App& app) {
  auto options = std::make_shared<CheckTraceOptions>();
  auto* command = app.add_subcommand(
      "check-trace", "Replay a recorded trace (docs/trace-format.md) through the spec; report the first divergence");
  command->footer(std::string(kExitStatusFooter));
  command->add_option("FILE", options->file, "An NDJSON trace: a header line, then one line per step")->required();
  command->add_flag("--json", options->json,
                    "Print one JSON object: {\"file\",\"verdict\",\"config\",\"steps\",\"observations_checked\","
                    "\"given_breaks\" (a trace from a given world),"
                    "\"divergence\":{\"line\",\"action\",\"pointer\",\"expected\",\"actual\"}}");
  return [options] { return runCheckTrace(*options); };
}

}  // namespace kcspec::cli
