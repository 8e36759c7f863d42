// Scenarios as text (format in scenario_text.hpp).
#include "spec/vocabulary/scenario_text.hpp"

#include <fmt/format.h>

#include <span>

#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/config_text.hpp"

namespace kcspec {
namespace {

std::string_view trimRight(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

Scenario parseScenario(std::string_view text, std::string_view file) {
  const std::vector<text::SourceLine> lines = text::splitLines(text, file);
  if (lines.empty() || trimRight(lines[0].content) != kScenarioHeader) {
    const std::string found = lines.empty() ? "an empty file" : fmt::format("`{}`", trimRight(lines[0].content));
    throw TextError(file, 1, fmt::format("expected the header `{}` on the first line, found {}", kScenarioHeader, found));
  }
  std::size_t steps_at = lines.size();
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::vector<std::string_view> tokens = text::tokenize(lines[i].content);
    if (!tokens.empty() && tokens[0] == "steps") {
      if (tokens.size() != 1) throw TextError(file, lines[i].number, "`steps` takes no arguments");
      steps_at = i;
      break;
    }
  }
  if (steps_at == lines.size()) {
    throw TextError(file, lines.back().number,
                    "no `steps` line: a scenario is the configuration, a line `steps`, then one action per line");
  }
  Scenario scenario;
  scenario.config = text::parseConfigLines(std::span(lines).first(steps_at), file, lines[steps_at].number);
  for (std::size_t i = steps_at + 1; i < lines.size(); ++i) {
    if (text::tokenize(lines[i].content).empty()) continue;
    scenario.steps.push_back(parseAction(scenario.config, lines[i].content, file, lines[i].number));
    scenario.step_lines.push_back(lines[i].number);
  }
  return scenario;
}

std::string printScenario(const Scenario& scenario) {
  std::string out = fmt::format("{}\n", kScenarioHeader);
  out += printConfig(scenario.config);
  out += "steps\n";
  for (const Action& action : scenario.steps) out += printAction(scenario.config, action) + "\n";
  return out;
}

}  // namespace kcspec
