// `kcspec check-log FILE...|- [--json] [--verbose] [--threads N]`: conformance of real Kafka state-change.log /
// controller.log files with Kafka 3.8's rules (docs/conformance.md). The engine lives in
// proofs/conformance/log_checker.hpp; this file parses arguments and prints.
//
// Exit status (cli/exit_status.hpp): 0 no findings, 1 findings, 2 a file that cannot be opened or
// read (`FILE:0: cannot open …` on stderr), 3 no findings but nothing checked in some file (none of
// its lines was a record check-log reads: the report names it), 130 interrupted (SIGINT, SIGTERM,
// SIGHUP) without a finding so far (the partial report is printed). Unparsed lines otherwise never
// change the exit status.
//
// On a terminal a progress line on stderr (MiB read of the total, lines, the file when several)
// is rewritten twice a second; nothing when stderr is not a terminal.
#include "cli/command.hpp"
#include "cli/exit_status.hpp"
#include "proofs/conformance/check_report_text.hpp"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "cli/interrupt_guard.hpp"
#include "cli/terminal_line.hpp"

namespace kcspec::cli {
namespace {

struct CheckLogOptions {
  std::vector<std::string> files;
  bool json = false;
  bool verbose = false;
  unsigned threads = 0;  // 0: the hardware's cores
};

double mebibytes(std::uint64_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0); }

// The progress line on a terminal: "check-log: 123.4 of 4096.0 MiB, 567890 lines[, file 2 of 3: NAME]".
class LogProgress {
 public:
  explicit LogProgress(const std::vector<std::string>& files) : files_(files) {
    if (!line_.on()) return;
    // The total is known when every file is a regular file (a pipe's size is not).
    std::uint64_t before = 0;
    for (const std::string& file : files) {
      struct stat st {};
      const bool regular = ::stat(file.c_str(), &st) == 0 && S_ISREG(st.st_mode);
      if (!regular) total_known_ = false;
      starts_.push_back(before);
      before += regular ? static_cast<std::uint64_t>(st.st_size) : 0;
    }
    total_ = before;
  }

  void show(const conformance::CheckProgress& p) {
    if (!line_.due()) return;
    // A pipe's bytes are not in the starts: they count from the files before it that are known.
    const std::uint64_t read = (p.file < starts_.size() ? starts_[p.file] : 0) + p.bytes;
    std::string text = total_known_ ? fmt::format("check-log: {:.1f} of {:.1f} MiB, {} lines", mebibytes(read),
                                                  mebibytes(total_), p.lines)
                                    : fmt::format("check-log: {:.1f} MiB, {} lines", mebibytes(read), p.lines);
    if (files_.size() > 1 && p.file < files_.size()) {
      text += fmt::format(", file {} of {}: {}", p.file + 1, files_.size(), files_[p.file]);
    }
    line_.show(text);
  }

  // Takes the line off the terminal (before other output, and at the end).
  void clear() { line_.clear(); }

 private:
  TerminalLine line_;
  const std::vector<std::string>& files_;
  std::vector<std::uint64_t> starts_;  // per file: the bytes of the files before it
  std::uint64_t total_ = 0;
  bool total_known_ = true;
};

int runCheckLog(const CheckLogOptions& options) {
  bool bad_input = false;
  for (const std::string& file : options.files) {
    if (auto reason = conformance::cannotOpen(file)) {
      fmt::print(stderr, "{}:0: cannot open {}: {}\n", file, file, *reason);
      bad_input = true;
    }
  }
  if (bad_input) return 2;

  const unsigned threads = options.threads != 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  LogProgress progress(options.files);
  InterruptGuard guard;  // Ctrl-C: stop at the next window or chunk and report what was checked
  conformance::LogChecker checker(conformance::CheckOptions{
      .partition_summaries = !options.json,
      .threads = threads,
      .cancel = &interruptFlag(),
      .progress = [&progress](const conformance::CheckProgress& p) { progress.show(p); }});
  if (options.verbose) {
    std::FILE* sink = options.json ? stderr : stdout;  // --json keeps stdout one JSON object
    checker.setUnparsedSink([sink, &progress](std::string_view file, std::uint64_t line, std::string_view text) {
      progress.clear();
      fmt::print(sink, "{}:{}: unparsed: {}\n", file, line, conformance::printable(text));
    });
  }
  for (const std::string& file : options.files) {
    if (auto error = checker.checkFile(file)) {
      progress.clear();
      std::fflush(stdout);
      fmt::print(stderr, "{}:0: {}\n", file, *error);
      return 2;
    }
    if (checker.interrupted()) break;
  }
  progress.clear();
  const conformance::CheckReport report = checker.finish();
  if (report.interrupted) {
    fmt::print(stderr, "kcspec check-log: interrupted; partial report\n");
    std::fflush(stderr);
  }
  std::string out = options.json ? conformance::checkReportJson(report) : conformance::checkReportText(report);
  if (report.interrupted && !options.json) {
    out += report.files.empty()
               ? std::string("interrupted: nothing was read\n")
               : fmt::format("interrupted: checked up to {}:{} (file {} of {}); the rest was not read\n",
                             conformance::printable(report.files.back()), report.last_file_lines, report.files.size(),
                             options.files.size());
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  if (!report.findings.empty()) return kExitViolation;
  if (report.interrupted) return kExitInterrupted;
  return report.nothing_checked.empty() ? kExitHolds : kExitIncomplete;
}

}  // namespace

CommandRun addCheckLogCommand(CLI::App& app) {
  auto options = std::make_shared<CheckLogOptions>();
  auto* command = app.add_subcommand(
      "check-log", "Check Kafka state-change.log / controller.log files against Kafka 3.8's state-machine rules");
  command->footer(std::string(kExitStatusFooter));
  command->add_option("files", options->files, "Log files, read as one stream in this order (oldest first); gzip-compressed ones are recognised by content; - is standard input")->required();
  command->add_flag("--json", options->json,
                    "Print one JSON object: {\"files\",\"lines\",\"parsed\",\"unparsed\",\"findings\":[...]}");
  command->add_flag("--verbose", options->verbose, "List unparsed lines (on stderr with --json)");
  command
      ->add_option("--threads", options->threads,
                   "Threads parsing a file's lines while one checks them in file order (default: the hardware's "
                   "cores; 1: one thread). The report is the same for any N; pipes are read on one thread")
      ->check(CLI::Range(1u, 1024u));
  return [options] { return runCheckLog(*options); };
}

}  // namespace kcspec::cli
