// Actions as text (grammar in action_text.hpp).
#include "spec/vocabulary/action_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <span>
#include <vector>

#include "spec/vocabulary/config_text.hpp"
#include "spec/vocabulary/leader_and_isr.hpp"  // joinIds

namespace kcspec {
namespace {

// What each action's arguments look like, by ActionKind.
constexpr std::array<std::string_view, kActionKindCount> kUsage = {
    "create-topic <topic>",
    "delete-topic <topic>",
    "add-partitions <topic>",
    "reassign <topic>-<partition> <broker>,<broker>,…",
    "cancel-reassignment <topic>-<partition>",
    "elect-preferred <topic>-<partition>",
    "elect-unclean <topic>-<partition>",
    "enable-unclean <topic>",
    "crash <broker>",
    "start <broker>",
    "controlled-shutdown <broker>",
    "shrink-isr <topic>-<partition> leader <broker> remove <broker>",
    "expand-isr <topic>-<partition> leader <broker> add <broker>",
    "process-event <broker>",
    "lose-controller-session <broker>",
    "notice-session-expiry <broker>",
    "elect-controller <broker>",
    "auto-rebalance-timer <broker>",
    "deliver-request <broker>",
    "deliver-stop-replica-response <broker> [error]",
};

enum class Shape { Topic, Partition, Broker, Other };

constexpr Shape shapeOf(ActionKind kind) {
  switch (kind) {
    case ActionKind::CreateTopic:
    case ActionKind::DeleteTopic:
    case ActionKind::AddPartitions:
    case ActionKind::EnableTopicUnclean:
      return Shape::Topic;
    case ActionKind::CancelReassignment:
    case ActionKind::ElectPreferredLeader:
    case ActionKind::ElectUncleanLeader:
      return Shape::Partition;
    case ActionKind::CrashBroker:
    case ActionKind::StartBroker:
    case ActionKind::ControlledShutdown:
    case ActionKind::ProcessEvent:
    case ActionKind::LoseControllerSession:
    case ActionKind::NoticeSessionExpiry:
    case ActionKind::ElectController:
    case ActionKind::AutoRebalanceTimer:
    case ActionKind::DeliverRequest:
      return Shape::Broker;
    default:
      return Shape::Other;
  }
}

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
    usage_ = kUsage[static_cast<std::size_t>(a.kind)];
    const std::span<const std::string_view> args(tokens.data() + 1, tokens.size() - 1);
    switch (shapeOf(a.kind)) {
      case Shape::Topic:
        arity(args, 1);
        a.topic = topic(args[0]);
        return a;
      case Shape::Partition:
        arity(args, 1);
        a.tp = partition(args[0]);
        return a;
      case Shape::Broker:
        arity(args, 1);
        a.broker = broker(args[0]);
        return a;
      case Shape::Other:
        break;
    }
    switch (a.kind) {
      case ActionKind::ReassignPartition:
        if (args.size() == 1) fail(fmt::format("empty replica list: expected `{}`", usage_));
        arity(args, 2);
        a.tp = partition(args[0]);
        a.replicas = text::parseBrokerList(args[1], file_, line_);
        for (BrokerId id : a.replicas) broker(id);
        return a;
      case ActionKind::ShrinkIsr:
      case ActionKind::ExpandIsr:
        arity(args, 5);
        if (args[1] != "leader" || args[3] != (a.kind == ActionKind::ShrinkIsr ? "remove" : "add")) arity(args, 0);
        a.tp = partition(args[0]);
        a.broker = broker(args[2]);
        a.replica = broker(args[4]);
        return a;
      default:  // DeliverStopReplicaResponse
        if (args.size() != 1 && !(args.size() == 2 && args[1] == "error")) arity(args, 0);
        a.broker = broker(args[0]);
        a.error = args.size() == 2;
        return a;
    }
  }

 private:
  [[noreturn]] void fail(std::string message) const { throw TextError(file_, line_, std::move(message)); }

  // Fails unless there are `expected` arguments (arity(args, 0) with arguments always fails).
  void arity(std::span<const std::string_view> args, std::size_t expected) const {
    if (args.size() != expected || expected == 0) {
      fail(fmt::format("wrong arguments: expected `{}`", usage_));
    }
  }

  TopicIndex topic(std::string_view name) const {
    const TopicIndex t = config_.topicNamed(name);
    if (t < 0) fail(fmt::format("unknown topic `{}`", name));
    return t;
  }

  TopicPartition partition(std::string_view token) const {
    const std::size_t dash = token.rfind('-');
    if (dash == std::string_view::npos || dash == 0 || dash + 1 == token.size()) {
      fail(fmt::format("bad partition `{}`: expected <topic>-<partition>", token));
    }
    const std::string_view number = token.substr(dash + 1);
    if (!std::all_of(number.begin(), number.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      fail(fmt::format("bad partition `{}`: expected <topic>-<partition>", token));
    }
    const TopicIndex t = topic(token.substr(0, dash));
    const int p = text::parseNumber(number, file_, line_);
    const TopicConfig& cfg = config_.topics[static_cast<std::size_t>(t)];
    const std::size_t count = cfg.assignment.size() + cfg.added_partitions.size();
    if (static_cast<std::size_t>(p) >= count) {
      fail(fmt::format("topic `{}` has no partition {} (it has {}, counting added ones)", cfg.name, p, count));
    }
    return TopicPartition{t, p};
  }

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
  const std::string_view name = actionName(a.kind);
  switch (shapeOf(a.kind)) {
    case Shape::Topic:
      return fmt::format("{} {}", name, topicName(config, a.topic));
    case Shape::Partition:
      return fmt::format("{} {}", name, partitionName(config, a.tp));
    case Shape::Broker:
      return fmt::format("{} {}", name, a.broker);
    case Shape::Other:
      break;
  }
  switch (a.kind) {
    case ActionKind::ReassignPartition:
      return fmt::format("{} {} {}", name, partitionName(config, a.tp), joinIds(a.replicas, ","));
    case ActionKind::ShrinkIsr:
    case ActionKind::ExpandIsr:
      return fmt::format("{} {} leader {} {} {}", name, partitionName(config, a.tp), a.broker,
                         a.kind == ActionKind::ShrinkIsr ? "remove" : "add", a.replica);
    default:  // DeliverStopReplicaResponse
      return fmt::format("{} {}{}", name, a.broker, a.error ? " error" : "");
  }
}

Action parseAction(const Config& config, std::string_view line, std::string_view file, int line_number) {
  return ActionParser(config, file, line_number).parse(line);
}

}  // namespace kcspec
