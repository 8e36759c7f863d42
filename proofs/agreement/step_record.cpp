#include "proofs/agreement/step_record.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "proofs/conformance/log_line.hpp"
#include "spec/vocabulary/assert.hpp"
#include "spec/vocabulary/broker_ibp.hpp"
#include "spec/vocabulary/config_text.hpp"
#include "spec/vocabulary/states.hpp"

namespace kcspec::agreement {
namespace {

// Keeps the state-change.log records a step writes (every level: changes are logged at TRACE or
// INFO, failures at ERROR with their exception).
class RecordSink final : public impl::LogSink {
 public:
  bool enabled(impl::LogLevel level) const override { return level >= threshold; }
  void write(const impl::LogRecord& record) override { records->push_back(record); }
  std::vector<impl::LogRecord>* records = nullptr;
  impl::LogLevel threshold = impl::LogLevel::TRACE;
};

std::optional<spec::ElectionStrategy> strategyNamed(std::string_view text) {
  using K = spec::ElectionStrategyKind;
  for (const spec::ElectionStrategy s : {spec::ElectionStrategy{K::OfflinePartition, false}, spec::ElectionStrategy{K::OfflinePartition, true},
                                         spec::ElectionStrategy{K::ReassignPartition, false},
                                         spec::ElectionStrategy{K::PreferredReplicaPartition, false},
                                         spec::ElectionStrategy{K::ControlledShutdownPartition, false}}) {
    if (text == spec::toKafkaString(s)) return s;
  }
  return std::nullopt;
}

std::optional<TopicIndex> topicNamed(const Config& config, std::string_view name) {
  for (std::size_t t = 0; t < config.topics.size(); ++t) {
    if (config.topics[t].name == name) return static_cast<TopicIndex>(t);
  }
  return std::nullopt;
}


}  // namespace

std::optional<std::pair<spec::ChangeOutcome, spec::ElectionStrategy>> failureOutcome(const impl::Failure& failure) {
  using O = spec::ChangeOutcome;
  const std::string_view message = failure.message;
  const auto outcome = [](O o) { return std::optional<std::pair<O, spec::ElectionStrategy>>({o, spec::ElectionStrategy{}}); };
  if (failure.exception_class == "java.lang.IllegalStateException") return outcome(O::InvalidTransition);
  if (failure.exception_class.starts_with("org.apache.zookeeper.KeeperException")) return outcome(O::ZooKeeperError);
  if (failure.exception_class != "kafka.common.StateChangeFailedException") return std::nullopt;
  constexpr std::string_view kUnderStrategy = " under strategy ";
  if (message.starts_with("Failed to elect leader for partition ") && message.find(kUnderStrategy) != std::string_view::npos) {
    const std::optional<spec::ElectionStrategy> strategy =
        strategyNamed(message.substr(message.find(kUnderStrategy) + kUnderStrategy.size()));
    if (!strategy) return std::nullopt;
    return std::pair{O::NoLeaderElected, *strategy};
  }
  if (message.find("No assigned replica is alive") != std::string_view::npos) return outcome(O::NoLiveReplica);
  if (message.find("written by another controller") != std::string_view::npos) return outcome(O::WrittenByAnotherController);
  if (message.find("LeaderAndIsr information doesn't exist") != std::string_view::npos ||
      message.find("the leader and isr path in zookeeper is empty") != std::string_view::npos) {
    return outcome(O::NoLeaderAndIsr);
  }
  if (message.find("as it is being requested to become leader") != std::string_view::npos) return outcome(O::ReplicaIsLeader);
  return std::nullopt;
}

spec::StepRecord implStepRecord(const Config& config, std::span<const impl::LogRecord> records,
                                const spec::ClusterState& before, const spec::ClusterState& after) {
  spec::StepRecord record;
  conformance::ParsedLine parsed;
  for (const impl::LogRecord& line : records) {
    conformance::parseLine(line.message, parsed);
    const bool failed = parsed.kind == conformance::RecordKind::PartitionFailed ||
                        parsed.kind == conformance::RecordKind::ReplicaFailed;
    const bool partition = parsed.kind == conformance::RecordKind::PartitionChange ||
                           parsed.kind == conformance::RecordKind::PartitionFailed;
    const bool replica =
        parsed.kind == conformance::RecordKind::ReplicaChange || parsed.kind == conformance::RecordKind::ReplicaFailed;
    if (!partition && !replica) continue;
    const std::optional<TopicIndex> topic = topicNamed(config, parsed.topic);
    KCSPEC_ASSERT(topic.has_value());
    spec::StateChangeRecord change;
    change.controller = parsed.controller_id;
    change.is_replica = replica;
    change.tp = TopicPartition{*topic, parsed.partition};
    change.replica = replica ? parsed.replica : kNoLeader;
    change.from = parsed.from;
    change.to = parsed.to;
    if (failed) {
      // Every failed change the impl logs carries the exception that says why.
      KCSPEC_ASSERT(line.exception.has_value());
      const auto why = failureOutcome(*line.exception);
      KCSPEC_ASSERT(why.has_value());
      change.outcome = why->first;
      change.strategy = why->second;
    }
    record.state_changes.push_back(change);
  }
  for (std::size_t t = 0; t < after.world.zk.topics.size(); ++t) {
    for (std::size_t p = 0; p < after.world.zk.topics[t].states.size(); ++p) {
      const auto& now = after.world.zk.topics[t].states[p];
      const auto& old = before.world.zk.topics[t].states[p];
      if (!now || now == old) continue;
      // Below 2.7-IV2 a leader writes its ISR changes itself (ZkAlterPartitionManager), keeping
      // the znode's leader, leader epoch and controller epoch — the leadership's, which may be
      // older than /controller_epoch (the leader's own version decides: a rolling upgrade may leave
      // brokers on both sides of 2.7-IV2). That is no controller's write: every write of a controller
      // on such a protocol bumps the leader epoch (or creates the znode).
      const BrokerId leader = now->leader_and_isr.leader;
      const bool leaders_own_write = old && isBrokerId(leader) &&
                                     interBrokerProtocolVersion(config, after.world, leader) < MetadataVersion::IBP_2_7_IV2 &&
                                     now->leader_and_isr.leader == old->leader_and_isr.leader &&
                                     now->leader_and_isr.leader_epoch == old->leader_and_isr.leader_epoch &&
                                     now->controller_epoch == old->controller_epoch;
      if (!leaders_own_write) record.accepted_writes.emplace_back(kNoLeader, now->controller_epoch);
    }
  }
  return record;
}

void applyLogged(impl::ImplCluster& cluster, const Action& action, std::vector<impl::LogRecord>& records,
                 impl::LogLevel threshold) {
  thread_local RecordSink sink;
  thread_local impl::FakeClock clock;
  sink.records = &records;
  sink.threshold = threshold;
  cluster.setLogTarget(impl::LogTarget{&sink, &clock});
  cluster.apply(action);
  cluster.setLogTarget(impl::LogTarget{});
  sink.records = nullptr;
}

void callLogged(impl::ImplCluster& cluster, const ComponentCall& call, ComponentResult& result,
                std::vector<impl::LogRecord>& records, impl::LogLevel threshold) {
  thread_local RecordSink sink;
  thread_local impl::FakeClock clock;
  sink.records = &records;
  sink.threshold = threshold;
  cluster.setLogTarget(impl::LogTarget{&sink, &clock});
  result = cluster.callComponent(call);
  cluster.setLogTarget(impl::LogTarget{});
  sink.records = nullptr;
}

std::string stateChangeText(const Config& config, const spec::StateChangeRecord& c) {
  const std::string subject = c.is_replica ? fmt::format("replica {} of {}", c.replica, partitionName(config, c.tp))
                                           : partitionName(config, c.tp);
  const std::string_view from = c.is_replica ? stateName(static_cast<ReplicaState>(c.from))
                                             : stateName(static_cast<PartitionState>(c.from));
  const std::string_view to = c.is_replica ? stateName(static_cast<ReplicaState>(c.to))
                                           : stateName(static_cast<PartitionState>(c.to));
  std::string out = fmt::format("controller {}: {} {} -> {}: {}", c.controller, subject, from, to,
                                spec::changeOutcomeName(c.outcome));
  if (c.outcome == spec::ChangeOutcome::NoLeaderElected) out += " (" + spec::toKafkaString(c.strategy) + ")";
  return out;
}

std::string stateChangeDisagreement(const Config& config, std::span<const spec::StateChangeRecord> spec_changes,
                                    std::span<const spec::StateChangeRecord> impl_changes) {
  const auto key = [](const spec::StateChangeRecord& c) {
    return std::tuple(c.controller, c.is_replica, partitionIndex(c.tp), c.replica, c.from, c.to,
                      static_cast<int>(c.outcome), static_cast<int>(c.strategy.kind), c.strategy.allow_unclean);
  };
  const auto sorted = [&](std::span<const spec::StateChangeRecord> changes) {
    std::vector<spec::StateChangeRecord> out(changes.begin(), changes.end());
    std::sort(out.begin(), out.end(), [&](const auto& a, const auto& b) { return key(a) < key(b); });
    return out;
  };
  const std::vector<spec::StateChangeRecord> in_spec = sorted(spec_changes);
  const std::vector<spec::StateChangeRecord> in_impl = sorted(impl_changes);
  if (in_spec == in_impl) return "";
  std::string out;
  for (const auto& [who, changes] : {std::pair{"spec", &in_spec}, std::pair{"impl", &in_impl}}) {
    out += fmt::format("{} asked for {} state change{}:\n", who, changes->size(), changes->size() == 1 ? "" : "s");
    for (const spec::StateChangeRecord& c : *changes) out += "  " + stateChangeText(config, c) + "\n";
  }
  return out;
}

}  // namespace kcspec::agreement
