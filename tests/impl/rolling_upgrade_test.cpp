// Rolling upgrades and /feature in the reference controller (issue 29 item 1): the histories of
// tests/common/rolling_upgrade_cases.hpp, which the spec's tests run too, plus what only the
// reference controller has: FeatureZNode's JSON in the store.
#include <gtest/gtest.h>

#include <string_view>

#include "impl/zookeeper/zk_data.hpp"
#include "impl_scenario.hpp"
#include "rolling_upgrade_cases.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/scenario_text.hpp"

namespace kcspec::impl {
namespace {

namespace cases = kcspec::testing;

Config configOf(std::string_view from, std::string_view to = {}) {
  return parseScenario(cases::rollingUpgradeScenario(from, to), "rolling-upgrade").config;
}

class UpgradeRun : public testing::ImplRun {
 public:
  explicit UpgradeRun(std::string_view from, std::string_view to = {}) : ImplRun(configOf(from, to)) {}
  UpgradeRun& step(std::string_view line) {
    ImplRun::step(line);
    return *this;
  }
  UpgradeRun& drain() {
    ImplRun::drain();
    return *this;
  }
  bool enabled(std::string_view line) const {
    return cluster().isEnabled(parseAction(cluster().config(), line, "rolling-upgrade", 1));
  }
};

TEST(ImplRollingUpgrade, EachControllerSetsUpFeatureAtFailover) {
  for (const cases::FeatureRow& row : cases::kFeatureRows) {
    SCOPED_TRACE(row.protocol);
    UpgradeRun run(row.protocol);
    cases::featureAtFailover(run, row);
  }
}

TEST(ImplRollingUpgrade, OnlyAStoppedBrokerIsUpgradedOnce) {
  UpgradeRun run("2.4", "3.8");
  cases::upgradeNeedsAStoppedBroker(run);
  UpgradeRun without("2.4");
  cases::noUpgradeWithoutAVersion(without);
}

TEST(ImplRollingUpgrade, AControllerFollowsItsOwnBroker) {
  UpgradeRun run("2.4", "3.8");
  cases::aControllerFollowsItsOwnBroker(run);
}

TEST(ImplRollingUpgrade, ALeaderFollowsItsOwnVersion) {
  UpgradeRun upgraded_leader("2.4", "3.8");
  UpgradeRun old_leader("2.4", "3.8");
  cases::aLeaderFollowsItsOwnVersion(upgraded_leader, old_leader);
}

TEST(ImplRollingUpgrade, ALostResponseToFeaturesCreationFailsTheFailover) {
  UpgradeRun run("3.8");
  cases::aLostFeatureCreationFailsTheFailover(run);
  UpgradeRun rewrite("2.4", "3.8");
  cases::aLostFeatureRewriteChangesNothing(rewrite);
}

TEST(ImplRollingUpgrade, CreateTopicsFollowsTheController) {
  UpgradeRun upgraded("2.4", "3.8");
  UpgradeRun old("2.4", "3.8");
  cases::createTopicsFollowsTheController(upgraded, old);
}

// FeatureZNode's JSON: {"version":V,"status":S,"features":{}}, and back.
TEST(ImplRollingUpgrade, FeatureZNodeIsKafkasJson) {
  const FeatureZnode enabled{.status = FeatureZnodeStatus::Enabled, .format_version = 2};
  const FeatureZnode disabled{.status = FeatureZnodeStatus::Disabled, .format_version = 1};
  EXPECT_EQ(zk::payload::feature(enabled), R"({"features":{},"status":1,"version":2})");
  EXPECT_EQ(zk::payload::decodeFeature(zk::payload::feature(enabled)), enabled);
  EXPECT_EQ(zk::payload::decodeFeature(zk::payload::feature(disabled)), disabled);
  EXPECT_EQ(zk::payload::decodeFeature(R"({"version":3,"status":1,"features":{}})"), std::nullopt);
  EXPECT_EQ(zk::payload::decodeFeature("not json"), std::nullopt);
}

}  // namespace
}  // namespace kcspec::impl
