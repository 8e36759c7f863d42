// Replaying a recorded trace through the spec (trace_checker.hpp).
#include "proofs/conformance/trace_checker.hpp"

#include <fmt/format.h>

#include <charconv>
#include <vector>

#include "proofs/conformance/given_start.hpp"
#include "spec/rules/step.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/capacity.hpp"
#include "spec/vocabulary/config_text.hpp"
#include "spec/vocabulary/observation_json.hpp"
#include "spec/vocabulary/presets.hpp"
#include "spec/vocabulary/text_error.hpp"
#include "spec/vocabulary/trace_text.hpp"

namespace kcspec::conformance {
namespace {

using Json = nlohmann::ordered_json;

std::optional<std::size_t> arrayIndex(std::string_view key) {
  if (key.empty() || (key.size() > 1 && key[0] == '0')) return std::nullopt;
  std::size_t index = 0;
  const auto [end, error] = std::from_chars(key.data(), key.data() + key.size(), index);
  if (error != std::errc{} || end != key.data() + key.size()) return std::nullopt;
  return index;
}

// Depth-first over `partial`; depth is bounded by trace_text's nesting limit.
std::optional<ObservationMismatch> mismatchAt(const Json& full, const Json& partial, const std::string& pointer) {
  if (partial.is_object() && (full.is_object() || full.is_array())) {
    for (const auto& [key, value] : partial.items()) {
      const std::string at = pointer + "/" + jsonPointerToken(key);
      const Json* member = nullptr;
      if (full.is_object()) {
        const auto found = full.find(key);
        if (found != full.end()) member = &*found;
      } else if (const auto index = arrayIndex(key); index && *index < full.size()) {
        member = &full[*index];
      }
      if (member == nullptr) return ObservationMismatch{at, Json(nullptr), value};
      if (auto mismatch = mismatchAt(*member, value, at)) return mismatch;
    }
    return std::nullopt;
  }
  if (partial.is_array() && full.is_array()) {
    if (partial.size() != full.size()) return ObservationMismatch{pointer, full, partial};
    for (std::size_t i = 0; i < partial.size(); ++i) {
      if (auto mismatch = mismatchAt(full[i], partial[i], fmt::format("{}/{}", pointer, i))) return mismatch;
    }
    return std::nullopt;
  }
  if (partial != full) return ObservationMismatch{pointer, full, partial};
  return std::nullopt;
}

struct Lines {
  std::string_view text;
  std::size_t position = 0;
  int number = 0;
  bool next(std::string_view& line) {
    if (position >= text.size()) return false;
    const std::size_t end = text.find('\n', position);
    const std::size_t stop = end == std::string_view::npos ? text.size() : end;
    line = text.substr(position, stop - position);
    position = stop + 1;
    ++number;
    return true;
  }
};

Config headerConfig(const TraceHeader& header, std::string_view file, int line) {
  if (header.preset) {
    std::optional<Config> config = preset(*header.preset);
    if (!config) {
      throw TextError(file, line, fmt::format("unknown preset \"{}\" (presets: {})", *header.preset,
                                              fmt::join(kPresetNames, ", ")));
    }
    return *config;
  }
  try {
    return parseConfig(*header.config_text, "config");
  } catch (const TextError& e) {
    throw TextError(file, line, fmt::format("in \"config\", line {}: {}", e.line, e.message));
  }
}

Json fullObservation(const spec::ClusterState& state, const Config* scope) {
  return observationJson(state.world, ObservationJsonOptions{.include_defaults = true, .scope = scope});
}

// The trace's members are compared with the spec's full observation of the configuration's ids
// (the cheap form, which grows with the configuration); only a trace that names a member of
// another id (always its default) needs the vocabulary's whole form, and the verdict is then the
// one the whole form gives.
std::optional<TraceDivergence> checkObservation(const Config& config, const spec::ClusterState& state,
                                                const std::optional<Json>& partial, int line, const std::string& action,
                                                TraceVerdict& verdict) {
  if (!partial) return std::nullopt;
  auto mismatch = mismatchAt(fullObservation(state, &config), *partial, "");
  if (mismatch) mismatch = mismatchAt(fullObservation(state, nullptr), *partial, "");
  if (mismatch) {
    return TraceDivergence{line, action, "/observation" + mismatch->pointer, std::move(mismatch->expected),
                           std::move(mismatch->actual)};
  }
  ++verdict.observations_checked;
  return std::nullopt;
}

// The header's given world, judged as a scenario's `given json` is (given_start.hpp): a world no
// Kafka controller could hold is bad input at the header's line unless it says "unchecked".
spec::ClusterState givenState(const Config& config, const TraceGiven& trace_given, std::string_view file, int line,
                              TraceVerdict& verdict) {
  constexpr std::string_view kHint = "\"given\":{…,\"unchecked\":true} states it anyway";
  const Given given = givenFromJson(config, trace_given.observation, trace_given.unchecked, file, line, kHint);
  std::vector<GivenWorldBreak> breaks;
  spec::ClusterState state = givenStartingState(config, given, file, breaks, kHint);
  verdict.from_given = true;
  for (const GivenWorldBreak& b : breaks) {
    verdict.given_breaks.push_back(b.message.empty() ? fmt::format("{} {}", b.id, b.statement)
                                                     : fmt::format("{} ({}): {}", b.id, b.statement, b.message));
  }
  return state;
}

std::string shown(const Json& value) {
  std::string text = value.dump(-1, ' ', false, Json::error_handler_t::replace);
  constexpr std::size_t kMaxShown = 2000;
  if (text.size() > kMaxShown) text = text.substr(0, kMaxShown) + "…";
  return text;
}

}  // namespace

std::optional<ObservationMismatch> firstMismatch(const Json& full, const Json& partial) {
  return mismatchAt(full, partial, "");
}

TraceVerdict checkTrace(std::string_view text, std::string_view file, const TraceCheckOptions& options) {
  Lines lines{text};
  return checkTrace(
      [&lines](std::string& line) {
        std::string_view view;
        if (!lines.next(view)) return false;
        line.assign(view);
        return true;
      },
      file, options);
}

TraceVerdict checkTrace(const TraceLineSource& next_line, std::string_view file, const TraceCheckOptions& options) {
  TraceVerdict verdict;
  struct {
    int number = 0;
  } lines;
  std::optional<Config> config;
  spec::ClusterState state;
  std::string line;
  const auto tell = [&] {
    if (options.progress) options.progress(TraceProgress{lines.number, verdict.steps, verdict.observations_checked});
  };
  while (true) {
    if (!next_line(line)) break;
    if (options.cancel != nullptr && options.cancel->load(std::memory_order_relaxed)) {
      verdict.interrupted = true;  // a line was still to be read: not checked
      verdict.lines_checked = lines.number;
      return verdict;
    }
    ++lines.number;
    verdict.lines_checked = lines.number;
    TraceLine parsed = parseTraceLine(line);
    if (std::holds_alternative<TraceBlank>(parsed)) continue;
    if (const auto* error = std::get_if<TraceLineError>(&parsed)) throw TextError(file, lines.number, error->message);
    if (const auto* header = std::get_if<TraceHeader>(&parsed)) {
      if (config) throw TextError(file, lines.number, "a second header: the header is the first line only");
      config = headerConfig(*header, file, lines.number);
      verdict.config_name = config->name;
      state = header->given ? givenState(*config, *header->given, file, lines.number, verdict)
                            : spec::initialState(*config);
      if (auto divergence = checkObservation(*config, state, header->observation, lines.number, "", verdict)) {
        verdict.divergence = std::move(divergence);
        return verdict;
      }
      tell();
      continue;
    }
    const TraceStep& step = std::get<TraceStep>(parsed);
    if (!config) {
      throw TextError(file, lines.number,
                      fmt::format("the first line must be the header, e.g. {{\"{}\":{},\"preset\":\"default\"}}",
                                  kTraceVersionKey, kTraceFormatVersion));
    }
    const Action action = parseAction(*config, step.action, file, lines.number);
    const std::string action_text = printAction(*config, action);
    ++verdict.steps;
    if (!spec::isEnabled(*config, state, action)) {
      Json enabled = Json::array();
      for (const Action& a : spec::enabledActions(*config, state)) enabled.push_back(printAction(*config, a));
      verdict.divergence = TraceDivergence{lines.number, action_text, "/action", std::move(enabled), Json(step.action)};
      return verdict;
    }
    try {
      state = spec::next(*config, state, action);
    } catch (const CapacityExceeded& e) {  // the trace outgrows the modeled world (docs/spec/rules.md)
      throw TextError(file, lines.number, e.what());
    }
    if (auto divergence = checkObservation(*config, state, step.observation, lines.number, action_text, verdict)) {
      verdict.divergence = std::move(divergence);
      return verdict;
    }
    tell();
  }
  if (!config) {
    throw TextError(file, std::max(lines.number, 1),
                    fmt::format("no header: a trace starts with {{\"{}\":{},…}}", kTraceVersionKey, kTraceFormatVersion));
  }
  return verdict;
}

std::string divergenceText(const TraceDivergence& d, std::string_view file) {
  if (d.pointer == "/action") {
    std::vector<std::string> enabled;
    for (const Json& a : d.expected) enabled.push_back(a.get<std::string>());
    return fmt::format("{}:{}: /action: not enabled in the spec here: {}\n  the spec enables: {}", file, d.line,
                       d.action, enabled.empty() ? std::string("(nothing)") : fmt::format("{}", fmt::join(enabled, "; ")));
  }
  const std::string after = d.action.empty() ? std::string("the starting state") : "after " + d.action;
  return fmt::format("{}:{}: {}: spec has {}, trace has {} ({})", file, d.line, d.pointer, shown(d.expected),
                     shown(d.actual), after);
}

}  // namespace kcspec::conformance
