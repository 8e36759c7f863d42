// Fuzz target: the NDJSON trace format (spec/vocabulary/trace_text.hpp) and `kcspec check-trace`'s
// replay of it (proofs/conformance/trace_checker.hpp), from the initial state or from a header's
// given world (judged first: proofs/conformance/given_start.hpp). Every line parses to what it
// holds or to an error without throwing; a parsed header or step prints and parses back to the same text;
// the whole input is checked as a trace, which either throws TextError or gives a verdict whose
// divergence names a line of the input. scripts/fuzz bounds an input to 512 bytes (-max_len=512):
// a header and up to about 15 steps, fewer with observations (each observed step builds the spec's
// full observation); longer traces cost time per execution without new kinds of line.
#include <algorithm>
#include <string>
#include <variant>

#include "fuzz_support.hpp"
#include "proofs/conformance/trace_checker.hpp"
#include "spec/vocabulary/presets.hpp"
#include "spec/vocabulary/text_error.hpp"
#include "spec/vocabulary/trace_text.hpp"

namespace kcspec::fuzz {

std::vector<std::pair<std::string, std::string>> builtinSeeds() {
  std::vector<std::pair<std::string, std::string>> seeds;
  for (std::string_view name : kPresetNames) {
    TraceHeader header;
    header.preset = std::string(name);
    seeds.emplace_back("preset-" + std::string(name) + ".ndjson",
                       printTraceHeader(header) + "\n" + printTraceStep({"elect-controller 1", std::nullopt}) + "\n" +
                           printTraceStep({"process-event 1", std::nullopt}) + "\n");
  }
  // Version 2: a header with a given world (a small one: the fuzzer's inputs are short), checked
  // and unchecked, with a step from it.
  TraceHeader given;
  given.version = kTraceFormatGivenVersion;
  given.config_text = "brokers 1 2\ntopic t\n  partition 0 replicas 1,2\nbound crashes 1\n";
  given.given = TraceGiven{nlohmann::ordered_json::parse(
                               R"({"zookeeper":{"brokers":{"1":{"registered":true,"broker_epoch":1}},"last_zxid":1},)"
                               R"("brokers":{"1":{"alive":true,"broker_epoch":1}}})"),
                           false};
  seeds.emplace_back("given.ndjson", printTraceHeader(given) + "\n" + printTraceStep({"crash 1", std::nullopt}) + "\n");
  given.given->unchecked = true;
  seeds.emplace_back("given-unchecked.ndjson", printTraceHeader(given) + "\n");
  return seeds;
}

}  // namespace kcspec::fuzz

namespace {

// The line printed again from what it parsed to (empty for blanks and errors).
std::string reprinted(const kcspec::TraceLine& parsed) {
  if (const auto* header = std::get_if<kcspec::TraceHeader>(&parsed)) return kcspec::printTraceHeader(*header);
  if (const auto* step = std::get_if<kcspec::TraceStep>(&parsed)) return kcspec::printTraceStep(*step);
  return {};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kcspec;
  const std::string_view text = fuzz::asText(data, size);
  int lines = 0;
  for (std::size_t start = 0; start <= text.size(); ++lines) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view line = text.substr(start, end - start);
    const std::string printed = reprinted(parseTraceLine(line));
    if (!printed.empty()) {
      const TraceLine again = parseTraceLine(printed);
      if (std::holds_alternative<TraceLineError>(again)) {
        fuzz::fail("a printed trace line does not parse: " + std::get<TraceLineError>(again).message, line, printed);
      }
      if (reprinted(again) != printed) fuzz::fail("printing a trace line is not a fixed point", printed, reprinted(again));
    }
    if (end == text.size()) break;
    start = end + 1;
  }
  try {
    const conformance::TraceVerdict verdict = conformance::checkTrace(text, "fuzz.ndjson");
    if (verdict.divergence) {
      if (verdict.divergence->line < 1 || verdict.divergence->line > lines + 1) {
        fuzz::fail("a divergence names no line of the trace", text, std::to_string(verdict.divergence->line));
      }
      (void)conformance::divergenceText(*verdict.divergence, "fuzz.ndjson");
    }
  } catch (const TextError&) {
  }
  return 0;
}
