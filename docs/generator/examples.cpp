#include "docs/generator/examples.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "spec/rules/step.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/config_text.hpp"
#include "spec/vocabulary/events.hpp"

namespace kcspec::docs {
namespace {

// Three brokers; topic t exists before the first controller starts, topic u is created by the
// admin. The controller of most examples runs on broker 3, which hosts no replica of t-0, so
// that crashing or shutting down t-0's replicas does not move the controller.
constexpr std::string_view kExampleConfig = R"(# the configuration of the worked examples in docs/spec/
name docs-example
brokers 1 2 3
alive-at-start 1 2 3
delete.topic.enable true
auto.leader.rebalance.enable true
topic t
  partition 0 replicas 1,2
  reassign 0 to 2,3
  exists-at-start true
topic u
  partition 0 replicas 2,3
  add-partition replicas 3,1
bound crashes 1
bound controlled-shutdowns 1
bound controller-failovers 1
bound topic-creations 1
bound topic-deletions 1
bound partition-additions 1
bound reassignments 2
bound preferred-elections 1
bound unclean-elections 2
bound isr-shrinks 1
bound stop-replica-errors 1
bound auto-rebalances 1
bound zk-reassignments 1
bound zk-preferred-elections 1
bound log-dir-failures 1
bound zk-connection-losses 1
bound broker-session-losses 1
bound zk-session-expiries 1
)";

constexpr int kMaxSettleSteps = 1000;

[[noreturn]] void fail(std::string_view name, int line, const std::string& message) {
  throw std::logic_error(fmt::format("worked example `{}`, line {}: {}", name, line, message));
}

bool isSettleAction(const Action& a, bool responses) {
  switch (a.kind) {
    case ActionKind::ProcessEvent:
    case ActionKind::DeliverRequest:
      return true;
    case ActionKind::DeliverStopReplicaResponse:
      return responses && !a.error;
    case ActionKind::DeliverLeaderAndIsrResponse:
      return responses;
    default:
      return false;
  }
}

// Some controller's next event is of `kind`.
bool nextEventIs(const spec::ClusterState& state, ControllerEventKind kind) {
  for (const BrokerData& broker : state.world.brokers) {
    if (broker.alive && !broker.controller.events.empty() && broker.controller.events.front().kind == kind) return true;
  }
  return false;
}

std::optional<ControllerEventKind> eventKindNamed(std::string_view name) {
  for (std::size_t i = 0; i < std::size(kControllerEventNames); ++i) {
    if (kControllerEventNames[i] == name) return static_cast<ControllerEventKind>(i);
  }
  return std::nullopt;
}

}  // namespace

std::string_view docsExampleConfigText() { return kExampleConfig; }

const Config& docsExampleConfig() {
  static const Config config = parseConfig(kExampleConfig, "docs example configuration");
  return config;
}

Config workedExampleConfig(std::string_view script) {
  Config config = docsExampleConfig();
  const std::vector<std::string_view> tokens = text::tokenize(script.substr(0, script.find('\n')));
  // `protocol V` or `protocol V upgrade W` (a rolling upgrade to W, one broker at a time).
  if ((tokens.size() == 2 || (tokens.size() == 4 && tokens[2] == "upgrade")) && tokens[0] == "protocol") {
    const std::optional<MetadataVersion> version = parseMetadataVersion(tokens[1]);
    if (!version) throw std::logic_error(fmt::format("worked example: unknown protocol `{}`", tokens[1]));
    config.inter_broker_protocol_version = *version;
    if (tokens.size() == 4) {
      const std::optional<MetadataVersion> upgrade = parseMetadataVersion(tokens[3]);
      if (!upgrade) throw std::logic_error(fmt::format("worked example: unknown protocol `{}`", tokens[3]));
      config.upgrade_inter_broker_protocol_version = *upgrade;
      config.bounds.ibp_upgrades = static_cast<int>(config.brokers.size());
    }
  }
  return config;
}

std::vector<Action> WorkedExample::allSteps() const {
  std::vector<Action> steps = prefix;
  steps.push_back(step);
  return steps;
}

WorkedExample runWorkedExample(const Config& config, std::string_view script, std::string_view name) {
  WorkedExample example;
  spec::ClusterState state = spec::initialState(config);
  std::vector<Action> taken;
  std::optional<Action> last_action;
  std::size_t prefix_size = 0;

  const auto take = [&](const Action& action, int line) {
    if (!spec::isEnabled(config, state, action)) fail(name, line, "not enabled: " + printAction(config, action));
    prefix_size = taken.size();
    example.before = state;
    state = spec::next(config, state, action);
    taken.push_back(action);
  };

  int line_number = 0;
  bool last_was_action = false;
  std::size_t start = 0;
  while (start <= script.size()) {
    const std::size_t end = std::min(script.find('\n', start), script.size());
    const std::string_view line = script.substr(start, end - start);
    start = end + 1;
    ++line_number;
    const std::vector<std::string_view> tokens = text::tokenize(line);
    if (tokens.empty()) continue;
    if (tokens[0] == "protocol") {
      if (line_number != 1) fail(name, line_number, "`protocol` belongs on the first line");
      if ((tokens.size() != 2 && tokens.size() != 4) || parseMetadataVersion(tokens[1]) != config.inter_broker_protocol_version) {
        fail(name, line_number, "the configuration is not at this protocol (workedExampleConfig)");
      }
      continue;
    }
    if (tokens[0] == "settle" || tokens[0] == "settle-requests" || tokens[0] == "settle-until") {
      const bool responses = tokens[0] != "settle-requests";
      std::optional<ControllerEventKind> until;
      if (tokens[0] == "settle-until") {
        if (tokens.size() != 2 || !(until = eventKindNamed(tokens[1]))) fail(name, line_number, "settle-until <Event>");
      } else if (tokens.size() != 1) {
        fail(name, line_number, "unexpected words after " + std::string(tokens[0]));
      }
      for (int i = 0;; ++i) {
        if (i == kMaxSettleSteps) fail(name, line_number, "settling does not end");
        if (until && nextEventIs(state, *until)) break;
        std::optional<Action> chosen;
        for (const Action& a : spec::enabledActions(config, state)) {
          if (isSettleAction(a, responses)) {
            chosen = a;
            break;
          }
        }
        if (!chosen) {
          if (until) fail(name, line_number, fmt::format("no controller's next event is {}", tokens[1]));
          break;
        }
        take(*chosen, line_number);
      }
      last_was_action = false;
      continue;
    }
    try {
      const Action action = parseAction(config, line, name, line_number);
      take(action, line_number);
      last_action = action;
      last_was_action = true;
    } catch (const TextError& e) {
      fail(name, line_number, e.what());
    }
  }
  if (!last_was_action || !last_action) fail(name, line_number, "the script must end with an action");
  example.prefix.assign(taken.begin(), taken.begin() + static_cast<std::ptrdiff_t>(prefix_size));
  example.step = *last_action;
  example.after = state;
  example.changes = diffObservations(config, example.before.world, example.after.world);
  if (example.changes.empty()) fail(name, line_number, "the step changes nothing in the observation");
  return example;
}

}  // namespace kcspec::docs
