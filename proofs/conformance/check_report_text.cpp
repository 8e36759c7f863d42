// The two renderings of a log check's report.
#include "proofs/conformance/check_report_text.hpp"

#include <fmt/format.h>

#include <iterator>
#include <nlohmann/json.hpp>

namespace kcspec::conformance {

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

namespace {

std::string plural(std::uint64_t n, std::string_view word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

}  // namespace

std::string checkReportText(const CheckReport& report) {
  std::string text;
  auto out = std::back_inserter(text);
  for (const Finding& f : report.findings) {
    fmt::format_to(out, "{}:{}: {}: {}\n", printable(report.files[f.file]), f.line,
                   findingKindName(f.kind), printable(f.message));
  }
  if (!report.partitions.empty()) {
    if (!report.findings.empty()) text += "\n";
    text += "partitions:\n";
    for (const PartitionSummary& p : report.partitions) {
      fmt::format_to(out, "  {}-{}: {}, {}{}, {}; last logged state {}; {}\n", p.topic, p.partition,
                     plural(p.partition_changes, "partition change"), plural(p.replica_changes, "replica change"),
                     p.replicas > 0 ? fmt::format(" ({})", plural(p.replicas, "replica")) : "",
                     plural(p.failures, "failed change"), p.last_state.empty() ? "none" : p.last_state,
                     plural(p.findings, "finding"));
    }
  }
  std::string kinds;
  for (std::size_t k = 0; k < kFindingKindCount; ++k) {
    if (report.findings_by_kind[k] == 0) continue;
    fmt::format_to(std::back_inserter(kinds), "{}{} {}", kinds.empty() ? ": " : ", ",
                   findingKindName(static_cast<FindingKind>(k)), report.findings_by_kind[k]);
  }
  fmt::format_to(out, "check-log: {}, {} ({} parsed, {} unparsed, {} blank), {}; {}{}\n",
                 plural(report.files.size(), "file"), plural(report.lines, "line"), report.parsed, report.unparsed,
                 report.blank, plural(report.partitions.size(), "partition"), plural(report.findings.size(), "finding"),
                 kinds);
  for (const std::string& file : report.nothing_checked) {
    fmt::format_to(out,
                   "nothing checked in {}: none of its lines is a state-change.log or controller.log line in a layout "
                   "check-log reads (another layout, another log, or not text? docs/conformance.md)\n",
                   printable(file));
  }
  return text;
}

std::string checkReportJson(const CheckReport& report) {
  nlohmann::ordered_json findings = nlohmann::ordered_json::array();
  for (const Finding& f : report.findings) {
    nlohmann::ordered_json finding;
    finding["file"] = report.files[f.file];
    finding["line"] = f.line;
    finding["kind"] = findingKindName(f.kind);
    finding["message"] = f.message;
    findings.push_back(std::move(finding));
  }
  nlohmann::ordered_json out;
  out["files"] = report.files.size();
  out["lines"] = report.lines;
  out["parsed"] = report.parsed;
  out["unparsed"] = report.unparsed;
  out["findings"] = std::move(findings);
  if (report.interrupted) out["interrupted"] = true;  // only then: the usual object is unchanged
  if (!report.nothing_checked.empty()) out["nothing_checked"] = report.nothing_checked;  // likewise
  // Log text may be invalid UTF-8: such bytes are replaced rather than failing the dump.
  return out.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace kcspec::conformance
