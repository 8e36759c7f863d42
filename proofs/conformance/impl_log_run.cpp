// A long random run of the reference controller and its state-change.log (impl_log_run.hpp).
#include "proofs/conformance/impl_log_run.hpp"

#include <vector>

#include "impl/cluster.hpp"
#include "spec/vocabulary/config_text.hpp"

namespace kcspec::conformance {
namespace {

constexpr std::string_view kRunConfig = R"(name impl-log-run
brokers 1 2 3 4 5
alive-at-start 1 2 3 4 5
delete.topic.enable true
topic orders
  partition 0 replicas 1,2,3
  partition 1 replicas 2,3,4
  partition 2 replicas 3,4,5
  add-partition replicas 4,5,1
  reassign 0 to 2,4,5
  reassign 1 to 5,1,2
topic payments
  partition 0 replicas 5,1,2
  partition 1 replicas 4,2,3
  reassign 1 to 1,3,4
topic audit.log
  partition 0 replicas 2,4
topic clicks
  partition 0 replicas 3,5,1
  exists-at-start true
bound crashes 1000000000
bound controlled-shutdowns 1000000000
bound controller-failovers 1000000000
bound topic-creations 1000000000
bound topic-deletions 1000000000
bound partition-additions 1000000000
bound reassignments 1000000000
bound preferred-elections 1000000000
bound isr-shrinks 1000000000
)";

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

enum class Use { Always, WhenHealthy, Never };

Use use(const Action& action) {
  switch (action.kind) {
    case ActionKind::ElectUncleanLeader:
    case ActionKind::EnableTopicUnclean:
    case ActionKind::AutoRebalanceTimer:
    case ActionKind::ZkReassign:  // the legacy admin paths: not in this run's configuration
    case ActionKind::ZkReassignInvalid:
    case ActionKind::ZkElectPreferred:
    case ActionKind::FailLogDir:  // log-directory failures: not in this run's configuration
    case ActionKind::LoseZkConnection:  // ZooKeeper connection losses: not in this run's configuration
    case ActionKind::LoseBrokerSession:  // broker session losses: not in this run's configuration
    case ActionKind::ExpireZkSession:    // session expiries in the middle of an event: the same
    case ActionKind::PropagateIsrChanges:  // ISR changes written by leaders: not on this run's protocol
    case ActionKind::UpgradeIbp:           // rolling upgrades: not in this run's configuration
    case ActionKind::LoseZkConnectionOnFeature:  // ZooKeeper connection losses: not in this run's configuration
      return Use::Never;
    case ActionKind::DeliverStopReplicaResponse:
      return action.error ? Use::Never : Use::Always;
    case ActionKind::CreateTopic:
    case ActionKind::DeleteTopic:
    case ActionKind::AddPartitions:
    case ActionKind::ReassignPartition:
    case ActionKind::CancelReassignment:
    case ActionKind::ElectPreferredLeader:
    case ActionKind::CrashBroker:
    case ActionKind::ControlledShutdown:
    case ActionKind::ShrinkIsr:
    case ActionKind::LoseControllerSession:
      return Use::WhenHealthy;
    case ActionKind::StartBroker:
    case ActionKind::ExpandIsr:
    case ActionKind::ProcessEvent:
    case ActionKind::NoticeSessionExpiry:
    case ActionKind::ElectController:
    case ActionKind::DeliverRequest:
    case ActionKind::DeliverLeaderAndIsrResponse:
      return Use::Always;
  }
  return Use::Never;
}

bool sameBrokers(const BrokerList& a, const BrokerList& b) {
  if (a.size() != b.size()) return false;
  for (const BrokerId id : a) {
    if (!b.contains(id)) return false;
  }
  return true;
}

// Every configured broker alive, a controller in /controller, no deletion pending, nothing queued
// or in flight (events, requests, responses), no broker shutting down, and every partition's ISR
// equal to its replicas: one failure now cannot leave a partition without an eligible leader, nor
// race with the handling of the one before.
bool healthy(const Config& config, const Observation& world) {
  bool all_alive = true;
  config.brokers.forEach([&](BrokerId b) { all_alive = all_alive && world.brokers[static_cast<std::size_t>(b)].alive; });
  if (!all_alive || world.zk.controller == kNoLeader || !world.zk.delete_topics.empty()) return false;
  for (const BrokerData& broker : world.brokers) {  // quiescent: nothing queued or in flight
    if (!broker.inbox.empty() || !broker.outbox.empty() || !broker.controller.events.empty()) return false;
    if (broker.controller.session_lost || !broker.controller.context.shutting_down_broker_ids.empty()) return false;
  }
  for (const TopicZnodes& topic : world.zk.topics) {
    if (!topic.exists) continue;
    for (std::size_t p = 0; p < topic.partitions.size(); ++p) {
      if (!topic.partitions[p]) continue;
      const ReplicaAssignment& assignment = *topic.partitions[p];
      const auto& state = topic.states[p];
      if (!state || !sameBrokers(state->leader_and_isr.isr, assignment.replicas)) return false;
      if (!assignment.adding_replicas.empty() || !assignment.removing_replicas.empty()) return false;
    }
  }
  return true;
}

// The brokers the active controller knows to be shutting down (controlled shutdown).
BrokerSet shuttingDown(const Observation& world) {
  BrokerSet out;
  for (const BrokerData& broker : world.brokers) {
    if (broker.controller.active) out = out | broker.controller.context.shutting_down_broker_ids;
  }
  return out;
}

// Formats records into a buffer and hands it on in chunks of whole lines.
class ChunkSink final : public impl::LogSink {
 public:
  ChunkSink(impl::LogLevel threshold, std::size_t chunk_bytes, const std::function<void(std::string_view)>& write)
      : threshold_(threshold), chunk_bytes_(chunk_bytes), write_(write) {
    buffer_.reserve(chunk_bytes_ + 4096);
  }
  bool enabled(impl::LogLevel level) const override { return level >= threshold_; }
  void write(const impl::LogRecord& record) override {
    if (!enabled(record.level)) return;
    const std::string text = impl::formatLogRecord(record);
    buffer_ += text;
    bytes_ += text.size();
    lines_ += record.exception ? 2 : 1;
    if (buffer_.size() >= chunk_bytes_) flush();
  }
  void flush() {
    if (!buffer_.empty()) write_(buffer_);
    buffer_.clear();
  }
  std::uint64_t bytes() const { return bytes_; }
  std::uint64_t lines() const { return lines_; }

 private:
  impl::LogLevel threshold_;
  std::size_t chunk_bytes_;
  const std::function<void(std::string_view)>& write_;
  std::string buffer_;
  std::uint64_t bytes_ = 0;
  std::uint64_t lines_ = 0;
};

}  // namespace

const Config& implLogRunConfig() {
  static const Config config = parseConfig(kRunConfig, "impl-log-run configuration");
  return config;
}

ImplLogRunStats runImplLog(const ImplLogRunOptions& options, const std::function<void(std::string_view)>& write) {
  const Config& config = implLogRunConfig();
  ChunkSink sink(options.threshold, options.chunk_bytes, write);
  impl::FakeClock clock(impl::FakeClock::kDefaultStartMs, static_cast<std::int64_t>(options.clock_step_ms));
  impl::ImplCluster cluster(config, impl::Mutants{}, impl::LogTarget{&sink, &clock});
  std::uint64_t random = options.seed;
  ImplLogRunStats stats;
  std::vector<Action> allowed;
  while (stats.steps < options.max_steps && (options.max_log_bytes == 0 || sink.bytes() < options.max_log_bytes)) {
    const Observation world = cluster.observe();
    const bool is_healthy = healthy(config, world);
    const BrokerSet shutting_down = shuttingDown(world);
    allowed.clear();
    for (const Action& action : cluster.enabledActions()) {
      const Use u = use(action);
      // A broker in controlled shutdown stops next: its crash completes the shutdown.
      const bool completes_shutdown = action.kind == ActionKind::CrashBroker && shutting_down.contains(action.broker);
      if (u == Use::Always || (u == Use::WhenHealthy && (is_healthy || completes_shutdown))) allowed.push_back(action);
    }
    if (allowed.empty()) {
      // Stuck short of healthy: a leader's AlterPartition was lost with its controller (it stays
      // pending until a new LeaderAndIsr). A controller failover resends LeaderAndIsr to every
      // online replica without electing anything.
      for (const Action& action : cluster.enabledActions()) {
        if (action.kind == ActionKind::LoseControllerSession) allowed.push_back(action);
      }
    }
    if (allowed.empty()) break;  // not seen with these bounds; the loop stays bounded either way
    const Action& chosen = allowed[splitmix64(random) % allowed.size()];
    if (use(chosen) == Use::WhenHealthy) ++stats.perturbations;
    cluster.apply(chosen);
    ++stats.steps;
  }
  sink.flush();
  stats.log_bytes = sink.bytes();
  stats.log_lines = sink.lines();
  return stats;
}

}  // namespace kcspec::conformance
