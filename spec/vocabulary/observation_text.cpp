// Observations as (path, value) pairs and their differences (paths listed in observation_text.hpp).
//
// One traversal visits every slot an observation has — every broker id, topic index, partition
// and queue position up to its capacity — in a fixed order, with an empty value for a slot that
// holds its default. Two observations therefore give lists of the same shape, and their
// difference is a walk down both.
#include "spec/vocabulary/observation_text.hpp"

#include "spec/vocabulary/broker_ibp.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "spec/vocabulary/broker_ibp.hpp"
#include "spec/vocabulary/config_text.hpp"  // topicName, partitionName
#include "spec/vocabulary/leader_and_isr.hpp"

namespace kcspec {
namespace {

std::string ids(const BrokerList& list) { return joinIds(list, ","); }

std::string ids(BrokerSet set) {
  std::string out;
  set.forEach([&](BrokerId id) { out += out.empty() ? fmt::format("{}", id) : fmt::format(",{}", id); });
  return out;
}

std::string topics(const Config& config, TopicSet set) {
  std::string out;
  set.forEach([&](TopicIndex t) { out += (out.empty() ? "" : ",") + topicName(config, t); });
  return out;
}

std::string partitions(const Config& config, PartitionSet set) {
  std::string out;
  set.forEach([&](TopicPartition tp) { out += (out.empty() ? "" : ",") + partitionName(config, tp); });
  return out;
}

std::string leaderAndIsrText(const LeaderAndIsr& lai) {
  std::string out = fmt::format("leader={} leader_epoch={} isr={} partition_epoch={}", lai.leader, lai.leader_epoch,
                                ids(lai.isr), lai.partition_epoch);
  if (lai.recovery_state != LeaderRecoveryState::RECOVERED) {
    out += fmt::format(" leader_recovery_state={}", toKafkaString(lai.recovery_state));
  }
  return out;
}

std::string leadershipText(const LeaderIsrAndControllerEpoch& leadership) {
  return fmt::format("{} controller_epoch={}", leaderAndIsrText(leadership.leader_and_isr), leadership.controller_epoch);
}

std::string assignmentText(const ReplicaAssignment& assignment) {
  std::string out = fmt::format("replicas={}", ids(assignment.replicas));
  if (!assignment.adding_replicas.empty()) out += fmt::format(" adding_replicas={}", ids(assignment.adding_replicas));
  if (!assignment.removing_replicas.empty()) {
    out += fmt::format(" removing_replicas={}", ids(assignment.removing_replicas));
  }
  return out;
}

// /brokers/topics/<t>, after Kafka's TopicZNode JSON.
std::string topicZnodeText(const TopicZnodes& topic) {
  std::string all, adding, removing;
  for (std::size_t p = 0; p < topic.partitions.size(); ++p) {
    if (!topic.partitions[p]) continue;  // an id the znode does not list
    const ReplicaAssignment& a = *topic.partitions[p];
    const auto entry = [&](std::string& out, const BrokerList& list) {
      out += fmt::format("{}{}:[{}]", out.empty() ? "" : ",", p, ids(list));
    };
    entry(all, a.replicas);
    if (!a.adding_replicas.empty()) entry(adding, a.adding_replicas);
    if (!a.removing_replicas.empty()) entry(removing, a.removing_replicas);
  }
  std::string out = fmt::format("partitions={{{}}} adding_replicas={{{}}} removing_replicas={{{}}}", all, adding, removing);
  if (topic.topic_id != kNoTopicId) out += fmt::format(" topic_id={}", topic.topic_id);
  return out;
}

// Topic ids by topic ("t0=1,t1=2"), those without one left out.
std::string topicIdsText(const Config& config, const std::array<TopicId, kMaxTopics>& ids) {
  std::string out;
  for (TopicIndex t = 0; t < kMaxTopics; ++t) {
    const TopicId id = ids[static_cast<std::size_t>(t)];
    if (id != kNoTopicId) out += fmt::format("{}{}={}", out.empty() ? "" : ",", topicName(config, t), id);
  }
  return out;
}

std::string updateMetadataText(const UpdateMetadataPartitionState& s) {
  std::string out = fmt::format("controller_epoch={} leader={} leader_epoch={} isr={} zk_version={} replicas={}",
                                s.controller_epoch, s.leader, s.leader_epoch, ids(s.isr), s.zk_version, ids(s.replicas));
  if (!s.offline_replicas.empty()) out += fmt::format(" offline_replicas={}", ids(s.offline_replicas));
  if (s.topic_id != kNoTopicId) out += fmt::format(" topic_id={}", s.topic_id);
  return out;
}

std::string_view requestName(RequestKind kind) {
  switch (kind) {
    case RequestKind::LeaderAndIsr:
      return "LeaderAndIsr";
    case RequestKind::UpdateMetadata:
      return "UpdateMetadata";
    case RequestKind::StopReplica:
      return "StopReplica";
  }
  return "?";
}

std::string requestText(const Config& config, const ControlRequest& r) {
  std::string out = fmt::format("{} v{}(controller={}, controller_epoch={}, broker_epoch={}", requestName(r.kind),
                                r.version, r.controller_id, r.controller_epoch, r.broker_epoch);
  if (r.kind == RequestKind::UpdateMetadata || !r.live_brokers.empty()) {
    out += fmt::format(", live_brokers={}", ids(r.live_brokers));
  }
  if (!r.response_wanted.empty()) out += fmt::format(", response_wanted={}", partitions(config, r.response_wanted));
  out += ")";
  for (const LeaderAndIsrPartitionState& s : r.leader_and_isr) {
    out += fmt::format(" [{} {} {} is_new={}{}]", partitionName(config, s.tp), leadershipText(s.leadership),
                       assignmentText(s.assignment), s.is_new,
                       s.topic_id != kNoTopicId ? fmt::format(" topic_id={}", s.topic_id) : "");
  }
  for (const UpdateMetadataPartitionState& s : r.update_metadata) {
    out += fmt::format(" [{} {}]", partitionName(config, s.tp), updateMetadataText(s));
  }
  for (const StopReplicaPartitionState& s : r.stop_replica) {
    out += fmt::format(" [{} leader_epoch={} delete_partition={}]", partitionName(config, s.tp), s.leader_epoch,
                       s.delete_partition);
  }
  return out;
}

std::string eventText(const Config& config, const ControllerEvent& e) {
  using K = ControllerEventKind;
  std::vector<std::string> fields;
  if (e.broker != kNoLeader) fields.push_back(fmt::format("broker={}", e.broker));
  if (e.broker_epoch != -1) fields.push_back(fmt::format("broker_epoch={}", e.broker_epoch));
  if (e.topic != -1) fields.push_back(fmt::format("topic={}", topicName(config, e.topic)));
  if (e.kind == K::ApiPartitionReassignment || e.kind == K::AlterPartitionReceived ||
      e.kind == K::PartitionReassignmentIsrChange || e.tp != TopicPartition{}) {
    fields.push_back(fmt::format("partition={}", partitionName(config, e.tp)));
  }
  if (!e.partitions.empty()) fields.push_back(fmt::format("partitions={}", partitions(config, e.partitions)));
  if (!e.partition_errors.empty()) fields.push_back(fmt::format("errors={}", partitions(config, e.partition_errors)));
  if (e.kind == K::ReplicaLeaderElection || e.election_type != ElectionType::PREFERRED) {
    fields.push_back(e.election_type == ElectionType::PREFERRED ? "type=PREFERRED" : "type=UNCLEAN");
  }
  if (e.zk_triggered) fields.push_back("trigger=ZkTriggered");
  if (e.cancel) fields.push_back("cancel");
  if ((e.kind == K::ApiPartitionReassignment && !e.cancel) || !e.target_replicas.empty()) {
    fields.push_back(fmt::format("target={}", ids(e.target_replicas)));
  }
  if (e.kind == K::AlterPartitionReceived || e.proposed != LeaderAndIsr{}) {
    fields.push_back(fmt::format("proposed=({})", leaderAndIsrText(e.proposed)));
  }
  if (e.by_topic_id || e.topic_ids != std::array<TopicId, kMaxTopics>{}) {
    fields.push_back(fmt::format("{}topic_ids=({})", e.by_topic_id ? "by_topic_id " : "", topicIdsText(config, e.topic_ids)));
  }
  if (fields.empty()) return std::string(eventName(e.kind));
  return fmt::format("{}({})", eventName(e.kind), fmt::join(fields, ", "));
}

std::string reassignPartitionsText(const Config& config, const ReassignPartitionsZnode& z) {
  if (z == ReassignPartitionsZnode{}) return "";
  std::vector<std::string> entries;
  z.partitions.forEach([&](TopicPartition tp) {
    entries.push_back(fmt::format("{}:[{}]", partitionName(config, tp),
                                  ids(z.targets[static_cast<std::size_t>(partitionIndex(tp))])));
  });
  std::string out = z.exists ? "" : "(absent) ";
  if (z.invalid_json) out += "invalid-json";
  if (z.invalid_json && !entries.empty()) out += " ";
  out += fmt::format("{}", fmt::join(entries, " "));
  if (z.exists && !z.invalid_json && entries.empty()) out += "no partitions";
  return out;
}

std::string preferredReplicaElectionText(const Config& config, const PreferredReplicaElectionZnode& z) {
  if (z == PreferredReplicaElectionZnode{}) return "";
  std::string out = z.exists ? "" : "(absent) ";
  return out + (z.partitions.empty() ? std::string("no partitions") : partitions(config, z.partitions));
}

std::string hostedReplicaText(const HostedReplica& r) {
  if (r == HostedReplica{}) return "";
  const std::string_view role = !r.present ? "stopped" : r.is_leader ? "leader" : "follower";
  std::string out = fmt::format("{} leader_epoch={} partition_epoch={}", role, r.leader_epoch, r.partition_epoch);
  if (!r.isr.empty()) out += fmt::format(" isr={}", ids(r.isr));
  if (r.alter_partition_pending) out += " alter_partition_pending";
  if (!r.refused_expansions.empty()) out += fmt::format(" refused_expansions={}", ids(r.refused_expansions));
  if (!r.refused_shrinks.empty()) out += fmt::format(" refused_shrinks={}", ids(r.refused_shrinks));
  if (r.topic_id != kNoTopicId) out += fmt::format(" topic_id={}", r.topic_id);
  return out;
}

// Visits every slot of `o` in the documented order: emit(path, value), value empty when default.
template <class Emit>
void visitSlots(const Config& config, const Observation& o, Emit&& emit) {
  const ZooKeeperData& zk = o.zk;
  const auto topic_name = [&](int t) { return topicName(config, t); };
  const auto tp_name = [&](int index) { return partitionName(config, partitionAt(index)); };

  for (int t = 0; t < kMaxTopics; ++t) {
    emit(fmt::format("/admin/delete_topics/{}", topic_name(t)), zk.delete_topics.contains(t) ? "exists" : "");
  }
  emit("/admin/reassign_partitions", reassignPartitionsText(config, zk.reassign_partitions));
  emit("/admin/preferred_replica_election", preferredReplicaElectionText(config, zk.preferred_replica_election));
  for (int b = 0; b < kMaxBrokers; ++b) {
    const BrokerRegistration& r = zk.brokers[static_cast<std::size_t>(b)];
    std::string value;
    if (r.registered) {
      value = fmt::format("broker_epoch={}", r.broker_epoch);
    } else if (r != BrokerRegistration{}) {
      value = fmt::format("(unregistered) broker_epoch={}", r.broker_epoch);
    }
    emit(fmt::format("/brokers/ids/{}", b), value);
  }
  for (int t = 0; t < kMaxTopics; ++t) {
    const TopicZnodes& topic = zk.topics[static_cast<std::size_t>(t)];
    std::string value;
    if (topic.exists) {
      value = topicZnodeText(topic);
    } else if (topic.partitionCount() > 0) {
      value = "(absent) " + topicZnodeText(topic);
    }
    emit(fmt::format("/brokers/topics/{}", topic_name(t)), value);
    for (int p = 0; p < kMaxPartitionsPerTopic; ++p) {
      const auto& state = topic.states[static_cast<std::size_t>(p)];
      emit(fmt::format("/brokers/topics/{}/partitions/{}/state", topic_name(t), p),
           state ? fmt::format("{} controller_epoch={}", leaderAndIsrText(state->leader_and_isr), state->controller_epoch)
                 : "");
    }
  }
  for (int t = 0; t < kMaxTopics; ++t) {
    const TopicZnodes& topic = zk.topics[static_cast<std::size_t>(t)];
    emit(fmt::format("/config/topics/{}", topic_name(t)),
         topic.exists || topic.unclean_leader_election_enable
             ? fmt::format("unclean.leader.election.enable={}", topic.unclean_leader_election_enable)
             : "");
  }
  emit("/controller", zk.controller != kNoLeader ? fmt::format("brokerid={}", zk.controller) : "");
  emit("/controller_epoch", zk.controller_epoch_zk_version != -1 || zk.controller_epoch != 0
                                ? fmt::format("epoch={} version={}", zk.controller_epoch, zk.controller_epoch_zk_version)
                                : "");
  emit("/log_dir_event_notification", ids(zk.log_dir_event_notifications));
  emit("zookeeper lost_write_responses", partitions(config, zk.lost_write_responses));
  emit("/isr_change_notification", partitions(config, zk.isr_change_notifications));
  emit("zookeeper lost_feature_write_response", zk.lost_feature_write_response ? "true" : "");
  emit("zookeeper session_expiring_writes", partitions(config, zk.session_expiring_writes));
  emit("/feature", zk.feature.status == FeatureZnodeStatus::Absent
                       ? ""
                       : fmt::format("status={} version={}",
                                     zk.feature.status == FeatureZnodeStatus::Enabled ? "Enabled" : "Disabled",
                                     zk.feature.format_version));
  emit("zookeeper last_zxid", zk.last_zxid != 0 ? fmt::format("{}", zk.last_zxid) : "");

  for (int b = 0; b < kMaxBrokers; ++b) {
    const BrokerData& broker = o.brokers[static_cast<std::size_t>(b)];
    const std::string at = fmt::format("broker {}", b);
    emit(at, broker.alive || broker.broker_epoch != -1 || broker.known_controller_epoch != 0
                 ? fmt::format("{} broker_epoch={} known_controller_epoch={}", broker.alive ? "alive" : "dead",
                               broker.broker_epoch, broker.known_controller_epoch)
                 : "");
    for (std::size_t i = 0; i < kMaxRequestsPerBroker; ++i) {
      emit(fmt::format("{} inbox[{}]", at, i), i < broker.inbox.size() ? requestText(config, broker.inbox[i]) : "");
    }
    emit(at + " metadata live_brokers", ids(broker.metadata_live_brokers));
    for (int i = 0; i < kMaxPartitions; ++i) {
      const auto& entry = broker.metadata_cache[static_cast<std::size_t>(i)];
      emit(fmt::format("{} metadata {}", at, tp_name(i)), entry ? updateMetadataText(*entry) : "");
    }
    for (int i = 0; i < kMaxPartitions; ++i) {
      emit(fmt::format("{} replica {}", at, tp_name(i)), hostedReplicaText(broker.replicas[static_cast<std::size_t>(i)]));
    }
    for (std::size_t i = 0; i < kMaxResponsesPerBroker; ++i) {
      std::string value;
      if (i < broker.outbox.size()) {
        const StopReplicaResponse& r = broker.outbox[i];
        value = fmt::format("StopReplicaResponse(controller={}, controller_epoch={}, partitions={})", r.controller_id,
                            r.controller_epoch, partitions(config, r.partitions));
        if (!r.storage_errors.empty()) {
          value.insert(value.size() - 1, fmt::format(", storage_errors={}", partitions(config, r.storage_errors)));
        }
      }
      emit(fmt::format("{} outbox[{}]", at, i), value);
    }
    for (std::size_t i = 0; i < kMaxLeaderAndIsrResponsesPerBroker; ++i) {
      std::string value;
      if (i < broker.leader_and_isr_responses.size()) {
        const LeaderAndIsrResponse& r = broker.leader_and_isr_responses[i];
        value = fmt::format("LeaderAndIsrResponse(controller={}, controller_epoch={}, partitions={}, storage_errors={}{})",
                            r.controller_id, r.controller_epoch, partitions(config, r.partitions),
                            partitions(config, r.storage_errors),
                            r.by_topic_id ? fmt::format(", topic_ids=({})", topicIdsText(config, r.topic_ids)) : "");
      }
      emit(fmt::format("{} leader_and_isr_responses[{}]", at, i), value);
    }
    emit(at + " offline_log_dir_replicas", partitions(config, broker.offline_log_dir_replicas));
    emit(at + " pending_isr_changes", partitions(config, broker.pending_isr_changes));
    emit(at + " inter.broker.protocol.version",
         broker.ibp_upgraded ? std::string(metadataVersionName(interBrokerProtocolVersion(config, true))) + " (upgraded)"
                             : "");

    const ControllerData& module = broker.controller;
    std::string flags = module.active ? "active" : "";
    if (module.session_lost) flags += flags.empty() ? "session_lost" : " session_lost";
    if (module.psm_batch_unflushed) flags += flags.empty() ? "psm_batch_unflushed" : " psm_batch_unflushed";
    if (module.rsm_batch_unflushed) flags += flags.empty() ? "rsm_batch_unflushed" : " rsm_batch_unflushed";
    emit(at + " controller", flags);
    const ControllerContextData& c = module.context;
    const std::string ctx = at + " controller context ";
    emit(ctx + "epoch", c.epoch != 0 || c.epoch_zk_version != 0
                            ? fmt::format("epoch={} epoch_zk_version={}", c.epoch, c.epoch_zk_version)
                            : "");
    std::string live;
    for (int id = 0; id < kMaxBrokers; ++id) {
      const std::int64_t epoch = c.live_broker_epochs[static_cast<std::size_t>(id)];
      if (epoch != -1) live += fmt::format("{}{}(epoch={})", live.empty() ? "" : ",", id, epoch);
    }
    emit(ctx + "live_brokers", live);
    emit(ctx + "shutting_down_broker_ids", ids(c.shutting_down_broker_ids));
    emit(ctx + "all_topics", topics(config, c.all_topics));
    for (int i = 0; i < kMaxPartitions; ++i) {
      const PartitionContext& pc = c.partitions[static_cast<std::size_t>(i)];
      const std::string tp = ctx + tp_name(i);
      emit(tp + " assignment", pc.assignment ? assignmentText(*pc.assignment) : "");
      emit(tp + " leadership", pc.leadership ? leadershipText(*pc.leadership) : "");
      emit(tp + " state", pc.state ? std::string(stateName(*pc.state)) : "");
      for (int r = 0; r < kMaxBrokers; ++r) {
        const auto& replica = pc.replica_states[static_cast<std::size_t>(r)];
        emit(fmt::format("{} replica {} state", tp, r), replica ? std::string(stateName(*replica)) : "");
      }
    }
    emit(ctx + "partitions_being_reassigned", partitions(config, c.partitions_being_reassigned));
    emit(ctx + "topics_to_be_deleted", topics(config, c.topics_to_be_deleted));
    emit(ctx + "topics_with_deletion_started", topics(config, c.topics_with_deletion_started));
    emit(ctx + "topics_ineligible_for_deletion", topics(config, c.topics_ineligible_for_deletion));
    emit(ctx + "offline_partition_count", c.offline_partition_count != 0 ? fmt::format("{}", c.offline_partition_count) : "");
    for (int id = 0; id < kMaxBrokers; ++id) {
      emit(fmt::format("{}replicas_on_offline_dirs {}", ctx, id),
           partitions(config, c.replicas_on_offline_dirs[static_cast<std::size_t>(id)]));
    }
    emit(ctx + "reassignment_isr_watches", partitions(config, c.reassignment_isr_watches));
    emit(ctx + "topic_ids", topicIdsText(config, c.topic_ids));
    for (std::size_t i = 0; i < kMaxControllerEvents; ++i) {
      emit(fmt::format("{} events[{}]", at, i), i < module.events.size() ? eventText(config, module.events[i]) : "");
    }
  }
}

ObservationEntries allSlots(const Config& config, const Observation& observation) {
  ObservationEntries slots;
  visitSlots(config, observation,
             [&](std::string path, std::string value) { slots.emplace_back(std::move(path), std::move(value)); });
  return slots;
}

}  // namespace

ObservationEntries renderObservation(const Config& config, const Observation& observation) {
  ObservationEntries entries;
  visitSlots(config, observation, [&](std::string path, std::string value) {
    if (!value.empty()) entries.emplace_back(std::move(path), std::move(value));
  });
  return entries;
}

std::string renderObservationText(const Config& config, const Observation& observation) {
  std::string out;
  for (const auto& [path, value] : renderObservation(config, observation)) out += fmt::format("{}: {}\n", path, value);
  return out;
}

std::vector<Change> diffObservations(const Config& config, const Observation& before, const Observation& after) {
  std::vector<Change> changes;
  if (before == after) return changes;
  const ObservationEntries old_slots = allSlots(config, before);
  const ObservationEntries new_slots = allSlots(config, after);
  KCSPEC_ASSERT(old_slots.size() == new_slots.size());
  for (std::size_t i = 0; i < old_slots.size(); ++i) {
    if (old_slots[i].second != new_slots[i].second) {
      changes.push_back(Change{old_slots[i].first, old_slots[i].second, new_slots[i].second});
    }
  }
  return changes;
}

std::string renderChangesText(const std::vector<Change>& changes, std::string_view indent) {
  const auto shown = [](const std::string& value) { return value.empty() ? std::string("(absent)") : value; };
  std::string out;
  for (const Change& c : changes) out += fmt::format("{}{}: {} -> {}\n", indent, c.path, shown(c.before), shown(c.after));
  return out;
}

nlohmann::ordered_json changesJson(const std::vector<Change>& changes) {
  using Json = nlohmann::ordered_json;
  Json out = Json::array();
  const auto value = [](const std::string& v) { return v.empty() ? Json(nullptr) : Json(v); };
  for (const Change& c : changes) {
    Json change = Json::object();
    change["path"] = c.path;
    change["before"] = value(c.before);
    change["after"] = value(c.after);
    out.push_back(std::move(change));
  }
  return out;
}

std::string renderChangesJson(const std::vector<Change>& changes) { return changesJson(changes).dump(); }

}  // namespace kcspec
