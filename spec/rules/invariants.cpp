#include "spec/rules/invariants.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>

#include "spec/vocabulary/valid_previous_states.hpp"

namespace kcspec::spec {
namespace {

const ControllerData* activeController(const ClusterState& s) { return activeControllerModule(s.world); }

// The ascending positions of a mask's set bits, as a range.
class SetBits {
 public:
  explicit SetBits(std::uint32_t mask) : mask_(mask) {}
  class Iterator {
   public:
    explicit Iterator(std::uint32_t rest) : rest_(rest) {}
    int operator*() const { return std::countr_zero(rest_); }
    Iterator& operator++() {
      rest_ &= rest_ - 1;  // the lowest set bit off
      return *this;
    }
    bool operator!=(const Iterator& other) const { return rest_ != other.rest_; }

   private:
    std::uint32_t rest_;
  };
  Iterator begin() const { return Iterator(mask_); }
  Iterator end() const { return Iterator(0); }

 private:
  std::uint32_t mask_;
};

// The world's slots a configuration fills: its brokers and its topics' partitions (the explorer's
// StateShape names the same). No step writes any other slot — the explorer's codec keeps only
// these (StateCodec.EveryExploredStateRoundTrips) — so a property looks nowhere else.
struct ConfiguredSlots {
  static_assert(kMaxBrokers <= 32 && kMaxPartitions <= 32);
  std::uint32_t broker_bits = 0;
  std::uint32_t partition_bits = 0;  // by partitionIndex

  explicit ConfiguredSlots(const Config& config) : broker_bits((config.brokers | config.brokers_alive_at_start).bits()) {
    for (TopicIndex t = 0; t < config.topicCount() && t < kMaxTopics; ++t) {
      const TopicConfig& topic = config.topics[static_cast<std::size_t>(t)];
      const auto count = std::min(topic.partitionCount(), static_cast<std::size_t>(kMaxPartitionsPerTopic));
      for (int p = 0; p < static_cast<int>(count); ++p) partition_bits |= 1u << partitionIndex(TopicPartition{t, p});
    }
  }
  SetBits brokers() const { return SetBits(broker_bits); }        // broker ids, ascending
  SetBits partitions() const { return SetBits(partition_bits); }  // partition indices, ascending
};

// Calls visit(tp, znode) for every partition-state znode in ZooKeeper.
template <class Visit>
void forEachStateZnode(const ClusterState& s, Visit visit) {
  for (TopicIndex t = 0; t < kMaxTopics; ++t) {
    const TopicZnodes& topic = s.world.zk.topics[static_cast<std::size_t>(t)];
    if (!topic.exists) continue;
    for (int p = 0; p < kMaxPartitionsPerTopic; ++p) {
      const auto& znode = topic.states[static_cast<std::size_t>(p)];
      if (znode) visit(TopicPartition{t, p}, *znode);
    }
  }
}

bool registered(const ClusterState& s, BrokerId b) {
  return isBrokerId(b) && s.world.zk.brokers[static_cast<std::size_t>(b)].registered;
}

// Broker b's replica of tp is on a failed log directory (until b restarts).
bool onFailedLogDir(const ClusterState& s, BrokerId b, TopicPartition tp) {
  return isBrokerId(b) && s.world.brokers[static_cast<std::size_t>(b)].offline_log_dir_replicas.contains(tp);
}

// A lost response to a state-znode write (`zk-connection-loss`, kafka.md §6.3.8) leaves the active
// controller's view of a partition behind ZooKeeper, and nothing but a failover repairs it:
//   - stranded in NewPartition: the znode's creation was applied and its resend answered
//     NODEEXISTS, which every later New→Online meets again (L9);
//   - its cached leadership older than the znode: AlterPartition's write was applied and its resend
//     answered BADVERSION (INVALID_UPDATE_VERSION), so the cache was not reloaded and the leader,
//     refused, waits for a LeaderAndIsr (L10).
bool strandedInNew(const ControllerContextData& ctx, const ClusterState& s, TopicPartition tp) {
  const PartitionContext& p = ctx.partitions[static_cast<std::size_t>(partitionIndex(tp))];
  const TopicZnodes& topic = s.world.zk.topics[static_cast<std::size_t>(tp.topic)];
  return p.state == PartitionState::NewPartition && topic.exists && topic.states[static_cast<std::size_t>(tp.partition)];
}

bool cacheBehindZooKeeper(const ControllerContextData& ctx, const ClusterState& s, TopicPartition tp) {
  const auto& cached = ctx.partitions[static_cast<std::size_t>(partitionIndex(tp))].leadership;
  const TopicZnodes& topic = s.world.zk.topics[static_cast<std::size_t>(tp.topic)];
  const auto& znode = topic.states[static_cast<std::size_t>(tp.partition)];
  return topic.exists && cached && znode && cached->leader_and_isr.partition_epoch < znode->leader_and_isr.partition_epoch;
}

// What L2, L4 and L5 excuse in a history with a `zk-connection-loss`: a partition whose controller
// view the loss left behind (L9 and L10 ask for it regardless), and one whose loss is still armed —
// its next state write, which the goal may need (a leader's AlterPartition completing a
// reassignment), will be lost.
bool viewLostWithResponse(const Config& config, const ClusterState& s, TopicPartition tp) {
  const ControllerData* controller = activeController(s);
  if (controller == nullptr || s.budget.zk_connection_losses == config.bounds.zk_connection_losses) return false;
  return s.world.zk.lost_write_responses.contains(tp) || strandedInNew(controller->context, s, tp) ||
         cacheBehindZooKeeper(controller->context, s, tp);
}

// ---- state safety

bool leaderInIsr(const Config&, const ClusterState& s) {
  bool ok = true;
  forEachStateZnode(s, [&](TopicPartition, const PartitionStateZnode& z) {
    const BrokerId leader = z.leader_and_isr.leader;
    ok &= leader == kNoLeader || leader == kLeaderDuringDelete || z.leader_and_isr.isr.contains(leader);
  });
  return ok;
}

bool isrWithinAssignment(const Config&, const ClusterState& s) {
  bool ok = true;
  forEachStateZnode(s, [&](TopicPartition tp, const PartitionStateZnode& z) {
    const auto& assignment = s.world.zk.topics[static_cast<std::size_t>(tp.topic)].partitions[static_cast<std::size_t>(tp.partition)];
    if (!assignment) return;
    for (BrokerId r : z.leader_and_isr.isr) ok &= assignment->replicas.contains(r);
  });
  return ok;
}

bool isrNeverEmpty(const Config&, const ClusterState& s) {
  bool ok = true;
  forEachStateZnode(s, [&](TopicPartition, const PartitionStateZnode& z) { ok &= !z.leader_and_isr.isr.empty(); });
  return ok;
}

bool deletionDisabledQueuesNothing(const Config& config, const ClusterState& s) {
  if (config.delete_topic_enable) return true;
  for (const BrokerData& broker : s.world.brokers) {
    if (!broker.controller.context.topics_to_be_deleted.empty()) return false;
  }
  return true;
}

bool deletedTopicLeavesNothing(const Config& config, const ClusterState& s) {
  const ConfiguredSlots slots(config);
  for (const BrokerId b : slots.brokers()) {
    const BrokerData& broker = s.world.brokers[static_cast<std::size_t>(b)];
    const ControllerContextData& ctx = broker.controller.context;
    if (!broker.controller.active) continue;
    for (const int i : slots.partitions()) {
      const TopicPartition tp = partitionAt(i);
      if (ctx.all_topics.contains(tp.topic)) continue;
      const PartitionContext& p = ctx.partitions[static_cast<std::size_t>(i)];
      // A stale reassignment of the deleted topic (S7's deviation) that an ISR change "completes"
      // writes the empty assignment it read back (B2): S7's finding, not a leftover of removeTopic.
      const bool stale_completion =
          ctx.partitions_being_reassigned.contains(tp) && p.assignment && p.assignment->replicas.empty();
      if ((p.assignment && !stale_completion) || p.leadership) return false;
      // A NonExistentReplica entry is Kafka's insert-if-absent bookkeeping (kafka.md §1.3, Appendix
      // D.4), like the NonExistentPartition entry it keeps; anything else is a leftover.
      for (const auto& replica : p.replica_states) {
        if (replica && *replica != ReplicaState::NonExistentReplica) return false;
      }
    }
  }
  return true;
}

bool deletingTopicNotOnline(const Config& config, const ClusterState& s) {
  const ConfiguredSlots slots(config);
  for (const BrokerId b : slots.brokers()) {
    const BrokerData& broker = s.world.brokers[static_cast<std::size_t>(b)];
    // A partition state machine whose batch an exception left unflushed (KAFKA-12315, L8) fails
    // every state change, the deletion's Offline and NonExistent ones too: S6 is not asked of it.
    if (broker.controller.psm_batch_unflushed) continue;
    const ControllerContextData& ctx = broker.controller.context;
    for (const int i : slots.partitions()) {
      const auto& state = ctx.partitions[static_cast<std::size_t>(i)].state;
      if (ctx.topics_with_deletion_started.contains(partitionAt(i).topic) && state &&
          (*state == PartitionState::OnlinePartition || *state == PartitionState::NewPartition)) {
        return false;
      }
    }
  }
  return true;
}

bool noStaleReassignment(const Config& config, const ClusterState& s) {
  for (const BrokerId b : ConfiguredSlots(config).brokers()) {
    const ControllerContextData& ctx = s.world.brokers[static_cast<std::size_t>(b)].controller.context;
    bool ok = true;
    ctx.partitions_being_reassigned.forEach([&](TopicPartition tp) {
      ok &= ctx.all_topics.contains(tp.topic) && ctx.partitions[static_cast<std::size_t>(partitionIndex(tp))].assignment.has_value();
    });
    if (!ok) return false;
  }
  return true;
}

bool noDeletionDuringReassignment(const Config& config, const ClusterState& s) {
  for (const BrokerId b : ConfiguredSlots(config).brokers()) {
    const ControllerContextData& ctx = s.world.brokers[static_cast<std::size_t>(b)].controller.context;
    bool ok = true;
    ctx.partitions_being_reassigned.forEach([&](TopicPartition tp) {
      ok &= !(ctx.topics_with_deletion_started.contains(tp.topic) &&
              ctx.partitions[static_cast<std::size_t>(partitionIndex(tp))].assignment.has_value());
    });
    if (!ok) return false;
  }
  return true;
}

// ---- step safety

bool epochsNeverDecrease(const Config&, const ClusterState& before, const ClusterState& after, const StepRecord&) {
  bool ok = true;
  forEachStateZnode(before, [&](TopicPartition tp, const PartitionStateZnode& old) {
    const auto& now = after.world.zk.topics[static_cast<std::size_t>(tp.topic)].states[static_cast<std::size_t>(tp.partition)];
    if (!now || !after.world.zk.topics[static_cast<std::size_t>(tp.topic)].exists) return;
    ok &= now->leader_and_isr.leader_epoch >= old.leader_and_isr.leader_epoch;
    ok &= now->leader_and_isr.partition_epoch >= old.leader_and_isr.partition_epoch;
    ok &= now->controller_epoch >= old.controller_epoch;
  });
  ok &= after.world.zk.controller_epoch >= before.world.zk.controller_epoch;
  return ok;
}

bool recordedChangesAreValid(const Config&, const ClusterState&, const ClusterState&, const StepRecord& record) {
  for (const StateChangeRecord& change : record.state_changes) {
    if (!change.applied()) continue;
    const bool allowed = change.is_replica
                             ? isValidTransition(static_cast<ReplicaState>(change.from), static_cast<ReplicaState>(change.to))
                             : isValidTransition(static_cast<PartitionState>(change.from),
                                                 static_cast<PartitionState>(change.to));
    if (!allowed) return false;
  }
  return true;
}

bool noInvalidTransitionAttempted(const Config&, const ClusterState&, const ClusterState&, const StepRecord& record) {
  for (const StateChangeRecord& change : record.state_changes) {
    if (change.outcome == ChangeOutcome::InvalidTransition) return false;
  }
  return true;
}

bool staleControllerWriteNeverAccepted(const Config&, const ClusterState& before, const ClusterState&,
                                       const StepRecord& record) {
  for (const auto& [controller, epoch] : record.accepted_writes) {
    if (epoch < before.world.zk.controller_epoch) return false;
  }
  return true;
}

bool shuttingDownBrokerNeverElected(const Config&, const ClusterState& before, const ClusterState& after,
                                    const StepRecord&) {
  const ControllerData* controller = activeController(after);
  if (!controller) return true;
  bool ok = true;
  forEachStateZnode(after, [&](TopicPartition tp, const PartitionStateZnode& now) {
    const auto& old = before.world.zk.topics[static_cast<std::size_t>(tp.topic)].states[static_cast<std::size_t>(tp.partition)];
    const BrokerId leader = now.leader_and_isr.leader;
    const bool newly_elected = !old || old->leader_and_isr.leader != leader;
    if (newly_elected && controller->context.shutting_down_broker_ids.contains(leader)) ok = false;
  });
  return ok;
}

// Whether broker b processed the request at the front of its queue in this step (deliver-request:
// every other step only appends to a queue or empties it, step.hpp takeStep).
const ControlRequest* requestProcessed(const ClusterState& before, const ClusterState& after, BrokerId b) {
  const BrokerData& was = before.world.brokers[static_cast<std::size_t>(b)];
  const BrokerData& is = after.world.brokers[static_cast<std::size_t>(b)];
  if (!was.alive || !is.alive || was.inbox.empty() || is.inbox.size() + 1 != was.inbox.size()) return nullptr;
  return &was.inbox.front();
}

bool staleTopicIdNeverApplied(const Config& config, const ClusterState& before, const ClusterState& after,
                              const StepRecord&) {
  const ConfiguredSlots slots(config);
  for (const BrokerId b : slots.brokers()) {
    const BrokerData& was = before.world.brokers[static_cast<std::size_t>(b)];
    const BrokerData& is = after.world.brokers[static_cast<std::size_t>(b)];
    if (!was.alive || !is.alive) continue;
    for (const int i : slots.partitions()) {
      const HostedReplica& old = was.replicas[static_cast<std::size_t>(i)];
      const HostedReplica& now = is.replicas[static_cast<std::size_t>(i)];
      const bool log_kept = now.present || now.leader_epoch >= 0;
      if (old.topic_id != kNoTopicId && log_kept && now.topic_id != old.topic_id) return false;
    }
    const ControlRequest* request = requestProcessed(before, after, b);
    if (request == nullptr || request->kind != RequestKind::LeaderAndIsr) continue;
    for (const LeaderAndIsrPartitionState& entry : request->leader_and_isr) {
      const auto i = static_cast<std::size_t>(partitionIndex(entry.tp));
      const TopicId log_id = was.replicas[i].topic_id;
      const bool stale = entry.topic_id != kNoTopicId && log_id != kNoTopicId && entry.topic_id != log_id;
      if (stale && is.replicas[i] != was.replicas[i]) return false;
    }
  }
  return true;
}

bool unknownTopicIdChangesNoPartition(const Config& config, const ClusterState& before, const ClusterState& after,
                                      const StepRecord&) {
  for (const BrokerId b : ConfiguredSlots(config).brokers()) {
    const ControllerData& was = before.world.brokers[static_cast<std::size_t>(b)].controller;
    const ControllerData& is = after.world.brokers[static_cast<std::size_t>(b)].controller;
    if (was.events.empty() || !was.active) continue;
    const ControllerEvent& event = was.events.front();
    if (event.kind != ControllerEventKind::AlterPartitionReceived || !event.by_topic_id) continue;
    // Processed in this step: the queue lost its front, whatever the processing appended behind it
    // (an equal event is never queued twice, convention 3).
    if (!is.events.empty() && is.events.front() == event) continue;
    const auto t = static_cast<std::size_t>(event.tp.topic);
    if (was.context.topic_ids[t] == event.topic_ids[t]) continue;
    const TopicZnodes& topic_before = before.world.zk.topics[t];
    const TopicZnodes& topic_after = after.world.zk.topics[t];
    const auto p = static_cast<std::size_t>(event.tp.partition);
    if (topic_before.states[p] != topic_after.states[p]) return false;
    const HostedReplica& leader_before = before.world.brokers[static_cast<std::size_t>(event.broker)].replicas[static_cast<std::size_t>(partitionIndex(event.tp))];
    const HostedReplica& leader_after = after.world.brokers[static_cast<std::size_t>(event.broker)].replicas[static_cast<std::size_t>(partitionIndex(event.tp))];
    if (leader_after.isr != leader_before.isr || leader_after.partition_epoch != leader_before.partition_epoch) return false;
  }
  return true;
}

// T8: what the current controller (active, its session its own, holding /controller at the epoch
// it was elected with) cached in the step is what ZooKeeper holds after it. The controller epoch
// cached with it is not compared: the replica state machine caches an unchanged znode with its own.
bool failedWriteNeverCached(const Config& config, const ClusterState& before, const ClusterState& after,
                            const StepRecord&) {
  const ZooKeeperData& zk = after.world.zk;
  const ConfiguredSlots slots(config);
  for (const BrokerId b : slots.brokers()) {
    const BrokerData& broker = after.world.brokers[static_cast<std::size_t>(b)];
    const ControllerData& module = broker.controller;
    if (!broker.alive || !module.active || module.session_lost || zk.controller != b ||
        module.context.epoch_zk_version != zk.controller_epoch_zk_version) {
      continue;
    }
    const ControllerContextData& was = before.world.brokers[static_cast<std::size_t>(b)].controller.context;
    for (const int i : slots.partitions()) {
      const auto& now = module.context.partitions[static_cast<std::size_t>(i)].leadership;
      if (!now || now == was.partitions[static_cast<std::size_t>(i)].leadership) continue;
      const TopicPartition tp = partitionAt(i);
      const auto& znode = zk.topics[static_cast<std::size_t>(tp.topic)].states[static_cast<std::size_t>(tp.partition)];
      if (!znode || znode->leader_and_isr != now->leader_and_isr) return false;
    }
  }
  return true;
}

// ---- liveness goals (judged in quiescent states)

// Every topic whose deletion was requested is gone, unless one of its replicas is on a broker
// that is not registered or is shutting down (Kafka resumes such a deletion only when that
// broker starts again; a broker in controlled shutdown stays down until it restarts), or one of
// its partitions is still being reassigned (deletion racing a reassignment is S8's finding).
// Its replicas are those of its partitions in the topic znode and in the controller's context:
// an assignment restored during the deletion leaves out partitions the controller still deletes
// (kafka.md §5.10.2).
bool deletionCompletesAfterErrors(const Config&, const ClusterState& s) {
  const ControllerData* controller = activeController(s);
  if (!controller) return false;
  bool ok = true;
  s.world.zk.delete_topics.forEach([&](TopicIndex t) {
    const TopicZnodes& topic = s.world.zk.topics[static_cast<std::size_t>(t)];
    bool reassigning = false;
    controller->context.partitions_being_reassigned.forEach([&](TopicPartition tp) { reassigning |= tp.topic == t; });
    if (reassigning) return;
    bool brokers_up = true;
    TopicPartition tp{t, 0};
    // A replica on a failed log directory answers every StopReplica with KAFKA_STORAGE_ERROR until
    // its broker restarts: no deletion completes before that, by Kafka's design.
    const auto up = [&](const BrokerList& replicas) {
      for (BrokerId r : replicas) {
        brokers_up &= registered(s, r) && !controller->context.shutting_down_broker_ids.contains(r) &&
                      !onFailedLogDir(s, r, tp);
      }
    };
    for (int p = 0; p < kMaxPartitionsPerTopic; ++p) {
      tp.partition = p;
      const std::optional<ReplicaAssignment>& in_zookeeper = topic.partitions[static_cast<std::size_t>(p)];
      const std::optional<ReplicaAssignment>& in_context =
          controller->context.partitions[static_cast<std::size_t>(partitionIndex(TopicPartition{t, p}))].assignment;
      if (in_zookeeper) up(in_zookeeper->replicas);
      if (in_context) up(in_context->replicas);
    }
    if (brokers_up) ok = false;
  });
  return ok;
}

// Kafka halts a topic's deletion after a StopReplica error until a broker hosting one of its
// replicas starts (kafka.md §4.2), so L1 asks for completion only in histories without one (the
// budget tells); L6 asks for it regardless.
bool deletionCompletes(const Config& config, const ClusterState& s) {
  const bool error_delivered = s.budget.stop_replica_errors < config.bounds.stop_replica_errors;
  return error_delivered || deletionCompletesAfterErrors(config, s);
}

// A live ISR member is a registered broker whose replica is not on a failed log directory (one
// that is can lead nothing until its broker restarts).
bool liveIsrMemberMeansLeader(const Config& config, const ClusterState& s) {
  bool ok = true;
  forEachStateZnode(s, [&](TopicPartition tp, const PartitionStateZnode& z) {
    if (s.world.zk.delete_topics.contains(tp.topic) || viewLostWithResponse(config, s, tp)) return;
    const auto online = [&](BrokerId r) { return registered(s, r) && !onFailedLogDir(s, r, tp); };
    bool live_member = false;
    for (BrokerId r : z.leader_and_isr.isr) live_member |= online(r);
    if (live_member) ok &= online(z.leader_and_isr.leader);
  });
  return ok;
}

// Whether every live broker's metadata cache agrees with the controller's leadership for every
// partition it knows and is not deleting.
bool cachesAgree(const ControllerContextData& ctx, const ClusterState& s) {
  for (const BrokerData& broker : s.world.brokers) {
    if (!broker.alive) continue;
    for (int i = 0; i < kMaxPartitions; ++i) {
      const auto& leadership = ctx.partitions[static_cast<std::size_t>(i)].leadership;
      const TopicIndex topic = partitionAt(i).topic;
      if (!leadership || !ctx.all_topics.contains(topic) || ctx.topics_to_be_deleted.contains(topic)) continue;
      const auto& cached = broker.metadata_cache[static_cast<std::size_t>(i)];
      const LeaderAndIsr& lai = leadership->leader_and_isr;
      if (!cached || cached->leader != lai.leader || cached->leader_epoch != lai.leader_epoch || cached->isr != lai.isr) {
        return false;
      }
    }
  }
  return true;
}

// Whether no live broker's metadata cache holds a partition of a topic the controller does not know.
bool cachesForgetDeletedTopics(const ControllerContextData& ctx, const ClusterState& s) {
  for (const BrokerData& broker : s.world.brokers) {
    if (!broker.alive) continue;
    for (int i = 0; i < kMaxPartitions; ++i) {
      if (broker.metadata_cache[static_cast<std::size_t>(i)] && !ctx.all_topics.contains(partitionAt(i).topic)) {
        return false;
      }
    }
  }
  return true;
}

// A controller that lost its ZooKeeper session and has not noticed yet still processes the events
// it queued, and a broker that restarted meanwhile knows no controller epoch, so it accepts the old
// controller's UpdateMetadata. If that request names a topic the new controller has deleted, the
// broker keeps the partition: ZkMetadataCache removes a partition only on a LeaderDuringDelete
// entry, the new controller sent those to the brokers live at the time, and nothing sends them
// again (tests/scenarios/deviation_l7_zombie_metadata.scenario). L3 therefore asks deleted topics
// to leave the caches only in histories where no controller lost its session (the budget tells);
// L7 asks it regardless.
//
// A controller whose replica state machine's batch was left unflushed (KAFKA-12315) fails every
// later replica state change until its broker restarts, so a broker that registered meanwhile never
// gets its replicas' LeaderAndIsr and UpdateMetadata (docs/spec/rules.md "Findings so far"). L3 is
// not asked of such a controller: that is L8's business.
bool metadataConverges(const Config& config, const ClusterState& s) {
  const ControllerData* controller = activeController(s);
  if (!controller) return false;
  if (controller->rsm_batch_unflushed) return true;
  const bool session_lost = s.budget.controller_failovers < config.bounds.controller_failovers;
  return cachesAgree(controller->context, s) && (session_lost || cachesForgetDeletedTopics(controller->context, s));
}

bool deletedTopicsLeaveMetadata(const Config&, const ClusterState& s) {
  const ControllerData* controller = activeController(s);
  return controller && cachesForgetDeletedTopics(controller->context, s);
}

bool stateMachineBatchesFlushed(const Config&, const ClusterState& s) {
  const ControllerData* controller = activeController(s);
  return controller && !controller->psm_batch_unflushed && !controller->rsm_batch_unflushed;
}

bool controlledShutdownCompletes(const Config& config, const ClusterState& s) {
  const ControllerData* controller = activeController(s);
  if (!controller) return false;
  const BrokerSet shutting_down = controller->context.shutting_down_broker_ids;
  bool ok = true;
  forEachStateZnode(s, [&](TopicPartition tp, const PartitionStateZnode& z) {
    const BrokerId leader = z.leader_and_isr.leader;
    if (!shutting_down.contains(leader) || controller->context.topics_to_be_deleted.contains(tp.topic) ||
        viewLostWithResponse(config, s, tp)) {
      return;
    }
    for (BrokerId r : z.leader_and_isr.isr) {
      if (r != leader && registered(s, r) && !shutting_down.contains(r)) ok = false;  // it could have moved
    }
  });
  return ok;
}

// A reassignment with a replica on a broker in controlled shutdown may wait until that broker
// has stopped and registered again — a crash, which is not a recovery step — so L5 excuses it, as
// L6 excuses a deletion whose brokers are shutting down. A target replica there cannot join the
// ISR: AlterPartition answers INELIGIBLE_REPLICA for an ISR naming a broker that is not live
// (kafka.md §5.12 rule 9), and the leader does not propose that change again until its view of
// the brokers changes (docs/world.md §7; Kafka's leader retries it until the broker is gone). The
// leader's other proposals go on, so the other new replicas can join.
bool waitsForShuttingDownReplica(const ControllerContextData& ctx, const ReplicaAssignment& assignment) {
  bool waits = false;
  for (BrokerId r : assignment.replicas) waits |= ctx.shutting_down_broker_ids.contains(r);
  return waits;
}

// A replica on a failed log directory is unavailable until its broker restarts (a perturbation):
// as a target it never joins the ISR, as the last ISR member it leaves the partition without a
// leader to move (tests/scenarios/log_dir_failure_*.scenario).
bool waitsForFailedLogDir(const ClusterState& s, TopicPartition tp, const ReplicaAssignment& assignment) {
  bool waits = false;
  for (BrokerId r : assignment.replicas) waits |= onFailedLogDir(s, r, tp);
  return waits;
}

// A reassignment begun while its partition had no state znode (NewPartition: its replicas' brokers
// were down when the controller started) finds no leader epoch to bump, and when the partition
// comes online, New->Online makes every live replica of the reassigning assignment (RS), the added
// ones included, a member of its first ISR: the reassignment is complete before any replica
// proposes a change. Nothing then runs maybeCompleteReassignment for it — no ISR change follows
// (the ISR already holds every replica) and onBrokerStartup resumes only reassignments that target
// the new broker — until a failover (initializePartitionReassignments) or a perturbation (docs/spec/
// rules.md "Findings so far", L11). Such a partition's state znode is as New->Online wrote it: a
// reassignment begun on a partition with a znode bumps its epoch (phase A) or completes at once.
bool completedAtCreation(const ClusterState& s, TopicPartition tp, const ReplicaAssignment& assignment) {
  const auto& znode = s.world.zk.topics[static_cast<std::size_t>(tp.topic)].states[static_cast<std::size_t>(tp.partition)];
  if (!znode || znode->leader_and_isr.partition_epoch != LeaderAndIsr::kInitialPartitionEpoch) return false;
  bool isr_holds_every_replica = true;
  for (BrokerId r : assignment.replicas) isr_holds_every_replica &= znode->leader_and_isr.isr.contains(r);
  return isr_holds_every_replica;
}

// The reassignments L5 and L11 wait for, each once as the controller's entry and once as its
// ZooKeeper assignment: `visit(tp, assignment)` for each one being reassigned of a topic not queued
// for deletion (S8's business) and not waiting for a perturbation (a replica's broker shutting down,
// a replica on a failed log directory, a view a lost ZooKeeper response left behind).
// Partitions of deleted topics left in partitionsBeingReassigned are S7's business — also when the
// topic has been created again: the new partition's entry has nothing to add or remove, and only
// maybeCompleteReassignment (an ISR change) or a failover removes it
// (tests/scenarios/deviation_s7_recreated_during_reassignment.scenario; Kafka's
// ListPartitionReassignments leaves such an entry out too).
template <class Visit>
void forEachAwaitedReassignment(const Config& config, const ClusterState& s, const ControllerContextData& ctx,
                                Visit&& visit) {
  const auto awaited = [&](TopicPartition tp, const ReplicaAssignment& assignment) {
    return assignment.isBeingReassigned() && !ctx.topics_to_be_deleted.contains(tp.topic) &&
           !waitsForShuttingDownReplica(ctx, assignment) && !waitsForFailedLogDir(s, tp, assignment) &&
           !viewLostWithResponse(config, s, tp);
  };
  ctx.partitions_being_reassigned.forEach([&](TopicPartition tp) {
    const std::optional<ReplicaAssignment>& assignment = ctx.partitions[static_cast<std::size_t>(partitionIndex(tp))].assignment;
    if (assignment && awaited(tp, *assignment)) visit(tp, *assignment);
  });
  for (TopicIndex t = 0; t < kMaxTopics; ++t) {
    const auto& partitions = s.world.zk.topics[static_cast<std::size_t>(t)].partitions;
    for (int p = 0; p < kMaxPartitionsPerTopic; ++p) {
      const std::optional<ReplicaAssignment>& assignment = partitions[static_cast<std::size_t>(p)];
      if (assignment && awaited(TopicPartition{t, p}, *assignment)) visit(TopicPartition{t, p}, *assignment);
    }
  }
}

bool reassignmentsComplete(const Config& config, const ClusterState& s) {
  const ControllerData* controller = activeController(s);
  if (!controller) return false;
  bool pending = false;
  forEachAwaitedReassignment(config, s, controller->context, [&](TopicPartition tp, const ReplicaAssignment& assignment) {
    pending |= !completedAtCreation(s, tp, assignment);  // L11's
  });
  return !pending;
}

bool newPartitionReassignmentsComplete(const Config& config, const ClusterState& s) {
  const ControllerData* controller = activeController(s);
  if (!controller) return false;
  bool stuck = false;
  forEachAwaitedReassignment(config, s, controller->context, [&](TopicPartition tp, const ReplicaAssignment& assignment) {
    stuck |= completedAtCreation(s, tp, assignment);
  });
  return !stuck;
}

// L9, L10: the active controller's view of the partitions of topics it is not deleting.
bool noPartitionLeftNew(const Config&, const ClusterState& s) {
  const ControllerData* controller = activeController(s);
  if (!controller) return false;
  bool ok = true;
  forEachStateZnode(s, [&](TopicPartition tp, const PartitionStateZnode&) {
    if (!controller->context.topics_to_be_deleted.contains(tp.topic)) ok &= !strandedInNew(controller->context, s, tp);
  });
  return ok;
}

bool controllerCacheFollowsZooKeeper(const Config&, const ClusterState& s) {
  const ControllerData* controller = activeController(s);
  if (!controller) return false;
  bool ok = true;
  forEachStateZnode(s, [&](TopicPartition tp, const PartitionStateZnode&) {
    if (!controller->context.topics_to_be_deleted.contains(tp.topic)) ok &= !cacheBehindZooKeeper(controller->context, s, tp);
  });
  return ok;
}

constexpr Property kCatalog[] = {
    {"S1", "LeaderInIsr", "A partition's leader is in its ISR, or is NoLeader (-1) or LeaderDuringDelete (-2).",
     "kafka.md §2.8, §3.4; KIP-101 leader-epoch rules", PropertyKind::StateSafety, leaderInIsr},
    {"S2", "IsrWithinAssignment", "Every ISR member is one of the partition's assigned replicas.",
     "kafka.md §5.7 (ISR shrink before RS=TRS is written)", PropertyKind::StateSafety, isrWithinAssignment, nullptr,
     "A reassignment cancelled while the partition's leader is in controlled shutdown bumps no leader epoch: "
     "moveReassignedPartitionLeaderIfRequired's reassign election finds no live, not-shutting-down target replica in "
     "the ISR and fails, and OfflineReplica of the added replicas re-sends LeaderAndIsr at the same epoch, which the "
     "leader ignores. The leader keeps the reassignment's replica set, and an added replica that has not processed "
     "its StopReplica still follows it. A controller that does not know of the shutdown (any later failover) then "
     "accepts the leader's AlterPartition adding that replica: processAlterPartition checks that ISR members are live "
     "brokers, not that they are assigned replicas. A second path: a controller re-elected with its replica state "
     "machine's batch left unflushed (KAFKA-12315) skips the ISR removal of the replicas a completed reassignment "
     "removes."},
    {"S3", "IsrNeverEmpty", "Once a partition state exists, its ISR is never empty.",
     "kafka.md §3.4 (a single-member ISR is kept)", PropertyKind::StateSafety, isrNeverEmpty},
    {"S4", "DeletionDisabledQueuesNothing",
     "With delete.topic.enable=false no controller has a topic queued for deletion.", "KAFKA-3175 (mutant M3)",
     PropertyKind::StateSafety, deletionDisabledQueuesNothing},
    {"S5", "DeletedTopicLeavesNothing",
     "An active controller keeps no assignment, leadership or replica state for a topic it does not know.",
     "KAFKA-1742 (mutant M1); kafka.md §4.1 removeTopic", PropertyKind::StateSafety, deletedTopicLeavesNothing},
    {"S6", "DeletingTopicNeverOnline",
     "No partition of a topic whose deletion has started is New or Online (in a controller whose partition state "
     "machine is not stuck with an unflushed batch: L8).",
     "KAFKA-8237 (mutant M6); kafka.md §4.1",
     PropertyKind::StateSafety, deletingTopicNotOnline},
    {"S7", "NoStaleReassignment",
     "partitionsBeingReassigned holds only partitions of topics the controller knows and has an assignment for.",
     "kafka.md §4.1 removeTopic, §5.7 (a topic deleted during its reassignment)", PropertyKind::StateSafety,
     noStaleReassignment, nullptr,
     "Deleting a topic during a reassignment of one of its partitions leaves the partition in "
     "partitionsBeingReassigned (removeTopic does not touch it) until the next failover. Below "
     "inter.broker.protocol.version 2.7-IV2 an ISR change of the partition then \"completes\" that "
     "reassignment (PartitionReassignmentIsrChange, IsrChangeNotification): the empty assignment it "
     "reads for the deleted topic is complete, and phase B writes it into the context (which S5 lets "
     "pass for such a partition) before B3's leadership lookup throws NoSuchElementException."},
    {"S8", "NoDeletionDuringReassignment",
     "A topic's deletion never starts while one of its partitions is being reassigned.",
     "KAFKA-8237 (mutant M6); kafka.md §4.2, §5.6.2", PropertyKind::StateSafety, noDeletionDuringReassignment, nullptr,
     "The TopicDeletion event marks topics with a reassignment in progress ineligible before queueing them, and "
     "marking only applies to queued topics, so a newly requested deletion starts during a reassignment (what "
     "KAFKA-8237's fix meant to exclude)."},
    {"T1", "EpochsNeverDecrease",
     "A partition's leader epoch, partition epoch and stored controller epoch, and /controller_epoch, never decrease.",
     "kafka.md §6.3.5", PropertyKind::StepSafety, nullptr, epochsNeverDecrease},
    {"T2", "RecordedChangesAreValid",
     "Every state change a controller applies is allowed by Kafka's valid-previous-state table.", "kafka.md §1.1–1.4",
     PropertyKind::StepSafety, nullptr, recordedChangesAreValid},
    {"T3", "NoInvalidTransitionAttempted",
     "The controller never asks for a transition the table forbids (Kafka logs such requests as errors and skips them).",
     "kafka.md §1.4", PropertyKind::StepSafety, nullptr, noInvalidTransitionAttempted,
     "Kafka asks for OnlineReplica -> ReplicaDeletionIneligible when a broker dies while its topic is queued for "
     "deletion but deletion has not started (failReplicaDeletion); the valid-previous-state table forbids it, so Kafka "
     "logs the invalid transition and skips it (kafka.md §1.4). The explorer's shortest T3 is another path: a controller "
     "that lost its session (not noticed yet) processes TopicDeletion after the new controller rewrote the partition "
     "states; removeReplicasFromIsr skips them (\"written by another controller\"), so OfflineReplica is skipped and "
     "Kafka asks for OnlineReplica -> ReplicaDeletionStarted. A partition's too: when onBrokerStartup resumes a "
     "reassignment whose topic's deletion started meanwhile (deviation S8) and finds it complete, "
     "moveReassignedPartitionLeaderIfRequired asks for NonExistentPartition -> OnlinePartition "
     "(tests/scenarios/reassignment_completes_after_deletion_started.scenario)."},
    {"T4", "StaleControllerWriteNeverAccepted",
     "ZooKeeper accepts no write from a controller whose epoch is older than /controller_epoch.",
     "kafka.md §6.3.1 (controller epoch fencing)", PropertyKind::StepSafety, nullptr,
     staleControllerWriteNeverAccepted},
    {"T5", "ShuttingDownBrokerNeverElected",
     "No election makes a broker that is shutting down the leader.", "kafka.md §2.8, §5.9",
     PropertyKind::StepSafety, nullptr, shuttingDownBrokerNeverElected},
    {"T6", "StaleTopicIdNeverApplied",
     "A broker's log of a partition keeps its topic id, and a LeaderAndIsr entry naming another id (a topic of the "
     "same name deleted and created again) changes nothing in it.",
     "KIP-516; docs/world.md §5 (INCONSISTENT_TOPIC_ID)", PropertyKind::StepSafety, nullptr, staleTopicIdNeverApplied},
    {"T7", "UnknownTopicIdChangesNoPartition",
     "An AlterPartition naming its topic by an id the controller does not know changes neither the partition's state "
     "znode nor the leader's ISR.",
     "kafka.md §5.12 rule 1", PropertyKind::StepSafety, nullptr, unknownTopicIdChangesNoPartition},
    {"T8", "FailedWriteNeverCached",
     "A leadership the active controller caches in a step is the one its partition's state znode holds after the "
     "step: a write that failed (BADVERSION, SESSIONEXPIRED, a fenced write) is never taken as done.",
     "kafka.md §6.3.3, §6.3.8, §6.3.9", PropertyKind::StepSafety, nullptr, failedWriteNeverCached},
    {"L1", "DeletionCompletes",
     "In a history without StopReplica errors, a topic whose deletion was requested and that is not being reassigned is deleted once all its replicas' brokers are up and not shutting down and none of its replicas is on a failed log directory.",
     "KAFKA-2937, 5107, 6650, 10548 (mutants M2, M4, M5, M7)", PropertyKind::Liveness, deletionCompletes},
    {"L2", "LiveIsrMemberMeansLeader",
     "A partition with a live ISR member (registered, its replica not on a failed log directory) has such a leader.", "kafka.md §2.2, §5.5", PropertyKind::Liveness,
     liveIsrMemberMeansLeader},
    {"L3", "MetadataConverges",
     "Every live broker's metadata cache agrees with the controller's leadership for every partition, and, in a "
     "history where no controller lost its ZooKeeper session, holds no partition of a topic the controller does not "
     "know; asked of a controller whose replica state machine works (L8).",
     "KAFKA-1120/7235 (mutant M8); kafka.md Appendix A", PropertyKind::Liveness, metadataConverges},
    {"L4", "ControlledShutdownCompletes",
     "A shutting-down broker leads no partition that has another live, not-shutting-down ISR member.",
     "KAFKA-6753 (mutant M6); kafka.md §5.9", PropertyKind::Liveness, controlledShutdownCompletes},
    {"L5", "ReassignmentsComplete", "Every reassignment of a partition whose topic exists and is not queued for deletion completes, unless one of its replicas' brokers is shutting down or one of its replicas is on a failed log directory; an entry of partitionsBeingReassigned with nothing left to add or remove is S7's, a reassignment complete when its partition came online is L11's.", "KAFKA-8237; kafka.md §5.7, §5.12",
     PropertyKind::Liveness, reassignmentsComplete},
    {"L6", "DeletionCompletesAfterErrors",
     "Even after a StopReplica error, a topic whose deletion was requested and that is not being reassigned is deleted once all its replicas' brokers are up and not shutting down and none of its replicas is on a failed log directory.",
     "kafka.md §4.2 (a failed replica deletion waits for a broker restart)", PropertyKind::Liveness,
     deletionCompletesAfterErrors, nullptr,
     "After a StopReplica error the topic is ineligible and retryDeletionForIneligibleReplicas does not clear the "
     "mark, so deletion waits for a broker hosting one of its replicas to start again (kafka.md §4.2), forever if none "
     "does."},
    {"L7", "DeletedTopicsLeaveMetadata",
     "Even in a history where a controller lost its ZooKeeper session, no live broker's metadata cache keeps a partition "
     "of a topic the controller does not know.",
     "kafka.md §4.1 (UpdateMetadata with LeaderDuringDelete), Appendix A", PropertyKind::Liveness,
     deletedTopicsLeaveMetadata, nullptr,
     "A controller that lost its session and has not noticed still processes its queued events: a BrokerChange for a "
     "broker that restarted meanwhile sends it an UpdateMetadata naming a topic the new controller has since deleted. "
     "The broker knows no controller epoch yet, so it accepts the request; ZkMetadataCache.updateMetadata removes a "
     "partition only on a LeaderDuringDelete entry, the new controller sent those to the brokers live at the time, "
     "and nothing sends them again, so the broker keeps the deleted partition."},
    {"L8", "StateMachineBatchesFlushed",
     "The active controller's partition and replica state machines have no request batch left unflushed by a failed "
     "call.",
     "KAFKA-12315; kafka.md §2.3, §3.2, Appendix D.8", PropertyKind::Liveness, stateMachineBatchesFlushed, nullptr,
     "An exception between a state machine's newBatch() and its flush — ControllerMovedException from a fenced "
     "ZooKeeper write of a controller that lost its session, or SESSIONEXPIRED when its session expires in the middle "
     "of an event (zk-session-expiry) — leaves the batch non-empty (KAFKA-12315, unresolved in "
     "3.8). Every later call on that machine fails in newBatch() until the broker restarts, also after the broker is "
     "elected controller again: its replica state machine then sends no LeaderAndIsr or UpdateMetadata for the "
     "replicas of a broker that registered meanwhile, so that broker's metadata never converges (L3 is not asked of "
     "such a controller, nor S6 of one whose partition state machine is stuck: a topic it deletes keeps its Online "
     "partitions)."},
    {"L9", "NoPartitionLeftNew",
     "No partition whose state znode exists stays NewPartition in the active controller (of a topic it is not "
     "deleting). L2, L4 and L5 excuse such a partition in a history where a ZooKeeper response was lost.",
     "kafka.md §2.5, §6.3.8", PropertyKind::Liveness, noPartitionLeftNew, nullptr,
     "When the controller's ZooKeeper connection drops right after ZooKeeper created a partition's state znode, "
     "KafkaZkClient sends the create again and the controller sees NODEEXISTS: it logs the failed New->Online change "
     "and the partition stays NewPartition, its znode naming a leader that no broker was told of. Every later "
     "New->Online attempt meets the same NODEEXISTS, so the partition stays leaderless on the brokers until a "
     "controller failover reads the znode (tests/scenarios/zk_connection_loss_on_partition_creation.scenario); a "
     "reassignment of it removes its old leader and elects none."},
    {"L10", "ControllerCacheFollowsZooKeeper",
     "The active controller's cached leadership of a partition (of a topic it is not deleting) is never older than "
     "its state znode. L2, L4 and L5 excuse such a partition in a history where a ZooKeeper response was lost.",
     "kafka.md §5.12, §6.3.8", PropertyKind::Liveness, controllerCacheFollowsZooKeeper, nullptr,
     "When the connection drops right after ZooKeeper applied AlterPartition's write, the resend answers BADVERSION: "
     "the controller answers INVALID_UPDATE_VERSION and reloads nothing, so its cache (and every UpdateMetadata it "
     "sends) keeps the old ISR while ZooKeeper has the new one, and the leader gives up until a LeaderAndIsr reaches "
     "it. A reassignment waiting for that ISR change never completes, until an election, an ISR removal or a "
     "failover reads the znode again (tests/scenarios/zk_connection_loss_during_alter_partition.scenario)."},
    {"L11", "NewPartitionReassignmentsComplete",
     "A reassignment begun before its partition had a state znode completes once the partition is online (its "
     "first ISR holding every replica of the reassigning assignment).",
     "kafka.md §2.5, §5.5.2, §5.7.4", PropertyKind::Liveness, newPartitionReassignmentsComplete, nullptr,
     "A reassignment of a partition that has no state znode yet (NewPartition: its replicas' brokers were down when "
     "the controller started) cannot bump the leader epoch (updateLeaderEpoch finds no state and logs it), and when a "
     "replica's broker returns, New->Online writes a first ISR of every live replica of the reassigning assignment, "
     "the added ones included. The reassignment is then complete, but only maybeCompleteReassignment notices that: "
     "no ISR change follows (nothing is left to add), onBrokerStartup resumes only reassignments that target the "
     "new broker, so the partition stays in partitionsBeingReassigned with its removing replicas assigned until a "
     "controller failover (initializePartitionReassignments) or a perturbation "
     "(tests/scenarios/deviation_l11_reassigned_before_creation.scenario)."},
};

}  // namespace

std::span<const Property> invariantCatalog() { return kCatalog; }

const Property* catalogProperty(std::string_view id) {
  for (const Property& p : kCatalog) {
    if (p.id == id) return &p;
  }
  return nullptr;
}

bool isKnownKafkaDeviation(std::string_view id) {
  const Property* p = catalogProperty(id);
  return p != nullptr && !p->kafka_deviation.empty();
}

std::vector<std::string_view> violatedStateProperties(const Config& config, const ClusterState& state) {
  std::vector<std::string_view> violated;
  for (const Property& p : kCatalog) {
    if (p.kind == PropertyKind::StateSafety && !p.holds(config, state)) violated.push_back(p.id);
  }
  return violated;
}

std::vector<std::string_view> violatedStepProperties(const Config& config, const ClusterState& before,
                                                     const ClusterState& after, const StepRecord& record) {
  std::vector<std::string_view> violated;
  for (const Property& p : kCatalog) {
    if (p.kind == PropertyKind::StepSafety && !p.holds_across(config, before, after, record)) violated.push_back(p.id);
  }
  return violated;
}

std::vector<std::string_view> unmetGoals(const Config& config, const ClusterState& state) {
  std::vector<std::string_view> unmet;
  for (const Property& p : kCatalog) {
    if (p.kind == PropertyKind::Liveness && !p.holds(config, state)) unmet.push_back(p.id);
  }
  return unmet;
}

bool isQuiescent(const Config& config, const ClusterState& s) {
  if (!activeController(s)) return false;
  bool quiet = true;
  config.brokers.forEach([&](BrokerId b) {
    const BrokerData& broker = s.world.brokers[static_cast<std::size_t>(b)];
    // Registered too: a broker whose session expired runs on unregistered until its new session's
    // RegisterBrokerAndReelect (before session 31 every live broker was registered).
    quiet &= broker.alive && registered(s, b) && broker.inbox.empty() && broker.outbox.empty() &&
             broker.controller.events.empty();
  });
  return quiet;
}

}  // namespace kcspec::spec
