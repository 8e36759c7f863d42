// Actions as text (grammar in action_text.hpp).
#include "spec/vocabulary/action_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <span>
#include <vector>

#include "spec/vocabulary/assert.hpp"
#include "spec/vocabulary/config_text.hpp"
#include "spec/vocabulary/leader_and_isr.hpp"  // joinIds

namespace kcspec {
namespace {

class ActionParser {
 public:
  ActionParser(const Config& config, std::string_view file, int line) : config_(config), file_(file), line_(line) {}

  Action parse(std::string_view text) {
    const std::vector<std::string_view> tokens = text::tokenize(text);
    if (tokens.empty()) fail("expected an action, found an empty line");
    const auto* found = std::find(kActionNames.begin(), kActionNames.end(), tokens[0]);
    if (found == kActionNames.end()) {
      fail(fmt::format("unknown action `{}` (the actions are {})", tokens[0], fmt::join(kActionNames, ", ")));
    }
    Action a{.kind = static_cast<ActionKind>(found - kActionNames.begin())};
    const ActionDefinition& definition = definitionOf(a.kind);
    usage_ = definition.usage;
    const std::span<const std::string_view> args(tokens.data() + 1, tokens.size() - 1);
    switch (definition.args) {
      case ActionArgs::Topic:
        arity(args, 1);
        a.topic = topic(args[0]);
        return a;
      case ActionArgs::Partition:
        arity(args, 1);
        a.tp = partition(args[0]);
        return a;
      case ActionArgs::Broker:
        arity(args, 1);
        a.broker = broker(args[0]);
        return a;
      case ActionArgs::PartitionTarget:
        if (args.size() == 1) fail(fmt::format("empty replica list: expected `{}`", usage_));
        arity(args, 2);
        a.tp = partition(args[0]);
        a.replicas = text::parseBrokerList(args[1], file_, line_);
        for (BrokerId id : a.replicas) broker(id);
        return a;
      case ActionArgs::LeaderFollower:
        arity(args, 5);
        if (args[1] != "leader" || args[3] != definition.word) arity(args, 0);
        a.tp = partition(args[0]);
        a.broker = broker(args[2]);
        a.replica = broker(args[4]);
        return a;
      case ActionArgs::BrokerError:
        if (args.size() != 1 && !(args.size() == 2 && args[1] == "error")) arity(args, 0);
        a.broker = broker(args[0]);
        a.error = args.size() == 2;
        return a;
      case ActionArgs::PartitionReplica:
        arity(args, 2);
        a.tp = partition(args[0]);
        a.broker = broker(args[1]);
        return a;
      case ActionArgs::None:
        if (!args.empty()) arity(args, 0);
        return a;
    }
    fail("unreachable: an action kind without arguments");
  }

 private:
  [[noreturn]] void fail(std::string message) const { throw TextError(file_, line_, std::move(message)); }

  // Fails unless there are `expected` arguments (arity(args, 0) with arguments always fails).
  void arity(std::span<const std::string_view> args, std::size_t expected) const {
    if (args.size() != expected || expected == 0) {
      fail(fmt::format("wrong arguments: expected `{}`", usage_));
    }
  }

  TopicIndex topic(std::string_view name) const { return text::parseTopic(config_, name, file_, line_); }

  TopicPartition partition(std::string_view token) const { return text::parsePartition(config_, token, file_, line_); }

  BrokerId broker(std::string_view token) const { return broker(text::parseBrokerId(token, file_, line_)); }

  BrokerId broker(BrokerId id) const {
    if (!config_.brokers.contains(id)) fail(fmt::format("broker {} is not one of the configuration's brokers", id));
    return id;
  }

  const Config& config_;
  std::string_view file_;
  int line_;
  std::string_view usage_;
};

}  // namespace

std::string printAction(const Config& config, const Action& a) {
  const ActionDefinition& definition = definitionOf(a.kind);
  const std::string_view name = definition.name;
  switch (definition.args) {
    case ActionArgs::Topic:
      return fmt::format("{} {}", name, topicName(config, a.topic));
    case ActionArgs::Partition:
      return fmt::format("{} {}", name, partitionName(config, a.tp));
    case ActionArgs::Broker:
      return fmt::format("{} {}", name, a.broker);
    case ActionArgs::PartitionTarget:
      return fmt::format("{} {} {}", name, partitionName(config, a.tp), joinIds(a.replicas, ","));
    case ActionArgs::LeaderFollower:
      return fmt::format("{} {} leader {} {} {}", name, partitionName(config, a.tp), a.broker, definition.word, a.replica);
    case ActionArgs::BrokerError:
      return fmt::format("{} {}{}", name, a.broker, a.error ? " error" : "");
    case ActionArgs::PartitionReplica:
      return fmt::format("{} {} {}", name, partitionName(config, a.tp), a.broker);
    case ActionArgs::None:
      return std::string(name);
  }
  KCSPEC_ASSERT(false);
  return {};
}

Action parseAction(const Config& config, std::string_view line, std::string_view file, int line_number) {
  return ActionParser(config, file, line_number).parse(line);
}

}  // namespace kcspec
