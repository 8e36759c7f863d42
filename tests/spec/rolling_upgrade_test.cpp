// Rolling upgrades and /feature in the executable spec (issue 29 item 1; docs/world.md convention
// 14): the histories of tests/common/rolling_upgrade_cases.hpp, each step checked enabled and
// against the catalog's state properties.
#include <gtest/gtest.h>

#include <string_view>

#include "rolling_upgrade_cases.hpp"
#include "spec_run.hpp"

namespace kcspec::spec {
namespace {

namespace cases = kcspec::testing;

class UpgradeRun : public BasicSpecRun<UpgradeRun> {
 public:
  explicit UpgradeRun(std::string_view from, std::string_view to = {})
      : BasicSpecRun(cases::rollingUpgradeScenario(from, to), "rolling-upgrade") {}
  UpgradeRun& step(std::string_view line) { return then(line); }
};

TEST(RollingUpgrade, EachControllerSetsUpFeatureAtFailover) {
  for (const cases::FeatureRow& row : cases::kFeatureRows) {
    SCOPED_TRACE(row.protocol);
    UpgradeRun run(row.protocol);
    cases::featureAtFailover(run, row);
  }
}

TEST(RollingUpgrade, OnlyAStoppedBrokerIsUpgradedOnce) {
  UpgradeRun run("2.4", "3.8");
  cases::upgradeNeedsAStoppedBroker(run);
  UpgradeRun without("2.4");
  cases::noUpgradeWithoutAVersion(without);
}

TEST(RollingUpgrade, AControllerFollowsItsOwnBroker) {
  UpgradeRun run("2.4", "3.8");
  cases::aControllerFollowsItsOwnBroker(run);
}

TEST(RollingUpgrade, ALeaderFollowsItsOwnVersion) {
  UpgradeRun upgraded_leader("2.4", "3.8");
  UpgradeRun old_leader("2.4", "3.8");
  cases::aLeaderFollowsItsOwnVersion(upgraded_leader, old_leader);
}

TEST(RollingUpgrade, ALostResponseToFeaturesCreationFailsTheFailover) {
  UpgradeRun run("3.8");
  cases::aLostFeatureCreationFailsTheFailover(run);
  UpgradeRun rewrite("2.4", "3.8");
  cases::aLostFeatureRewriteChangesNothing(rewrite);
}

TEST(RollingUpgrade, CreateTopicsFollowsTheController) {
  UpgradeRun upgraded("2.4", "3.8");
  UpgradeRun old("2.4", "3.8");
  cases::createTopicsFollowsTheController(upgraded, old);
}

}  // namespace
}  // namespace kcspec::spec
