// Component actions as text (format in component_call.hpp).
#include "spec/vocabulary/component_call.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "spec/vocabulary/config_text.hpp"

namespace kcspec {
namespace {

constexpr std::string_view kPartitionStateMachine = "partition-state-machine";
constexpr std::string_view kReplicaStateMachine = "replica-state-machine";
constexpr std::string_view kHandleStateChanges = "handle-state-changes";

constexpr std::array<std::pair<ElectionKind, std::string_view>, 4> kElectionWords = {{
    {ElectionKind::Offline, "offline"},
    {ElectionKind::Reassign, "reassign"},
    {ElectionKind::PreferredReplica, "preferred"},
    {ElectionKind::ControlledShutdown, "controlled-shutdown"},
}};

class CallParser {
 public:
  CallParser(const Config& config, std::string_view file, int line) : config_(config), file_(file), line_(line) {}

  ComponentCall parse(std::span<const std::string_view> tokens) {
    if (tokens.size() < 2 || tokens[1] != kHandleStateChanges) {
      fail(fmt::format("`{}` has one method: `{} handle-state-changes …`", tokens[0], tokens[0]));
    }
    if (tokens[0] == kPartitionStateMachine) return partitionStateMachine(tokens.subspan(2));
    return replicaStateMachine(tokens.subspan(2));
  }

 private:
  [[noreturn]] void fail(std::string message) const { throw TextError(file_, line_, std::move(message)); }

  ComponentCall partitionStateMachine(std::span<const std::string_view> args) {
    constexpr std::string_view usage =
        "`partition-state-machine handle-state-changes <t>-<p>,… <PartitionState> [election "
        "offline|reassign|preferred|controlled-shutdown] [unclean]`";
    if (args.size() < 2) fail(fmt::format("expected {}", usage));
    ComponentCall call;
    call.method = ComponentMethod::PartitionStateMachineHandleStateChanges;
    for (std::string_view item : text::splitCommas(args[0])) {
      const TopicPartition tp = text::parsePartition(config_, item, file_, line_);
      if (call.partitions.contains(tp)) fail(fmt::format("partition `{}` appears twice", item));
      call.partitions.insert(tp);
    }
    const std::optional<PartitionState> target = stateFromName<PartitionState>(args[1]);
    if (!target) {
      fail(fmt::format("unknown partition state `{}`: expected NewPartition, OnlinePartition, OfflinePartition or "
                       "NonExistentPartition",
                       args[1]));
    }
    call.partition_target = *target;
    for (std::size_t i = 2; i < args.size(); ++i) {
      if (args[i] == "unclean" && !call.unclean) {
        call.unclean = true;
      } else if (args[i] == "election" && !call.election && i + 1 < args.size()) {
        ++i;
        for (const auto& [kind, word] : kElectionWords) {
          if (word == args[i]) call.election = kind;
        }
        if (!call.election) {
          fail(fmt::format("unknown election `{}`: expected offline, reassign, preferred or controlled-shutdown", args[i]));
        }
      } else {
        fail(fmt::format("unexpected `{}`: expected {}", args[i], usage));
      }
    }
    if (call.unclean && call.election != ElectionKind::Offline) fail("`unclean` goes with `election offline` only");
    return call;
  }

  ComponentCall replicaStateMachine(std::span<const std::string_view> args) {
    if (args.size() != 2) {
      fail("expected `replica-state-machine handle-state-changes <broker>:<t>-<p>,… <ReplicaState>`");
    }
    ComponentCall call;
    call.method = ComponentMethod::ReplicaStateMachineHandleStateChanges;
    for (std::string_view item : text::splitCommas(args[0])) {
      const std::size_t colon = item.find(':');
      if (colon == std::string_view::npos) fail(fmt::format("bad replica `{}`: expected <broker>:<topic>-<partition>", item));
      const PartitionAndReplica replica{text::parsePartition(config_, item.substr(colon + 1), file_, line_),
                                        text::parseConfiguredBroker(config_, item.substr(0, colon), file_, line_)};
      if (std::find(call.replicas.begin(), call.replicas.end(), replica) != call.replicas.end()) {
        fail(fmt::format("replica `{}` appears twice", item));
      }
      if (call.replicas.size() == static_cast<std::size_t>(kMaxPartitions * kMaxBrokers)) fail("too many replicas");
      call.replicas.push_back(replica);
    }
    // By broker, then partition: the order both replica state machines take them in.
    std::sort(call.replicas.begin(), call.replicas.end(), [](const PartitionAndReplica& a, const PartitionAndReplica& b) {
      return std::pair(a.replica, a.tp) < std::pair(b.replica, b.tp);
    });
    const std::optional<ReplicaState> target = stateFromName<ReplicaState>(args[1]);
    if (!target) {
      fail(fmt::format("unknown replica state `{}`: expected NewReplica, OnlineReplica, OfflineReplica, "
                       "ReplicaDeletionStarted, ReplicaDeletionSuccessful, ReplicaDeletionIneligible or NonExistentReplica",
                       args[1]));
    }
    call.replica_target = *target;
    return call;
  }

  const Config& config_;
  std::string_view file_;
  int line_;
};

}  // namespace

bool isComponentCallText(std::string_view line) {
  const std::vector<std::string_view> tokens = text::tokenize(line);
  return !tokens.empty() && (tokens[0] == kPartitionStateMachine || tokens[0] == kReplicaStateMachine);
}

ComponentCall parseComponentCall(const Config& config, std::string_view line, std::string_view file, int line_number) {
  const std::vector<std::string_view> tokens = text::tokenize(line);
  if (tokens.empty() || !isComponentCallText(line)) {
    throw TextError(file, line_number, "expected a component action: partition-state-machine or replica-state-machine");
  }
  return CallParser(config, file, line_number).parse(tokens);
}

std::string printComponentCall(const Config& config, const ComponentCall& call) {
  std::string items;
  if (call.method == ComponentMethod::PartitionStateMachineHandleStateChanges) {
    call.partitions.forEach([&](TopicPartition tp) { items += (items.empty() ? "" : ",") + partitionName(config, tp); });
    std::string out = fmt::format("{} {} {} {}", kPartitionStateMachine, kHandleStateChanges, items,
                                  stateName(call.partition_target));
    for (const auto& [kind, word] : kElectionWords) {
      if (call.election == kind) out += fmt::format(" election {}", word);
    }
    if (call.unclean) out += " unclean";
    return out;
  }
  for (const PartitionAndReplica& r : call.replicas) {
    items += fmt::format("{}{}:{}", items.empty() ? "" : ",", r.replica, partitionName(config, r.tp));
  }
  return fmt::format("{} {} {} {}", kReplicaStateMachine, kHandleStateChanges, items, stateName(call.replica_target));
}

}  // namespace kcspec
