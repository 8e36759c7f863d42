// `kcspec trace SCENARIO [--out FILE] [--fields P,…] [--compact] [--actions-only]` writes a kcspec
// history (a scenario file; explorer counterexamples are scenario files) as a trace
// (docs/trace-format.md) that `kcspec check-trace` accepts; `kcspec itf SCENARIO [--out FILE]`
// writes it as ITF JSON for Apalache and Quint users. A scenario with a given section is written
// from its given world (the trace's header records it); component actions are refused at their line. Exit 0 written; 1 a step of the scenario is
// not enabled; 2 bad input (a step that outgrows the modeled world among it, at its line); 130
// interrupted (SIGINT, SIGTERM, SIGHUP).
//
// Both stream: the scenario is read a line at a time and each state's text is written as soon as
// the spec has reached it, so a history of any length takes bounded memory. With --out the text
// goes to a temporary file renamed over FILE only when the whole history was written (a refused
// step or an interruption leaves FILE as it was); on standard output what was reached is written.
// On a terminal a progress line on stderr gives the line read and the steps written.
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/starting_state.hpp"
#include "cli/command.hpp"
#include "cli/exit_status.hpp"
#include "cli/files.hpp"
#include "cli/interrupt_guard.hpp"
#include "cli/terminal_line.hpp"
#include "proofs/conformance/trace_writer.hpp"
#include "spec/vocabulary/capacity.hpp"
#include "spec/vocabulary/config_text.hpp"
#include "spec/vocabulary/scenario_text.hpp"

namespace kcspec::cli {
namespace {

constexpr std::size_t kMaxReadLineBytes = std::size_t{1} << 20;

constexpr std::string_view kWriteExitStatusFooter =
    "Exit status: 0 written; 1 a step of the scenario is not enabled (file:line); 2 bad input; 130 interrupted "
    "(SIGINT, SIGTERM, SIGHUP: --out is left as it was).";

// Where the text goes: standard output, or FILE through a temporary file (AtomicFileWriter).
class Output {
 public:
  explicit Output(const std::string& out_file) {
    if (!out_file.empty() && out_file != "-") file_.emplace(out_file);
  }
  void write(std::string_view text) {
    if (file_) {
      file_->write(text);
    } else {
      std::fwrite(text.data(), 1, text.size(), stdout);
    }
  }
  void commit() {
    if (file_) {
      file_->commit();
    } else {
      std::fflush(stdout);
    }
  }

 private:
  std::optional<AtomicFileWriter> file_;
};

// The progress line on a terminal: "trace: line 1234 (12.0 of 80.0 MiB), 1200 steps written".
class WriteProgress {
 public:
  WriteProgress(std::string_view command, const UserFileLines& lines) : command_(command), lines_(lines) {}

  void show(int line, std::size_t steps) {
    if (!line_.due()) return;
    const double mib = static_cast<double>(lines_.bytesRead()) / (1024.0 * 1024.0);
    line_.show(lines_.fileBytes() > 0
                   ? fmt::format("{}: line {} ({:.1f} of {:.1f} MiB), {} steps written", command_, line, mib,
                                 static_cast<double>(lines_.fileBytes()) / (1024.0 * 1024.0), steps)
                   : fmt::format("{}: line {} ({:.1f} MiB read), {} steps written", command_, line, mib, steps));
  }
  void clear() { line_.clear(); }

 private:
  std::string command_;
  TerminalLine line_;
  const UserFileLines& lines_;
};

// Runs the scenario through a writer made by `make(config, sink)` (TraceStreamWriter or
// ItfStreamWriter), one step at a time. A step that is not enabled is exit 1 naming its line; a
// --fields mistake is bad input.
template <class Make>
int writeHistory(std::string_view command, const std::string& scenario_file, const std::string& out_file, Make&& make) {
  InterruptGuard guard;  // Ctrl-C: stop before the next step; --out keeps what it held
  // A scenario's lines are at most text::kMaxLineBytes, which the reader checks and reports; this
  // bound only stops a file that is no scenario (/dev/zero) before it fills memory.
  UserFileLines lines(scenario_file, "a scenario file", kMaxReadLineBytes);
  ScenarioReader reader([&lines](std::string& line) { return lines.next(line); }, scenario_file);
  // A given world is judged as `kcspec replay` judges it (exit 2 at the `given` line for one that
  // breaks a rule) and becomes the history's start.
  std::optional<conformance::GivenStart> given;
  if (reader.given()) {
    std::vector<GivenWorldBreak> breaks;
    (void)startingState(reader.config(), reader.given(), scenario_file, breaks);
    given = conformance::GivenStart{reader.given()->world, reader.given()->unchecked};
  }
  Output output(out_file);
  WriteProgress progress(command, lines);
  auto writer = make(reader.config(), [&output](std::string_view text) { output.write(text); }, std::move(given));
  try {
    while (std::optional<Action> step = reader.nextStep()) {  // bounded by the file's lines
      if (interruptFlag().load()) {
        progress.clear();
        std::fflush(stdout);
        fmt::print(stderr, "kcspec {}: interrupted after step {} of {}; {}\n", command, writer.steps(), scenario_file,
                   out_file.empty() || out_file == "-" ? "the steps before it were written"
                                                        : "nothing written to " + out_file);
        return kExitInterrupted;
      }
      writer.step(*step);
      progress.show(reader.stepLine(), writer.steps());
    }
    writer.finish();
  } catch (const std::invalid_argument& e) {
    progress.clear();
    const std::string message = e.what();
    if (message.rfind("field", 0) == 0) throw UserError("--fields", message);
    std::fflush(stdout);
    fmt::print(stderr, "{}:{}: {}\n", scenario_file, reader.stepLine(), message);  // "action N (…) is not enabled"
    return kExitViolation;
  } catch (const CapacityExceeded& e) {  // the history outgrows the modeled world (docs/spec/rules.md): bad input
    progress.clear();
    std::fflush(stdout);
    fmt::print(stderr, "{}:{}: {}\n", scenario_file, reader.stepLine(), e.what());
    return kExitBadInput;
  } catch (...) {
    progress.clear();  // the error goes on a clean line
    throw;
  }
  progress.clear();
  output.commit();
  return kExitHolds;
}

struct TraceOptions {
  std::string scenario;
  std::string out;
  std::vector<std::string> fields;
  bool compact = false;
  bool actions_only = false;
};

}  // namespace

CommandRun addTraceCommand(CLI::App& app) {
  auto options = std::make_shared<TraceOptions>();
  auto* command = app.add_subcommand("trace", "Write a scenario's history as a trace for `kcspec check-trace`");
  command->footer(std::string(kWriteExitStatusFooter));
  command->add_option("SCENARIO", options->scenario, "A scenario file (or an explorer counterexample)")->required();
  command->add_option("--out", options->out, "Write the trace here (default: standard output)");
  command->add_option("--fields", options->fields,
                      "Only these members of each observation, as JSON pointers, e.g. "
                      "/zookeeper/topics/0/states,/brokers/1/alive (default: the whole observation)")
      ->delimiter(',');
  command->add_flag("--compact", options->compact, "Leave default members out (they are then not checked)");
  command->add_flag("--actions-only", options->actions_only, "Write no observations, only the actions");
  return [options] {
    if (!options->out.empty() && options->out != "-") checkWritableLater(options->out, false, "--out");
    const conformance::TraceWriteOptions write_options{options->fields, options->compact, !options->actions_only};
    return writeHistory("trace", options->scenario, options->out,
                        [&](const Config& config, conformance::TextSink sink,
                            std::optional<conformance::GivenStart> given) {
                          try {
                            return conformance::TraceStreamWriter(config, write_options, std::move(sink),
                                                                  std::move(given));
                          } catch (const std::invalid_argument& e) {  // a pointer that is not one
                            throw UserError("--fields", e.what());
                          }
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
  command->footer(std::string(kWriteExitStatusFooter));
  command->add_option("SCENARIO", options->scenario, "A scenario file (or an explorer counterexample)")->required();
  command->add_option("--out", options->out, "Write the ITF here (default: standard output)");
  return [options] {
    if (!options->out.empty() && options->out != "-") checkWritableLater(options->out, false, "--out");
    const std::string source = std::filesystem::path(options->scenario).filename().string();
    return writeHistory("itf", options->scenario, options->out,
                        [&](const Config& config, conformance::TextSink sink,
                            const std::optional<conformance::GivenStart>& given) {
                          return conformance::ItfStreamWriter(config, source, std::move(sink), given);
                        });
  };
}

}  // namespace kcspec::cli
