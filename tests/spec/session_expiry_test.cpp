// A controller's session expiring in the middle of an event in the executable spec (issue 29 item 4;
// docs/world.md convention 15): the histories of tests/common/session_expiry_cases.hpp, each step
// checked enabled and against the catalog's state properties.
#include <gtest/gtest.h>

#include "session_expiry_cases.hpp"
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

}  // namespace
}  // namespace kcspec::spec
