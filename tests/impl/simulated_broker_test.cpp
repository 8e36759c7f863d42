// The reference controller's SimulatedBroker (impl/broker/) against the broker rules of
// docs/world.md §5 (tests/common/broker_rule_cases.hpp; the spec's broker runs the same cases).
#include <gtest/gtest.h>

#include "broker_rule_cases.hpp"  // tests/common/
#include "impl/broker/simulated_broker.hpp"

namespace kcspec::impl {
namespace {

using namespace broker_rule_cases;

HostedReplica after(std::initializer_list<ControlRequest> requests) {
  SimulatedBroker broker;
  broker.start(5);
  for (const ControlRequest& r : requests) {
    broker.receive(r);
    broker.handleNextRequest(kSelf);
  }
  return broker.hosted(kT0);
}

KCSPEC_BROKER_RULE_TESTS(SimulatedBroker);

}  // namespace
}  // namespace kcspec::impl
