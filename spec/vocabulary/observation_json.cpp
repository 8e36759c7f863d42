// Observations to and from JSON (the shape is in observation_json.hpp and docs/driver-protocol.md).
//
// The writer spells each member with its C++ default next to it, so the compact form can leave
// the default out. The reader is strict: every object's members are checked against the list
// of names it may hold, and every number, id and list length against its range before it
// reaches a bounded container (whose overflow would stop the program).
#include "spec/vocabulary/observation_json.hpp"

#include <charconv>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <map>
#include <string_view>
#include <vector>

#include "spec/vocabulary/events.hpp"
#include "spec/vocabulary/requests.hpp"
#include "spec/vocabulary/states.hpp"

namespace kcspec {

std::string jsonPointerToken(std::string_view key) {
  std::string out;
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

namespace {

using OJson = nlohmann::ordered_json;

// ------------------------------------------------------------------------------- shared names

constexpr std::string_view kRequestKindNames[] = {"LeaderAndIsr", "UpdateMetadata", "StopReplica"};
constexpr std::string_view kElectionTypeNames[] = {"PREFERRED", "UNCLEAN"};
constexpr std::string_view kRecoveryStateNames[] = {"RECOVERED", "RECOVERING"};
constexpr std::string_view kFeatureStatusNames[] = {"absent", "disabled", "enabled"};  // FeatureZnodeStatus

std::string partitionKey(TopicPartition tp) { return std::to_string(tp.topic) + "-" + std::to_string(tp.partition); }

// ------------------------------------------------------------------------------------- writer

class Writer {
 public:
  explicit Writer(ObservationJsonOptions options) : full_(options.include_defaults), scope_(options.scope) {}

  OJson observation(const Observation& o) const {
    OJson out = OJson::object();
    out["zookeeper"] = zookeeper(o.zk);
    OJson brokers = OJson::object();
    for (int b = 0; b < kMaxBrokers; ++b) {
      const BrokerData& broker = o.brokers[static_cast<std::size_t>(b)];
      if (fullBroker(b) || !(broker == BrokerData{})) brokers[std::to_string(b)] = brokerJson(broker);
    }
    out["brokers"] = std::move(brokers);
    return out;
  }

 private:
  // Whether the full form writes this id's entry even when it holds its default (scope_).
  bool fullBroker(int b) const { return full_ && (scope_ == nullptr || scope_->brokers.contains(static_cast<BrokerId>(b))); }
  bool fullTopic(int t) const { return full_ && (scope_ == nullptr || t < scope_->topicCount()); }
  bool fullPartition(int i) const { return fullTopic(partitionAt(i).topic); }

  // Sets `obj[key]` unless the compact form leaves the default out.
  void member(OJson& obj, const char* key, OJson value, bool is_default) const {
    if (full_ || !is_default) obj[key] = std::move(value);
  }

  // Sets `obj[key]` unless it holds its default, in either form: the members added after the
  // driver protocol's version 2 (log-directory failures), so that a reader of version 2 never sees them
  // before a history uses them.
  static void laterMember(OJson& obj, const char* key, OJson value, bool is_default) {
    if (!is_default) obj[key] = std::move(value);
  }

  // Sets `obj[key]` to an object or array unless the compact form leaves it out for being empty.
  void container(OJson& obj, const char* key, OJson value) const {
    if (full_ || !value.empty()) obj[key] = std::move(value);
  }

  static OJson ids(const BrokerList& list) {
    OJson out = OJson::array();
    for (BrokerId id : list) out.push_back(id);
    return out;
  }
  static OJson ids(BrokerSet set) {
    OJson out = OJson::array();
    set.forEach([&](BrokerId id) { out.push_back(id); });
    return out;
  }
  static OJson topics(TopicSet set) {
    OJson out = OJson::array();
    set.forEach([&](TopicIndex t) { out.push_back(t); });
    return out;
  }
  static OJson partitions(PartitionSet set) {
    OJson out = OJson::array();
    set.forEach([&](TopicPartition tp) { out.push_back(partitionKey(tp)); });
    return out;
  }
  // Topic ids by topic index, the topics without one left out.
  static OJson topicIds(const std::array<TopicId, kMaxTopics>& ids) {
    OJson out = OJson::object();
    for (TopicIndex t = 0; t < kMaxTopics; ++t) {
      if (ids[static_cast<std::size_t>(t)] != kNoTopicId) out[std::to_string(t)] = ids[static_cast<std::size_t>(t)];
    }
    return out;
  }
  static bool noTopicIds(const std::array<TopicId, kMaxTopics>& ids) { return ids == std::array<TopicId, kMaxTopics>{}; }

  void leaderAndIsrMembers(OJson& out, const LeaderAndIsr& lai) const {
    const LeaderAndIsr d;
    member(out, "leader", lai.leader, lai.leader == d.leader);
    member(out, "leader_epoch", lai.leader_epoch, lai.leader_epoch == d.leader_epoch);
    member(out, "leader_recovery_state", kRecoveryStateNames[static_cast<int>(lai.recovery_state)],
           lai.recovery_state == d.recovery_state);
    member(out, "isr", ids(lai.isr), lai.isr.empty());
    member(out, "partition_epoch", lai.partition_epoch, lai.partition_epoch == d.partition_epoch);
  }

  OJson leaderAndIsr(const LeaderAndIsr& lai) const {
    OJson out = OJson::object();
    leaderAndIsrMembers(out, lai);
    return out;
  }

  // LeaderIsrAndControllerEpoch and the partition-state znode share this shape.
  OJson leadership(const LeaderAndIsr& lai, std::int32_t controller_epoch) const {
    OJson out = OJson::object();
    leaderAndIsrMembers(out, lai);
    member(out, "controller_epoch", controller_epoch, controller_epoch == 0);
    return out;
  }

  OJson assignment(const ReplicaAssignment& a) const {
    OJson out = OJson::object();
    member(out, "replicas", ids(a.replicas), a.replicas.empty());
    member(out, "adding_replicas", ids(a.adding_replicas), a.adding_replicas.empty());
    member(out, "removing_replicas", ids(a.removing_replicas), a.removing_replicas.empty());
    return out;
  }

  OJson zookeeper(const ZooKeeperData& zk) const {
    OJson out = OJson::object();
    OJson brokers = OJson::object();
    for (int b = 0; b < kMaxBrokers; ++b) {
      const BrokerRegistration& r = zk.brokers[static_cast<std::size_t>(b)];
      if (!fullBroker(b) && r == BrokerRegistration{}) continue;
      OJson entry = OJson::object();
      member(entry, "registered", r.registered, !r.registered);
      member(entry, "broker_epoch", r.broker_epoch, r.broker_epoch == -1);
      brokers[std::to_string(b)] = std::move(entry);
    }
    container(out, "brokers", std::move(brokers));
    OJson topics_json = OJson::object();
    for (int t = 0; t < kMaxTopics; ++t) {
      const TopicZnodes& topic = zk.topics[static_cast<std::size_t>(t)];
      if (!fullTopic(t) && topic == TopicZnodes{}) continue;
      OJson entry = OJson::object();
      member(entry, "exists", topic.exists, !topic.exists);
      // By partition id, up to the highest the znode lists; an id it does not list below that is null.
      OJson parts = OJson::array();
      std::size_t listed_end = 0;
      for (std::size_t p = 0; p < topic.partitions.size(); ++p) {
        if (topic.partitions[p]) listed_end = p + 1;
      }
      for (std::size_t p = 0; p < listed_end; ++p) {
        parts.push_back(topic.partitions[p] ? assignment(*topic.partitions[p]) : OJson(nullptr));
      }
      member(entry, "partitions", std::move(parts), listed_end == 0);
      OJson states = OJson::object();
      for (int p = 0; p < kMaxPartitionsPerTopic; ++p) {
        const auto& state = topic.states[static_cast<std::size_t>(p)];
        if (state) {
          states[std::to_string(p)] = leadership(state->leader_and_isr, state->controller_epoch);
        } else if (full_) {
          states[std::to_string(p)] = nullptr;
        }
      }
      container(entry, "states", std::move(states));
      member(entry, "unclean_leader_election_enable", topic.unclean_leader_election_enable,
             !topic.unclean_leader_election_enable);
      laterMember(entry, "topic_id", topic.topic_id, topic.topic_id == kNoTopicId);
      topics_json[std::to_string(t)] = std::move(entry);
    }
    container(out, "topics", std::move(topics_json));
    member(out, "controller", zk.controller, zk.controller == kNoLeader);
    member(out, "controller_epoch", zk.controller_epoch, zk.controller_epoch == 0);
    member(out, "controller_epoch_zk_version", zk.controller_epoch_zk_version, zk.controller_epoch_zk_version == -1);
    member(out, "delete_topics", topics(zk.delete_topics), zk.delete_topics.empty());
    member(out, "last_zxid", zk.last_zxid, zk.last_zxid == 0);
    const ReassignPartitionsZnode& reassign = zk.reassign_partitions;
    if (full_ || reassign != ReassignPartitionsZnode{}) {
      OJson entry = OJson::object();
      member(entry, "exists", reassign.exists, !reassign.exists);
      member(entry, "invalid_json", reassign.invalid_json, !reassign.invalid_json);
      OJson targets = OJson::object();
      reassign.partitions.forEach([&](TopicPartition tp) {
        targets[partitionKey(tp)] = ids(reassign.targets[static_cast<std::size_t>(partitionIndex(tp))]);
      });
      container(entry, "partitions", std::move(targets));
      out["reassign_partitions"] = std::move(entry);
    }
    const PreferredReplicaElectionZnode& preferred = zk.preferred_replica_election;
    if (full_ || preferred != PreferredReplicaElectionZnode{}) {
      OJson entry = OJson::object();
      member(entry, "exists", preferred.exists, !preferred.exists);
      member(entry, "partitions", partitions(preferred.partitions), preferred.partitions.empty());
      out["preferred_replica_election"] = std::move(entry);
    }
    laterMember(out, "log_dir_event_notifications", ids(zk.log_dir_event_notifications),
                zk.log_dir_event_notifications.empty());
    laterMember(out, "lost_write_responses", partitions(zk.lost_write_responses), zk.lost_write_responses.empty());
    laterMember(out, "isr_change_notifications", partitions(zk.isr_change_notifications),
                zk.isr_change_notifications.empty());
    // Driver protocol 5 and trace format 5: in the full form always (its shape the same in every
    // state), in the compact one while the znode exists.
    OJson feature = OJson::object();
    feature["status"] = kFeatureStatusNames[static_cast<int>(zk.feature.status)];
    feature["version"] = zk.feature.format_version;
    member(out, "feature", std::move(feature), zk.feature == FeatureZnode{});
    laterMember(out, "lost_feature_write_response", zk.lost_feature_write_response, !zk.lost_feature_write_response);
    // Driver protocol 6 and trace format 6.
    laterMember(out, "session_expiring_writes", partitions(zk.session_expiring_writes), zk.session_expiring_writes.empty());
    return out;
  }

  OJson updateMetadata(const UpdateMetadataPartitionState& s, bool with_partition) const {
    const UpdateMetadataPartitionState d;
    OJson out = OJson::object();
    if (with_partition) out["partition"] = partitionKey(s.tp);
    member(out, "controller_epoch", s.controller_epoch, s.controller_epoch == d.controller_epoch);
    member(out, "leader", s.leader, s.leader == d.leader);
    member(out, "leader_epoch", s.leader_epoch, s.leader_epoch == d.leader_epoch);
    member(out, "isr", ids(s.isr), s.isr.empty());
    member(out, "zk_version", s.zk_version, s.zk_version == d.zk_version);
    member(out, "replicas", ids(s.replicas), s.replicas.empty());
    member(out, "offline_replicas", ids(s.offline_replicas), s.offline_replicas.empty());
    laterMember(out, "topic_id", s.topic_id, s.topic_id == kNoTopicId);
    return out;
  }

  OJson request(const ControlRequest& r) const {
    const ControlRequest d;
    OJson out = OJson::object();
    out["kind"] = kRequestKindNames[static_cast<int>(r.kind)];
    member(out, "version", r.version, r.version == newestRequestVersion(r.kind));
    member(out, "controller_id", r.controller_id, r.controller_id == d.controller_id);
    member(out, "controller_epoch", r.controller_epoch, r.controller_epoch == d.controller_epoch);
    member(out, "broker_epoch", r.broker_epoch, r.broker_epoch == d.broker_epoch);
    OJson lai = OJson::array();
    for (const LeaderAndIsrPartitionState& s : r.leader_and_isr) {
      OJson entry = OJson::object();
      entry["partition"] = partitionKey(s.tp);
      entry["leadership"] = leadership(s.leadership.leader_and_isr, s.leadership.controller_epoch);
      entry["assignment"] = assignment(s.assignment);
      member(entry, "is_new", s.is_new, !s.is_new);
      laterMember(entry, "topic_id", s.topic_id, s.topic_id == kNoTopicId);
      lai.push_back(std::move(entry));
    }
    member(out, "leader_and_isr", std::move(lai), r.leader_and_isr.empty());
    OJson um = OJson::array();
    for (const UpdateMetadataPartitionState& s : r.update_metadata) um.push_back(updateMetadata(s, true));
    member(out, "update_metadata", std::move(um), r.update_metadata.empty());
    member(out, "live_brokers", ids(r.live_brokers), r.live_brokers.empty());
    OJson sr = OJson::array();
    for (const StopReplicaPartitionState& s : r.stop_replica) {
      OJson entry = OJson::object();
      entry["partition"] = partitionKey(s.tp);
      member(entry, "leader_epoch", s.leader_epoch, s.leader_epoch == 0);
      member(entry, "delete_partition", s.delete_partition, !s.delete_partition);
      sr.push_back(std::move(entry));
    }
    member(out, "stop_replica", std::move(sr), r.stop_replica.empty());
    member(out, "response_wanted", partitions(r.response_wanted), r.response_wanted.empty());
    return out;
  }

  OJson event(const ControllerEvent& e) const {
    const ControllerEvent d;
    OJson out = OJson::object();
    out["kind"] = eventName(e.kind);
    member(out, "broker", e.broker, e.broker == d.broker);
    member(out, "broker_epoch", e.broker_epoch, e.broker_epoch == d.broker_epoch);
    member(out, "topic", e.topic, e.topic == d.topic);
    member(out, "partition", partitionKey(e.tp), e.tp == d.tp);
    member(out, "partitions", partitions(e.partitions), e.partitions.empty());
    member(out, "partition_errors", partitions(e.partition_errors), e.partition_errors.empty());
    member(out, "election_type", kElectionTypeNames[static_cast<int>(e.election_type)],
           e.election_type == d.election_type);
    member(out, "zk_triggered", e.zk_triggered, !e.zk_triggered);
    member(out, "cancel", e.cancel, !e.cancel);
    member(out, "target_replicas", ids(e.target_replicas), e.target_replicas.empty());
    member(out, "proposed", leaderAndIsr(e.proposed), e.proposed == d.proposed);
    laterMember(out, "by_topic_id", e.by_topic_id, !e.by_topic_id);
    laterMember(out, "topic_ids", topicIds(e.topic_ids), noTopicIds(e.topic_ids));
    return out;
  }

  OJson hosted(const HostedReplica& r) const {
    const HostedReplica d;
    OJson out = OJson::object();
    member(out, "present", r.present, !r.present);
    member(out, "is_leader", r.is_leader, !r.is_leader);
    member(out, "leader_epoch", r.leader_epoch, r.leader_epoch == d.leader_epoch);
    member(out, "partition_epoch", r.partition_epoch, r.partition_epoch == d.partition_epoch);
    member(out, "isr", ids(r.isr), r.isr.empty());
    member(out, "alter_partition_pending", r.alter_partition_pending, !r.alter_partition_pending);
    member(out, "refused_expansions", ids(r.refused_expansions), r.refused_expansions.empty());
    member(out, "refused_shrinks", ids(r.refused_shrinks), r.refused_shrinks.empty());
    laterMember(out, "topic_id", r.topic_id, r.topic_id == kNoTopicId);
    return out;
  }

  OJson context(const ControllerContextData& c) const {
    const ControllerContextData d;
    OJson out = OJson::object();
    member(out, "epoch", c.epoch, c.epoch == d.epoch);
    member(out, "epoch_zk_version", c.epoch_zk_version, c.epoch_zk_version == d.epoch_zk_version);
    OJson live = OJson::object();
    for (int b = 0; b < kMaxBrokers; ++b) {
      const std::int64_t epoch = c.live_broker_epochs[static_cast<std::size_t>(b)];
      if (fullBroker(b) || epoch != -1) live[std::to_string(b)] = epoch;
    }
    container(out, "live_broker_epochs", std::move(live));
    member(out, "shutting_down_broker_ids", ids(c.shutting_down_broker_ids), c.shutting_down_broker_ids.empty());
    member(out, "all_topics", topics(c.all_topics), c.all_topics.empty());
    OJson parts = OJson::object();
    for (int i = 0; i < kMaxPartitions; ++i) {
      const PartitionContext& pc = c.partitions[static_cast<std::size_t>(i)];
      if (!fullPartition(i) && pc == PartitionContext{}) continue;
      OJson entry = OJson::object();
      if (pc.assignment) {
        entry["assignment"] = assignment(*pc.assignment);
      } else if (full_) {
        entry["assignment"] = nullptr;
      }
      if (pc.leadership) {
        entry["leadership"] = leadership(pc.leadership->leader_and_isr, pc.leadership->controller_epoch);
      } else if (full_) {
        entry["leadership"] = nullptr;
      }
      if (pc.state) {
        entry["state"] = stateName(*pc.state);
      } else if (full_) {
        entry["state"] = nullptr;
      }
      OJson replicas = OJson::object();
      for (int r = 0; r < kMaxBrokers; ++r) {
        const auto& state = pc.replica_states[static_cast<std::size_t>(r)];
        if (state) {
          replicas[std::to_string(r)] = stateName(*state);
        } else if (fullBroker(r)) {
          replicas[std::to_string(r)] = nullptr;
        }
      }
      container(entry, "replica_states", std::move(replicas));
      parts[partitionKey(partitionAt(i))] = std::move(entry);
    }
    container(out, "partitions", std::move(parts));
    member(out, "partitions_being_reassigned", partitions(c.partitions_being_reassigned),
           c.partitions_being_reassigned.empty());
    member(out, "topics_to_be_deleted", topics(c.topics_to_be_deleted), c.topics_to_be_deleted.empty());
    member(out, "topics_with_deletion_started", topics(c.topics_with_deletion_started),
           c.topics_with_deletion_started.empty());
    member(out, "topics_ineligible_for_deletion", topics(c.topics_ineligible_for_deletion),
           c.topics_ineligible_for_deletion.empty());
    member(out, "offline_partition_count", c.offline_partition_count, c.offline_partition_count == 0);
    OJson offline_dirs = OJson::object();
    for (BrokerId b = 0; b < kMaxBrokers; ++b) {
      const PartitionSet& set = c.replicas_on_offline_dirs[static_cast<std::size_t>(b)];
      if (!set.empty()) offline_dirs[std::to_string(b)] = partitions(set);
    }
    const bool no_offline_dirs = offline_dirs.empty();
    laterMember(out, "replicas_on_offline_dirs", std::move(offline_dirs), no_offline_dirs);
    laterMember(out, "reassignment_isr_watches", partitions(c.reassignment_isr_watches),
                c.reassignment_isr_watches.empty());
    laterMember(out, "topic_ids", topicIds(c.topic_ids), noTopicIds(c.topic_ids));
    return out;
  }

  OJson controller(const ControllerData& c) const {
    OJson out = OJson::object();
    member(out, "active", c.active, !c.active);
    member(out, "session_lost", c.session_lost, !c.session_lost);
    member(out, "psm_batch_unflushed", c.psm_batch_unflushed, !c.psm_batch_unflushed);
    member(out, "rsm_batch_unflushed", c.rsm_batch_unflushed, !c.rsm_batch_unflushed);
    member(out, "context", context(c.context), c.context == ControllerContextData{});
    OJson events = OJson::array();
    for (const ControllerEvent& e : c.events) events.push_back(event(e));
    member(out, "events", std::move(events), c.events.empty());
    return out;
  }

  // A response queue (StopReplica or LeaderAndIsr responses: the same members), head first.
  template <class Queue>
  OJson responses(const Queue& queue) const {
    OJson out = OJson::array();
    for (const auto& r : queue) {
      OJson entry = OJson::object();
      member(entry, "controller_id", r.controller_id, r.controller_id == kNoLeader);
      member(entry, "controller_epoch", r.controller_epoch, r.controller_epoch == 0);
      member(entry, "partitions", partitions(r.partitions), r.partitions.empty());
      laterMember(entry, "storage_errors", partitions(r.storage_errors), r.storage_errors.empty());
      if constexpr (requires { r.topic_ids; }) {
        laterMember(entry, "by_topic_id", r.by_topic_id, !r.by_topic_id);
        laterMember(entry, "topic_ids", topicIds(r.topic_ids), noTopicIds(r.topic_ids));
      }
      out.push_back(std::move(entry));
    }
    return out;
  }

  OJson brokerJson(const BrokerData& b) const {
    const BrokerData d;
    OJson out = OJson::object();
    member(out, "alive", b.alive, !b.alive);
    member(out, "broker_epoch", b.broker_epoch, b.broker_epoch == d.broker_epoch);
    member(out, "known_controller_epoch", b.known_controller_epoch, b.known_controller_epoch == d.known_controller_epoch);
    OJson inbox = OJson::array();
    for (const ControlRequest& r : b.inbox) inbox.push_back(request(r));
    member(out, "inbox", std::move(inbox), b.inbox.empty());
    OJson cache = OJson::object();
    for (int i = 0; i < kMaxPartitions; ++i) {
      const auto& entry = b.metadata_cache[static_cast<std::size_t>(i)];
      if (entry) {
        cache[partitionKey(partitionAt(i))] = updateMetadata(*entry, false);
      } else if (fullPartition(i)) {
        cache[partitionKey(partitionAt(i))] = nullptr;
      }
    }
    container(out, "metadata_cache", std::move(cache));
    member(out, "metadata_live_brokers", ids(b.metadata_live_brokers), b.metadata_live_brokers.empty());
    OJson replicas = OJson::object();
    for (int i = 0; i < kMaxPartitions; ++i) {
      const HostedReplica& r = b.replicas[static_cast<std::size_t>(i)];
      if (fullPartition(i) || !(r == HostedReplica{})) replicas[partitionKey(partitionAt(i))] = hosted(r);
    }
    container(out, "replicas", std::move(replicas));
    member(out, "outbox", responses(b.outbox), b.outbox.empty());
    laterMember(out, "leader_and_isr_responses", responses(b.leader_and_isr_responses), b.leader_and_isr_responses.empty());
    laterMember(out, "offline_log_dir_replicas", partitions(b.offline_log_dir_replicas), b.offline_log_dir_replicas.empty());
    laterMember(out, "pending_isr_changes", partitions(b.pending_isr_changes), b.pending_isr_changes.empty());
    laterMember(out, "ibp_upgraded", b.ibp_upgraded, !b.ibp_upgraded);
    member(out, "controller", controller(b.controller),
           b.controller == ControllerData{});
    return out;
  }

  bool full_;
  const Config* scope_;
};

// ------------------------------------------------------------------------------------- reader

template <class Json>
class Reader {
 public:
  explicit Reader(ObservationJsonReadOptions options) : options_(options) {}

  Observation observation(const Json& j) const {
    Observation o;
    const std::string at;
    object(j, at, {"zookeeper", "brokers"});
    if (const Json* zk = find(j, "zookeeper")) o.zk = zookeeper(*zk, at + "/zookeeper");
    if (const Json* brokers = find(j, "brokers")) {
      const std::string bat = at + "/brokers";
      object(*brokers, bat, {});
      for (const auto& [key, value] : brokers->items()) {
        const int b = brokerKey(key, bat);
        o.brokers[static_cast<std::size_t>(b)] = broker(value, child(bat, key));
      }
    }
    return o;
  }

 private:
  [[noreturn]] static void fail(const std::string& at, const std::string& message) {
    throw ObservationJsonError(at, message);
  }

  static std::string child(const std::string& at, std::string_view key) { return at + "/" + jsonPointerToken(key); }
  static std::string child(const std::string& at, std::size_t index) { return at + "/" + std::to_string(index); }

  static std::string typeName(const Json& j) { return j.type_name(); }

  // `j` is an object whose members are among `allowed` (an empty list: any keys, checked by the caller).
  void object(const Json& j, const std::string& at, std::initializer_list<std::string_view> allowed) const {
    if (!j.is_object()) fail(at, "expected an object, got " + typeName(j));
    if (allowed.size() == 0) return;
    for (const auto& [key, value] : j.items()) {
      bool known = false;
      for (std::string_view name : allowed) known = known || name == key;
      if (!known) {
        std::string names;
        for (std::string_view name : allowed) names += (names.empty() ? "" : ", ") + std::string(name);
        fail(child(at, key), "unknown member (expected one of " + names + ")");
      }
    }
  }

  static const Json* find(const Json& j, const char* key) {
    const auto it = j.find(key);
    return it == j.end() ? nullptr : &*it;
  }

  bool boolean(const Json& j, const std::string& at) const {
    if (!j.is_boolean()) fail(at, "expected true or false, got " + typeName(j));
    return j.template get<bool>();
  }

  template <class Int>
  Int integer(const Json& j, const std::string& at, std::int64_t min = std::numeric_limits<Int>::min(),
                     std::int64_t max = std::numeric_limits<Int>::max()) const {
    if (!j.is_number_integer()) fail(at, "expected an integer, got " + typeName(j));
    if (j.is_number_unsigned()) {
      const auto u = j.template get<std::uint64_t>();
      if (u > static_cast<std::uint64_t>(max)) fail(at, "out of range " + std::to_string(min) + " … " + std::to_string(max));
      return static_cast<Int>(u);
    }
    const auto v = j.template get<std::int64_t>();
    if (v < min || v > max) fail(at, "out of range " + std::to_string(min) + " … " + std::to_string(max));
    return static_cast<Int>(v);
  }

  std::string_view string(const Json& j, const std::string& at) const {
    if (!j.is_string()) fail(at, "expected a string, got " + typeName(j));
    return j.template get_ref<const std::string&>();
  }

  template <std::size_t N>
  int enumeration(const Json& j, const std::string& at, const std::string_view (&names)[N]) const {
    const std::string_view name = string(j, at);
    for (std::size_t i = 0; i < N; ++i) {
      if (names[i] == name) return static_cast<int>(i);
    }
    std::string expected;
    for (std::string_view n : names) expected += (expected.empty() ? "" : ", ") + std::string(n);
    fail(at, "expected one of " + expected + ", got \"" + std::string(name) + "\"");
  }

  template <class State>
  State state(const Json& j, const std::string& at) const {
    const std::string_view name = string(j, at);
    if (const auto s = stateFromName<State>(name)) return *s;
    std::string expected;
    for (std::string_view n : StateTraits<State>::names) expected += (expected.empty() ? "" : ", ") + std::string(n);
    fail(at, "expected one of " + expected + ", got \"" + std::string(name) + "\"");
  }

  // An element of an array: its value and its pointer.
  struct Element {
    const Json* value;
    std::string at;
    std::size_t index = 0;  // its position in the array
  };

  // The elements of the array `j` of at most `max_size` elements. With arrays_keyed_by_index,
  // `j` may also be an object keyed by decimal index ({"1": …}: element 1 alone), whose keys are
  // all checked before its elements are read, and whose elements come in index order, each
  // named by its key.
  std::vector<Element> elements(const Json& j, const std::string& at, std::size_t max_size) const {
    std::vector<Element> out;
    if (j.is_array()) {
      if (j.size() > max_size) fail(at, "at most " + std::to_string(max_size) + " elements, got " + std::to_string(j.size()));
      for (std::size_t i = 0; i < j.size(); ++i) out.push_back(Element{&j[i], child(at, i), i});
      return out;
    }
    if (!options_.arrays_keyed_by_index || !j.is_object()) fail(at, "expected an array, got " + typeName(j));
    std::map<std::size_t, Element> by_index;
    for (const auto& [key, value] : j.items()) {
      const std::size_t index = arrayIndex(key, child(at, key), max_size);
      by_index.emplace(index, Element{&value, child(at, key), index});
    }
    for (auto& [index, element] : by_index) out.push_back(std::move(element));
    return out;
  }

  // A key of an array given as an object: "0", "1", … below `max_size`, one spelling per index
  // ("01", "-1", "+1", "x" are refused).
  static std::size_t arrayIndex(std::string_view key, const std::string& at, std::size_t max_size) {
    const bool decimal = !key.empty() && key.find_first_not_of("0123456789") == std::string_view::npos &&
                         (key.size() == 1 || key[0] != '0');
    if (!decimal) fail(at, "expected a decimal index (0, 1, …) as key of an array given as an object");
    std::size_t index = 0;
    const auto [end, error] = std::from_chars(key.data(), key.data() + key.size(), index);
    if (error != std::errc{} || index >= max_size) {
      fail(at, "index " + std::string(key) + " is out of range (the array holds at most " + std::to_string(max_size) +
                   " elements)");
    }
    return index;
  }

  std::optional<int> number(std::string_view text) const {
    int value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || end != text.data() + text.size() || text.empty() || text[0] == '-' || text[0] == '+') {
      return std::nullopt;
    }
    if (text.size() > 1 && text[0] == '0') return std::nullopt;  // one spelling per id
    return value;
  }

  int keyNumber(std::string_view key, const std::string& at, int limit, const char* what) const {
    const auto n = number(key);
    if (!n || *n >= limit) {
      fail(child(at, key), std::string("expected a ") + what + " 0 … " + std::to_string(limit - 1) + " as key");
    }
    return *n;
  }
  int brokerKey(std::string_view key, const std::string& at) const { return keyNumber(key, at, kMaxBrokers, "broker id"); }

  TopicPartition partitionName(std::string_view text, const std::string& at, const std::string& where) const {
    const std::size_t dash = text.find('-');
    std::optional<int> t, p;
    if (dash != std::string_view::npos) {
      t = number(text.substr(0, dash));
      p = number(text.substr(dash + 1));
    }
    if (!t || !p || *t >= kMaxTopics || *p >= kMaxPartitionsPerTopic) {
      fail(where, "expected a partition \"<topic 0…" + std::to_string(kMaxTopics - 1) + ">-<partition 0…" +
                      std::to_string(kMaxPartitionsPerTopic - 1) + ">\", got \"" + std::string(text) + "\"");
    }
    (void)at;
    return TopicPartition{*t, *p};
  }
  TopicPartition partitionValue(const Json& j, const std::string& at) const {
    return partitionName(string(j, at), at, at);
  }

  BrokerList brokerList(const Json& j, const std::string& at) const {
    BrokerList out;
    for (const Element& e : elements(j, at, BrokerList::capacity)) out.push_back(integer<BrokerId>(*e.value, e.at));
    return out;
  }
  BrokerSet brokerSet(const Json& j, const std::string& at) const {
    BrokerSet out;
    for (const Element& e : elements(j, at, static_cast<std::size_t>(kMaxBrokers))) out.insert(integer<BrokerId>(*e.value, e.at, 0, kMaxBrokers - 1));
    return out;
  }
  TopicSet topicSet(const Json& j, const std::string& at) const {
    TopicSet out;
    for (const Element& e : elements(j, at, static_cast<std::size_t>(kMaxTopics))) out.insert(integer<TopicIndex>(*e.value, e.at, 0, kMaxTopics - 1));
    return out;
  }
  PartitionSet partitionSet(const Json& j, const std::string& at) const {
    PartitionSet out;
    for (const Element& e : elements(j, at, static_cast<std::size_t>(kMaxPartitions))) out.insert(partitionValue(*e.value, e.at));
    return out;
  }
  // A topic id: 0 (none) … 255.
  TopicId topicId(const Json& j, const std::string& at) const {
    return static_cast<TopicId>(integer<int>(j, at, 0, std::numeric_limits<TopicId>::max()));
  }
  // Topic ids by topic index ({"0": 1, …}); a topic not listed has none.
  std::array<TopicId, kMaxTopics> topicIds(const Json& j, const std::string& at) const {
    object(j, at, {});
    std::array<TopicId, kMaxTopics> out{};
    for (const auto& [key, value] : j.items()) {
      const int t = keyNumber(key, at, kMaxTopics, "topic index");
      out[static_cast<std::size_t>(t)] = topicId(value, child(at, key));
    }
    return out;
  }

  // Reads member `key` of `j` with `read` when it is present.
  template <class Read>
  void read(const Json& j, const std::string& at, const char* key, Read&& read_value) const {
    if (const Json* v = find(j, key)) read_value(*v, child(at, key));
  }

  void leaderAndIsrMembers(const Json& j, const std::string& at, LeaderAndIsr& out) const {
    read(j, at, "leader", [&](const Json& v, const std::string& p) { out.leader = integer<BrokerId>(v, p); });
    read(j, at, "leader_epoch", [&](const Json& v, const std::string& p) { out.leader_epoch = integer<std::int32_t>(v, p); });
    read(j, at, "leader_recovery_state", [&](const Json& v, const std::string& p) {
      out.recovery_state = static_cast<LeaderRecoveryState>(enumeration(v, p, kRecoveryStateNames));
    });
    read(j, at, "isr", [&](const Json& v, const std::string& p) { out.isr = brokerList(v, p); });
    read(j, at, "partition_epoch",
         [&](const Json& v, const std::string& p) { out.partition_epoch = integer<std::int32_t>(v, p); });
  }

  LeaderAndIsr leaderAndIsr(const Json& j, const std::string& at) const {
    object(j, at, {"leader", "leader_epoch", "leader_recovery_state", "isr", "partition_epoch"});
    LeaderAndIsr out;
    leaderAndIsrMembers(j, at, out);
    return out;
  }

  LeaderIsrAndControllerEpoch leadership(const Json& j, const std::string& at) const {
    object(j, at, {"leader", "leader_epoch", "leader_recovery_state", "isr", "partition_epoch", "controller_epoch"});
    LeaderIsrAndControllerEpoch out;
    leaderAndIsrMembers(j, at, out.leader_and_isr);
    read(j, at, "controller_epoch",
         [&](const Json& v, const std::string& p) { out.controller_epoch = integer<std::int32_t>(v, p); });
    return out;
  }

  ReplicaAssignment assignment(const Json& j, const std::string& at) const {
    object(j, at, {"replicas", "adding_replicas", "removing_replicas"});
    ReplicaAssignment out;
    read(j, at, "replicas", [&](const Json& v, const std::string& p) { out.replicas = brokerList(v, p); });
    read(j, at, "adding_replicas", [&](const Json& v, const std::string& p) { out.adding_replicas = brokerList(v, p); });
    read(j, at, "removing_replicas",
         [&](const Json& v, const std::string& p) { out.removing_replicas = brokerList(v, p); });
    return out;
  }

  ZooKeeperData zookeeper(const Json& j, const std::string& at) const {
    object(j, at, {"brokers", "topics", "controller", "controller_epoch", "controller_epoch_zk_version", "delete_topics",
                   "last_zxid", "reassign_partitions", "preferred_replica_election", "log_dir_event_notifications",
                   "lost_write_responses", "isr_change_notifications", "feature", "lost_feature_write_response",
                   "session_expiring_writes"});
    ZooKeeperData zk;
    read(j, at, "brokers", [&](const Json& brokers, const std::string& bat) {
      object(brokers, bat, {});
      for (const auto& [key, value] : brokers.items()) {
        const int b = brokerKey(key, bat);
        const std::string rat = child(bat, key);
        object(value, rat, {"registered", "broker_epoch"});
        BrokerRegistration& r = zk.brokers[static_cast<std::size_t>(b)];
        read(value, rat, "registered", [&](const Json& v, const std::string& p) { r.registered = boolean(v, p); });
        read(value, rat, "broker_epoch", [&](const Json& v, const std::string& p) { r.broker_epoch = integer<std::int64_t>(v, p); });
      }
    });
    read(j, at, "topics", [&](const Json& topics, const std::string& tat) {
      object(topics, tat, {});
      for (const auto& [key, value] : topics.items()) {
        const int t = keyNumber(key, tat, kMaxTopics, "topic index");
        const std::string eat = child(tat, key);
        object(value, eat, {"exists", "partitions", "states", "unclean_leader_election_enable", "topic_id"});
        TopicZnodes& topic = zk.topics[static_cast<std::size_t>(t)];
        read(value, eat, "exists", [&](const Json& v, const std::string& p) { topic.exists = boolean(v, p); });
        read(value, eat, "partitions", [&](const Json& v, const std::string& p) {
          // By partition id; null: the znode does not list that id (kafka.md §5.10.2).
          for (const Element& e : elements(v, p, static_cast<std::size_t>(kMaxPartitionsPerTopic))) {
            if (!e.value->is_null()) topic.partitions[e.index] = assignment(*e.value, e.at);
          }
        });
        read(value, eat, "states", [&](const Json& states, const std::string& sat) {
          object(states, sat, {});
          for (const auto& [pkey, state] : states.items()) {
            const int p = keyNumber(pkey, sat, kMaxPartitionsPerTopic, "partition");
            if (state.is_null()) continue;
            const LeaderIsrAndControllerEpoch l = leadership(state, child(sat, pkey));
            topic.states[static_cast<std::size_t>(p)] = PartitionStateZnode{l.leader_and_isr, l.controller_epoch};
          }
        });
        read(value, eat, "unclean_leader_election_enable",
             [&](const Json& v, const std::string& p) { topic.unclean_leader_election_enable = boolean(v, p); });
        read(value, eat, "topic_id", [&](const Json& v, const std::string& p) { topic.topic_id = topicId(v, p); });
      }
    });
    read(j, at, "controller", [&](const Json& v, const std::string& p) { zk.controller = integer<BrokerId>(v, p); });
    read(j, at, "controller_epoch", [&](const Json& v, const std::string& p) { zk.controller_epoch = integer<std::int32_t>(v, p); });
    read(j, at, "controller_epoch_zk_version",
         [&](const Json& v, const std::string& p) { zk.controller_epoch_zk_version = integer<std::int32_t>(v, p); });
    read(j, at, "delete_topics", [&](const Json& v, const std::string& p) { zk.delete_topics = topicSet(v, p); });
    read(j, at, "last_zxid", [&](const Json& v, const std::string& p) { zk.last_zxid = integer<std::int64_t>(v, p); });
    read(j, at, "reassign_partitions", [&](const Json& v, const std::string& rat) {
      object(v, rat, {"exists", "invalid_json", "partitions"});
      ReassignPartitionsZnode& z = zk.reassign_partitions;
      read(v, rat, "exists", [&](const Json& e, const std::string& p) { z.exists = boolean(e, p); });
      read(v, rat, "invalid_json", [&](const Json& e, const std::string& p) { z.invalid_json = boolean(e, p); });
      read(v, rat, "partitions", [&](const Json& targets, const std::string& tat) {
        object(targets, tat, {});
        for (const auto& [key, value] : targets.items()) {
          const TopicPartition tp = partitionName(key, tat, child(tat, key));
          z.partitions.insert(tp);
          z.targets[static_cast<std::size_t>(partitionIndex(tp))] = brokerList(value, child(tat, key));
        }
      });
    });
    read(j, at, "preferred_replica_election", [&](const Json& v, const std::string& pat) {
      object(v, pat, {"exists", "partitions"});
      PreferredReplicaElectionZnode& z = zk.preferred_replica_election;
      read(v, pat, "exists", [&](const Json& e, const std::string& p) { z.exists = boolean(e, p); });
      read(v, pat, "partitions", [&](const Json& e, const std::string& p) { z.partitions = partitionSet(e, p); });
    });
    read(j, at, "log_dir_event_notifications",
         [&](const Json& v, const std::string& p) { zk.log_dir_event_notifications = brokerSet(v, p); });
    read(j, at, "lost_write_responses",
         [&](const Json& v, const std::string& p) { zk.lost_write_responses = partitionSet(v, p); });
    read(j, at, "isr_change_notifications",
         [&](const Json& v, const std::string& p) { zk.isr_change_notifications = partitionSet(v, p); });
    read(j, at, "lost_feature_write_response",
         [&](const Json& v, const std::string& p) { zk.lost_feature_write_response = boolean(v, p); });
    read(j, at, "session_expiring_writes",
         [&](const Json& v, const std::string& p) { zk.session_expiring_writes = partitionSet(v, p); });
    read(j, at, "feature", [&](const Json& v, const std::string& fat) {
      object(v, fat, {"status", "version"});
      read(v, fat, "status", [&](const Json& e, const std::string& p) {
        zk.feature.status = static_cast<FeatureZnodeStatus>(enumeration(e, p, kFeatureStatusNames));
      });
      read(v, fat, "version",
           [&](const Json& e, const std::string& p) { zk.feature.format_version = integer<std::uint8_t>(e, p, 0, 2); });
    });
    return zk;
  }

  UpdateMetadataPartitionState updateMetadata(const Json& j, const std::string& at, bool with_partition) const {
    if (with_partition) {
      object(j, at, {"partition", "controller_epoch", "leader", "leader_epoch", "isr", "zk_version", "replicas",
                     "offline_replicas", "topic_id"});
    } else {
      object(j, at, {"controller_epoch", "leader", "leader_epoch", "isr", "zk_version", "replicas", "offline_replicas",
                     "topic_id"});
    }
    UpdateMetadataPartitionState s;
    if (with_partition) s.tp = requiredPartition(j, at);
    read(j, at, "controller_epoch", [&](const Json& v, const std::string& p) { s.controller_epoch = integer<std::int32_t>(v, p); });
    read(j, at, "leader", [&](const Json& v, const std::string& p) { s.leader = integer<BrokerId>(v, p); });
    read(j, at, "leader_epoch", [&](const Json& v, const std::string& p) { s.leader_epoch = integer<std::int32_t>(v, p); });
    read(j, at, "isr", [&](const Json& v, const std::string& p) { s.isr = brokerList(v, p); });
    read(j, at, "zk_version", [&](const Json& v, const std::string& p) { s.zk_version = integer<std::int32_t>(v, p); });
    read(j, at, "replicas", [&](const Json& v, const std::string& p) { s.replicas = brokerList(v, p); });
    read(j, at, "offline_replicas", [&](const Json& v, const std::string& p) { s.offline_replicas = brokerList(v, p); });
    read(j, at, "topic_id", [&](const Json& v, const std::string& p) { s.topic_id = topicId(v, p); });
    return s;
  }

  TopicPartition requiredPartition(const Json& j, const std::string& at) const {
    const Json* v = find(j, "partition");
    if (v == nullptr) fail(at, "missing member \"partition\"");
    return partitionValue(*v, child(at, "partition"));
  }

  ControlRequest request(const Json& j, const std::string& at) const {
    object(j, at, {"kind", "version", "controller_id", "controller_epoch", "broker_epoch", "leader_and_isr",
                   "update_metadata", "live_brokers", "stop_replica", "response_wanted"});
    ControlRequest r;
    const Json* kind = find(j, "kind");
    if (kind == nullptr) fail(at, "missing member \"kind\"");
    r.kind = static_cast<RequestKind>(enumeration(*kind, child(at, "kind"), kRequestKindNames));
    r.version = newestRequestVersion(r.kind);
    read(j, at, "version", [&](const Json& v, const std::string& p) {
      r.version = integer<std::int16_t>(v, p, 0, newestRequestVersion(r.kind));
    });
    read(j, at, "controller_id", [&](const Json& v, const std::string& p) { r.controller_id = integer<BrokerId>(v, p); });
    read(j, at, "controller_epoch", [&](const Json& v, const std::string& p) { r.controller_epoch = integer<std::int32_t>(v, p); });
    read(j, at, "broker_epoch", [&](const Json& v, const std::string& p) { r.broker_epoch = integer<std::int64_t>(v, p); });
    read(j, at, "leader_and_isr", [&](const Json& v, const std::string& p) {
      for (const Element& e : elements(v, p, static_cast<std::size_t>(kMaxPartitions))) {
        const Json& element = *e.value;
        const std::string& eat = e.at;
        object(element, eat, {"partition", "leadership", "assignment", "is_new", "topic_id"});
        LeaderAndIsrPartitionState s;
        s.tp = requiredPartition(element, eat);
        read(element, eat, "leadership", [&](const Json& x, const std::string& xp) { s.leadership = leadership(x, xp); });
        read(element, eat, "assignment", [&](const Json& x, const std::string& xp) { s.assignment = assignment(x, xp); });
        read(element, eat, "is_new", [&](const Json& x, const std::string& xp) { s.is_new = boolean(x, xp); });
        read(element, eat, "topic_id", [&](const Json& x, const std::string& xp) { s.topic_id = topicId(x, xp); });
        r.leader_and_isr.push_back(s);
      }
    });
    read(j, at, "update_metadata", [&](const Json& v, const std::string& p) {
      for (const Element& e : elements(v, p, static_cast<std::size_t>(kMaxPartitions))) r.update_metadata.push_back(updateMetadata(*e.value, e.at, true));
    });
    read(j, at, "live_brokers", [&](const Json& v, const std::string& p) { r.live_brokers = brokerSet(v, p); });
    read(j, at, "stop_replica", [&](const Json& v, const std::string& p) {
      for (const Element& e : elements(v, p, static_cast<std::size_t>(kMaxPartitions))) {
        const Json& element = *e.value;
        const std::string& eat = e.at;
        object(element, eat, {"partition", "leader_epoch", "delete_partition"});
        StopReplicaPartitionState s;
        s.tp = requiredPartition(element, eat);
        read(element, eat, "leader_epoch", [&](const Json& x, const std::string& xp) { s.leader_epoch = integer<std::int32_t>(x, xp); });
        read(element, eat, "delete_partition", [&](const Json& x, const std::string& xp) { s.delete_partition = boolean(x, xp); });
        r.stop_replica.push_back(s);
      }
    });
    read(j, at, "response_wanted", [&](const Json& v, const std::string& p) { r.response_wanted = partitionSet(v, p); });
    return r;
  }

  ControllerEvent event(const Json& j, const std::string& at) const {
    object(j, at, {"kind", "broker", "broker_epoch", "topic", "partition", "partitions", "partition_errors",
                   "election_type", "zk_triggered", "cancel", "target_replicas", "proposed", "by_topic_id", "topic_ids"});
    ControllerEvent e;
    const Json* kind = find(j, "kind");
    if (kind == nullptr) fail(at, "missing member \"kind\"");
    e.kind = static_cast<ControllerEventKind>(enumeration(*kind, child(at, "kind"), kControllerEventNames));
    read(j, at, "broker", [&](const Json& v, const std::string& p) { e.broker = integer<BrokerId>(v, p); });
    read(j, at, "broker_epoch", [&](const Json& v, const std::string& p) { e.broker_epoch = integer<std::int64_t>(v, p); });
    read(j, at, "topic", [&](const Json& v, const std::string& p) { e.topic = integer<TopicIndex>(v, p, -1, kMaxTopics - 1); });
    read(j, at, "partition", [&](const Json& v, const std::string& p) { e.tp = partitionValue(v, p); });
    read(j, at, "partitions", [&](const Json& v, const std::string& p) { e.partitions = partitionSet(v, p); });
    read(j, at, "partition_errors", [&](const Json& v, const std::string& p) { e.partition_errors = partitionSet(v, p); });
    read(j, at, "election_type", [&](const Json& v, const std::string& p) {
      e.election_type = static_cast<ElectionType>(enumeration(v, p, kElectionTypeNames));
    });
    read(j, at, "zk_triggered", [&](const Json& v, const std::string& p) { e.zk_triggered = boolean(v, p); });
    read(j, at, "cancel", [&](const Json& v, const std::string& p) { e.cancel = boolean(v, p); });
    read(j, at, "target_replicas", [&](const Json& v, const std::string& p) { e.target_replicas = brokerList(v, p); });
    read(j, at, "proposed", [&](const Json& v, const std::string& p) { e.proposed = leaderAndIsr(v, p); });
    read(j, at, "by_topic_id", [&](const Json& v, const std::string& p) { e.by_topic_id = boolean(v, p); });
    read(j, at, "topic_ids", [&](const Json& v, const std::string& p) { e.topic_ids = topicIds(v, p); });
    return e;
  }

  HostedReplica hosted(const Json& j, const std::string& at) const {
    object(j, at, {"present", "is_leader", "leader_epoch", "partition_epoch", "isr", "alter_partition_pending",
                   "refused_expansions", "refused_shrinks", "topic_id"});
    HostedReplica r;
    read(j, at, "present", [&](const Json& v, const std::string& p) { r.present = boolean(v, p); });
    read(j, at, "is_leader", [&](const Json& v, const std::string& p) { r.is_leader = boolean(v, p); });
    read(j, at, "leader_epoch", [&](const Json& v, const std::string& p) { r.leader_epoch = integer<std::int32_t>(v, p); });
    read(j, at, "partition_epoch", [&](const Json& v, const std::string& p) { r.partition_epoch = integer<std::int32_t>(v, p); });
    read(j, at, "isr", [&](const Json& v, const std::string& p) { r.isr = brokerList(v, p); });
    read(j, at, "alter_partition_pending", [&](const Json& v, const std::string& p) { r.alter_partition_pending = boolean(v, p); });
    read(j, at, "refused_expansions", [&](const Json& v, const std::string& p) { r.refused_expansions = brokerSet(v, p); });
    read(j, at, "refused_shrinks", [&](const Json& v, const std::string& p) { r.refused_shrinks = brokerSet(v, p); });
    read(j, at, "topic_id", [&](const Json& v, const std::string& p) { r.topic_id = topicId(v, p); });
    return r;
  }

  ControllerContextData context(const Json& j, const std::string& at) const {
    object(j, at, {"epoch", "epoch_zk_version", "live_broker_epochs", "shutting_down_broker_ids", "all_topics",
                   "partitions", "partitions_being_reassigned", "topics_to_be_deleted", "topics_with_deletion_started",
                   "topics_ineligible_for_deletion", "offline_partition_count", "replicas_on_offline_dirs",
                   "reassignment_isr_watches", "topic_ids"});
    ControllerContextData c;
    read(j, at, "epoch", [&](const Json& v, const std::string& p) { c.epoch = integer<std::int32_t>(v, p); });
    read(j, at, "epoch_zk_version", [&](const Json& v, const std::string& p) { c.epoch_zk_version = integer<std::int32_t>(v, p); });
    read(j, at, "live_broker_epochs", [&](const Json& live, const std::string& lat) {
      object(live, lat, {});
      for (const auto& [key, value] : live.items()) {
        const int b = brokerKey(key, lat);
        c.live_broker_epochs[static_cast<std::size_t>(b)] = integer<std::int64_t>(value, child(lat, key));
      }
    });
    read(j, at, "shutting_down_broker_ids", [&](const Json& v, const std::string& p) { c.shutting_down_broker_ids = brokerSet(v, p); });
    read(j, at, "all_topics", [&](const Json& v, const std::string& p) { c.all_topics = topicSet(v, p); });
    read(j, at, "partitions", [&](const Json& parts, const std::string& pat) {
      object(parts, pat, {});
      for (const auto& [key, value] : parts.items()) {
        const std::string eat = child(pat, key);
        const TopicPartition tp = partitionName(key, pat, eat);
        object(value, eat, {"assignment", "leadership", "state", "replica_states"});
        PartitionContext& pc = c.partitions[static_cast<std::size_t>(partitionIndex(tp))];
        read(value, eat, "assignment", [&](const Json& v, const std::string& p) {
          if (!v.is_null()) pc.assignment = assignment(v, p);
        });
        read(value, eat, "leadership", [&](const Json& v, const std::string& p) {
          if (!v.is_null()) pc.leadership = leadership(v, p);
        });
        read(value, eat, "state", [&](const Json& v, const std::string& p) {
          if (!v.is_null()) pc.state = state<PartitionState>(v, p);
        });
        read(value, eat, "replica_states", [&](const Json& replicas, const std::string& rat) {
          object(replicas, rat, {});
          for (const auto& [rkey, rvalue] : replicas.items()) {
            const int r = brokerKey(rkey, rat);
            if (!rvalue.is_null()) pc.replica_states[static_cast<std::size_t>(r)] = state<ReplicaState>(rvalue, child(rat, rkey));
          }
        });
      }
    });
    read(j, at, "partitions_being_reassigned",
         [&](const Json& v, const std::string& p) { c.partitions_being_reassigned = partitionSet(v, p); });
    read(j, at, "topics_to_be_deleted", [&](const Json& v, const std::string& p) { c.topics_to_be_deleted = topicSet(v, p); });
    read(j, at, "topics_with_deletion_started",
         [&](const Json& v, const std::string& p) { c.topics_with_deletion_started = topicSet(v, p); });
    read(j, at, "topics_ineligible_for_deletion",
         [&](const Json& v, const std::string& p) { c.topics_ineligible_for_deletion = topicSet(v, p); });
    read(j, at, "offline_partition_count",
         [&](const Json& v, const std::string& p) { c.offline_partition_count = integer<std::int32_t>(v, p); });
    read(j, at, "replicas_on_offline_dirs", [&](const Json& dirs, const std::string& dat) {
      object(dirs, dat, {});
      for (const auto& [key, value] : dirs.items()) {
        c.replicas_on_offline_dirs[static_cast<std::size_t>(brokerKey(key, dat))] = partitionSet(value, child(dat, key));
      }
    });
    read(j, at, "reassignment_isr_watches",
         [&](const Json& v, const std::string& p) { c.reassignment_isr_watches = partitionSet(v, p); });
    read(j, at, "topic_ids", [&](const Json& v, const std::string& p) { c.topic_ids = topicIds(v, p); });
    return c;
  }

  ControllerData controller(const Json& j, const std::string& at) const {
    object(j, at, {"active", "session_lost", "psm_batch_unflushed", "rsm_batch_unflushed", "context", "events"});
    ControllerData c;
    read(j, at, "active", [&](const Json& v, const std::string& p) { c.active = boolean(v, p); });
    read(j, at, "session_lost", [&](const Json& v, const std::string& p) { c.session_lost = boolean(v, p); });
    read(j, at, "psm_batch_unflushed", [&](const Json& v, const std::string& p) { c.psm_batch_unflushed = boolean(v, p); });
    read(j, at, "rsm_batch_unflushed", [&](const Json& v, const std::string& p) { c.rsm_batch_unflushed = boolean(v, p); });
    read(j, at, "context", [&](const Json& v, const std::string& p) { c.context = context(v, p); });
    read(j, at, "events", [&](const Json& v, const std::string& p) {
      for (const Element& e : elements(v, p, static_cast<std::size_t>(kMaxControllerEvents))) c.events.push_back(event(*e.value, e.at));
    });
    return c;
  }

  // A response queue (StopReplica or LeaderAndIsr responses: the same members), head first.
  template <class Queue>
  void responses(const Json& j, const std::string& at, Queue& queue) const {
    for (const Element& e : elements(j, at, Queue::capacity)) {
      const Json& element = *e.value;
      const std::string& eat = e.at;
      typename Queue::value_type r;
      if constexpr (requires { r.topic_ids; }) {
        object(element, eat, {"controller_id", "controller_epoch", "partitions", "storage_errors", "by_topic_id", "topic_ids"});
        read(element, eat, "by_topic_id", [&](const Json& x, const std::string& xp) { r.by_topic_id = boolean(x, xp); });
        read(element, eat, "topic_ids", [&](const Json& x, const std::string& xp) { r.topic_ids = topicIds(x, xp); });
      } else {
        object(element, eat, {"controller_id", "controller_epoch", "partitions", "storage_errors"});
      }
      read(element, eat, "controller_id", [&](const Json& x, const std::string& xp) { r.controller_id = integer<BrokerId>(x, xp); });
      read(element, eat, "controller_epoch",
           [&](const Json& x, const std::string& xp) { r.controller_epoch = integer<std::int32_t>(x, xp); });
      read(element, eat, "partitions", [&](const Json& x, const std::string& xp) { r.partitions = partitionSet(x, xp); });
      read(element, eat, "storage_errors",
           [&](const Json& x, const std::string& xp) { r.storage_errors = partitionSet(x, xp); });
      queue.push_back(r);
    }
  }

  BrokerData broker(const Json& j, const std::string& at) const {
    object(j, at, {"alive", "broker_epoch", "known_controller_epoch", "inbox", "metadata_cache", "metadata_live_brokers",
                   "replicas", "outbox", "leader_and_isr_responses", "offline_log_dir_replicas", "pending_isr_changes",
                   "ibp_upgraded", "controller"});
    BrokerData b;
    read(j, at, "alive", [&](const Json& v, const std::string& p) { b.alive = boolean(v, p); });
    read(j, at, "broker_epoch", [&](const Json& v, const std::string& p) { b.broker_epoch = integer<std::int64_t>(v, p); });
    read(j, at, "known_controller_epoch",
         [&](const Json& v, const std::string& p) { b.known_controller_epoch = integer<std::int32_t>(v, p); });
    read(j, at, "inbox", [&](const Json& v, const std::string& p) {
      for (const Element& e : elements(v, p, static_cast<std::size_t>(kMaxRequestsPerBroker))) b.inbox.push_back(request(*e.value, e.at));
    });
    read(j, at, "metadata_cache", [&](const Json& cache, const std::string& cat) {
      object(cache, cat, {});
      for (const auto& [key, value] : cache.items()) {
        const std::string eat = child(cat, key);
        const TopicPartition tp = partitionName(key, cat, eat);
        if (value.is_null()) continue;
        UpdateMetadataPartitionState s = updateMetadata(value, eat, false);
        s.tp = tp;
        b.metadata_cache[static_cast<std::size_t>(partitionIndex(tp))] = s;
      }
    });
    read(j, at, "metadata_live_brokers", [&](const Json& v, const std::string& p) { b.metadata_live_brokers = brokerSet(v, p); });
    read(j, at, "replicas", [&](const Json& replicas, const std::string& rat) {
      object(replicas, rat, {});
      for (const auto& [key, value] : replicas.items()) {
        const std::string eat = child(rat, key);
        const TopicPartition tp = partitionName(key, rat, eat);
        b.replicas[static_cast<std::size_t>(partitionIndex(tp))] = hosted(value, eat);
      }
    });
    read(j, at, "outbox", [&](const Json& v, const std::string& p) { responses(v, p, b.outbox); });
    read(j, at, "leader_and_isr_responses", [&](const Json& v, const std::string& p) {
      responses(v, p, b.leader_and_isr_responses);
    });
    read(j, at, "offline_log_dir_replicas",
         [&](const Json& v, const std::string& p) { b.offline_log_dir_replicas = partitionSet(v, p); });
    read(j, at, "pending_isr_changes",
         [&](const Json& v, const std::string& p) { b.pending_isr_changes = partitionSet(v, p); });
    read(j, at, "ibp_upgraded", [&](const Json& v, const std::string& p) { b.ibp_upgraded = boolean(v, p); });
    read(j, at, "controller", [&](const Json& v, const std::string& p) { b.controller = controller(v, p); });
    return b;
  }

  ObservationJsonReadOptions options_;
};

}  // namespace

nlohmann::ordered_json observationJson(const Observation& observation, ObservationJsonOptions options) {
  return Writer(options).observation(observation);
}

Observation observationFromJson(const nlohmann::json& json, ObservationJsonReadOptions options) {
  return Reader<nlohmann::json>(options).observation(json);
}

Observation observationFromJson(const nlohmann::ordered_json& json, ObservationJsonReadOptions options) {
  return Reader<nlohmann::ordered_json>(options).observation(json);
}

}  // namespace kcspec
