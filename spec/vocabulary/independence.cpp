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

// Whether `event` is an AlterPartition from `leader` whose proposed ISR names a broker that the
// context of `host`'s module does not count as live: one the controller may answer
// INELIGIBLE_REPLICA, which marks the change refused on the leader's replica — and an
// UpdateMetadata that changes the leader's view of the brokers clears those marks.
bool mayBeRefused(const Observation& world, BrokerId host, const ControllerEvent& event, BrokerId leader) {
  if (event.kind != ControllerEventKind::AlterPartitionReceived || event.broker != leader) return false;
  const ControllerContextData& ctx = brokerOf(world, host).controller.context;
  for (BrokerId r : event.proposed.isr) {
    if (!isBrokerId(r) || ctx.live_broker_epochs[static_cast<std::size_t>(r)] < 0) return true;
  }
  return false;
}

bool headMayBeRefused(const Observation& world, BrokerId host, BrokerId leader) {
  const auto& events = brokerOf(world, host).controller.events;
  return !events.empty() && mayBeRefused(world, host, events.front(), leader);
}

bool queuesRefusableAlterPartition(const Observation& world, BrokerId leader) {
  for (BrokerId host = 0; host < kMaxBrokers; ++host) {
    for (const ControllerEvent& event : brokerOf(world, host).controller.events) {
      if (mayBeRefused(world, host, event, leader)) return true;
    }
  }
  return false;
}

// Whether the head event of broker b's own controller module registers b again (a new broker epoch).
bool headRegistersAgain(const Observation& world, BrokerId host, BrokerId b) {
  const auto& events = brokerOf(world, host).controller.events;
  return host == b && !events.empty() && events.front().kind == ControllerEventKind::RegisterBrokerAndReelect;
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
      return !headAnswersAlterPartition(world, other.broker, b, footprint->replicas) &&
             !headRegistersAgain(world, other.broker, b) &&
             !(footprint->metadata_cache && headMayBeRefused(world, other.broker, b));
    case ActionKind::FailLogDir:
      return !(other.broker == b && footprint->named.contains(other.tp));
    default:
      return true;
  }
}

bool deliveryIsPersistent(const Observation& world, BrokerId b, const PersistenceScope& scope) {
  const std::optional<DeliveryFootprint> footprint = deliveryFootprint(world, b);
  if (!footprint || scope.broker_sessions_may_expire) return false;
  bool absent = true;
  footprint->replicas.forEach([&](TopicPartition tp) {
    absent &= !brokerOf(world, b).replicas[static_cast<std::size_t>(partitionIndex(tp))].present;
  });
  bool no_log_to_fail = true;  // fail-log-dir <p> <b> needs a log of p on b not yet offline
  const BrokerData& broker = brokerOf(world, b);
  if (scope.log_dirs_may_fail) footprint->named.forEach([&](TopicPartition tp) {
    const HostedReplica& replica = broker.replicas[static_cast<std::size_t>(partitionIndex(tp))];
    no_log_to_fail &= broker.offline_log_dir_replicas.contains(tp) || (!replica.present && replica.leader_epoch < 0);
  });
  return absent && no_log_to_fail && !queuesAlterPartition(world, b, footprint->replicas) &&
         !(footprint->metadata_cache && queuesRefusableAlterPartition(world, b));
}

}  // namespace kcspec
