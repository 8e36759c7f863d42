// The spec's broker (spec/rules/brokers.cpp) against the broker rules of docs/world.md §5
// (tests/common/broker_rule_cases.hpp; the impl's SimulatedBroker runs the same cases).
#include <gtest/gtest.h>

#include "broker_rule_cases.hpp"  // tests/common/
#include "spec/rules/brokers.hpp"

namespace kcspec::spec {
namespace {

using namespace broker_rule_cases;

HostedReplica after(std::initializer_list<ControlRequest> requests) {
  Observation world;
  BrokerData& broker = world.brokers[static_cast<std::size_t>(kSelf)];
  broker.alive = true;
  broker.broker_epoch = 5;
  for (const ControlRequest& r : requests) {
    broker.inbox.push_back(r);
    processNextRequest(world, kSelf);
  }
  return broker.replicas[static_cast<std::size_t>(partitionIndex(kT0))];
}

KCSPEC_BROKER_RULE_TESTS(Brokers);

}  // namespace
}  // namespace kcspec::spec
