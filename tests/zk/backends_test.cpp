// The two store backends: every shared scenario file (tests/scenarios/, tests/cli/) run through
// the reference controller on the in-memory store and on a real ZooKeeper server gives identical
// observations and identical enabled actions after every step, and identical znode contents
// (path, data, version) at the end. Plus the real store's own contract: conditional writes,
// multi all-or-nothing, ephemerals per session, watches.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "impl/cluster.hpp"
#include "impl/zookeeper/real_zk_store.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/observation_text.hpp"
#include "spec/vocabulary/scenario_text.hpp"
#include "zk_env.hpp"
#include "shared_scenarios.hpp"

namespace kcspec {
namespace {

using impl::zk::Code;
using impl::zk::Op;
using impl::zk::RealZkOptions;
using impl::zk::RealZkStore;

using testing::sharedScenarios;

RealZkOptions options(const std::string& connect, const std::string& chroot) {
  RealZkOptions o;
  o.connect = connect + chroot;
  o.create_chroot = true;
  o.session_timeout_ms = 4000;
  return o;
}

TEST(Backends, SharedScenariosGiveIdenticalObservationsAndZnodes) {
  KCSPEC_REQUIRE_ZK(connect);
  int scenarios = 0;
  for (const auto& file : sharedScenarios()) {
    Scenario scenario;
    try {
      scenario = parseScenario(zktest::readFile(file.string()), file.string());
    } catch (const TextError&) {
      continue;  // the deliberately broken files of tests/cli
    }
    if (scenario.given) continue;  // tests/scenarios/given: the backends start from the initial state
    ++scenarios;
    const Config& config = scenario.config;
    RealZkStore real(options(connect, zktest::freshChroot("backends")));
    impl::ImplCluster memory_cluster(config);
    impl::ImplCluster real_cluster(config, real);
    ASSERT_TRUE(memory_cluster.observe() == real_cluster.observe()) << file.filename();
    int steps = 0;
    for (std::size_t i = 0; i < scenario.steps.size(); ++i) {
      const Action& action = scenario.steps[i];
      const std::string where = file.filename().string() + ":" + std::to_string(scenario.step_lines[i]);
      const bool enabled = memory_cluster.isEnabled(action);
      ASSERT_EQ(enabled, real_cluster.isEnabled(action)) << where;
      if (!enabled) break;  // not_enabled.scenario stops here, on both
      memory_cluster.apply(action);
      real_cluster.apply(action);
      ++steps;
      const Observation in_memory = memory_cluster.observe();
      const Observation on_server = real_cluster.observe();
      ASSERT_TRUE(in_memory == on_server) << where << " " << printAction(config, action) << "\nin-memory -> real:\n"
                                          << renderChangesText(diffObservations(config, in_memory, on_server));
      ASSERT_EQ(memory_cluster.enabledActions(), real_cluster.enabledActions()) << where;
    }
    EXPECT_GT(steps, 0) << file.filename();
    // Identical znode contents: every path with its data and data version.
    std::vector<std::tuple<std::string, std::string, std::int32_t>> expected;
    for (const auto& [path, node] : memory_cluster.zookeeper().nodes()) expected.emplace_back(path, node.data, node.stat.version);
    std::vector<std::tuple<std::string, std::string, std::int32_t>> actual;
    for (const auto& [path, node] : real.dump(10000)) actual.emplace_back(path, node.data, node.stat.version);
    EXPECT_EQ(expected, actual) << file.filename();
    EXPECT_GT(expected.size(), 8u);
  }
  EXPECT_GE(scenarios, 4);
}

TEST(RealStore, ConditionalWritesAndMultiAreAllOrNothing) {
  KCSPEC_REQUIRE_ZK(connect);
  RealZkStore store(options(connect, zktest::freshChroot("store")));
  EXPECT_EQ(store.create("/a", "1").code, Code::OK);
  EXPECT_EQ(store.create("/a", "2").code, Code::NODEEXISTS);
  EXPECT_EQ(store.create("/x/y", "").code, Code::NONODE);
  EXPECT_EQ(store.setData("/a", "2", 5).code, Code::BADVERSION);
  const auto set = store.setData("/a", "2", 0);
  EXPECT_EQ(set.code, Code::OK);
  EXPECT_EQ(set.stat.version, 1);
  EXPECT_EQ(store.find("/a")->data, "2");
  EXPECT_EQ(store.remove("/a", 0).code, Code::BADVERSION);
  // The fenced shape: [check(v), op]; a stale version fails the whole multi.
  ASSERT_EQ(store.create("/controller_epoch", "1").code, Code::OK);
  const auto stale = store.multi({Op::check("/controller_epoch", 3), Op::create("/b", "x")});
  EXPECT_EQ(stale[0].code, Code::BADVERSION);
  EXPECT_EQ(stale[1].code, Code::RUNTIMEINCONSISTENCY);
  EXPECT_EQ(store.find("/b"), nullptr);
  const auto rejected = store.takeRejectedFencedWrites();
  ASSERT_EQ(rejected.size(), 1u);
  EXPECT_EQ(rejected[0].path, "/b");
  const auto fresh = store.multi({Op::check("/controller_epoch", 0), Op::create("/b", "x")});
  EXPECT_EQ(fresh[0].code, Code::OK);
  EXPECT_EQ(fresh[1].code, Code::OK);
  // A later op failing undoes the earlier ones.
  const auto undone = store.multi({Op::create("/c", ""), Op::setData("/b", "y", 7)});
  EXPECT_EQ(undone[1].code, Code::BADVERSION);
  EXPECT_EQ(store.find("/c"), nullptr);
  EXPECT_EQ(store.remove("/a", 1).code, Code::OK);
}

TEST(RealStore, EphemeralsGoWithTheirSessionAndCountedCreationsAreNumbered) {
  KCSPEC_REQUIRE_ZK(connect);
  RealZkStore store(options(connect, zktest::freshChroot("sessions")));
  store.create("/ids", "");
  store.countCreationsUnder("/ids");
  EXPECT_EQ(store.create("/ids/1", "", 10).stat.czxid, 1);
  EXPECT_EQ(store.create("/ids/2", "", 11).stat.czxid, 2);
  EXPECT_EQ(store.find("/ids/2")->stat.czxid, 2);
  EXPECT_EQ(store.find("/ids/2")->stat.ephemeral_owner, 11);
  EXPECT_EQ(store.create("/ids/1/child", "").code, Code::NOCHILDRENFOREPHEMERALS);
  store.closeSession(10);
  EXPECT_EQ(store.find("/ids/1"), nullptr);
  EXPECT_NE(store.find("/ids/2"), nullptr);
  EXPECT_EQ(store.create("/ids/1", "", 10).stat.czxid, 3);  // the session reopens on use
  EXPECT_EQ(store.lastZxid(), 3);
}

TEST(RealStore, WatchesReportEveryChangeToTheirWatcherAndStayArmed) {
  KCSPEC_REQUIRE_ZK(connect);
  RealZkStore store(options(connect, zktest::freshChroot("watches")));
  using Kind = impl::zk::WatchKind;
  using Type = impl::zk::WatchEvent::Type;
  store.create("/ids", "");
  store.create("/t", "0");
  store.watch(1, Kind::Children, "/ids");
  store.watch(1, Kind::Data, "/t");
  store.create("/ids/1", "", 2);
  store.setData("/t", "1", -1);
  auto events = store.takeWatchEvents();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0], (impl::zk::WatchEvent{1, Kind::Children, Type::NodeChildrenChanged, "/ids"}));
  EXPECT_EQ(events[1], (impl::zk::WatchEvent{1, Kind::Data, Type::NodeDataChanged, "/t"}));
  // Re-armed: the next change is reported too; after unwatch it is not.
  store.setData("/t", "2", -1);
  events = store.takeWatchEvents();
  ASSERT_EQ(events.size(), 1u);
  store.unwatch(1, Kind::Data, "/t");
  store.setData("/t", "3", -1);
  store.remove("/t", -1);
  EXPECT_TRUE(store.takeWatchEvents().empty());
}

}  // namespace
}  // namespace kcspec
