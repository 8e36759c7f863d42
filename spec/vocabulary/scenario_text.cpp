// Scenarios as text (format in scenario_text.hpp).
#include "spec/vocabulary/scenario_text.hpp"

#include <fmt/format.h>

#include <span>
#include <utility>

#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/config_text.hpp"

namespace kcspec {
namespace {

std::string_view trimRight(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

ScenarioReader::ScenarioReader(NextLine next_line, std::string file)
    : next_line_(std::move(next_line)), file_(std::move(file)) {
  if (!nextLine() || trimRight(text::checkedLine(line_, line_number_, file_).content) != kScenarioHeader) {
    const std::string found = line_number_ == 0 ? "an empty file" : fmt::format("`{}`", trimRight(line_));
    throw TextError(file_, 1, fmt::format("expected the header `{}` on the first line, found {}", kScenarioHeader, found));
  }
  // The configuration's lines are kept (a configuration is short) until `steps` ends them.
  std::vector<std::string> config_text;
  std::vector<int> config_numbers;
  // The `given` line (0: none), its arguments, and the section's lines after it.
  int given_line = 0;
  std::vector<std::string> given_arguments;
  std::vector<std::string> given_text;
  std::vector<int> given_numbers;
  for (;;) {  // bounded by kMaxConfigLines
    if (!nextLine()) {
      throw TextError(file_, line_number_,
                      "no `steps` line: a scenario is the configuration, a line `steps`, then one action per line");
    }
    const std::vector<std::string_view> tokens = text::tokenize(text::checkedLine(line_, line_number_, file_).content);
    if (!tokens.empty() && tokens[0] == "steps") {
      if (tokens.size() != 1) throw TextError(file_, line_number_, "`steps` takes no arguments");
      break;
    }
    if (!tokens.empty() && tokens[0] == "given" && given_line != 0) {
      throw TextError(file_, line_number_, fmt::format("a second `given` line (the section starts on line {})", given_line));
    }
    if (!tokens.empty() && tokens[0] == "given") {
      given_line = line_number_;
      given_arguments.assign(tokens.begin() + 1, tokens.end());
      continue;
    }
    if (config_text.size() + given_text.size() == kMaxConfigLines) {
      throw TextError(file_, line_number_,
                      fmt::format("no `steps` line in the first {} lines: the configuration ends at `steps`",
                                  kMaxConfigLines));
    }
    (given_line == 0 ? config_text : given_text).push_back(line_);
    (given_line == 0 ? config_numbers : given_numbers).push_back(line_number_);
  }
  std::vector<text::SourceLine> lines;
  lines.reserve(config_text.size() + 1);
  lines.push_back(text::SourceLine{1, kScenarioHeader});
  for (std::size_t i = 0; i < config_text.size(); ++i) {
    lines.push_back(text::checkedLine(config_text[i], config_numbers[i], file_));
  }
  config_ = text::parseConfigLines(lines, file_, given_line == 0 ? line_number_ : given_line);
  if (given_line != 0) {
    std::vector<text::SourceLine> section;
    section.reserve(given_text.size());
    for (std::size_t i = 0; i < given_text.size(); ++i) {
      section.push_back(text::checkedLine(given_text[i], given_numbers[i], file_));
    }
    const std::vector<std::string_view> arguments(given_arguments.begin(), given_arguments.end());
    given_ = parseGiven(config_, section, arguments, file_, given_line);
  }
}

bool ScenarioReader::nextLine() {
  if (!next_line_(line_)) return false;
  ++line_number_;
  return true;
}

std::optional<Action> ScenarioReader::nextStep() {
  std::optional<std::variant<Action, ComponentCall>> step = nextStepOrCall();
  if (!step) return std::nullopt;
  if (const Action* action = std::get_if<Action>(&*step)) return *action;
  throw TextError(file_, step_line_, "a component action: this command takes cluster actions only (`kcspec replay` runs "
                                     "component actions)");
}

std::optional<std::variant<Action, ComponentCall>> ScenarioReader::nextStepOrCall() {
  while (nextLine()) {  // bounded by the text's lines
    const std::string_view content = text::checkedLine(line_, line_number_, file_).content;
    const std::vector<std::string_view> tokens = text::tokenize(content);
    if (tokens.empty()) continue;
    if (tokens[0] == "given") {
      throw TextError(file_, line_number_,
                      "a `given` section comes before `steps`: it states the world the steps start from");
    }
    step_line_ = line_number_;
    if (isComponentCallText(content)) return parseComponentCall(config_, content, file_, line_number_);
    return parseAction(config_, content, file_, line_number_);
  }
  return std::nullopt;
}

Scenario parseScenario(std::string_view text, std::string_view file) {
  std::size_t at = 0;
  ScenarioReader reader(
      [text, &at](std::string& line) {
        if (at >= text.size()) return false;  // a final line end does not start another line
        std::size_t end = text.find('\n', at);
        if (end == std::string_view::npos) end = text.size();
        line.assign(text.substr(at, end - at));
        at = end + 1;
        return true;
      },
      std::string(file));
  Scenario scenario;
  scenario.config = reader.config();
  scenario.given = reader.given();
  while (auto step = reader.nextStepOrCall()) {  // bounded by the text's lines
    if (const Action* action = std::get_if<Action>(&*step)) {
      scenario.steps.push_back(*action);
      scenario.step_lines.push_back(reader.stepLine());
    } else {
      scenario.calls.push_back(Scenario::Call{scenario.steps.size(), reader.stepLine(), std::get<ComponentCall>(*step)});
    }
  }
  return scenario;
}

std::string printScenario(const Scenario& scenario) { return printScenario(scenario, {}); }

std::string printScenario(const Scenario& scenario, std::string_view comments) {
  std::string out = fmt::format("{}\n", kScenarioHeader);
  out += comments;
  out += printConfig(scenario.config);
  if (scenario.given) out += printGiven(*scenario.given);
  out += "steps\n";
  forEachStep(
      scenario,
      [&](std::size_t i) {
        out += printAction(scenario.config, scenario.steps[i]) + "\n";
        return true;
      },
      [&](const Scenario::Call& call) {
        out += printComponentCall(scenario.config, call.call) + "\n";
        return true;
      });
  return out;
}

}  // namespace kcspec
