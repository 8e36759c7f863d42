// Fuzz target: Kafka state-change.log / controller.log text (proofs/conformance/log_line.hpp and
// the checker that consumes it, log_checker.hpp). Every line of every input is parsed (no input is
// rejected), the whole input is checked as one file, and every finding names a line of it.
#include <algorithm>
#include <string>

#include "fuzz_support.hpp"
#include "proofs/conformance/log_checker.hpp"
#include "proofs/conformance/log_line.hpp"

namespace kcspec::fuzz {

std::vector<std::pair<std::string, std::string>> builtinSeeds() { return {}; }  // tests/conformance/logs

}  // namespace kcspec::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kcspec::conformance;
  const std::string_view text = kcspec::fuzz::asText(data, size);
  ParsedLine parsed;
  std::uint64_t lines = 0;
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view line = text.substr(start, end - start);
    parseLine(line, parsed);
    // Every view the parser hands out points into the line it was given.
    for (std::string_view view : {parsed.topic, parsed.message, parsed.leadership.rendering}) {
      if (!view.empty() && (view.data() < line.data() || view.data() + view.size() > line.data() + line.size())) {
        kcspec::fuzz::fail("a parsed field points outside its line", line, view);
      }
    }
    if (parsed.shape == LineShape::Continuation) (void)exceptionText(line);
    ++lines;
    if (end == text.size()) break;
    start = end + 1;
  }

  // Small limits, so that the fuzzer reaches the overlong-line and buffer-growth paths too.
  LogChecker checker(CheckOptions{.max_line_bytes = 512, .partition_summaries = true});
  checker.checkText(text, "fuzz.log");
  const CheckReport report = checker.finish();
  if (report.lines != report.parsed + report.unparsed + report.blank) kcspec::fuzz::fail("line counts do not add up");
  for (const Finding& finding : report.findings) {
    if (finding.line == 0 || finding.line > report.lines) kcspec::fuzz::fail("a finding names no line of the input");
  }
  return 0;
}
