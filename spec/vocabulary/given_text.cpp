// The `given` section (format, derivation and rules in given_text.hpp).
#include "spec/vocabulary/given_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>

#include "spec/vocabulary/observation_json.hpp"
#include "spec/vocabulary/text_error.hpp"

namespace kcspec {
namespace {

struct BrokerStatement {
  int line = 0;
  bool shutting_down = false;
  std::optional<std::int64_t> epoch;
};

struct ControllerStatement {
  int line = 0;
  BrokerId id = kNoLeader;
  std::int32_t epoch = 1;
};

struct TopicStatement {
  int line = 0;
  bool to_be_deleted = false;
  bool deletion_started = false;
  bool ineligible_for_deletion = false;
};

struct PartitionStatement {
  int line = 0;
  std::optional<BrokerList> replicas, adding, removing, isr;
  std::optional<BrokerId> leader;  // kNoLeader for `leader none`
  std::optional<std::int32_t> leader_epoch, partition_epoch;
  std::optional<PartitionState> state;
};

struct ReplicaStatement {
  int line = 0;
  ReplicaState state{};
};

// Every statement of the section, by what it names.
struct Statements {
  std::optional<ControllerStatement> controller;
  std::array<std::optional<BrokerStatement>, kMaxBrokers> brokers;
  std::array<std::optional<TopicStatement>, kMaxTopics> topics;
  std::array<int, kMaxTopics> topic_named_at{};  // the first line naming the topic (0: none)
  std::array<std::optional<PartitionStatement>, kMaxPartitions> partitions;
  std::array<std::array<std::optional<ReplicaStatement>, kMaxBrokers>, kMaxPartitions> replicas;
  int reassign_partitions_line = 0;  // the legacy admin znodes, as stated (0: no statement)
  ReassignPartitionsZnode reassign_partitions;
  int preferred_replica_election_line = 0;
  PreferredReplicaElectionZnode preferred_replica_election;
};

class Parser {
 public:
  Parser(const Config& config, std::string_view file) : config_(config), file_(file) {}

  void statement(int line, std::span<const std::string_view> tokens) {
    line_ = line;
    const std::string_view keyword = tokens[0];
    const std::span<const std::string_view> args = tokens.subspan(1);
    if (keyword == "controller") return controller(args);
    if (keyword == "broker") return broker(args);
    if (keyword == "topic") return topic(args);
    if (keyword == "partition") return partition(args);
    if (keyword == "replica") return replica(args);
    if (keyword == "reassign-partitions") return reassignPartitions(args);
    if (keyword == "preferred-replica-election") return preferredReplicaElection(args);
    if (keyword == "steps" || keyword == "given") fail(fmt::format("`{}` takes a line of its own, once", keyword));
    fail(fmt::format("unknown given statement `{}`: expected controller, broker, topic, partition, replica, "
                     "reassign-partitions or preferred-replica-election",
                     keyword));
  }

  Statements& statements() { return s_; }

 private:
  [[noreturn]] void fail(std::string message) const { throw TextError(file_, line_, std::move(message)); }

  void controller(std::span<const std::string_view> args) {
    if (args.size() != 1 && !(args.size() == 3 && args[1] == "epoch")) fail("expected `controller <broker> [epoch <e>]`");
    if (s_.controller) fail(fmt::format("a second `controller` statement (the first is on line {})", s_.controller->line));
    ControllerStatement c{line_, brokerId(args[0]), 1};
    if (args.size() == 3) c.epoch = positive(args[2], "a controller epoch");
    s_.controller = c;
  }

  void broker(std::span<const std::string_view> args) {
    const bool shape = (args.size() == 2 || (args.size() == 4 && args[2] == "epoch")) &&
                       (args.size() >= 2 && (args[1] == "alive" || args[1] == "shutting-down"));
    if (!shape) fail("expected `broker <id> alive|shutting-down [epoch <e>]` (a broker no statement names is dead)");
    const BrokerId id = brokerId(args[0]);
    auto& slot = s_.brokers[static_cast<std::size_t>(id)];
    if (slot) fail(fmt::format("broker {} is already stated on line {}", id, slot->line));
    BrokerStatement b{line_, args[1] == "shutting-down", std::nullopt};
    if (args.size() == 4) b.epoch = positive(args[3], "a broker epoch");
    slot = b;
  }

  void topic(std::span<const std::string_view> args) {
    if (args.empty()) fail("expected `topic <name> [to-be-deleted] [deletion-started] [ineligible-for-deletion]`");
    const TopicIndex t = topicIndex(args[0]);
    auto& slot = s_.topics[static_cast<std::size_t>(t)];
    if (slot) fail(fmt::format("topic `{}` is already stated on line {}", args[0], slot->line));
    TopicStatement statement{line_};
    for (std::string_view flag : args.subspan(1)) {
      bool* field = flag == "to-be-deleted"             ? &statement.to_be_deleted
                    : flag == "deletion-started"        ? &statement.deletion_started
                    : flag == "ineligible-for-deletion" ? &statement.ineligible_for_deletion
                                                        : nullptr;
      if (field == nullptr) {
        fail(fmt::format("unknown topic flag `{}`: expected to-be-deleted, deletion-started or ineligible-for-deletion",
                         flag));
      }
      if (*field) fail(fmt::format("`{}` appears twice", flag));
      *field = true;
    }
    slot = statement;
    named(t);
  }

  void partition(std::span<const std::string_view> args) {
    if (args.empty()) fail("expected `partition <topic>-<p> [replicas L] [adding L] [removing L] [leader <b>|none] …`");
    const TopicPartition tp = partitionOf(args[0]);
    auto& slot = s_.partitions[static_cast<std::size_t>(partitionIndex(tp))];
    if (slot) fail(fmt::format("partition {} is already stated on line {}", args[0], slot->line));
    PartitionStatement p{line_};
    for (std::size_t i = 1; i < args.size(); i += 2) {
      const std::string_view key = args[i];
      if (i + 1 >= args.size()) fail(fmt::format("`{}` needs a value", key));
      const std::string_view value = args[i + 1];
      const auto once = [&](auto& field) {
        if (field) fail(fmt::format("`{}` appears twice", key));
      };
      if (key == "replicas") {
        once(p.replicas);
        p.replicas = text::parseBrokerList(value, file_, line_);
        for (BrokerId b : *p.replicas) brokerId(b);
      } else if (key == "adding" || key == "removing" || key == "isr") {
        auto& field = key == "adding" ? p.adding : key == "removing" ? p.removing : p.isr;
        once(field);
        field = value == "none" ? BrokerList{} : text::parseBrokerList(value, file_, line_);
        for (BrokerId b : *field) brokerId(b);
      } else if (key == "leader") {
        once(p.leader);
        p.leader = value == "none" ? kNoLeader : brokerId(value);
      } else if (key == "leader-epoch" || key == "partition-epoch") {
        auto& field = key == "leader-epoch" ? p.leader_epoch : p.partition_epoch;
        once(field);
        field = nonNegative(value, key);
      } else if (key == "state") {
        once(p.state);
        p.state = stateFromName<PartitionState>(value);
        if (!p.state) {
          fail(fmt::format("unknown partition state `{}`: expected NewPartition, OnlinePartition, OfflinePartition or "
                           "NonExistentPartition",
                           value));
        }
      } else {
        fail(fmt::format("unknown partition field `{}`: expected replicas, adding, removing, leader, isr, leader-epoch, "
                         "partition-epoch or state",
                         key));
      }
    }
    slot = p;
    named(tp.topic);
  }

  void replica(std::span<const std::string_view> args) {
    if (args.size() != 3) fail("expected `replica <broker> <topic>-<p> <ReplicaState>`");
    const BrokerId b = brokerId(args[0]);
    const TopicPartition tp = partitionOf(args[1]);
    auto& slot = s_.replicas[static_cast<std::size_t>(partitionIndex(tp))][static_cast<std::size_t>(b)];
    if (slot) fail(fmt::format("replica {} {} is already stated on line {}", args[0], args[1], slot->line));
    const std::optional<ReplicaState> state = stateFromName<ReplicaState>(args[2]);
    if (!state) {
      fail(fmt::format("unknown replica state `{}`: expected NewReplica, OnlineReplica, OfflineReplica, "
                       "ReplicaDeletionStarted, ReplicaDeletionSuccessful, ReplicaDeletionIneligible or NonExistentReplica",
                       args[2]));
    }
    slot = ReplicaStatement{line_, *state};
    named(tp.topic);
  }

  // /admin/reassign_partitions: `reassign-partitions invalid-json` or `reassign-partitions <t>-<p> L [<t>-<p> L …]`.
  void reassignPartitions(std::span<const std::string_view> args) {
    const char* usage = "expected `reassign-partitions invalid-json` or `reassign-partitions <topic>-<p> <broker>,… …`";
    if (s_.reassign_partitions_line != 0) {
      fail(fmt::format("/admin/reassign_partitions is already stated on line {}", s_.reassign_partitions_line));
    }
    ReassignPartitionsZnode z{.exists = true};
    if (args.size() == 1 && args[0] == "invalid-json") {
      z.invalid_json = true;
    } else {
      if (args.empty() || args.size() % 2 != 0) fail(usage);
      for (std::size_t i = 0; i < args.size(); i += 2) {
        const TopicPartition tp = partitionOf(args[i]);
        if (z.partitions.contains(tp)) fail(fmt::format("partition {} is listed twice", args[i]));
        BrokerList target = text::parseBrokerList(args[i + 1], file_, line_);
        for (BrokerId b : target) brokerId(b);
        z.partitions.insert(tp);
        z.targets[static_cast<std::size_t>(partitionIndex(tp))] = target;
      }
    }
    s_.reassign_partitions_line = line_;
    s_.reassign_partitions = z;
  }

  // /admin/preferred_replica_election: `preferred-replica-election <t>-<p> [<t>-<p> …]`.
  void preferredReplicaElection(std::span<const std::string_view> args) {
    if (s_.preferred_replica_election_line != 0) {
      fail(fmt::format("/admin/preferred_replica_election is already stated on line {}",
                       s_.preferred_replica_election_line));
    }
    if (args.empty()) fail("expected `preferred-replica-election <topic>-<p> [<topic>-<p> …]`");
    PreferredReplicaElectionZnode z{.exists = true};
    for (std::string_view token : args) {
      const TopicPartition tp = partitionOf(token);
      if (z.partitions.contains(tp)) fail(fmt::format("partition {} is listed twice", token));
      z.partitions.insert(tp);
    }
    s_.preferred_replica_election_line = line_;
    s_.preferred_replica_election = z;
  }

  void named(TopicIndex t) {
    int& at = s_.topic_named_at[static_cast<std::size_t>(t)];
    if (at == 0) at = line_;
  }

  BrokerId brokerId(std::string_view token) const { return text::parseConfiguredBroker(config_, token, file_, line_); }
  BrokerId brokerId(BrokerId id) const {
    if (!config_.brokers.contains(id)) fail(fmt::format("broker {} is not one of the configuration's brokers", id));
    return id;
  }

  TopicIndex topicIndex(std::string_view name) const { return text::parseTopic(config_, name, file_, line_); }

  TopicPartition partitionOf(std::string_view token) const { return text::parsePartition(config_, token, file_, line_); }

  std::int32_t positive(std::string_view token, std::string_view what) const {
    const int n = text::parseNumber(token, file_, line_);
    if (n < 1) fail(fmt::format("{} is at least 1, not {}", what, n));
    return n;
  }
  std::int32_t nonNegative(std::string_view token, std::string_view what) const {
    const int n = text::parseNumber(token, file_, line_);
    if (n < 0) fail(fmt::format("`{}` is at least 0, not {}", what, n));
    return n;
  }

  const Config& config_;
  std::string_view file_;
  int line_ = 0;
  Statements s_;
};

// The configuration's replicas of partition p (an added one counts after the initial ones).
BrokerList configuredReplicas(const TopicConfig& topic, int p) {
  const std::size_t initial = topic.assignment.size();
  return static_cast<std::size_t>(p) < initial ? topic.assignment[static_cast<std::size_t>(p)]
                                               : topic.added_partitions[static_cast<std::size_t>(p) - initial];
}

// The world the statements say, with the rest derived (given_text.hpp "Derivation").
class Derivation {
 public:
  Derivation(const Config& config, const Statements& s) : config_(config), s_(s) {}

  Observation world() {
    brokers();
    topics();
    controller();
    brokerViews();
    world_.zk.reassign_partitions = s_.reassign_partitions;
    world_.zk.preferred_replica_election = s_.preferred_replica_election;
    return world_;
  }

 private:
  void brokers() {
    std::int64_t next = 1;
    const auto used = [&](std::int64_t epoch) {
      for (const auto& b : s_.brokers) {
        if (b && b->epoch == epoch) return true;
      }
      return false;
    };
    for (BrokerId b = 0; b < kMaxBrokers; ++b) {
      const auto& statement = s_.brokers[static_cast<std::size_t>(b)];
      if (!statement) continue;
      std::int64_t epoch = 0;
      if (statement->epoch) {
        epoch = *statement->epoch;
      } else {
        while (used(next)) ++next;  // bounded by the brokers' count
        epoch = next++;
      }
      world_.zk.brokers[static_cast<std::size_t>(b)] = BrokerRegistration{true, epoch};
      world_.zk.last_zxid = std::max(world_.zk.last_zxid, epoch);
      live_.insert(b);
      if (statement->shutting_down) shutting_down_.insert(b);
      BrokerData& broker = world_.brokers[static_cast<std::size_t>(b)];
      broker.alive = true;
      broker.broker_epoch = epoch;
    }
  }

  std::int32_t controllerEpoch() const { return s_.controller ? s_.controller->epoch : 0; }

  void topics() {
    for (TopicIndex t = 0; t < config_.topicCount(); ++t) {
      if (s_.topic_named_at[static_cast<std::size_t>(t)] == 0) continue;
      const TopicConfig& config = config_.topics[static_cast<std::size_t>(t)];
      TopicZnodes& topic = world_.zk.topics[static_cast<std::size_t>(t)];
      topic.exists = true;
      topic.unclean_leader_election_enable = config.unclean_leader_election_enable;
      if (config_.inter_broker_protocol_version >= MetadataVersion::IBP_2_8_IV0) {  // created with a topic id
        topic.topic_id = 1;
      }
      existing_.insert(t);
      const auto& flags = s_.topics[static_cast<std::size_t>(t)];
      if (flags && flags->to_be_deleted) world_.zk.delete_topics.insert(t);
      int count = static_cast<int>(config.assignment.size());
      for (int p = 0; p < kMaxPartitionsPerTopic; ++p) {
        if (s_.partitions[static_cast<std::size_t>(partitionIndex({t, p}))]) count = std::max(count, p + 1);
      }
      for (int p = 0; p < count; ++p) partition(TopicPartition{t, p}, configuredReplicas(config, p));
    }
  }

  void partition(TopicPartition tp, const BrokerList& configured) {
    const auto& statement = s_.partitions[static_cast<std::size_t>(partitionIndex(tp))];
    TopicZnodes& topic = world_.zk.topics[static_cast<std::size_t>(tp.topic)];
    ReplicaAssignment assignment(statement && statement->replicas ? *statement->replicas : configured);
    if (statement && statement->adding) assignment.adding_replicas = *statement->adding;
    if (statement && statement->removing) assignment.removing_replicas = *statement->removing;
    topic.partitions[static_cast<std::size_t>(tp.partition)] = assignment;
    const bool stated_leadership = statement && (statement->leader || statement->isr);
    const bool without_znode = statement && statement->state &&
                               (*statement->state == PartitionState::NewPartition ||
                                *statement->state == PartitionState::NonExistentPartition) &&
                               !stated_leadership;
    if (without_znode) return;
    BrokerList live_replicas;
    for (BrokerId b : assignment.replicas) {
      if (live_.contains(b)) live_replicas.push_back(b);
    }
    LeaderAndIsr lai;
    lai.leader = statement && statement->leader ? *statement->leader
                 : live_replicas.empty()        ? kNoLeader
                                                : live_replicas[0];
    lai.isr = statement && statement->isr ? *statement->isr : live_replicas.empty() ? assignment.replicas : live_replicas;
    if (statement && statement->leader_epoch) lai.leader_epoch = *statement->leader_epoch;
    if (statement && statement->partition_epoch) lai.partition_epoch = *statement->partition_epoch;
    topic.states[static_cast<std::size_t>(tp.partition)] = PartitionStateZnode{lai, controllerEpoch()};
  }

  void controller() {
    if (!s_.controller) return;
    const BrokerId c = s_.controller->id;
    const std::int32_t epoch = s_.controller->epoch;
    world_.zk.controller = c;
    world_.zk.controller_epoch = epoch;
    world_.zk.controller_epoch_zk_version = epoch;
    // Its failover set up /feature (kafka.md §5.4 step 1, world.md 14).
    const MetadataVersion ibp = config_.inter_broker_protocol_version;
    world_.zk.feature = FeatureZnode{
        .status = ibp >= MetadataVersion::IBP_2_7_IV0 ? FeatureZnodeStatus::Enabled : FeatureZnodeStatus::Disabled,
        .format_version = static_cast<std::uint8_t>(ibp >= MetadataVersion::IBP_3_3_IV0 ? 2 : 1)};
    if (!live_.contains(c)) return;  // G9 reports it; a dead broker has no controller module
    ControllerData& module = world_.brokers[static_cast<std::size_t>(c)].controller;
    module.active = true;
    ControllerContextData& context = module.context;
    context.epoch = epoch;
    context.epoch_zk_version = epoch;
    live_.forEach([&](BrokerId b) {
      context.live_broker_epochs[static_cast<std::size_t>(b)] = world_.zk.brokers[static_cast<std::size_t>(b)].broker_epoch;
    });
    context.shutting_down_broker_ids = shutting_down_;
    context.all_topics = existing_;
    existing_.forEach([&](TopicIndex t) {
      context.topic_ids[static_cast<std::size_t>(t)] = world_.zk.topics[static_cast<std::size_t>(t)].topic_id;
      const auto& flags = s_.topics[static_cast<std::size_t>(t)];
      if (flags && flags->to_be_deleted) context.topics_to_be_deleted.insert(t);
      if (flags && flags->deletion_started) context.topics_with_deletion_started.insert(t);
      if (flags && flags->ineligible_for_deletion) context.topics_ineligible_for_deletion.insert(t);
      const TopicZnodes& topic = world_.zk.topics[static_cast<std::size_t>(t)];
      for (std::size_t p = 0; p < topic.partitions.size(); ++p) {
        if (!topic.partitions[p]) continue;
        const TopicPartition tp{t, static_cast<std::int32_t>(p)};
        partitionContext(context, tp, *topic.partitions[p], topic.states[p]);
      }
    });
  }

  void partitionContext(ControllerContextData& context, TopicPartition tp, const ReplicaAssignment& assignment,
                        const std::optional<PartitionStateZnode>& znode) {
    PartitionContext& entry = context.partitions[static_cast<std::size_t>(partitionIndex(tp))];
    entry.assignment = assignment;
    if (!assignment.adding_replicas.empty() || !assignment.removing_replicas.empty()) {
      context.partitions_being_reassigned.insert(tp);
    }
    if (znode) entry.leadership = LeaderIsrAndControllerEpoch{znode->leader_and_isr, znode->controller_epoch};
    const auto& statement = s_.partitions[static_cast<std::size_t>(partitionIndex(tp))];
    entry.state = statement && statement->state ? *statement->state
                  : !znode                      ? PartitionState::NewPartition
                  : live_.contains(znode->leader_and_isr.leader) ? PartitionState::OnlinePartition
                                                                 : PartitionState::OfflinePartition;
    if (*entry.state == PartitionState::OfflinePartition && !context.topics_with_deletion_started.contains(tp.topic)) {
      ++context.offline_partition_count;
    }
    for (BrokerId b : assignment.replicas) {
      entry.replica_states[static_cast<std::size_t>(b)] =
          live_.contains(b) ? ReplicaState::OnlineReplica : ReplicaState::OfflineReplica;
    }
    for (BrokerId b = 0; b < kMaxBrokers; ++b) {
      const auto& replica = s_.replicas[static_cast<std::size_t>(partitionIndex(tp))][static_cast<std::size_t>(b)];
      if (replica) entry.replica_states[static_cast<std::size_t>(b)] = replica->state;
    }
  }

  // Every live broker has received what the controller sent (given_text.hpp "Derivation").
  void brokerViews() {
    if (!s_.controller) return;
    const std::int32_t epoch = s_.controller->epoch;
    const ControllerContextData* context =
        live_.contains(s_.controller->id) ? &world_.brokers[static_cast<std::size_t>(s_.controller->id)].controller.context
                                          : nullptr;
    live_.forEach([&](BrokerId b) {
      BrokerData& broker = world_.brokers[static_cast<std::size_t>(b)];
      broker.known_controller_epoch = epoch;
      broker.metadata_live_brokers = live_;
      existing_.forEach([&](TopicIndex t) {
        if (context != nullptr && context->topics_with_deletion_started.contains(t)) return;
        const TopicZnodes& topic = world_.zk.topics[static_cast<std::size_t>(t)];
        for (std::size_t p = 0; p < topic.partitions.size(); ++p) {
          if (!topic.partitions[p] || !topic.states[p]) continue;
          const TopicPartition tp{t, static_cast<std::int32_t>(p)};
          const LeaderAndIsr& lai = topic.states[p]->leader_and_isr;
          const BrokerList& replicas = topic.partitions[p]->replicas;
          UpdateMetadataPartitionState cached{tp, topic.states[p]->controller_epoch, lai.leader, lai.leader_epoch, lai.isr,
                                              lai.partition_epoch, replicas, {}};
          // Requests carry topic ids from 2.8-IV1 (LeaderAndIsr v5, UpdateMetadata v7).
          const bool ids_sent = config_.inter_broker_protocol_version >= MetadataVersion::IBP_2_8_IV1;
          if (ids_sent) cached.topic_id = topic.topic_id;
          for (BrokerId r : replicas) {  // isReplicaOnline: a shutting-down broker's replicas are offline
            if (!live_.contains(r) || shutting_down_.contains(r)) cached.offline_replicas.push_back(r);
          }
          broker.metadata_cache[static_cast<std::size_t>(partitionIndex(tp))] = cached;
          if (replicas.contains(b)) {
            const bool leads = lai.leader == b;
            HostedReplica& hosted = broker.replicas[static_cast<std::size_t>(partitionIndex(tp))];
            hosted = HostedReplica{true, leads, lai.leader_epoch, lai.partition_epoch, leads ? lai.isr : BrokerList{}};
            if (ids_sent) hosted.topic_id = topic.topic_id;
          }
        }
      });
    });
  }

  const Config& config_;
  const Statements& s_;
  Observation world_;
  BrokerSet live_;           // alive or shutting down
  BrokerSet shutting_down_;
  TopicSet existing_;
};

// The rules of given_text.hpp (G1–G9) on the derived world, each break at the line of the
// statement it comes from (the `given` line for what was derived).
class Rules {
 public:
  Rules(const Config& config, const Statements& s, const Observation& world, int given_line)
      : config_(config), s_(s), world_(world), given_line_(given_line) {}

  std::vector<GivenBreak> check() {
    const BrokerSet live = liveBrokers();
    for (TopicIndex t = 0; t < config_.topicCount(); ++t) {
      const TopicZnodes& topic = world_.zk.topics[static_cast<std::size_t>(t)];
      if (!topic.exists) continue;
      for (std::size_t p = 0; p < topic.partitions.size(); ++p) {
        if (topic.partitions[p]) partitionRules({t, static_cast<std::int32_t>(p)}, live);
      }
      const auto& flags = s_.topics[static_cast<std::size_t>(t)];
      if (flags && !flags->to_be_deleted && (flags->deletion_started || flags->ineligible_for_deletion)) {
        add("G8", flags->line, fmt::format("topic `{}` is {} but not to-be-deleted", topicName(config_, t),
                                           flags->deletion_started ? "deletion-started" : "ineligible-for-deletion"));
      }
    }
    if (s_.controller && !live.contains(s_.controller->id)) {
      add("G9", s_.controller->line, fmt::format("the controller, broker {}, is not alive", s_.controller->id));
    }
    for (BrokerId a = 0; a < kMaxBrokers; ++a) {
      for (BrokerId b = a + 1; b < kMaxBrokers; ++b) {
        if (!live.contains(a) || !live.contains(b)) continue;
        const std::int64_t epoch = world_.zk.brokers[static_cast<std::size_t>(a)].broker_epoch;
        if (epoch == world_.zk.brokers[static_cast<std::size_t>(b)].broker_epoch) {
          add("G9", lineOfBroker(b), fmt::format("brokers {} and {} both have epoch {}", a, b, epoch));
        }
      }
    }
    std::stable_sort(breaks_.begin(), breaks_.end(), [](const GivenBreak& x, const GivenBreak& y) { return x.line < y.line; });
    return breaks_;
  }

 private:
  BrokerSet liveBrokers() const {
    BrokerSet live;
    for (BrokerId b = 0; b < kMaxBrokers; ++b) {
      if (world_.brokers[static_cast<std::size_t>(b)].alive) live.insert(b);
    }
    return live;
  }

  void partitionRules(TopicPartition tp, BrokerSet live) {
    const std::string name = partitionName(config_, tp);
    const int line = lineOfPartition(tp);
    const TopicZnodes& topic = world_.zk.topics[static_cast<std::size_t>(tp.topic)];
    const BrokerList& replicas = topic.partitions[static_cast<std::size_t>(tp.partition)]->replicas;
    if (const auto& znode = topic.states[static_cast<std::size_t>(tp.partition)]) {
      const LeaderAndIsr& lai = znode->leader_and_isr;
      if (lai.leader != kNoLeader && !replicas.contains(lai.leader)) {
        add("G1", line, fmt::format("{} has leader {}, not one of its replicas {}", name, lai.leader, text::brokerListText(replicas)));
      }
      for (BrokerId b : lai.isr) {
        if (!replicas.contains(b)) {
          add("G2", line, fmt::format("{} has {} in its ISR, not one of its replicas {}", name, b, text::brokerListText(replicas)));
        }
      }
      if (lai.leader != kNoLeader && !lai.isr.contains(lai.leader)) {
        add("G3", line, fmt::format("{} has leader {} outside its ISR {}", name, lai.leader, text::brokerListText(lai.isr)));
      }
    }
    const ControllerData* module = activeControllerModule(world_);
    if (module == nullptr) return;
    const PartitionContext& entry = module->context.partitions[static_cast<std::size_t>(partitionIndex(tp))];
    if (entry.state == PartitionState::OnlinePartition) {
      const BrokerId leader = entry.leadership ? entry.leadership->leader_and_isr.leader : kNoLeader;
      const bool online = live.contains(leader) &&
                          entry.replica_states[static_cast<std::size_t>(leader)] == ReplicaState::OnlineReplica;
      if (!online) {
        add("G5", line, leader == kNoLeader ? fmt::format("{} is OnlinePartition without a leader", name)
                                            : fmt::format("{} is OnlinePartition but its leader {} is {}", name, leader,
                                                          live.contains(leader) ? "not OnlineReplica" : "not alive"));
      }
    }
    for (BrokerId b = 0; b < kMaxBrokers; ++b) {
      const auto& state = entry.replica_states[static_cast<std::size_t>(b)];
      if (!state) continue;
      const int replica_line = lineOfReplica(tp, b, line);
      if (!replicas.contains(b)) {
        add("G4", replica_line, fmt::format("replica {} of {} has state {} but is not one of its replicas {}", b, name,
                                            stateName(*state), text::brokerListText(replicas)));
      }
      if (*state == ReplicaState::OnlineReplica && !live.contains(b)) {
        add("G6", replica_line, fmt::format("replica {} of {} is OnlineReplica on a dead broker", b, name));
      }
      const bool deletion_state = *state == ReplicaState::ReplicaDeletionStarted ||
                                  *state == ReplicaState::ReplicaDeletionSuccessful ||
                                  *state == ReplicaState::ReplicaDeletionIneligible;
      if (deletion_state && !module->context.topics_to_be_deleted.contains(tp.topic)) {
        add("G7", replica_line, fmt::format("replica {} of {} is {} but topic `{}` is not to be deleted", b, name,
                                            stateName(*state), topicName(config_, tp.topic)));
      }
    }
  }

  int lineOfPartition(TopicPartition tp) const {
    if (const auto& p = s_.partitions[static_cast<std::size_t>(partitionIndex(tp))]) return p->line;
    const int named = s_.topic_named_at[static_cast<std::size_t>(tp.topic)];
    return named != 0 ? named : given_line_;
  }
  int lineOfReplica(TopicPartition tp, BrokerId b, int otherwise) const {
    const auto& r = s_.replicas[static_cast<std::size_t>(partitionIndex(tp))][static_cast<std::size_t>(b)];
    return r ? r->line : otherwise;
  }
  int lineOfBroker(BrokerId b) const {
    const auto& statement = s_.brokers[static_cast<std::size_t>(b)];
    return statement ? statement->line : given_line_;
  }

  void add(std::string_view rule, int line, std::string message) {
    for (const GivenRule& r : kGivenRules) {
      if (r.id == rule) rule = r.id;  // a view of the table's own string
    }
    breaks_.push_back(GivenBreak{rule, line, std::move(message)});
  }

  const Config& config_;
  const Statements& s_;
  const Observation& world_;
  int given_line_;
  std::vector<GivenBreak> breaks_;
};

std::string_view ruleStatement(std::string_view id) {
  for (const GivenRule& r : kGivenRules) {
    if (r.id == id) return r.statement;
  }
  return "";
}

// `given json`: the lines as one JSON document (nlohmann's parse error names a byte offset: it is
// turned into the line it falls on).
Observation jsonWorld(const Config& config, std::span<const text::SourceLine> lines, std::string_view file, int given_line) {
  std::string document;
  std::vector<std::size_t> starts;
  for (const text::SourceLine& line : lines) {
    starts.push_back(document.size());
    document.append(line.content);
    document += '\n';
  }
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(document);
  } catch (const nlohmann::json::parse_error& e) {
    int line = lines.empty() ? given_line : lines.back().number;
    for (std::size_t i = 0; i < starts.size(); ++i) {
      if (e.byte > 0 && starts[i] < e.byte) line = lines[i].number;
    }
    throw TextError(file, line, fmt::format("the given world is not JSON: {}", e.what()));
  }
  Observation world;
  try {
    world = observationFromJson(json);
  } catch (const ObservationJsonError& e) {
    throw TextError(file, given_line, fmt::format("the given world: {}", e.what()));
  }
  // Brokers and topics the configuration lacks hold their defaults (no history reaches them).
  for (BrokerId b = 0; b < kMaxBrokers; ++b) {
    const bool stated = world.brokers[static_cast<std::size_t>(b)] != BrokerData{} ||
                        world.zk.brokers[static_cast<std::size_t>(b)] != BrokerRegistration{};
    if (stated && !config.brokers.contains(b)) {
      throw TextError(file, given_line, fmt::format("the given world: broker {} is not one of the configuration's brokers", b));
    }
  }
  for (TopicIndex t = config.topicCount(); t < kMaxTopics; ++t) {
    if (world.zk.topics[static_cast<std::size_t>(t)] != TopicZnodes{}) {
      throw TextError(file, given_line,
                      fmt::format("the given world: topic {} is not one of the configuration's {} topics", t, config.topicCount()));
    }
  }
  return world;
}

}  // namespace

Given parseGiven(const Config& config, std::span<const text::SourceLine> lines,
                 std::span<const std::string_view> given_arguments, std::string_view file, int given_line) {
  Given given;
  given.line = given_line;
  for (std::string_view argument : given_arguments) {
    bool& flag = argument == "json" ? given.json : given.unchecked;
    if (argument != "json" && argument != "unchecked") {
      throw TextError(file, given_line, fmt::format("`given` takes `json` and `unchecked`, not `{}`", argument));
    }
    if (flag) throw TextError(file, given_line, fmt::format("`{}` appears twice", argument));
    flag = true;
  }
  for (const text::SourceLine& line : lines) given.lines.emplace_back(line.content);
  Statements none;
  if (given.json) {
    given.world = jsonWorld(config, lines, file, given_line);
    given.breaks = Rules(config, none, given.world, given_line).check();
  } else {
    Parser parser(config, file);
    for (const text::SourceLine& line : lines) {
      const std::vector<std::string_view> tokens = text::tokenize(line.content);
      if (!tokens.empty()) parser.statement(line.number, tokens);
    }
    given.world = Derivation(config, parser.statements()).world();
    given.breaks = Rules(config, parser.statements(), given.world, given_line).check();
  }
  if (!given.unchecked && !given.breaks.empty()) {
    const GivenBreak& first = given.breaks.front();
    throw TextError(file, first.line,
                    fmt::format("the given world breaks {} ({}): {}; `given unchecked` states it anyway", first.rule,
                                ruleStatement(first.rule), first.message));
  }
  return given;
}

std::string printGiven(const Given& given) {
  std::string out = "given";
  if (given.json) out += " json";
  if (given.unchecked) out += " unchecked";
  out += '\n';
  for (const std::string& line : given.lines) out += line + '\n';
  return out;
}

}  // namespace kcspec
