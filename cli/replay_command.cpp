#include "cli/replay_command.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/files.hpp"
#include "cli/mutant_options.hpp"
#include "cli/number_options.hpp"
#include "cli/starting_state.hpp"
#include "impl/generated_mutants.hpp"
#include "impl/log_replay.hpp"
#include "proofs/agreement/step_record.hpp"
#include "spec/rules/components.hpp"
#include "spec/rules/invariants.hpp"
#include "spec/rules/step.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/capacity.hpp"
#include "spec/vocabulary/observation_text.hpp"
#include "spec/vocabulary/scenario_text.hpp"

namespace kcspec::cli {

namespace {

Scenario readScenario(const std::string& file) {
  return parseScenario(readUserFile(file, "a scenario file"), file);
}

// `--impl`: the reference controller's state-change.log for the scenario, as Kafka writes it
// (with `mutants` switched on: how `kcspec explore --system impl --mutant M` counterexamples replay).
int replayThroughImpl(const std::string& file, bool info_only, impl::Mutants mutants) {
  const Scenario scenario = readScenario(file);
  std::vector<GivenWorldBreak> given_breaks;
  startingState(scenario, file, given_breaks);  // the same checks of a given world as the spec's replay
  std::vector<impl::UnexpectedResult> unexpected;
  try {
    fmt::print("{}", impl::replayImplStateChangeLog(scenario, info_only ? impl::LogLevel::INFO : impl::LogLevel::TRACE,
                                                    mutants, &unexpected));
  } catch (const impl::ImplStepNotEnabled& e) {
    std::fflush(stdout);
    fmt::print(stderr, "{}:{}: {}\n", file, e.line, e.what());
    return 1;
  } catch (const CapacityExceeded& e) {  // the history outgrows the modeled world: bad input, exit 2
    std::fflush(stdout);
    fmt::print(stderr, "{}: through the reference controller, {}\n", file, e.what());
    return 2;
  }
  std::fflush(stdout);
  for (const impl::UnexpectedResult& u : unexpected) {
    fmt::print(stderr, "{}:{}: expected => {}, the reference controller came to {}\n", file, u.line, u.expected, u.came_to);
  }
  return unexpected.empty() ? 0 : 1;
}

// The safety properties of the catalog that a step breaks: its step properties, and the state
// properties that held before it and fail after it (one that keeps failing is named once, at the
// step that broke it).
std::vector<std::string_view> newlyViolated(const Config& config, const spec::ClusterState& before,
                                            const spec::ClusterState& after, const spec::StepRecord& record) {
  std::vector<std::string_view> out = spec::violatedStepProperties(config, before, after, record);
  const std::vector<std::string_view> already_failing = spec::violatedStateProperties(config, before);
  for (std::string_view id : spec::violatedStateProperties(config, after)) {
    if (std::find(already_failing.begin(), already_failing.end(), id) == already_failing.end()) out.push_back(id);
  }
  return out;
}

std::string_view propertyName(std::string_view id) {
  for (const spec::Property& property : spec::invariantCatalog()) {
    if (property.id == id) return property.name;
  }
  return "";
}

// What the scenario's given world breaks (only with `given unchecked`, or known Kafka deviations).
void printGivenBreaks(const Given& given, const std::vector<GivenWorldBreak>& breaks, const std::string& file, bool json) {
  if (json) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const GivenWorldBreak& b : breaks) {
      list.push_back({{"rule", b.id},
                      {"statement", b.statement},
                      {"line", b.line},
                      {"message", b.message},
                      {"known_kafka_deviation", b.known_kafka_deviation}});
    }
    nlohmann::ordered_json object = {{"given", {{"line", given.line}, {"unchecked", given.unchecked}, {"breaks", list}}}};
    fmt::print("{}\n", object.dump());
    return;
  }
  fmt::print("given ({}:{}){}\n", file, given.line, given.unchecked ? " unchecked" : "");
  for (const GivenWorldBreak& b : breaks) {
    fmt::print("  BREAKS {} {}{}{}\n", b.id, b.statement, b.message.empty() ? "" : fmt::format(" (line {}: {})", b.line, b.message),
               b.known_kafka_deviation ? " (a known Kafka deviation)" : "");
  }
}

// A component action: what it changed, the state changes it asked for (the invalid ones with
// them) and the exception that escaped. Not judged by the catalog: a method called outside the
// event that keeps the properties may leave them broken, which is what such a test looks at.
// False when there is no active controller to call.
bool replayCall(const Scenario& scenario, const Scenario::Call& call, std::size_t number, spec::ClusterState& state,
                  const std::string& file, bool json, bool& unexpected) {
  const std::string text = printComponentCall(scenario.config, call.call);
  if (!spec::componentCallPossible(state, call.call)) {
    std::fflush(stdout);
    fmt::print(stderr, "{}:{}: no active controller to call: {}\n", file, call.line, text);
    return false;
  }
  spec::RecordingObserver observer;
  spec::ClusterState after = state;
  const ComponentResult result = spec::callComponent(scenario.config, after, call.call, observer);
  const ComponentException thrown = result.exception;
  const std::string answer = printComponentAnswer(scenario.config, result.answer);
  const std::string came_to = resultText(scenario.config, result);
  const bool as_expected = !call.call.expected || *call.call.expected == came_to;
  unexpected = unexpected || !as_expected;
  const std::vector<Change> changes = diffObservations(scenario.config, state.world, after.world);
  state = std::move(after);
  if (json) {
    nlohmann::ordered_json object = nlohmann::ordered_json::object();
    object["call"] = number;
    object["line"] = call.line;
    object["component_action"] = text;
    object["changes"] = changesJson(changes);
    nlohmann::ordered_json records = nlohmann::ordered_json::array();
    for (const spec::StateChangeRecord& r : observer.record.state_changes) records.push_back(agreement::stateChangeText(scenario.config, r));
    object["state_changes"] = records;
    object["answer"] = result.answer.kind == ComponentAnswer::Kind::None ? nlohmann::ordered_json() : nlohmann::ordered_json(answer);
    object["throws"] = thrown == ComponentException::None ? nlohmann::ordered_json() : componentExceptionName(thrown);
    if (call.call.expected) object["as_expected"] = as_expected;
    fmt::print("{}\n", object.dump());
    return true;
  }
  fmt::print("call {} ({}:{}): {}\n{}", number, file, call.line, text, renderChangesText(changes));
  for (const spec::StateChangeRecord& r : observer.record.state_changes) {
    fmt::print("  STATE CHANGE {}\n", agreement::stateChangeText(scenario.config, r));
  }
  if (result.answer.kind != ComponentAnswer::Kind::None) fmt::print("  ANSWER {}\n", answer);
  if (thrown != ComponentException::None) fmt::print("  THROWS {}\n", componentExceptionName(thrown));
  if (!as_expected) fmt::print("  UNEXPECTED: expected => {}, came to {}\n", *call.call.expected, came_to);
  return true;
}

// One step: its changes and the safety properties it breaks (`violated` set when one is not a
// known Kafka deviation). False when it is not enabled.
bool replayAction(const Scenario& scenario, std::size_t i, spec::ClusterState& state, bool& violated,
                  const std::string& file, bool json) {
  const Action& action = scenario.steps[i];
  const int line = scenario.step_lines[i];
  const std::string action_text = printAction(scenario.config, action);
  if (!spec::isEnabled(scenario.config, state, action)) {
    std::fflush(stdout);
    fmt::print(stderr, "{}:{}: action not enabled in this state: {}\n", file, line, action_text);
    return false;
  }
  spec::RecordingObserver observer;
  spec::ClusterState successor;
  try {
    successor = spec::next(scenario.config, state, action, observer);
  } catch (const CapacityExceeded& e) {  // the history outgrows the modeled world: bad input, exit 2
    std::fflush(stdout);
    throw TextError(file, line, e.what());
  }
  const std::vector<Change> changes = diffObservations(scenario.config, state.world, successor.world);
  const std::vector<std::string_view> breaks = newlyViolated(scenario.config, state, successor, observer.record);
  state = std::move(successor);
  const int step = static_cast<int>(i) + 1;
  for (std::string_view id : breaks) violated = violated || !spec::isKnownKafkaDeviation(id);
  if (json) {
    nlohmann::ordered_json object = nlohmann::ordered_json::object();
    object["step"] = step;
    object["line"] = line;
    object["action"] = action_text;
    object["changes"] = changesJson(changes);
    if (!breaks.empty()) {
      nlohmann::ordered_json violations = nlohmann::ordered_json::array();
      for (std::string_view id : breaks) {
        violations.push_back({{"property", id},
                              {"name", propertyName(id)},
                              {"known_kafka_deviation", spec::isKnownKafkaDeviation(id)}});
      }
      object["violates"] = std::move(violations);
    }
    fmt::print("{}\n", object.dump());
  } else {
    fmt::print("step {} ({}:{}): {}\n{}", step, file, line, action_text, renderChangesText(changes));
    for (std::string_view id : breaks) {
      fmt::print("  VIOLATES {} {}{}\n", id, propertyName(id),
                 spec::isKnownKafkaDeviation(id) ? " (a known Kafka deviation)" : "");
    }
  }
  return true;
}

}  // namespace

int replayScenario(const std::string& file, bool json) {
  const Scenario scenario = readScenario(file);

  std::vector<GivenWorldBreak> given_breaks;
  spec::ClusterState state = startingState(scenario, file, given_breaks);
  if (scenario.given) printGivenBreaks(*scenario.given, given_breaks, file, json);
  bool violated = false;    // a safety property that is not a known Kafka deviation
  bool unexpected = false;  // a component action whose `=> result` differs
  std::size_t calls = 0;
  const bool ran = forEachStep(
      scenario, [&](std::size_t i) { return replayAction(scenario, i, state, violated, file, json); },
      [&](const Scenario::Call& call) { return replayCall(scenario, call, ++calls, state, file, json, unexpected); });
  return !ran || violated || unexpected ? 1 : 0;
}

CommandRun addReplayCommand(CLI::App& app) {
  struct Options {
    std::string file;
    bool json = false;
    bool impl = false;
    bool info = false;
    std::vector<std::string> mutants;
    int generated = -1;
  };
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand("replay", "Run a scenario file through the spec and print what each step changes");
  command->add_option("FILE", options->file, "A scenario file (first line `# kcspec scenario v1`)")->required();
  auto* json = command->add_flag(
      "--json", options->json, "One JSON object per step and line: {\"step\":N,\"line\":L,\"action\":…,\"changes\":[…]}");
  auto* through_impl = command->add_flag(
      "--impl", options->impl, "Run the scenario through the reference controller and print its state-change.log instead");
  json->excludes(through_impl);
  command->add_flag("--info", options->info, "With --impl: only INFO and above (Kafka 3.8's default level)")
      ->needs(through_impl);
  command->add_option("--mutant", options->mutants,
                      "With --impl: switch on these mutants of the reference controller (M3, m3 or KAFKA-3175), "
                      "as `kcspec explore --mutant` did; repeatable, or several separated by commas")
      ->delimiter(',')
      ->needs(through_impl);
  command->add_option("--generated", options->generated,
                      "With --impl: switch on this generated mutant (kcspec-schemata only; `kcspec-schemata mutants "
                      "--generated --list` lists them), as `mutants --generated --out` scenarios name it")
      ->check(wholeNumber(0, kMaxInt))
      ->needs(through_impl);
  return [options] {
    if (!options->impl) return replayScenario(options->file, options->json);
    const impl::Mutants mutants = mutantsNamed(options->mutants);
    if (options->generated >= 0) {
      const std::size_t count = impl::generated::table().size();
      if (static_cast<std::size_t>(options->generated) >= count) {
        throw UserError("--generated", count == 0 ? "this kcspec has no generated mutants: run kcspec-schemata"
                                                  : fmt::format("no generated mutant {} (there are {})", options->generated, count));
      }
      impl::generated::active = options->generated;
    }
    return replayThroughImpl(options->file, options->info, mutants);
  };
}

}  // namespace kcspec::cli
