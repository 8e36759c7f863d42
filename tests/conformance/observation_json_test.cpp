// The JSON form of observations (spec/vocabulary/observation_json.hpp): every observation of
// random spec histories survives the round trip in both forms, a hand-made observation with
// every field away from its default does too, and malformed input is rejected with the JSON
// pointer of the offending value.
#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "spec/rules/step.hpp"
#include "spec/vocabulary/observation_json.hpp"
#include "spec/vocabulary/presets.hpp"

namespace kcspec {
namespace {

void expectRoundTrip(const Observation& o, const std::string& where) {
  const nlohmann::ordered_json compact = observationJson(o);
  const nlohmann::ordered_json full = observationJson(o, {.include_defaults = true});
  EXPECT_TRUE(observationFromJson(compact) == o) << where << "\n" << compact.dump();
  EXPECT_TRUE(observationFromJson(full) == o) << where;
  // Through text and the unordered json type, as the driver reads a SUT's line.
  EXPECT_TRUE(observationFromJson(nlohmann::json::parse(compact.dump())) == o) << where;
}

TEST(ObservationJson, RoundTripsEveryObservationOfRandomSpecHistories) {
  int states = 0;
  for (const char* name : {"default", "every-perturbation"}) {
    const Config config = *preset(name);
    for (std::uint64_t seed = 1; seed <= 8; ++seed) {
      std::uint64_t random = seed * 0x9E3779B97F4A7C15ull;
      spec::ClusterState state = spec::initialState(config);
      expectRoundTrip(state.world, std::string(name) + " initial");
      for (int step = 0; step < 80; ++step) {
        const std::vector<Action> enabled = spec::enabledActions(config, state);
        if (enabled.empty()) break;
        random = random * 6364136223846793005ull + 1442695040888963407ull;
        state = spec::next(config, state, enabled[(random >> 33) % enabled.size()]);
        expectRoundTrip(state.world, std::string(name) + " seed " + std::to_string(seed) + " step " + std::to_string(step));
        ++states;
      }
    }
  }
  EXPECT_GT(states, 500);
}

// Every member of every struct away from its default.
Observation everyFieldSet() {
  Observation o;
  o.zk.brokers[2] = BrokerRegistration{true, 7};
  o.zk.brokers[5] = BrokerRegistration{false, 3};
  TopicZnodes& topic = o.zk.topics[3];
  topic.exists = true;
  topic.partitions[0] = ReplicaAssignment(BrokerList{1, 2, 3}, BrokerList{3}, BrokerList{1});
  topic.partitions[1] = ReplicaAssignment(BrokerList{2});
  topic.states[1] = PartitionStateZnode{
      LeaderAndIsr{2, 4, LeaderRecoveryState::RECOVERING, BrokerList{2, 1}, 9}, 6};
  topic.unclean_leader_election_enable = true;
  o.zk.controller = 2;
  o.zk.controller_epoch = 5;
  o.zk.controller_epoch_zk_version = 4;
  o.zk.delete_topics = TopicSet{1, 3};
  o.zk.last_zxid = 42;

  BrokerData& b = o.brokers[7];
  b.alive = true;
  b.broker_epoch = 11;
  b.known_controller_epoch = 3;
  ControlRequest lai{.kind = RequestKind::LeaderAndIsr, .version = 5};
  lai.controller_id = 2;
  lai.controller_epoch = 5;
  lai.broker_epoch = 11;
  lai.leader_and_isr.push_back(LeaderAndIsrPartitionState{
      TopicPartition{3, 1}, LeaderIsrAndControllerEpoch{LeaderAndIsr{2, 1, LeaderRecoveryState::RECOVERED, {2}, 3}, 5},
      ReplicaAssignment(BrokerList{2, 7}), true});
  lai.live_brokers = BrokerSet{2, 7};
  b.inbox.push_back(lai);
  ControlRequest um{.kind = RequestKind::UpdateMetadata};
  um.update_metadata.push_back(
      UpdateMetadataPartitionState{TopicPartition{2, 3}, 5, -2, 7, BrokerList{1}, 8, BrokerList{1, 4}, BrokerList{4}});
  b.inbox.push_back(um);
  ControlRequest sr{.kind = RequestKind::StopReplica, .version = 2};
  sr.stop_replica.push_back(StopReplicaPartitionState{TopicPartition{1, 2}, -2, true});
  sr.response_wanted = PartitionSet{TopicPartition{1, 2}};
  b.inbox.push_back(sr);
  b.metadata_cache[5] = UpdateMetadataPartitionState{partitionAt(5), 1, 3, 2, BrokerList{3}, 1, BrokerList{3, 4}, {}};
  b.metadata_live_brokers = BrokerSet{0, 7};
  b.replicas[6] = HostedReplica{true, true, 2, 5, BrokerList{7, 1}, true};
  b.replicas[9] = HostedReplica{false, false, 0, 0, {}, false};
  b.outbox.push_back(StopReplicaResponse{2, 5, PartitionSet{TopicPartition{0, 0}, TopicPartition{3, 3}}});
  ControllerData& c = b.controller;
  c.active = true;
  c.session_lost = true;
  c.psm_batch_unflushed = true;
  c.rsm_batch_unflushed = true;
  c.context.epoch = 5;
  c.context.epoch_zk_version = 4;
  c.context.live_broker_epochs[7] = 11;
  c.context.live_broker_epochs[0] = 0;
  c.context.shutting_down_broker_ids = BrokerSet{0};
  c.context.all_topics = TopicSet{0, 3};
  PartitionContext& pc = c.context.partitions[13];
  pc.assignment = ReplicaAssignment(BrokerList{7});
  pc.leadership = LeaderIsrAndControllerEpoch{LeaderAndIsr{7, 0, LeaderRecoveryState::RECOVERED, {7}, 0}, 5};
  pc.state = PartitionState::OfflinePartition;
  pc.replica_states[7] = ReplicaState::ReplicaDeletionIneligible;
  c.context.partitions[2].state = PartitionState::NewPartition;  // an entry with only a state
  c.context.partitions_being_reassigned = PartitionSet{TopicPartition{3, 1}};
  c.context.topics_to_be_deleted = TopicSet{1};
  c.context.topics_with_deletion_started = TopicSet{1};
  c.context.topics_ineligible_for_deletion = TopicSet{1};
  c.context.offline_partition_count = 2;
  ControllerEvent e;
  e.kind = ControllerEventKind::AlterPartitionReceived;
  e.broker = 7;
  e.broker_epoch = 11;
  e.topic = 3;
  e.tp = TopicPartition{3, 1};
  e.partitions = PartitionSet{TopicPartition{3, 1}};
  e.partition_errors = PartitionSet{TopicPartition{3, 2}};
  e.election_type = ElectionType::UNCLEAN;
  e.cancel = true;
  e.target_replicas = BrokerList{7, 2};
  e.proposed = LeaderAndIsr{7, 1, LeaderRecoveryState::RECOVERED, BrokerList{7}, 2};
  c.events.push_back(e);
  c.events.push_back(ControllerEvent{});  // the default event (BrokerChange) in a queue
  return o;
}

TEST(ObservationJson, RoundTripsAnObservationWithEveryFieldSet) {
  const Observation o = everyFieldSet();
  expectRoundTrip(o, "every field");
  // Unequal observations give unequal JSON.
  Observation other = o;
  other.brokers[7].controller.events[1].kind = ControllerEventKind::TopicChange;
  EXPECT_NE(observationJson(o).dump(), observationJson(other).dump());
}

TEST(ObservationJson, CompactFormLeavesDefaultsOutAndFullFormSpellsThemOut) {
  EXPECT_EQ(observationJson(Observation{}).dump(), R"({"zookeeper":{},"brokers":{}})");
  Observation o;
  o.brokers[1].alive = true;
  o.zk.controller = 1;
  EXPECT_EQ(observationJson(o).dump(), R"({"zookeeper":{"controller":1},"brokers":{"1":{"alive":true}}})");

  const nlohmann::ordered_json full = observationJson(o, {.include_defaults = true});
  EXPECT_EQ(full["brokers"].size(), static_cast<std::size_t>(kMaxBrokers));
  EXPECT_EQ(full["zookeeper"]["controller_epoch_zk_version"], -1);
  EXPECT_TRUE(full["brokers"]["0"]["metadata_cache"]["3-3"].is_null());
  EXPECT_EQ(full["brokers"]["0"]["replicas"]["3-3"]["leader_epoch"], -1);
  EXPECT_TRUE(full["brokers"]["4"]["controller"]["context"]["partitions"]["2-1"]["replica_states"]["6"].is_null());
  EXPECT_EQ(full["brokers"]["4"]["controller"]["context"]["live_broker_epochs"]["5"], -1);
  EXPECT_EQ(full["zookeeper"]["topics"]["2"]["states"].size(), static_cast<std::size_t>(kMaxPartitionsPerTopic));
}

// A request's "version" (driver protocol 3, trace format 3): left out of the compact form when it is
// the newest its kind has (Kafka 3.8 at 3.4-IV0 and later), read back as that when absent.
TEST(ObservationJson, ARequestsVersionDefaultsToTheNewestOfItsKind) {
  Observation o;
  o.brokers[1].inbox.push_back(ControlRequest{.kind = RequestKind::LeaderAndIsr});
  o.brokers[1].inbox.push_back(ControlRequest{.kind = RequestKind::StopReplica, .version = 1});
  EXPECT_EQ(o.brokers[1].inbox[0].version, 7);
  EXPECT_EQ(observationJson(o).dump(),
            R"({"zookeeper":{},"brokers":{"1":{"inbox":[{"kind":"LeaderAndIsr"},{"kind":"StopReplica","version":1}]}}})");
  EXPECT_EQ(observationJson(o, {.include_defaults = true})["brokers"]["1"]["inbox"][0]["version"], 7);
  expectRoundTrip(o, "request versions");
  const Observation read = observationFromJson(nlohmann::json::parse(
      R"({"brokers":{"1":{"inbox":[{"kind":"UpdateMetadata"},{"version":3,"kind":"UpdateMetadata"}]}}})"));
  EXPECT_EQ(read.brokers[1].inbox[0].version, 8);
  EXPECT_EQ(read.brokers[1].inbox[1].version, 3) << "the member's order does not matter";
}

// A topic znode whose partition ids have a gap (an assignment restored during deletion keeps only
// the partitions with a partition znode, kafka.md §5.10.2): the array is by partition id, with
// null for an id the znode does not list, and reads back to the same gap.
TEST(ObservationJson, ATopicZnodeWithAGapInItsPartitionIds) {
  Observation o;
  TopicZnodes& topic = o.zk.topics[1];
  topic.exists = true;
  topic.partitions[1] = ReplicaAssignment(BrokerList{2});
  topic.partitions[3] = ReplicaAssignment(BrokerList{1, 2});
  EXPECT_EQ(observationJson(o).dump(),
            R"({"zookeeper":{"topics":{"1":{"exists":true,"partitions":[null,{"replicas":[2]},null,{"replicas":[1,2]}]}}},"brokers":{}})");
  expectRoundTrip(o, "a gap");
  Observation no_partitions;
  no_partitions.zk.topics[1].exists = true;  // every partition left out: {"partitions":{}}
  EXPECT_EQ(observationJson(no_partitions).dump(), R"({"zookeeper":{"topics":{"1":{"exists":true}}},"brokers":{}})");
  expectRoundTrip(no_partitions, "no partitions");
}

struct Malformed {
  const char* json;
  const char* what;  // the start of what(): pointer and message
};

TEST(ObservationJson, RejectsMalformedInputNamingThePointer) {
  const Malformed cases[] = {
      {R"([])", "(root): expected an object, got array"},
      {R"({"zookeepr":{}})", "/zookeepr: unknown member (expected one of zookeeper, brokers)"},
      {R"({"brokers":{"8":{}}})", "/brokers/8: expected a broker id 0 … 7 as key"},
      {R"({"brokers":{"01":{}}})", "/brokers/01: expected a broker id"},
      {R"({"brokers":{"-1":{}}})", "/brokers/-1: expected a broker id"},
      {R"({"brokers":{"a/b":{}}})", "/brokers/a~1b: expected a broker id"},
      {R"({"brokers":{"1":{"alive":1}}})", "/brokers/1/alive: expected true or false, got number"},
      {R"({"brokers":{"1":{"broker_epoch":1.5}}})", "/brokers/1/broker_epoch: expected an integer, got number"},
      {R"({"brokers":{"1":{"known_controller_epoch":2147483648}}})", "/brokers/1/known_controller_epoch: out of range"},
      {R"({"brokers":{"1":{"known_controller_epoch":-2147483649}}})", "/brokers/1/known_controller_epoch: out of range"},
      {R"({"brokers":{"1":{"broker_epoch":18446744073709551615}}})", "/brokers/1/broker_epoch: out of range"},
      {R"({"brokers":{"1":{"inbox":[{}]}}})", "/brokers/1/inbox/0: missing member \"kind\""},
      {R"({"brokers":{"1":{"inbox":[{"kind":"Produce"}]}}})",
       "/brokers/1/inbox/0/kind: expected one of LeaderAndIsr, UpdateMetadata, StopReplica, got \"Produce\""},
      {R"({"brokers":{"1":{"inbox":[{"kind":"StopReplica","stop_replica":[{"leader_epoch":1}]}]}}})",
       "/brokers/1/inbox/0/stop_replica/0: missing member \"partition\""},
      {R"({"brokers":{"1":{"replicas":{"4-0":{}}}}})", "/brokers/1/replicas/4-0: expected a partition"},
      {R"({"brokers":{"1":{"replicas":{"0-":{}}}}})", "/brokers/1/replicas/0-: expected a partition"},
      {R"({"brokers":{"1":{"metadata_live_brokers":[8]}}})", "/brokers/1/metadata_live_brokers/0: out of range 0 … 7"},
      {R"({"brokers":{"1":{"replicas":{"0-0":{"isr":[1,2,3,4,5,6,7,8,9]}}}}})",
       "/brokers/1/replicas/0-0/isr: at most 8 elements, got 9"},
      {R"({"brokers":{"1":{"replicas":{"0-0":{"isr":["1"]}}}}})", "/brokers/1/replicas/0-0/isr/0: expected an integer, got string"},
      {R"({"brokers":{"1":{"outbox":[{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}]}}})",
       "/brokers/1/outbox: at most 16 elements, got 17"},
      {R"({"brokers":{"1":{"controller":{"context":{"partitions":{"1-1":{"state":"Online"}}}}}}})",
       "/brokers/1/controller/context/partitions/1-1/state: expected one of NewPartition, OnlinePartition"},
      {R"({"brokers":{"1":{"controller":{"events":[{"kind":"Expire","topic":4}]}}}})",
       "/brokers/1/controller/events/0/topic: out of range -1 … 3"},
      {R"({"brokers":{"1":{"controller":{"events":[{"kind":"Expire","proposed":{"leader_recovery_state":"X"}}]}}}})",
       "/brokers/1/controller/events/0/proposed/leader_recovery_state: expected one of RECOVERED, RECOVERING"},
      {R"({"zookeeper":{"topics":{"0":{"partitions":[{},{},{},{},{}]}}}})",
       "/zookeeper/topics/0/partitions: at most 4 elements, got 5"},
      {R"({"zookeeper":{"topics":{"0":{"states":{"0":{"leader":null}}}}}})",
       "/zookeeper/topics/0/states/0/leader: expected an integer, got null"},
      {R"({"zookeeper":{"delete_topics":[0,0,0,0,0]}})", "/zookeeper/delete_topics: at most 4 elements, got 5"},
      {R"({"zookeeper":{"brokers":null}})", "/zookeeper/brokers: expected an object, got null"},
      {R"({"brokers":{"1":{"inbox":[{"kind":"LeaderAndIsr","version":8}]}}})",
       "/brokers/1/inbox/0/version: out of range 0 … 7"},
      {R"({"brokers":{"1":{"inbox":[{"version":-1,"kind":"StopReplica"}]}}})",
       "/brokers/1/inbox/0/version: out of range 0 … 4"},
  };
  for (const Malformed& c : cases) {
    try {
      (void)observationFromJson(nlohmann::json::parse(c.json));
      ADD_FAILURE() << "accepted " << c.json;
    } catch (const ObservationJsonError& e) {
      EXPECT_EQ(std::string(e.what()).rfind(c.what, 0), 0u) << c.json << "\n  got: " << e.what();
    }
  }
}

TEST(ObservationJson, ALongInboxIsBoundedNotACrash) {
  nlohmann::json inbox = nlohmann::json::array();
  for (int i = 0; i <= kMaxRequestsPerBroker; ++i) inbox.push_back({{"kind", "UpdateMetadata"}});
  const nlohmann::json j = {{"brokers", {{"0", {{"inbox", inbox}}}}}};
  EXPECT_THROW((void)observationFromJson(j), ObservationJsonError);
  inbox.erase(inbox.begin());
  const nlohmann::json ok = {{"brokers", {{"0", {{"inbox", inbox}}}}}};
  EXPECT_EQ(observationFromJson(ok).brokers[0].inbox.size(), static_cast<std::size_t>(kMaxRequestsPerBroker));
}

}  // namespace
}  // namespace kcspec
