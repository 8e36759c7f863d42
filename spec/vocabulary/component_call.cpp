// Component actions as text (format in component_call.hpp).
#include "spec/vocabulary/component_call.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "spec/vocabulary/assert.hpp"
#include "spec/vocabulary/config_text.hpp"

namespace kcspec {
namespace {

constexpr std::string_view kPartitionStateMachine = "partition-state-machine";
constexpr std::string_view kReplicaStateMachine = "replica-state-machine";
constexpr std::string_view kTopicDeletionManager = "topic-deletion-manager";
constexpr std::string_view kElect = "elect";
constexpr std::string_view kRequestBatch = "request-batch";
constexpr std::string_view kControllerContext = "controller-context";
constexpr std::array<std::string_view, 6> kComponents = {kPartitionStateMachine, kReplicaStateMachine,
                                                         kTopicDeletionManager,  kElect,
                                                         kRequestBatch,          kControllerContext};

constexpr std::string_view kHandleStateChanges = "handle-state-changes";

constexpr std::array<std::pair<ElectionKind, std::string_view>, 4> kElectionWords = {{
    {ElectionKind::Offline, "offline"},
    {ElectionKind::Reassign, "reassign"},
    {ElectionKind::PreferredReplica, "preferred"},
    {ElectionKind::ControlledShutdown, "controlled-shutdown"},
}};

// The deletion manager's methods and the argument each takes.
enum class DeletionArguments : std::uint8_t { None, Topics, Replicas, Topic, Init };
struct DeletionMethod {
  ComponentMethod method;
  std::string_view name;
  DeletionArguments arguments;
};
constexpr std::array<DeletionMethod, 8> kDeletionMethods = {{
    {ComponentMethod::TopicDeletionManagerInit, "init", DeletionArguments::Init},
    {ComponentMethod::TopicDeletionManagerTryTopicDeletion, "try-topic-deletion", DeletionArguments::None},
    {ComponentMethod::TopicDeletionManagerEnqueueTopicsForDeletion, "enqueue-topics-for-deletion",
     DeletionArguments::Topics},
    {ComponentMethod::TopicDeletionManagerResumeDeletionForTopics, "resume-deletion-for-topics",
     DeletionArguments::Topics},
    {ComponentMethod::TopicDeletionManagerFailReplicaDeletion, "fail-replica-deletion", DeletionArguments::Replicas},
    {ComponentMethod::TopicDeletionManagerCompleteReplicaDeletion, "complete-replica-deletion",
     DeletionArguments::Replicas},
    {ComponentMethod::TopicDeletionManagerMarkTopicIneligibleForDeletion, "mark-topic-ineligible-for-deletion",
     DeletionArguments::Topics},
    {ComponentMethod::TopicDeletionManagerIsTopicQueuedUpForDeletion, "is-topic-queued-up-for-deletion",
     DeletionArguments::Topic},
}};

constexpr std::array<std::pair<BatchEntry::Kind, std::string_view>, 3> kBatchWords = {{
    {BatchEntry::Kind::LeaderAndIsr, "leader-and-isr"},
    {BatchEntry::Kind::StopReplica, "stop-replica"},
    {BatchEntry::Kind::UpdateMetadata, "update-metadata"},
}};

std::string setText(BrokerSet ids) {
  std::string out;
  ids.forEach([&](BrokerId b) { out += fmt::format("{}{}", out.empty() ? "" : ",", b); });
  return out.empty() ? "none" : out;
}

std::string partitionsText(const Config& config, PartitionSet partitions) {
  std::string out;
  partitions.forEach([&](TopicPartition tp) { out += (out.empty() ? "" : ",") + partitionName(config, tp); });
  return out.empty() ? "none" : out;
}

std::string topicsText(const Config& config, TopicSet topics) {
  std::string out;
  topics.forEach([&](TopicIndex t) { out += (out.empty() ? "" : ",") + topicName(config, t); });
  return out.empty() ? "none" : out;
}

std::string replicasText(const Config& config, const std::vector<PartitionAndReplica>& replicas) {
  std::string out;
  for (const PartitionAndReplica& r : replicas) {
    out += fmt::format("{}{}:{}", out.empty() ? "" : ",", r.replica, partitionName(config, r.tp));
  }
  return out.empty() ? "none" : out;
}

// The entry of `table` whose `name` is `word`, or a TextError listing the names.
template <class Entry, std::size_t N>
const Entry& byName(const std::array<Entry, N>& table, std::span<const std::string_view> args, std::string_view component,
                    std::string_view kind, std::string_view file, int line) {
  std::string names;
  for (const Entry& e : table) names += fmt::format("{}{}", names.empty() ? "" : ", ", e.name);
  if (args.empty()) throw TextError(file, line, fmt::format("expected a {} of {}: {}", kind, component, names));
  for (const Entry& e : table) {
    if (e.name == args[0]) return e;
  }
  throw TextError(file, line, fmt::format("unknown {} `{} {}`: expected {}", kind, component, args[0], names));
}

class CallParser {
 public:
  CallParser(const Config& config, std::string_view file, int line) : config_(config), file_(file), line_(line) {}

  ComponentCall parse(std::span<const std::string_view> tokens) {
    const std::string_view component = tokens[0];
    if (component == kElect) return elect(tokens.subspan(1));
    if (component == kRequestBatch) return requestBatch(tokens.subspan(1));
    if (component == kControllerContext) return controllerContext(tokens.subspan(1));
    if (component == kTopicDeletionManager) return topicDeletionManager(tokens.subspan(1));
    if (tokens.size() < 2 || tokens[1] != kHandleStateChanges) {
      fail(fmt::format("`{}` has one method: `{} handle-state-changes …`", component, component));
    }
    if (component == kPartitionStateMachine) return partitionStateMachine(tokens.subspan(2));
    return replicaStateMachine(tokens.subspan(2));
  }

 private:
  [[noreturn]] void fail(std::string message) const { throw TextError(file_, line_, std::move(message)); }

  PartitionSet partitions(std::string_view token) {
    PartitionSet out;
    for (std::string_view item : text::splitCommas(token)) {
      const TopicPartition tp = text::parsePartition(config_, item, file_, line_);
      if (out.contains(tp)) fail(fmt::format("partition `{}` appears twice", item));
      out.insert(tp);
    }
    return out;
  }

  TopicSet topics(std::string_view token) {
    TopicSet out;
    if (token == "none") return out;
    for (std::string_view item : text::splitCommas(token)) {
      const TopicIndex t = text::parseTopic(config_, item, file_, line_);
      if (out.contains(t)) fail(fmt::format("topic `{}` appears twice", item));
      out.insert(t);
    }
    return out;
  }

  BrokerList brokerList(std::string_view token) {
    if (token == "none") return {};
    const BrokerList out = text::parseBrokerList(token, file_, line_);
    for (std::size_t i = 0; i < out.size(); ++i) {
      for (std::size_t j = 0; j < i; ++j) {
        if (out[i] == out[j]) fail(fmt::format("broker {} appears twice in `{}`", out[i], token));
      }
    }
    return out;
  }

  BrokerSet brokerSet(std::string_view token) {
    BrokerSet out;
    for (BrokerId b : brokerList(token)) out.insert(b);
    return out;
  }

  BrokerList configuredBrokers(std::string_view token) {
    BrokerList out;
    if (token == "none") return out;
    for (std::string_view item : text::splitCommas(token)) {
      const BrokerId b = text::parseConfiguredBroker(config_, item, file_, line_);
      if (std::find(out.begin(), out.end(), b) != out.end()) fail(fmt::format("broker {} appears twice", b));
      if (out.size() == BrokerList::capacity) fail(fmt::format("too many brokers in `{}`", token));
      out.push_back(b);
    }
    return out;
  }

  std::vector<PartitionAndReplica> replicas(std::string_view token) {
    std::vector<PartitionAndReplica> out;
    for (std::string_view item : text::splitCommas(token)) {
      const std::size_t colon = item.find(':');
      if (colon == std::string_view::npos) fail(fmt::format("bad replica `{}`: expected <broker>:<topic>-<partition>", item));
      const PartitionAndReplica replica{text::parsePartition(config_, item.substr(colon + 1), file_, line_),
                                        text::parseConfiguredBroker(config_, item.substr(0, colon), file_, line_)};
      if (std::find(out.begin(), out.end(), replica) != out.end()) fail(fmt::format("replica `{}` appears twice", item));
      if (out.size() == static_cast<std::size_t>(kMaxPartitions * kMaxBrokers)) fail("too many replicas");
      out.push_back(replica);
    }
    // By broker, then partition: the order both replica state machines take them in.
    std::sort(out.begin(), out.end(), [](const PartitionAndReplica& a, const PartitionAndReplica& b) {
      return std::pair(a.replica, a.tp) < std::pair(b.replica, b.tp);
    });
    return out;
  }

  template <class State>
  State state(std::string_view token, std::string_view expected) {
    const std::optional<State> s = stateFromName<State>(token);
    if (!s) fail(fmt::format("unknown {} `{}`: expected {}", expected.substr(0, expected.find(':')), token,
                             expected.substr(expected.find(':') + 2)));
    return *s;
  }
  static constexpr std::string_view kPartitionStates =
      "partition state: NewPartition, OnlinePartition, OfflinePartition or NonExistentPartition";
  static constexpr std::string_view kReplicaStates =
      "replica state: NewReplica, OnlineReplica, OfflineReplica, ReplicaDeletionStarted, "
      "ReplicaDeletionSuccessful, ReplicaDeletionIneligible or NonExistentReplica";

  ElectionKind electionKind(std::string_view word) {
    for (const auto& [kind, name] : kElectionWords) {
      if (name == word) return kind;
    }
    fail(fmt::format("unknown election `{}`: expected offline, reassign, preferred or controlled-shutdown", word));
  }

  ComponentCall partitionStateMachine(std::span<const std::string_view> args) {
    constexpr std::string_view usage =
        "`partition-state-machine handle-state-changes <t>-<p>,… <PartitionState> [election "
        "offline|reassign|preferred|controlled-shutdown] [unclean]`";
    if (args.size() < 2) fail(fmt::format("expected {}", usage));
    ComponentCall call;
    call.method = ComponentMethod::PartitionStateMachineHandleStateChanges;
    call.partitions = partitions(args[0]);
    call.partition_target = state<PartitionState>(args[1], kPartitionStates);
    for (std::size_t i = 2; i < args.size(); ++i) {
      if (args[i] == "unclean" && !call.unclean) {
        call.unclean = true;
      } else if (args[i] == "election" && !call.election && i + 1 < args.size()) {
        call.election = electionKind(args[++i]);
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
    call.replicas = replicas(args[0]);
    call.replica_target = state<ReplicaState>(args[1], kReplicaStates);
    return call;
  }

  ComponentCall topicDeletionManager(std::span<const std::string_view> args) {
    const DeletionMethod* found = &byName(kDeletionMethods, args, kTopicDeletionManager, "method", file_, line_);
    ComponentCall call;
    call.method = found->method;
    const auto expect = [&](std::size_t count, std::string_view shape) {
      if (args.size() != count) fail(fmt::format("expected `topic-deletion-manager {}{}`", found->name, shape));
    };
    switch (found->arguments) {
      case DeletionArguments::None: expect(1, ""); break;
      case DeletionArguments::Topics:
        expect(2, " <topic>,…");
        call.topics = topics(args[1]);
        if (call.topics.empty()) fail("expected at least one topic");
        break;
      case DeletionArguments::Topic:
        expect(2, " <topic>");
        call.topics.insert(text::parseTopic(config_, args[1], file_, line_));
        break;
      case DeletionArguments::Replicas:
        expect(2, " <broker>:<topic>-<partition>,…");
        call.replicas = replicas(args[1]);
        break;
      case DeletionArguments::Init:
        if (args.size() != 2 && !(args.size() == 4 && args[2] == "ineligible")) {
          expect(0, " <topic>,…|none [ineligible <topic>,…]");
        }
        call.topics = topics(args[1]);
        if (args.size() == 4) call.ineligible_topics = topics(args[3]);
        break;
    }
    return call;
  }

  ComponentCall elect(std::span<const std::string_view> args) {
    constexpr std::string_view usage =
        "`elect offline|reassign|preferred|controlled-shutdown partitions <t>-<p>,… [unclean]`, or an algorithm on "
        "values: `elect offline assignment L isr L live L [unclean]`, `elect reassign target L isr L live L`, "
        "`elect preferred assignment L isr L live L`, `elect controlled-shutdown assignment L isr L "
        "live-or-shutting-down L shutting-down L`";
    if (args.size() < 3) fail(fmt::format("expected {}", usage));
    ComponentCall call;
    call.election = electionKind(args[0]);
    std::span<const std::string_view> rest = args.subspan(1);
    if (!rest.empty() && rest.back() == "unclean") {
      if (call.election != ElectionKind::Offline) fail("`unclean` goes with `elect offline` only");
      call.unclean = true;
      rest = rest.first(rest.size() - 1);
    }
    if (rest.size() == 2 && rest[0] == "partitions") {
      call.method = ComponentMethod::ElectionLeaderFor;
      call.partitions = partitions(rest[1]);
      return call;
    }
    call.method = ComponentMethod::ElectionAlgorithm;
    const bool shutdown = call.election == ElectionKind::ControlledShutdown;
    const std::array<std::string_view, 4> keys = {
        call.election == ElectionKind::Reassign ? "target" : "assignment", "isr",
        shutdown ? "live-or-shutting-down" : "live", shutdown ? "shutting-down" : ""};
    const std::size_t count = shutdown ? 4 : 3;
    if (rest.size() != 2 * count) fail(fmt::format("expected {}", usage));
    for (std::size_t i = 0; i < count; ++i) {
      if (rest[2 * i] != keys[i]) fail(fmt::format("expected `{}` where `{}` is: {}", keys[i], rest[2 * i], usage));
      const std::string_view value = rest[2 * i + 1];
      switch (i) {
        case 0: call.assignment = brokerList(value); break;
        case 1: call.isr = brokerList(value); break;
        case 2: call.live = brokerSet(value); break;
        default: call.shutting_down = brokerSet(value); break;
      }
    }
    return call;
  }

  ComponentCall requestBatch(std::span<const std::string_view> args) {
    constexpr std::string_view usage =
        "`request-batch send <entry>; <entry>; …` with entries `leader-and-isr <b>,… <t>-<p> [is-new]`, "
        "`stop-replica <b>,… <t>-<p> [delete]`, `update-metadata <b>,…|none [<t>-<p>,…]`";
    if (args.size() < 2 || args[0] != "send") fail(fmt::format("expected {}", usage));
    ComponentCall call;
    call.method = ComponentMethod::RequestBatchSend;
    // Entries are separated by `;`, with or without spaces around it.
    std::vector<std::vector<std::string_view>> entries(1);
    for (std::string_view token : args.subspan(1)) {
      for (std::size_t semicolon = token.find(';'); semicolon != std::string_view::npos; semicolon = token.find(';')) {
        if (semicolon > 0) entries.back().push_back(token.substr(0, semicolon));
        entries.emplace_back();
        token.remove_prefix(semicolon + 1);
      }
      if (!token.empty()) entries.back().push_back(token);
    }
    constexpr std::size_t kMaxEntries = 64;
    if (entries.size() > kMaxEntries) fail(fmt::format("at most {} entries in one batch", kMaxEntries));
    for (const std::vector<std::string_view>& words : entries) {
      if (words.empty()) fail(fmt::format("an empty entry: expected {}", usage));
      BatchEntry entry;
      const auto kind = std::find_if(kBatchWords.begin(), kBatchWords.end(),
                                     [&](const auto& pair) { return pair.second == words[0]; });
      if (kind == kBatchWords.end()) {
        fail(fmt::format("unknown batch entry `{}`: expected leader-and-isr, stop-replica or update-metadata", words[0]));
      }
      entry.kind = kind->first;
      if (entry.kind == BatchEntry::Kind::UpdateMetadata) {
        if (words.size() < 2 || words.size() > 3) fail("expected `update-metadata <b>,…|none [<t>-<p>,…]`");
        entry.brokers = configuredBrokers(words[1]);
        if (words.size() == 3) entry.partitions = partitions(words[2]);
      } else {
        const std::string_view flag = entry.kind == BatchEntry::Kind::LeaderAndIsr ? "is-new" : "delete";
        if (words.size() < 3 || words.size() > 4 || (words.size() == 4 && words[3] != flag)) {
          fail(fmt::format("expected `{} <b>,… <t>-<p> [{}]`", words[0], flag));
        }
        entry.brokers = configuredBrokers(words[1]);
        if (entry.brokers.empty()) fail(fmt::format("`{}` needs at least one broker", words[0]));
        entry.partitions.insert(text::parsePartition(config_, words[2], file_, line_));
        entry.flag = words.size() == 4;
      }
      call.batch.push_back(entry);
    }
    if (call.batch.empty()) fail(fmt::format("expected {}", usage));
    return call;
  }

  ComponentCall controllerContext(std::span<const std::string_view> args) {
    const ContextQueryInfo* found = &byName(kContextQueries, args, kControllerContext, "getter", file_, line_);
    ComponentCall call;
    call.method = ComponentMethod::ControllerContextQuery;
    call.query = found->query;
    const auto expect = [&](bool ok, std::string_view shape) {
      if (!ok) fail(fmt::format("expected `controller-context {}{}`", found->name, shape));
    };
    switch (found->arguments) {
      case QueryArguments::None: expect(args.size() == 1, ""); break;
      case QueryArguments::Broker:
        expect(args.size() == 2, " <broker>");
        call.broker = text::parseConfiguredBroker(config_, args[1], file_, line_);
        break;
      case QueryArguments::Brokers:
        expect(args.size() == 2, " <broker>,…");
        for (BrokerId b : configuredBrokers(args[1])) call.brokers.insert(b);
        break;
      case QueryArguments::Partition:
        expect(args.size() == 2, " <topic>-<partition>");
        call.partitions.insert(text::parsePartition(config_, args[1], file_, line_));
        break;
      case QueryArguments::Partitions:
        expect(args.size() == 2, " <topic>-<partition>,…");
        call.partitions = partitions(args[1]);
        break;
      case QueryArguments::Topic:
        expect(args.size() == 2, " <topic>");
        call.topics.insert(text::parseTopic(config_, args[1], file_, line_));
        break;
      case QueryArguments::TopicAndReplicaState:
        expect(args.size() == 3, " <topic> <ReplicaState>");
        call.topics.insert(text::parseTopic(config_, args[1], file_, line_));
        call.replica_target = state<ReplicaState>(args[2], kReplicaStates);
        break;
      case QueryArguments::PartitionStates:
        expect(args.size() == 2 || (args.size() == 4 && args[2] == "topic"), " <PartitionState>,… [topic <topic>]");
        for (std::string_view item : text::splitCommas(args[1])) {
          const PartitionState s = state<PartitionState>(item, kPartitionStates);
          if (std::find(call.partition_states.begin(), call.partition_states.end(), s) != call.partition_states.end()) {
            fail(fmt::format("state `{}` appears twice", item));
          }
          call.partition_states.push_back(s);
        }
        std::sort(call.partition_states.begin(), call.partition_states.end());
        if (args.size() == 4) call.topics.insert(text::parseTopic(config_, args[3], file_, line_));
        break;
      case QueryArguments::BrokerAndPartition:
        expect(args.size() == 3 || (args.size() == 4 && args[3] == "include-shutting-down"),
               " <broker> <topic>-<partition> [include-shutting-down]");
        call.broker = text::parseConfiguredBroker(config_, args[1], file_, line_);
        call.partitions.insert(text::parsePartition(config_, args[2], file_, line_));
        call.include_shutting_down = args.size() == 4;
        break;
    }
    return call;
  }

  const Config& config_;
  std::string_view file_;
  int line_;
};

const ContextQueryInfo& queryInfo(ContextQuery query) {
  for (const ContextQueryInfo& q : kContextQueries) {
    if (q.query == query) return q;
  }
  KCSPEC_ASSERT(false);
  return kContextQueries[0];
}

std::string_view electionWord(ElectionKind kind) {
  for (const auto& [k, word] : kElectionWords) {
    if (k == kind) return word;
  }
  return "?";
}

TopicIndex onlyTopic(TopicSet topics) {
  TopicIndex out = 0;
  topics.forEach([&](TopicIndex t) { out = t; });
  return out;
}

TopicPartition onlyPartition(PartitionSet partitions) {
  TopicPartition out{};
  partitions.forEach([&](TopicPartition tp) { out = tp; });
  return out;
}

}  // namespace

std::string printCallOnly(const Config& config, const ComponentCall& call);

bool isComponentCallText(std::string_view line) {
  const std::vector<std::string_view> tokens = text::tokenize(line);
  return !tokens.empty() && std::find(kComponents.begin(), kComponents.end(), tokens[0]) != kComponents.end();
}

ComponentCall parseComponentCall(const Config& config, std::string_view line, std::string_view file, int line_number) {
  std::vector<std::string_view> tokens = text::tokenize(line);
  if (tokens.empty() || !isComponentCallText(line)) {
    throw TextError(file, line_number,
                    "expected a component action: partition-state-machine, replica-state-machine, "
                    "topic-deletion-manager, elect, request-batch or controller-context");
  }
  std::optional<std::string> expected;
  if (const auto arrow = std::find(tokens.begin(), tokens.end(), "=>"); arrow != tokens.end()) {
    if (arrow + 1 == tokens.end()) throw TextError(file, line_number, "expected the result after `=>`");
    std::string result;
    for (auto it = arrow + 1; it != tokens.end(); ++it) {
      if (*it == "=>") throw TextError(file, line_number, "`=>` appears twice");
      result += (result.empty() ? "" : " ") + std::string(*it);
    }
    expected = std::move(result);
    tokens.erase(arrow, tokens.end());
  }
  ComponentCall call = CallParser(config, file, line_number).parse(tokens);
  call.expected = std::move(expected);
  return call;
}

std::string resultText(const Config& config, const ComponentResult& result) {
  if (result.exception != ComponentException::None) {
    return fmt::format("throws {}", componentExceptionName(result.exception));
  }
  if (result.answer.kind == ComponentAnswer::Kind::None) return "done";
  return printComponentAnswer(config, result.answer);
}

std::string_view componentName(ComponentMethod method) {
  switch (method) {
    case ComponentMethod::PartitionStateMachineHandleStateChanges: return kPartitionStateMachine;
    case ComponentMethod::ReplicaStateMachineHandleStateChanges: return kReplicaStateMachine;
    case ComponentMethod::ElectionAlgorithm:
    case ComponentMethod::ElectionLeaderFor: return kElect;
    case ComponentMethod::RequestBatchSend: return kRequestBatch;
    case ComponentMethod::ControllerContextQuery: return kControllerContext;
    default: return kTopicDeletionManager;
  }
}

std::string_view methodName(ComponentMethod method) {
  switch (method) {
    case ComponentMethod::PartitionStateMachineHandleStateChanges:
    case ComponentMethod::ReplicaStateMachineHandleStateChanges: return kHandleStateChanges;
    case ComponentMethod::ElectionAlgorithm: return "algorithm";
    case ComponentMethod::ElectionLeaderFor: return "partitions";
    case ComponentMethod::RequestBatchSend: return "send";
    case ComponentMethod::ControllerContextQuery: return "query";
    default:
      for (const DeletionMethod& m : kDeletionMethods) {
        if (m.method == method) return m.name;
      }
      return "?";
  }
}

std::string printComponentCall(const Config& config, const ComponentCall& call) {
  const std::string text = printCallOnly(config, call);
  return call.expected ? fmt::format("{} => {}", text, *call.expected) : text;
}

std::string printCallOnly(const Config& config, const ComponentCall& call) {
  switch (call.method) {
    case ComponentMethod::PartitionStateMachineHandleStateChanges: {
      std::string out = fmt::format("{} {} {} {}", kPartitionStateMachine, kHandleStateChanges,
                                    partitionsText(config, call.partitions), stateName(call.partition_target));
      if (call.election) out += fmt::format(" election {}", electionWord(*call.election));
      if (call.unclean) out += " unclean";
      return out;
    }
    case ComponentMethod::ReplicaStateMachineHandleStateChanges:
      return fmt::format("{} {} {} {}", kReplicaStateMachine, kHandleStateChanges, replicasText(config, call.replicas),
                         stateName(call.replica_target));
    case ComponentMethod::TopicDeletionManagerInit: {
      std::string out = fmt::format("{} init {}", kTopicDeletionManager, topicsText(config, call.topics));
      if (!call.ineligible_topics.empty()) out += " ineligible " + topicsText(config, call.ineligible_topics);
      return out;
    }
    case ComponentMethod::TopicDeletionManagerTryTopicDeletion:
      return fmt::format("{} {}", kTopicDeletionManager, methodName(call.method));
    case ComponentMethod::TopicDeletionManagerEnqueueTopicsForDeletion:
    case ComponentMethod::TopicDeletionManagerResumeDeletionForTopics:
    case ComponentMethod::TopicDeletionManagerMarkTopicIneligibleForDeletion:
    case ComponentMethod::TopicDeletionManagerIsTopicQueuedUpForDeletion:
      return fmt::format("{} {} {}", kTopicDeletionManager, methodName(call.method), topicsText(config, call.topics));
    case ComponentMethod::TopicDeletionManagerFailReplicaDeletion:
    case ComponentMethod::TopicDeletionManagerCompleteReplicaDeletion:
      return fmt::format("{} {} {}", kTopicDeletionManager, methodName(call.method),
                         replicasText(config, call.replicas));
    case ComponentMethod::ElectionLeaderFor:
      return fmt::format("{} {} partitions {}{}", kElect, electionWord(*call.election),
                         partitionsText(config, call.partitions), call.unclean ? " unclean" : "");
    case ComponentMethod::ElectionAlgorithm: {
      const ElectionKind kind = *call.election;
      if (kind == ElectionKind::ControlledShutdown) {
        return fmt::format("{} controlled-shutdown assignment {} isr {} live-or-shutting-down {} shutting-down {}",
                           kElect, text::brokerListText(call.assignment), text::brokerListText(call.isr), setText(call.live),
                           setText(call.shutting_down));
      }
      return fmt::format("{} {} {} {} isr {} live {}{}", kElect, electionWord(kind),
                         kind == ElectionKind::Reassign ? "target" : "assignment", text::brokerListText(call.assignment),
                         text::brokerListText(call.isr), setText(call.live), call.unclean ? " unclean" : "");
    }
    case ComponentMethod::RequestBatchSend: {
      std::string out = fmt::format("{} send", kRequestBatch);
      bool first = true;
      for (const BatchEntry& entry : call.batch) {
        out += first ? " " : "; ";
        first = false;
        for (const auto& [kind, word] : kBatchWords) {
          if (kind == entry.kind) out += word;
        }
        out += " " + text::brokerListText(entry.brokers);
        if (entry.kind == BatchEntry::Kind::UpdateMetadata) {
          if (!entry.partitions.empty()) out += " " + partitionsText(config, entry.partitions);
        } else {
          out += " " + partitionsText(config, entry.partitions);
          if (entry.flag) out += entry.kind == BatchEntry::Kind::LeaderAndIsr ? " is-new" : " delete";
        }
      }
      return out;
    }
    case ComponentMethod::ControllerContextQuery: {
      const ContextQueryInfo& info = queryInfo(call.query);
      std::string out = fmt::format("{} {}", kControllerContext, info.name);
      switch (info.arguments) {
        case QueryArguments::None: break;
        case QueryArguments::Broker: out += fmt::format(" {}", call.broker); break;
        case QueryArguments::Brokers: out += " " + setText(call.brokers); break;
        case QueryArguments::Partition:
        case QueryArguments::Partitions: out += " " + partitionsText(config, call.partitions); break;
        case QueryArguments::Topic: out += " " + topicName(config, onlyTopic(call.topics)); break;
        case QueryArguments::TopicAndReplicaState:
          out += fmt::format(" {} {}", topicName(config, onlyTopic(call.topics)), stateName(call.replica_target));
          break;
        case QueryArguments::PartitionStates: {
          std::string states;
          for (PartitionState s : call.partition_states) states += fmt::format("{}{}", states.empty() ? "" : ",", stateName(s));
          out += " " + states;
          if (!call.topics.empty()) out += " topic " + topicName(config, onlyTopic(call.topics));
          break;
        }
        case QueryArguments::BrokerAndPartition:
          out += fmt::format(" {} {}{}", call.broker, partitionName(config, onlyPartition(call.partitions)),
                             call.include_shutting_down ? " include-shutting-down" : "");
          break;
      }
      return out;
    }
  }
  return "?";
}

std::string printComponentAnswer(const Config& config, const ComponentAnswer& answer) {
  using Kind = ComponentAnswer::Kind;
  switch (answer.kind) {
    case Kind::None: return "";
    case Kind::Boolean: return answer.boolean ? "true" : "false";
    case Kind::Count: return fmt::format("{}", answer.count);
    case Kind::Leader: return answer.leader ? fmt::format("leader {}", *answer.leader) : "leader none";
    case Kind::Brokers: return "brokers " + setText(answer.brokers);
    case Kind::Brokers_in_order: return fmt::format("[{}]", joinIds(answer.broker_list, ","));
    case Kind::Assignment:
      return fmt::format("replicas [{}] adding [{}] removing [{}]", joinIds(answer.assignment.replicas, ","),
                         joinIds(answer.assignment.adding_replicas, ","),
                         joinIds(answer.assignment.removing_replicas, ","));
    case Kind::Partitions: return "partitions " + partitionsText(config, answer.partitions);
    case Kind::Replicas: return "replicas " + replicasText(config, answer.replicas);
    case Kind::Elections: {
      std::string out;
      for (const ElectionAnswer& e : answer.elections) {
        out += (out.empty() ? "" : "; ") + partitionName(config, e.tp) + ": ";
        if (!e.has_state_znode) {
          out += "no state znode";
          continue;
        }
        if (e.leader_and_isr) {
          const LeaderAndIsr& lai = *e.leader_and_isr;
          out += fmt::format("leader {} leader-epoch {} isr {} recovery {} partition-epoch {}", lai.leader,
                             lai.leader_epoch, text::brokerListText(lai.isr),
                             lai.recovery_state == LeaderRecoveryState::RECOVERING ? "RECOVERING" : "RECOVERED",
                             lai.partition_epoch);
        } else {
          out += "none";
        }
        out += " to " + text::brokerListText(e.recipients);
      }
      return out;
    }
  }
  return "?";
}

}  // namespace kcspec
