#include "spec/vocabulary/independence.hpp"

#include "spec/vocabulary/assert.hpp"

namespace kcspec {
namespace {

const BrokerData& brokerOf(const Observation& world, BrokerId b) { return world.brokers[static_cast<std::size_t>(b)]; }

// Whether the head event of the controller module on `host` is an AlterPartition from `leader`
// on one of `partitions` (processing it answers `leader`, whose replica then changes).
bool headAnswersAlterPartition(const Observation& world, BrokerId host, BrokerId leader, const PartitionSet& partitions) {
  const auto& events = brokerOf(world, host).controller.events;
  if (events.empty()) return false;
  const ControllerEvent& head = events.front();
  return head.kind == ControllerEventKind::AlterPartitionReceived && head.broker == leader && partitions.contains(head.tp);
}

bool queuesAlterPartition(const Observation& world, BrokerId leader, const PartitionSet& partitions) {
  for (const BrokerData& host : world.brokers) {
    for (const ControllerEvent& event : host.controller.events) {
      if (event.kind == ControllerEventKind::AlterPartitionReceived && event.broker == leader &&
          partitions.contains(event.tp)) {
        return true;
      }
    }
  }
  return false;
}

}  // namespace

std::optional<DeliveryFootprint> deliveryFootprint(const Observation& world, BrokerId b) {
  if (!isBrokerId(b)) return std::nullopt;
  const BrokerData& broker = brokerOf(world, b);
  if (!broker.alive || broker.inbox.empty()) return std::nullopt;
  const ControlRequest& head = broker.inbox.front();
  DeliveryFootprint footprint;
  // A request from an older controller epoch, or for an earlier incarnation of b, is refused whole.
  if (head.controller_epoch < broker.known_controller_epoch ||
      (head.broker_epoch >= 0 && head.broker_epoch < broker.broker_epoch)) {
    return footprint;
  }
  const auto heldEpoch = [&](TopicPartition tp) {
    return broker.replicas[static_cast<std::size_t>(partitionIndex(tp))].leader_epoch;
  };
  for (const auto& entry : head.leader_and_isr) footprint.named.insert(entry.tp);
  for (const auto& entry : head.stop_replica) footprint.named.insert(entry.tp);
  switch (head.kind) {
    case RequestKind::LeaderAndIsr:
      for (const auto& entry : head.leader_and_isr) {
        if (broker.offline_log_dir_replicas.contains(entry.tp)) continue;  // KAFKA_STORAGE_ERROR
        // Only a higher leader epoch, naming b as a replica, changes b's replica.
        if (entry.leadership.leader_and_isr.leader_epoch > heldEpoch(entry.tp) && entry.assignment.replicas.contains(b)) {
          footprint.replicas.insert(entry.tp);
        }
      }
      break;
    case RequestKind::UpdateMetadata:
      footprint.metadata_cache = true;
      break;
    case RequestKind::StopReplica:
      for (const auto& entry : head.stop_replica) {
        if (broker.offline_log_dir_replicas.contains(entry.tp)) continue;  // KAFKA_STORAGE_ERROR
        // The deletion (−2) and unknown (−1) epochs bypass the check; otherwise a lower one is refused.
        if (entry.leader_epoch == LeaderAndIsr::kEpochDuringDelete || entry.leader_epoch == LeaderAndIsr::kNoEpoch ||
            entry.leader_epoch >= heldEpoch(entry.tp)) {
          footprint.replicas.insert(entry.tp);
        }
      }
      break;
  }
  return footprint;
}

bool independentOfDelivery(const Observation& world, BrokerId b, const Action& other) {
  const std::optional<DeliveryFootprint> footprint = deliveryFootprint(world, b);
  KCSPEC_ASSERT(footprint.has_value());
  switch (other.kind) {
    case ActionKind::DeliverRequest:
    case ActionKind::CrashBroker:
    case ActionKind::StartBroker:
      return other.broker != b;
    case ActionKind::ShrinkIsr:  // reads the leader's replica only
      return !(other.broker == b && footprint->replicas.contains(other.tp));
    case ActionKind::ExpandIsr:  // reads the leader's replica and the follower's (caught up: the same leader epoch)
      return !((other.broker == b || other.replica == b) && footprint->replicas.contains(other.tp));
    case ActionKind::ProcessEvent:
      return !headAnswersAlterPartition(world, other.broker, b, footprint->replicas);
    case ActionKind::FailLogDir:
      return !(other.broker == b && footprint->named.contains(other.tp));
    default:
      return true;
  }
}

bool deliveryIsPersistent(const Observation& world, BrokerId b, bool log_dirs_may_fail) {
  const std::optional<DeliveryFootprint> footprint = deliveryFootprint(world, b);
  if (!footprint) return false;
  bool absent = true;
  footprint->replicas.forEach([&](TopicPartition tp) {
    absent &= !brokerOf(world, b).replicas[static_cast<std::size_t>(partitionIndex(tp))].present;
  });
  bool no_log_to_fail = true;  // fail-log-dir <p> <b> needs a log of p on b not yet offline
  const BrokerData& broker = brokerOf(world, b);
  if (log_dirs_may_fail) footprint->named.forEach([&](TopicPartition tp) {
    const HostedReplica& replica = broker.replicas[static_cast<std::size_t>(partitionIndex(tp))];
    no_log_to_fail &= broker.offline_log_dir_replicas.contains(tp) || (!replica.present && replica.leader_epoch < 0);
  });
  return absent && no_log_to_fail && !queuesAlterPartition(world, b, footprint->replicas);
}

}  // namespace kcspec
