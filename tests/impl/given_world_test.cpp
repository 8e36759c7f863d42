// ImplCluster from a stated world (issue 28): along random walks, the cluster loaded from each
// observation shows it back, holds the same ZooKeeper, and behaves as the cluster that reached it
// — the same enabled actions, the same observation after each of them and a few steps further;
// and a world no history built loads and runs on.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "impl/cluster.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/observation_text.hpp"
#include "spec/vocabulary/presets.hpp"
#include "spec/vocabulary/scenario_text.hpp"

namespace kcspec::impl {
namespace {

// The cluster loaded from what `original` shows, with the budget it has left (a given world
// spends nothing: the loaded cluster's budget is its configuration's).
ImplCluster loaded(const ImplCluster& original) {
  Config config = original.config();
  config.bounds = original.remaining();
  return ImplCluster(config, original.observe(), original.mutants());
}

std::string differences(const ImplCluster& expected, const ImplCluster& actual) {
  return renderChangesText(diffObservations(expected.config(), expected.observe(), actual.observe()));
}

std::string actionsText(const Config& config, const std::vector<Action>& actions) {
  std::string text;
  for (const Action& a : actions) text += printAction(config, a) + "; ";
  return text;
}

// What the observation does not show but the loaded store must hold as the original does: every
// znode, with its data and owning session; the data version where a writer checks it (partition
// states, /controller_epoch) and the czxid where it is read (broker registrations).
// The children of the notification znodes are the exception: the world shows what they name, not
// how many there are or their sequence numbers (the controller reads them all together), and the
// observations compare that.
bool isNotification(const std::string& path) {
  return path.starts_with("/isr_change_notification/") || path.starts_with("/log_dir_event_notification/");
}

void expectSameZooKeeper(const ImplCluster& original, const ImplCluster& loaded, const std::string& where) {
  const auto& expected = original.zookeeper().nodes();
  const auto& actual = loaded.zookeeper().nodes();
  for (const auto& [path, node] : expected) {
    if (isNotification(path)) continue;
    const auto it = actual.find(path);
    if (it == actual.end()) {
      ADD_FAILURE() << "missing znode " << path << "\n" << where;
      continue;
    }
    EXPECT_EQ(it->second.data, node.data) << path << "\n" << where;
    EXPECT_EQ(it->second.stat.ephemeral_owner, node.stat.ephemeral_owner) << path << "\n" << where;
    if (path == "/controller_epoch" || path.ends_with("/state")) {
      EXPECT_EQ(it->second.stat.version, node.stat.version) << path << "\n" << where;
    }
    if (path.starts_with("/brokers/ids/")) {
      EXPECT_EQ(it->second.stat.czxid, node.stat.czxid) << path << "\n" << where;
    }
  }
  for (const auto& [path, node] : actual) {
    if (!expected.contains(path) && !isNotification(path)) ADD_FAILURE() << "extra znode " << path << "\n" << where;
  }
  EXPECT_EQ(loaded.zookeeper().lastZxid(), original.zookeeper().lastZxid()) << where;
}

// One step on both, then the same enabled actions and observation.
bool stepBoth(ImplCluster& original, ImplCluster& loaded, const Action& action, const std::string& where) {
  original.apply(action);
  loaded.apply(action);
  const std::string here = where + "then " + printAction(original.config(), action) + "\n";
  EXPECT_TRUE(loaded.observe() == original.observe()) << here << differences(original, loaded);
  EXPECT_EQ(actionsText(loaded.config(), loaded.enabledActions()), actionsText(original.config(), original.enabledActions()))
      << here;
  return !::testing::Test::HasFailure();
}

// The world `original` is in, loaded, against `original`: issue 28's round trip, then every
// enabled action (or `sample` of them) on both, then `lockstep` random steps further on both.
void expectSameBehaviour(const ImplCluster& original, std::mt19937& random, std::size_t sample, int lockstep,
                         const std::string& where) {
  const ImplCluster twin = loaded(original);
  ASSERT_TRUE(twin.observe() == original.observe()) << where << differences(original, twin);
  expectSameZooKeeper(original, twin, where);
  std::vector<Action> enabled = original.enabledActions();
  ASSERT_EQ(actionsText(twin.config(), twin.enabledActions()), actionsText(original.config(), enabled)) << where;
  if (enabled.empty()) return;
  std::shuffle(enabled.begin(), enabled.end(), random);
  if (enabled.size() > sample) enabled.resize(sample);
  for (const Action& action : enabled) {
    ImplCluster a = original;
    ImplCluster b = twin;
    if (!stepBoth(a, b, action, where)) return;
  }
  ImplCluster a = original;
  ImplCluster b = twin;
  std::string path = where;
  for (int i = 0; i < lockstep; ++i) {
    const std::vector<Action> next = a.enabledActions();
    if (next.empty()) return;
    const Action action = next[std::uniform_int_distribution<std::size_t>(0, next.size() - 1)(random)];
    if (!stepBoth(a, b, action, path)) return;
    path += "then " + printAction(a.config(), action) + "\n";
  }
}

struct Walk {
  std::string preset;
  unsigned seed;
  int steps;
  Mutants mutants{};
};

// The corners of a world the loading restores from more than a field copy, and how many of the
// walks' worlds were in each.
struct Coverage {
  int worlds = 0;
  int session_lost = 0;         // a module without its session: no watch restored for it
  int unflushed_batch = 0;      // a state machine's batch left non-empty
  int deletion_queued = 0;      // /admin/delete_topics/<t>, a topic in the deletion sets
  int topic_unknown = 0;        // a topic in ZooKeeper the active controller does not know (no data watch)
  int pending_watch_event = 0;  // an event a watch queued still waits (a change the twin must not repeat)
  void count(const Observation& world) {
    ++worlds;
    bool lost = false, unflushed = false, unknown = false, watch_event = false;
    for (const BrokerData& b : world.brokers) {
      lost = lost || b.controller.session_lost;
      unflushed = unflushed || b.controller.psm_batch_unflushed || b.controller.rsm_batch_unflushed;
      for (const ControllerEvent& e : b.controller.events) {
        watch_event = watch_event || e.kind == ControllerEventKind::TopicChange || e.kind == ControllerEventKind::BrokerChange ||
                      e.kind == ControllerEventKind::PartitionModifications;
      }
    }
    if (const ControllerData* active = activeControllerModule(world)) {
      for (TopicIndex t = 0; t < kMaxTopics; ++t) {
        unknown = unknown || (world.zk.topics[static_cast<std::size_t>(t)].exists && !active->context.all_topics.contains(t));
      }
    }
    session_lost += lost ? 1 : 0;
    unflushed_batch += unflushed ? 1 : 0;
    deletion_queued += world.zk.delete_topics.empty() ? 0 : 1;
    topic_unknown += unknown ? 1 : 0;
    pending_watch_event += watch_event ? 1 : 0;
  }
};

void checkWalk(const Walk& walk, std::size_t sample, int lockstep, Coverage& coverage) {
  const Config config = *preset(walk.preset);
  std::mt19937 random(walk.seed);
  ImplCluster cluster(config, walk.mutants);
  std::string where = "preset " + walk.preset + ", seed " + std::to_string(walk.seed) + ", after:\n";
  for (int i = 0; i <= walk.steps; ++i) {
    expectSameBehaviour(cluster, random, sample, lockstep, where);
    coverage.count(cluster.observe());
    if (::testing::Test::HasFailure()) return;
    const std::vector<Action> enabled = cluster.enabledActions();
    if (enabled.empty()) break;
    const Action action = enabled[std::uniform_int_distribution<std::size_t>(0, enabled.size() - 1)(random)];
    where += "  " + printAction(config, action) + "\n";
    cluster.apply(action);
  }
}

constexpr std::array<const char*, 8> kWalkPresets = {"two-perturbations", "crash-deletion", "cancel-during-shutdown",
                                                     "spare-brokers", "default", "every-perturbation", "stress-4", "stress-5"};

// Issue 28's properties 1 and 2 on every world of the walks: observe() round-trips, the loaded
// store holds the same znodes, and the loaded cluster takes every enabled action and then five
// random steps as the original does. The walks reach each corner the loading restores more than
// a field of (the larger presets reach unflushed batches).
TEST(GivenWorld, LoadedWorldsObserveAndBehaveAsTheWorldsWalksReached) {
  Coverage coverage;
  for (const char* name : kWalkPresets) {
    for (unsigned seed = 0; seed < 40; ++seed) {
      checkWalk(Walk{name, seed, 150}, 1000, 5, coverage);
      if (HasFailure()) return;
    }
  }
  EXPECT_GT(coverage.worlds, 15000);
  EXPECT_GT(coverage.session_lost, 0);
  EXPECT_GT(coverage.unflushed_batch, 0);
  EXPECT_GT(coverage.deletion_queued, 0);
  EXPECT_GT(coverage.topic_unknown, 0);
  EXPECT_GT(coverage.pending_watch_event, 0);
}

// Walks on stress-4 with each mutant on (a sample of the actions): a mutant changes what the
// controller does, not what a world holds or which watches it keeps.
TEST(GivenWorld, LoadedWorldsBehaveAsTheWorldsWalksReachedWithMutants) {
  for (const MutantInfo& info : kMutants) {
    for (unsigned seed = 0; seed < 2; ++seed) {
      Coverage coverage;
      checkWalk(Walk{"stress-4", seed, 100, Mutants::of({info.id})}, 4, 3, coverage);
      if (HasFailure()) return;
    }
  }
}

// The scenarios kept in tests/scenarios reach corners random walks rarely do (a zombie
// controller, a batch left unflushed, partitions added during a deletion): every world of each
// history, loaded, behaves as the one reached, every action and then 20 random steps (3 seeds).
// (A scenario with a `given` section starts from its world, loaded: it must observe as given.)
TEST(GivenWorld, LoadedWorldsBehaveAsTheWorldsOfTheKeptScenariosReached) {
  Coverage coverage;
  int scenarios = 0;
  for (const auto& file : std::filesystem::directory_iterator(std::filesystem::path(KCSPEC_SOURCE_DIR) / "tests/scenarios")) {
    if (file.path().extension() != ".scenario") continue;
    std::ifstream in(file.path());
    std::stringstream text;
    text << in.rdbuf();
    const Scenario scenario = parseScenario(text.str(), file.path().string());
    ++scenarios;
    // A scenario with a `given` section starts from its world, loaded.
    ImplCluster cluster = scenario.given ? ImplCluster(scenario.config, scenario.given->world) : ImplCluster(scenario.config);
    if (scenario.given) {
      ASSERT_TRUE(cluster.observe() == scenario.given->world)
          << file.path() << "\n" << renderChangesText(diffObservations(scenario.config, scenario.given->world, cluster.observe()));
    }
    std::string where = file.path().filename().string() + ", after:\n";
    for (std::size_t i = 0; i <= scenario.steps.size(); ++i) {
      for (unsigned seed = 0; seed < 3; ++seed) {
        std::mt19937 random(seed);
        expectSameBehaviour(cluster, random, 1000, 20, where + "(seed " + std::to_string(seed) + ")\n");
        if (HasFailure()) return;
      }
      coverage.count(cluster.observe());
      if (i == scenario.steps.size()) break;
      where += "  " + printAction(scenario.config, scenario.steps[i]) + "\n";
      cluster.apply(scenario.steps[i]);
    }
  }
  EXPECT_GE(scenarios, 10);
  EXPECT_GT(coverage.unflushed_batch, 0);
}

// A world no history built: controller 1 at epoch 3, t-0 led by 2 with ISR [2,3] at leader
// epoch 4 and partition epoch 7, brokers 1, 2, 3 registered with epochs 10, 11, 12.
Config threeBrokersOneTopic() {
  Config config;
  config.name = "given";
  config.brokers = BrokerSet{1, 2, 3};
  TopicConfig t;
  t.name = "t";
  t.assignment = {BrokerList{2, 3}};
  config.topics.push_back(t);
  config.bounds.crashes = 1;
  return config;
}

Observation statedWorld() {
  constexpr TopicPartition kT0{0, 0};
  const std::size_t t0 = static_cast<std::size_t>(partitionIndex(kT0));
  const ReplicaAssignment replicas(BrokerList{2, 3});
  const LeaderAndIsr lai{2, 4, LeaderRecoveryState::RECOVERED, BrokerList{2, 3}, 7};
  Observation world;
  world.zk.controller = 1;
  world.zk.controller_epoch = 3;
  world.zk.controller_epoch_zk_version = 3;
  world.zk.last_zxid = 12;
  TopicZnodes& topic = world.zk.topics[0];
  topic.exists = true;
  topic.partitions[0] = replicas;
  topic.states[0] = PartitionStateZnode{lai, 3};

  ControllerContextData& context = world.brokers[1].controller.context;
  world.brokers[1].controller.active = true;
  context.epoch = 3;
  context.epoch_zk_version = 3;
  context.all_topics = TopicSet{0};
  PartitionContext& p = context.partitions[t0];
  p.assignment = replicas;
  p.leadership = LeaderIsrAndControllerEpoch{lai, 3};
  p.state = PartitionState::OnlinePartition;
  p.replica_states[2] = ReplicaState::OnlineReplica;
  p.replica_states[3] = ReplicaState::OnlineReplica;

  for (BrokerId b : {1, 2, 3}) {
    const std::int64_t epoch = 9 + b;
    world.zk.brokers[static_cast<std::size_t>(b)] = BrokerRegistration{true, epoch};
    context.live_broker_epochs[static_cast<std::size_t>(b)] = epoch;
    BrokerData& broker = world.brokers[static_cast<std::size_t>(b)];
    broker.alive = true;
    broker.broker_epoch = epoch;
    broker.known_controller_epoch = 3;
    broker.metadata_live_brokers = BrokerSet{1, 2, 3};
    broker.metadata_cache[t0] = UpdateMetadataPartitionState{kT0, 3, 2, 4, BrokerList{2, 3}, 7, BrokerList{2, 3}, {}};
  }
  world.brokers[2].replicas[t0] = HostedReplica{.present = true, .is_leader = true, .leader_epoch = 4, .partition_epoch = 7,
                                                .isr = BrokerList{2, 3}};
  world.brokers[3].replicas[t0] = HostedReplica{.present = true, .leader_epoch = 4, .partition_epoch = 7};
  return world;
}

TEST(GivenWorld, AStatedWorldLoadsAndAFailureElectsTheNextLeader) {
  const Config config = threeBrokersOneTopic();
  const Observation given = statedWorld();
  ImplCluster cluster(config, given);
  ASSERT_TRUE(cluster.observe() == given) << renderChangesText(diffObservations(config, given, cluster.observe()));
  EXPECT_EQ(cluster.remaining(), config.bounds);
  EXPECT_EQ(cluster.activeController(), BrokerId{1});

  cluster.apply(parseAction(config, "crash 2", "test", 1));
  // The broker's registration went with its session, and the controller's watch saw it.
  EXPECT_FALSE(cluster.observe().zk.brokers[2].registered);
  EXPECT_EQ(cluster.observe().brokers[1].controller.events.size(), 1u);  // BrokerChange
  cluster.apply(parseAction(config, "process-event 1", "test", 2));

  const Observation after = cluster.observe();
  const std::optional<PartitionStateZnode> state = after.zk.topics[0].states[0];
  ASSERT_TRUE(state.has_value());
  EXPECT_EQ(state->leader_and_isr.leader, 3);
  EXPECT_EQ(state->leader_and_isr.isr, BrokerList{3});
  EXPECT_EQ(state->leader_and_isr.leader_epoch, 5);
  EXPECT_EQ(state->leader_and_isr.partition_epoch, 8);
  EXPECT_EQ(state->controller_epoch, 3);
  // Broker 3 is told: a LeaderAndIsr at the new epoch waits in its inbox.
  bool told = false;
  for (const ControlRequest& request : after.brokers[3].inbox) {
    for (const LeaderAndIsrPartitionState& entry : request.leader_and_isr) {
      told = told || (entry.leadership.leader_and_isr.leader == 3 && entry.leadership.leader_and_isr.leader_epoch == 5);
    }
  }
  EXPECT_TRUE(told);
}

// A state machine's batch left unflushed loads as unflushed: the next call on that machine fails
// as it would have (its IllegalStateException), and the world still says so.
TEST(GivenWorld, AnUnflushedBatchStaysUnflushed) {
  const Config config = threeBrokersOneTopic();
  Observation given = statedWorld();
  given.brokers[1].controller.psm_batch_unflushed = true;
  ImplCluster cluster(config, given);
  ASSERT_TRUE(cluster.observe() == given) << renderChangesText(diffObservations(config, given, cluster.observe()));
  cluster.apply(parseAction(config, "crash 2", "test", 1));
  cluster.apply(parseAction(config, "process-event 1", "test", 2));
  // No election: the partition machine's newBatch() threw, so t-0 neither went offline nor got
  // broker 3 as its leader; only the replica machine took 2 out of the ISR, and with it the leader.
  const Observation after = cluster.observe();
  const std::optional<PartitionStateZnode> state = after.zk.topics[0].states[0];
  ASSERT_TRUE(state.has_value());
  EXPECT_EQ(state->leader_and_isr.leader, kNoLeader);
  EXPECT_EQ(state->leader_and_isr.isr, BrokerList{3});
  const PartitionContext& t0 = after.brokers[1].controller.context.partitions[0];
  EXPECT_EQ(t0.state, PartitionState::OnlinePartition);
  EXPECT_EQ(t0.replica_states[2], ReplicaState::OfflineReplica);
  EXPECT_TRUE(after.brokers[1].controller.psm_batch_unflushed);
  EXPECT_FALSE(after.brokers[1].controller.rsm_batch_unflushed);
}

}  // namespace
}  // namespace kcspec::impl
