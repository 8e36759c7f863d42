// A controller's session expiring in the middle of an event in the reference controller (issue 29
// item 4; docs/world.md convention 15): the histories of tests/common/session_expiry_cases.hpp, which
// the spec's tests run too, plus what only the reference controller has: its state-change.log.
#include <gtest/gtest.h>

#include <string_view>

#include "impl_scenario.hpp"
#include "session_expiry_cases.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/scenario_text.hpp"

namespace kcspec::impl {
namespace {

namespace cases = kcspec::testing;

class ExpiryRun : public testing::ImplRun {
 public:
  ExpiryRun() : ImplRun(parseScenario(cases::sessionExpiryScenario(), "session-expiry").config) {}
  ExpiryRun& step(std::string_view line) {
    ImplRun::step(line);
    return *this;
  }
  ExpiryRun& drain() {
    ImplRun::drain();
    return *this;
  }
  bool enabled(std::string_view line) const {
    return cluster().isEnabled(parseAction(cluster().config(), line, "session-expiry", 1));
  }
};

TEST(ImplSessionExpiry, ArmedOnceForAPartitionInZooKeeper) {
  ExpiryRun run;
  cases::armedOnceForAPartitionInZooKeeper(run);
}

TEST(ImplSessionExpiry, AnElectionMeetsTheExpiry) {
  ExpiryRun run;
  cases::anElectionMeetsTheExpiry(run);
}

TEST(ImplSessionExpiry, ALostSessionMeetsNoNewExpiry) {
  ExpiryRun run;
  cases::aLostSessionMeetsNoNewExpiry(run);
}

TEST(ImplSessionExpiry, APartitionCreationMeetsTheExpiry) {
  ExpiryRun run;
  cases::aPartitionCreationMeetsTheExpiry(run);
}

TEST(ImplSessionExpiry, AFailoverMeetsTheExpiry) {
  ExpiryRun run;
  cases::aFailoverMeetsTheExpiry(run);
}

// The failures Kafka logs: the replica whose ISR removal could not read its state znode, and the
// partitions New→Online could not create, with the target NewPartition (ERROR, SessionExpiredException).
TEST(ImplSessionExpiry, TheLogNamesTheSessionExpiredException) {
  ExpiryRun election;
  election.step("elect-controller 3").drain();
  election.takeLog();
  election.step("zk-session-expiry t-0").step("crash 1").step("process-event 3");
  const std::string log = election.takeLog();
  EXPECT_NE(log.find("initiated state change of replica 1 for partition t-0 from OnlineReplica to OfflineReplica failed"),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("org.apache.zookeeper.KeeperException$SessionExpiredException: KeeperErrorCode = Session expired "
                     "for /brokers/topics/t/partitions/0/state"),
            std::string::npos)
      << log;

  ExpiryRun creation;
  creation.step("elect-controller 3").drain();
  creation.step("create-topic u").step("zk-session-expiry u-0");
  creation.takeLog();
  creation.step("process-event 3");
  const std::string created = creation.takeLog();
  EXPECT_NE(created.find("failed to change state for partition u-0 from NewPartition to NewPartition"), std::string::npos)
      << created;
  EXPECT_NE(created.find("KeeperException$SessionExpiredException: KeeperErrorCode = Session expired"), std::string::npos)
      << created;
}

}  // namespace
}  // namespace kcspec::impl
