// A controller's session expiring in the middle of an event in the executable spec (issue 29 item 4;
// docs/world.md convention 15): the histories of tests/common/session_expiry_cases.hpp, each step
// checked enabled and against the catalog's state properties.
#include <gtest/gtest.h>

#include <algorithm>

#include "session_expiry_cases.hpp"
#include "spec/rules/invariants.hpp"
#include "spec/rules/step.hpp"
#include "spec_run.hpp"

namespace kcspec::spec {
namespace {

namespace cases = kcspec::testing;

class ExpiryRun : public BasicSpecRun<ExpiryRun> {
 public:
  ExpiryRun() : BasicSpecRun(cases::sessionExpiryScenario(), "session-expiry") {}
  ExpiryRun& step(std::string_view line) { return then(line); }
};

TEST(SessionExpiry, ArmedOnceForAPartitionInZooKeeper) {
  ExpiryRun run;
  cases::armedOnceForAPartitionInZooKeeper(run);
}

TEST(SessionExpiry, AnElectionMeetsTheExpiry) {
  ExpiryRun run;
  cases::anElectionMeetsTheExpiry(run);
}

TEST(SessionExpiry, ALostSessionMeetsNoNewExpiry) {
  ExpiryRun run;
  cases::aLostSessionMeetsNoNewExpiry(run);
}

TEST(SessionExpiry, APartitionCreationMeetsTheExpiry) {
  ExpiryRun run;
  cases::aPartitionCreationMeetsTheExpiry(run);
}

TEST(SessionExpiry, AFailoverMeetsTheExpiry) {
  ExpiryRun run;
  cases::aFailoverMeetsTheExpiry(run);
}

// T8 (FailedWriteNeverCached): the election after the crash caches what it wrote; a controller that
// cached it while ZooKeeper kept the old state (a failed write taken as done) breaks T8.
TEST(SessionExpiry, StepPropertyT8CatchesAFailedWriteTakenAsDone) {
  ExpiryRun run;
  run.step("elect-controller 3").drain();
  run.step("crash 1");
  const Config& config = run.config();
  const ClusterState before = run.state();
  RecordingObserver observer;
  ClusterState after = next(config, before, Action{.kind = ActionKind::ProcessEvent, .broker = 3}, observer);
  ASSERT_NE(after.world.zk.topics[0].states[0], before.world.zk.topics[0].states[0]) << "t-0 was elected";
  EXPECT_TRUE(violatedStepProperties(config, before, after, observer.record).empty());
  after.world.zk.topics[0].states[0] = before.world.zk.topics[0].states[0];
  const auto violated = violatedStepProperties(config, before, after, observer.record);
  EXPECT_NE(std::find(violated.begin(), violated.end(), "T8"), violated.end());
}

}  // namespace
}  // namespace kcspec::spec
