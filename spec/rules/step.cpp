// Each action: when it is enabled, and what it does to the world. Admin and broker actions write
// ZooKeeper or send a request, and the watches they fire queue controller events; controller
// actions run the rules of the other files; delivery actions move requests and responses.
#include "spec/rules/step.hpp"

#include "spec/rules/brokers.hpp"
#include "spec/rules/controller_events.hpp"
#include "spec/rules/controller_failover.hpp"
#include "spec/rules/zookeeper.hpp"

namespace kcspec::spec {
namespace {

const BrokerData& brokerAt(const ClusterState& s, BrokerId b) { return s.world.brokers[static_cast<std::size_t>(b)]; }
const TopicZnodes& topicAt(const ClusterState& s, TopicIndex t) { return s.world.zk.topics[static_cast<std::size_t>(t)]; }
const HostedReplica& hostedAt(const ClusterState& s, BrokerId b, TopicPartition tp) {
  return brokerAt(s, b).replicas[static_cast<std::size_t>(partitionIndex(tp))];
}

// The broker whose controller has its watches registered, if any (requests from admin clients
// and brokers reach it: they find it through the metadata, kcspec routes them directly).
BrokerId activeController(const ClusterState& s) {
  for (BrokerId b = 0; b < kMaxBrokers; ++b) {
    const BrokerData& broker = brokerAt(s, b);
    if (broker.alive && broker.controller.active && !broker.controller.session_lost) return b;
  }
  return kNoLeader;
}

void sendToActiveController(ClusterState& s, const ControllerEvent& event) {
  const BrokerId controller = activeController(s);
  KCSPEC_ASSERT(controller != kNoLeader);
  auto& events = s.world.brokers[static_cast<std::size_t>(controller)].controller.events;
  if (!events.contains(event)) events.push_back(event);
}

bool partitionExists(const ClusterState& s, TopicPartition tp) {
  const TopicZnodes& topic = topicAt(s, tp.topic);
  return topic.exists && tp.partition < static_cast<int>(topic.partitions.size());
}

bool hasEventRoom(const ClusterState& s) {
  const BrokerId controller = activeController(s);
  return controller != kNoLeader && !brokerAt(s, controller).controller.events.full();
}

// ---- enabledness, one predicate per action kind

bool enabled(const Config& config, const ClusterState& s, const Action& a) {
  const Bounds& left = s.budget;
  if (isPerturbation(a) && left.perturbations == 0) return false;  // the overall bound is spent
  switch (a.kind) {
    case ActionKind::CreateTopic:
      return left.topic_creations > 0 && a.topic >= 0 && a.topic < config.topicCount() && !topicAt(s, a.topic).exists &&
             !s.world.zk.delete_topics.contains(a.topic);
    case ActionKind::DeleteTopic:
      return left.topic_deletions > 0 && topicAt(s, a.topic).exists && !s.world.zk.delete_topics.contains(a.topic);
    case ActionKind::AddPartitions: {
      if (left.partition_additions <= 0 || !topicAt(s, a.topic).exists || s.world.zk.delete_topics.contains(a.topic)) return false;
      const TopicConfig& topic = config.topics[static_cast<std::size_t>(a.topic)];
      const std::size_t added = topicAt(s, a.topic).partitions.size() - topic.assignment.size();
      return added < topic.added_partitions.size() && !topicAt(s, a.topic).partitions.full();
    }
    case ActionKind::ReassignPartition:
    case ActionKind::CancelReassignment:
      return left.reassignments > 0 && partitionExists(s, a.tp) && hasEventRoom(s);
    case ActionKind::ElectPreferredLeader:
      return left.preferred_elections > 0 && partitionExists(s, a.tp) && hasEventRoom(s);
    case ActionKind::ElectUncleanLeader:
      return left.unclean_elections > 0 && partitionExists(s, a.tp) && hasEventRoom(s);
    case ActionKind::EnableTopicUnclean:
      return left.unclean_elections > 0 && topicAt(s, a.topic).exists &&
             !topicAt(s, a.topic).unclean_leader_election_enable && hasEventRoom(s);
    case ActionKind::CrashBroker:
      return left.crashes > 0 && brokerAt(s, a.broker).alive;
    case ActionKind::StartBroker:
      return config.brokers.contains(a.broker) && !brokerAt(s, a.broker).alive;
    case ActionKind::ControlledShutdown:
      return left.controlled_shutdowns > 0 && brokerAt(s, a.broker).alive && hasEventRoom(s);
    case ActionKind::ShrinkIsr: {
      const HostedReplica& leader = hostedAt(s, a.broker, a.tp);
      return left.isr_shrinks > 0 && brokerAt(s, a.broker).alive && leader.present && leader.is_leader &&
             !leader.alter_partition_pending && a.replica != a.broker && leader.isr.contains(a.replica) && leader.isr.size() > 1 && hasEventRoom(s);
    }
    case ActionKind::ExpandIsr: {
      const HostedReplica& leader = hostedAt(s, a.broker, a.tp);
      if (!brokerAt(s, a.broker).alive || !leader.present || !leader.is_leader || leader.alter_partition_pending ||
          leader.isr.contains(a.replica)) {
        return false;
      }
      if (!isBrokerId(a.replica) || !brokerAt(s, a.replica).alive) return false;
      const HostedReplica& follower = hostedAt(s, a.replica, a.tp);  // caught up: follows this leader epoch
      return follower.present && !follower.is_leader && follower.leader_epoch == leader.leader_epoch && hasEventRoom(s);
    }
    case ActionKind::ProcessEvent:
      return brokerAt(s, a.broker).alive && !brokerAt(s, a.broker).controller.events.empty();
    case ActionKind::LoseControllerSession: {
      const ControllerData& module = brokerAt(s, a.broker).controller;
      return left.controller_failovers > 0 && brokerAt(s, a.broker).alive && module.active && !module.session_lost &&
             s.world.zk.controller == a.broker;
    }
    case ActionKind::NoticeSessionExpiry: {
      const ControllerData& module = brokerAt(s, a.broker).controller;
      return brokerAt(s, a.broker).alive && module.session_lost &&
             !module.events.contains(ControllerEvent{.kind = ControllerEventKind::Expire});
    }
    case ActionKind::ElectController: {
      const ControllerData& module = brokerAt(s, a.broker).controller;
      return s.world.zk.controller == kNoLeader && brokerAt(s, a.broker).alive && !module.active && !module.session_lost;
    }
    case ActionKind::AutoRebalanceTimer: {  // scheduled at failover and after each run, until resignation
      const ControllerData& module = brokerAt(s, a.broker).controller;
      return config.auto_leader_rebalance_enable && left.auto_rebalances > 0 && brokerAt(s, a.broker).alive &&
             module.active && !module.events.full() &&
             !module.events.contains(ControllerEvent{.kind = ControllerEventKind::AutoPreferredReplicaLeaderElection});
    }
    case ActionKind::DeliverRequest:
      return brokerAt(s, a.broker).alive && !brokerAt(s, a.broker).inbox.empty();
    case ActionKind::DeliverStopReplicaResponse:
      return !brokerAt(s, a.broker).outbox.empty() && (!a.error || left.stop_replica_errors > 0);
  }
  return false;
}

// ---- effects

void createTopic(const Config& config, ClusterState& s, TopicIndex t) {
  const TopicConfig& topic = config.topics[static_cast<std::size_t>(t)];
  TopicZnodes& znodes = s.world.zk.topics[static_cast<std::size_t>(t)];
  znodes = TopicZnodes{};
  znodes.exists = true;
  for (const BrokerList& replicas : topic.assignment) znodes.partitions.push_back(ReplicaAssignment(replicas));
  znodes.unclean_leader_election_enable = topic.unclean_leader_election_enable;
}

// The StopReplica callback (kafka.md Appendix A.5): only partitions whose topic is in the sending
// controller's topicsWithDeletionStarted are forwarded, and only while that controller still
// runs the channel manager that sent the request.
void deliverStopReplicaResponse(ClusterState& s, BrokerId b, bool error) {
  BrokerData& broker = s.world.brokers[static_cast<std::size_t>(b)];
  const StopReplicaResponse response = broker.outbox.front();
  broker.outbox.erase_at(0);
  BrokerData& sender = s.world.brokers[static_cast<std::size_t>(response.controller_id)];
  ControllerData& module = sender.controller;
  if (!sender.alive || !module.active || module.context.epoch != response.controller_epoch) return;
  PartitionSet forwarded;
  response.partitions.forEach([&](TopicPartition tp) {
    if (module.context.topics_with_deletion_started.contains(tp.topic)) forwarded.insert(tp);
  });
  if (forwarded.empty()) return;
  module.events.push_back(ControllerEvent{.kind = ControllerEventKind::TopicDeletionStopReplicaResponseReceived,
                                          .broker = b,
                                          .partitions = forwarded,
                                          .partition_errors = error ? forwarded : PartitionSet{}});
}

void apply(const Config& config, ClusterState& s, const Action& a, StepObserver& observer) {
  Observation& world = s.world;
  Bounds& left = s.budget;
  if (isPerturbation(a) && left.perturbations > 0) --left.perturbations;
  switch (a.kind) {
    case ActionKind::CreateTopic:
      --left.topic_creations;
      createTopic(config, s, a.topic);
      fireWatch(world, ControllerEvent{.kind = ControllerEventKind::TopicChange});
      break;
    case ActionKind::DeleteTopic:
      --left.topic_deletions;
      world.zk.delete_topics.insert(a.topic);
      fireWatch(world, ControllerEvent{.kind = ControllerEventKind::TopicDeletion});
      break;
    case ActionKind::AddPartitions: {
      --left.partition_additions;
      const TopicConfig& topic = config.topics[static_cast<std::size_t>(a.topic)];
      TopicZnodes& znodes = world.zk.topics[static_cast<std::size_t>(a.topic)];
      const std::size_t added = znodes.partitions.size() - topic.assignment.size();
      znodes.partitions.push_back(ReplicaAssignment(topic.added_partitions[added]));
      fireTopicDataWatch(world, a.topic);
      break;
    }
    case ActionKind::ReassignPartition:
    case ActionKind::CancelReassignment:
      --left.reassignments;
      sendToActiveController(s, ControllerEvent{.kind = ControllerEventKind::ApiPartitionReassignment,
                                                .tp = a.tp,
                                                .cancel = a.kind == ActionKind::CancelReassignment,
                                                .target_replicas = a.replicas});
      break;
    case ActionKind::ElectPreferredLeader:
    case ActionKind::ElectUncleanLeader: {
      const bool preferred = a.kind == ActionKind::ElectPreferredLeader;
      --(preferred ? left.preferred_elections : left.unclean_elections);
      sendToActiveController(s, ControllerEvent{.kind = ControllerEventKind::ReplicaLeaderElection,
                                                .partitions = PartitionSet{a.tp},
                                                .election_type = preferred ? ElectionType::PREFERRED : ElectionType::UNCLEAN});
      break;
    }
    case ActionKind::EnableTopicUnclean:
      --left.unclean_elections;
      world.zk.topics[static_cast<std::size_t>(a.topic)].unclean_leader_election_enable = true;
      sendToActiveController(s, ControllerEvent{.kind = ControllerEventKind::TopicUncleanLeaderElectionEnable, .topic = a.topic});
      break;
    case ActionKind::CrashBroker:
      --left.crashes;
      crashBroker(world, a.broker);
      break;
    case ActionKind::StartBroker:
      startBroker(world, a.broker);
      break;
    case ActionKind::ControlledShutdown:
      --left.controlled_shutdowns;
      sendToActiveController(s, ControllerEvent{.kind = ControllerEventKind::ControlledShutdown,
                                                .broker = a.broker,
                                                .broker_epoch = brokerAt(s, a.broker).broker_epoch});
      break;
    case ActionKind::ShrinkIsr:
    case ActionKind::ExpandIsr: {
      if (a.kind == ActionKind::ShrinkIsr) --left.isr_shrinks;
      const HostedReplica& leader = hostedAt(s, a.broker, a.tp);
      BrokerList isr = leader.isr;
      if (a.kind == ActionKind::ShrinkIsr) {
        isr.remove(a.replica);
      } else {
        isr.push_back(a.replica);
      }
      LeaderAndIsr proposed{a.broker, leader.leader_epoch, LeaderRecoveryState::RECOVERED, isr, leader.partition_epoch};
      world.brokers[static_cast<std::size_t>(a.broker)].replicas[static_cast<std::size_t>(partitionIndex(a.tp))]
          .alter_partition_pending = true;
      sendToActiveController(s, ControllerEvent{.kind = ControllerEventKind::AlterPartitionReceived,
                                                .broker = a.broker,
                                                .broker_epoch = brokerAt(s, a.broker).broker_epoch,
                                                .tp = a.tp,
                                                .proposed = proposed});
      break;
    }
    case ActionKind::ProcessEvent: {
      Controller ctl{config, world, a.broker, observer};
      processNextEvent(ctl);
      break;
    }
    case ActionKind::LoseControllerSession:
      --left.controller_failovers;
      world.zk.controller = kNoLeader;
      world.brokers[static_cast<std::size_t>(a.broker)].controller.session_lost = true;
      break;
    case ActionKind::NoticeSessionExpiry: {
      auto& events = world.brokers[static_cast<std::size_t>(a.broker)].controller.events;
      events.clear();  // clearAndPut: queued events are preempted
      events.push_back(ControllerEvent{.kind = ControllerEventKind::Expire});
      break;
    }
    case ActionKind::ElectController: {
      Controller ctl{config, world, a.broker, observer};
      elect(ctl);
      break;
    }
    case ActionKind::AutoRebalanceTimer:
      --left.auto_rebalances;
      world.brokers[static_cast<std::size_t>(a.broker)].controller.events.push_back(
          ControllerEvent{.kind = ControllerEventKind::AutoPreferredReplicaLeaderElection});
      break;
    case ActionKind::DeliverRequest:
      processNextRequest(world, a.broker);
      break;
    case ActionKind::DeliverStopReplicaResponse:
      if (a.error) --left.stop_replica_errors;
      deliverStopReplicaResponse(s, a.broker, a.error);
      break;
  }
}

// Candidate actions, before the enabledness check: `add(action)` for each, in a fixed order. They
// name only the configuration's brokers, topics and partitions, so every one is well-formed.
template <class Add>
void forEachCandidate(const Config& config, const ClusterState& s, Add add) {
  for (TopicIndex t = 0; t < config.topicCount(); ++t) {
    add({.kind = ActionKind::CreateTopic, .topic = t});
    add({.kind = ActionKind::DeleteTopic, .topic = t});
    add({.kind = ActionKind::AddPartitions, .topic = t});
    add({.kind = ActionKind::EnableTopicUnclean, .topic = t});
    const TopicConfig& topic = config.topics[static_cast<std::size_t>(t)];
    for (int p = 0; p < static_cast<int>(topicAt(s, t).partitions.size()); ++p) {
      const TopicPartition tp{t, p};
      for (const auto& [partition, target] : topic.reassignment_targets) {
        if (partition == p) add({.kind = ActionKind::ReassignPartition, .tp = tp, .replicas = target});
      }
      add({.kind = ActionKind::CancelReassignment, .tp = tp});
      add({.kind = ActionKind::ElectPreferredLeader, .tp = tp});
      add({.kind = ActionKind::ElectUncleanLeader, .tp = tp});
      config.brokers.forEach([&](BrokerId leader) {
        config.brokers.forEach([&](BrokerId replica) {
          add({.kind = ActionKind::ShrinkIsr, .broker = leader, .tp = tp, .replica = replica});
          add({.kind = ActionKind::ExpandIsr, .broker = leader, .tp = tp, .replica = replica});
        });
      });
    }
  }
  config.brokers.forEach([&](BrokerId b) {
    for (ActionKind kind : {ActionKind::CrashBroker, ActionKind::StartBroker, ActionKind::ControlledShutdown,
                            ActionKind::ProcessEvent, ActionKind::LoseControllerSession, ActionKind::NoticeSessionExpiry,
                            ActionKind::ElectController, ActionKind::AutoRebalanceTimer, ActionKind::DeliverRequest}) {
      add({.kind = kind, .broker = b});
    }
    add({.kind = ActionKind::DeliverStopReplicaResponse, .broker = b});
    add({.kind = ActionKind::DeliverStopReplicaResponse, .broker = b, .error = true});
  });
}

}  // namespace

// A perturbation: a step of the environment that spends a bound (the admin, a crash, a lost
// session, an ISR shrink, an error response); every other step is the cluster recovering.
bool isPerturbation(const Action& a) {
  switch (a.kind) {
    case ActionKind::StartBroker:
    case ActionKind::ExpandIsr:
    case ActionKind::ProcessEvent:
    case ActionKind::NoticeSessionExpiry:
    case ActionKind::ElectController:
    case ActionKind::DeliverRequest:
      return false;
    case ActionKind::DeliverStopReplicaResponse:
      return a.error;
    case ActionKind::CreateTopic:
    case ActionKind::DeleteTopic:
    case ActionKind::AddPartitions:
    case ActionKind::ReassignPartition:
    case ActionKind::CancelReassignment:
    case ActionKind::ElectPreferredLeader:
    case ActionKind::ElectUncleanLeader:
    case ActionKind::EnableTopicUnclean:
    case ActionKind::CrashBroker:
    case ActionKind::ControlledShutdown:
    case ActionKind::ShrinkIsr:
    case ActionKind::LoseControllerSession:
    case ActionKind::AutoRebalanceTimer:
      return true;
  }
  return true;
}

ClusterState initialState(const Config& config) {
  ClusterState s;
  s.budget = config.bounds;
  config.brokers_alive_at_start.forEach([&](BrokerId b) { startBroker(s.world, b); });
  for (TopicIndex t = 0; t < config.topicCount(); ++t) {
    if (config.topics[static_cast<std::size_t>(t)].exists_at_start) createTopic(config, s, t);
  }
  return s;
}

// The action names brokers, topics and partitions of the configuration (checked before any
// state is looked at, so a scenario line naming something else is simply not enabled).
bool wellFormed(const Config& config, const Action& a) {
  const auto topic_ok = [&](TopicIndex t) { return t >= 0 && t < config.topicCount(); };
  const auto partition_ok = [&](TopicPartition tp) {
    return topic_ok(tp.topic) && tp.partition >= 0 && tp.partition < kMaxPartitionsPerTopic;
  };
  switch (a.kind) {
    case ActionKind::CreateTopic:
    case ActionKind::DeleteTopic:
    case ActionKind::AddPartitions:
    case ActionKind::EnableTopicUnclean:
      return topic_ok(a.topic);
    case ActionKind::ReassignPartition:
      for (BrokerId r : a.replicas) {
        if (!isBrokerId(r)) return false;
      }
      return partition_ok(a.tp);
    case ActionKind::CancelReassignment:
    case ActionKind::ElectPreferredLeader:
    case ActionKind::ElectUncleanLeader:
      return partition_ok(a.tp);
    case ActionKind::ShrinkIsr:
    case ActionKind::ExpandIsr:
      return partition_ok(a.tp) && config.brokers.contains(a.broker) && config.brokers.contains(a.replica);
    default:
      return config.brokers.contains(a.broker);
  }
}

bool isEnabled(const Config& config, const ClusterState& state, const Action& action) {
  return wellFormed(config, action) && enabled(config, state, action);
}

void enabledActions(const Config& config, const ClusterState& state, std::vector<Action>& out) {
  forEachCandidate(config, state, [&](const Action& action) {
    if (enabled(config, state, action)) out.push_back(action);  // well-formed by construction
  });
}

std::vector<Action> enabledActions(const Config& config, const ClusterState& state) {
  std::vector<Action> out;
  enabledActions(config, state, out);
  return out;
}

ClusterState next(const Config& config, const ClusterState& state, const Action& action, StepObserver& observer) {
  ClusterState successor = state;
  takeStep(config, successor, action, observer);
  return successor;
}

void takeStep(const Config& config, ClusterState& state, const Action& action, StepObserver& observer) {
  KCSPEC_ASSERT(isEnabled(config, state, action));
  apply(config, state, action, observer);
}

ClusterState next(const Config& config, const ClusterState& state, const Action& action) {
  StepObserver ignore;
  return next(config, state, action, ignore);
}

}  // namespace kcspec::spec
