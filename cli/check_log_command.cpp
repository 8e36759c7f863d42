// `kcspec check-log FILE... [--json] [--verbose] [--threads N]`: conformance of real Kafka state-change.log /
// controller.log files with Kafka 3.8's rules (docs/conformance.md). The engine lives in
// proofs/conformance/log_checker.hpp; this file parses arguments and prints.
//
// Exit status: 0 no findings, 1 findings, 2 a file that cannot be opened or read
// (`FILE:0: cannot open …` on stderr). Unparsed lines never change the exit status.
#include "cli/check_log_command.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "cli/command.hpp"

namespace kcspec::cli {
namespace {

struct CheckLogOptions {
  std::vector<std::string> files;
  bool json = false;
  bool verbose = false;
  unsigned threads = 0;  // 0: the hardware's cores
};

// Log text made safe for a terminal: control and non-ASCII bytes as \xNN.
std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    const auto byte = static_cast<unsigned char>(ch);
    if (byte == '\t' || (byte >= 0x20 && byte < 0x7F)) out += ch;
    else out += fmt::format("\\x{:02x}", byte);
  }
  return out;
}

std::string plural(std::uint64_t n, std::string_view word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

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
  conformance::LogChecker checker(conformance::CheckOptions{.partition_summaries = !options.json, .threads = threads});
  if (options.verbose) {
    std::FILE* sink = options.json ? stderr : stdout;  // --json keeps stdout one JSON object
    checker.setUnparsedSink([sink](std::string_view file, std::uint64_t line, std::string_view text) {
      fmt::print(sink, "{}:{}: unparsed: {}\n", file, line, printable(text));
    });
  }
  for (const std::string& file : options.files) {
    if (auto error = checker.checkFile(file)) {
      std::fflush(stdout);
      fmt::print(stderr, "{}:0: {}\n", file, *error);
      return 2;
    }
  }
  const conformance::CheckReport report = checker.finish();
  const std::string out = options.json ? checkLogJson(report) : checkLogText(report);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return report.findings.empty() ? 0 : 1;
}

}  // namespace

std::string checkLogText(const conformance::CheckReport& report) {
  std::string text;
  auto out = std::back_inserter(text);
  for (const conformance::Finding& f : report.findings) {
    fmt::format_to(out, "{}:{}: {}: {}\n", printable(report.files[f.file]), f.line,
                   conformance::findingKindName(f.kind), printable(f.message));
  }
  if (!report.partitions.empty()) {
    if (!report.findings.empty()) text += "\n";
    text += "partitions:\n";
    for (const conformance::PartitionSummary& p : report.partitions) {
      fmt::format_to(out, "  {}-{}: {}, {}{}, {}; last logged state {}; {}\n", p.topic, p.partition,
                     plural(p.partition_changes, "partition change"), plural(p.replica_changes, "replica change"),
                     p.replicas > 0 ? fmt::format(" ({})", plural(p.replicas, "replica")) : "",
                     plural(p.failures, "failed change"), p.last_state.empty() ? "none" : p.last_state,
                     plural(p.findings, "finding"));
    }
  }
  std::string kinds;
  for (std::size_t k = 0; k < conformance::kFindingKindCount; ++k) {
    if (report.findings_by_kind[k] == 0) continue;
    fmt::format_to(std::back_inserter(kinds), "{}{} {}", kinds.empty() ? ": " : ", ",
                   conformance::findingKindName(static_cast<conformance::FindingKind>(k)), report.findings_by_kind[k]);
  }
  fmt::format_to(out, "check-log: {}, {} ({} parsed, {} unparsed, {} blank), {}; {}{}\n",
                 plural(report.files.size(), "file"), plural(report.lines, "line"), report.parsed, report.unparsed,
                 report.blank, plural(report.partitions.size(), "partition"), plural(report.findings.size(), "finding"),
                 kinds);
  return text;
}

std::string checkLogJson(const conformance::CheckReport& report) {
  nlohmann::ordered_json findings = nlohmann::ordered_json::array();
  for (const conformance::Finding& f : report.findings) {
    nlohmann::ordered_json finding;
    finding["file"] = report.files[f.file];
    finding["line"] = f.line;
    finding["kind"] = conformance::findingKindName(f.kind);
    finding["message"] = f.message;
    findings.push_back(std::move(finding));
  }
  nlohmann::ordered_json out;
  out["files"] = report.files.size();
  out["lines"] = report.lines;
  out["parsed"] = report.parsed;
  out["unparsed"] = report.unparsed;
  out["findings"] = std::move(findings);
  // Log text may be invalid UTF-8: such bytes are replaced rather than failing the dump.
  return out.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

CommandRun addCheckLogCommand(CLI::App& app) {
  auto options = std::make_shared<CheckLogOptions>();
  auto* command = app.add_subcommand(
      "check-log", "Check Kafka state-change.log / controller.log files against Kafka 3.8's state-machine rules");
  command->add_option("files", options->files, "Log files, read as one stream in this order (oldest first)")->required();
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
