// Session expiry on a real ZooKeeper: the server ends the active controller's session; the
// store reports it; the controller resigns (Expire), /controller is gone with the session, and
// another broker wins with the next epoch — the same observations, step by step, as the
// in-memory world's lose-controller-session + notice-session-expiry.
#include <gtest/gtest.h>

#include "impl/cluster.hpp"
#include "impl/zookeeper/kafka_zk_client.hpp"
#include "impl/zookeeper/real_zk_store.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/observation_text.hpp"
#include "spec/vocabulary/scenario_text.hpp"
#include "zk_env.hpp"

namespace kcspec {
namespace {

Action act(const Config& config, const std::string& text) { return parseAction(config, text, "test", 1); }

TEST(SessionExpiry, TheServerExpiringTheControllerSessionMakesItResign) {
  KCSPEC_REQUIRE_ZK(server);
  const std::string path = std::string(KCSPEC_SOURCE_DIR) + "/tests/cli/appendix_b1.scenario";
  Scenario scenario = parseScenario(zktest::readFile(path), path);
  scenario.config.bounds.controller_failovers = 1;
  const Config& config = scenario.config;
  impl::zk::RealZkOptions options;
  options.connect = server + zktest::freshChroot("expiry");
  options.create_chroot = true;
  options.session_timeout_ms = 4000;
  impl::zk::RealZkStore zk(options);
  impl::ImplCluster memory(config);
  impl::ImplCluster real(config, zk);
  const auto both = [&](const std::string& text) {
    const Action a = act(config, text);
    ASSERT_TRUE(memory.isEnabled(a)) << text;
    ASSERT_TRUE(real.isEnabled(a)) << text;
    memory.apply(a);
    real.apply(a);
  };
  const auto same = [&](const std::string& where) {
    const Observation m = memory.observe();
    const Observation r = real.observe();
    ASSERT_TRUE(m == r) << where << "\nin-memory -> real:\n" << renderChangesText(diffObservations(config, m, r));
  };
  for (const Action& a : scenario.steps) {
    memory.apply(a);
    real.apply(a);
  }
  same("after appendix B.1");
  ASSERT_EQ(real.activeController(), 1);

  // The server expires broker 1's controller session; the in-memory world loses it.
  memory.apply(act(config, "lose-controller-session 1"));
  zk.expireSession(impl::zk::controllerSession(1));
  const std::vector<impl::zk::SessionId> expired = zk.takeExpiredSessions();
  ASSERT_EQ(expired, std::vector<impl::zk::SessionId>{impl::zk::controllerSession(1)});
  EXPECT_EQ(zk.find("/controller"), nullptr);  // the ephemeral went with the session
  memory.apply(act(config, "notice-session-expiry 1"));
  real.controllerSessionExpired(1);
  same("after the expiry is noticed");
  both("process-event 1");  // Expire: resign
  same("after the resignation");
  EXPECT_FALSE(real.activeController().has_value());
  both("elect-controller 2");
  same("after broker 2 wins");
  EXPECT_EQ(real.observe().zk.controller_epoch, 2);
  EXPECT_EQ(real.activeController(), 2);
  EXPECT_TRUE(zk.takeRejectedFencedWrites().empty());
}

}  // namespace
}  // namespace kcspec
