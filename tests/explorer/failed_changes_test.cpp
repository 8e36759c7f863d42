// Failed state changes (issue 33 item 4): why Kafka logged a change as failed is read from the
// exception attached to the impl's state-change.log line (failureOutcome), the two versions'
// records of a step are compared as multisets (stateChangeDisagreement), and BothSystem finds a
// controller whose failed elections differ while its observations agree (mutant M17).
#include <gtest/gtest.h>

#include <vector>

#include "impl/errors.hpp"
#include "proofs/agreement/step_record.hpp"
#include "proofs/explorer/both_system.hpp"
#include "proofs/explorer/explorer.hpp"
#include "proofs/explorer/impl_system.hpp"
#include "spec/rules/invariants.hpp"
#include "spec/vocabulary/config_text.hpp"

namespace kcspec::explorer {
namespace {

using spec::ChangeOutcome;
using spec::ElectionStrategy;
using spec::ElectionStrategyKind;

ChangeOutcome outcomeOf(const impl::Failure& failure) {
  const auto why = agreement::failureOutcome(failure);
  EXPECT_TRUE(why.has_value()) << failure.exception_class << ": " << failure.message;
  return why ? why->first : ChangeOutcome::Applied;
}

TEST(FailedChanges, TheExceptionSaysWhyAChangeFailed) {
  EXPECT_EQ(outcomeOf(impl::IllegalStateException("Partition t-0 should be in one of … states").failure()),
            ChangeOutcome::InvalidTransition);
  EXPECT_EQ(outcomeOf(impl::StateChangeFailedException("Controller 1 epoch 1 encountered error during state change of "
                                                       "partition t-0 from New to Online, assigned replicas are [1], live "
                                                       "brokers are [Set()]. No assigned replica is alive.")
                          .failure()),
            ChangeOutcome::NoLiveReplica);
  EXPECT_EQ(outcomeOf(impl::StateChangeFailedException("Aborted leader election for partition t-0 since the LeaderAndIsr "
                                                       "path was already written by another controller. …")
                          .failure()),
            ChangeOutcome::WrittenByAnotherController);
  EXPECT_EQ(outcomeOf(impl::StateChangeFailedException("LeaderAndIsr information doesn't exist for partition t-0 in "
                                                       "OnlinePartition state")
                          .failure()),
            ChangeOutcome::NoLeaderAndIsr);
  EXPECT_EQ(outcomeOf(impl::StateChangeFailedException("Failed to change state of replica 2 for partition t-0 since the "
                                                       "leader and isr path in zookeeper is empty")
                          .failure()),
            ChangeOutcome::NoLeaderAndIsr);
  EXPECT_EQ(outcomeOf(impl::StateChangeFailedException("Replica 1 for partition t-0 cannot be moved to NewReplica state "
                                                       "as it is being requested to become leader")
                          .failure()),
            ChangeOutcome::ReplicaIsLeader);
  EXPECT_EQ(outcomeOf(impl::keeperFailure(impl::zk::Code::NODEEXISTS)), ChangeOutcome::ZooKeeperError);
}

TEST(FailedChanges, AFailedElectionNamesItsStrategy) {
  const auto why = agreement::failureOutcome(
      impl::StateChangeFailedException(
          "Failed to elect leader for partition t-0 under strategy OfflinePartitionLeaderElectionStrategy(true)")
          .failure());
  ASSERT_TRUE(why.has_value());
  EXPECT_EQ(why->first, ChangeOutcome::NoLeaderElected);
  EXPECT_EQ(why->second, (ElectionStrategy{ElectionStrategyKind::OfflinePartition, true}));
  // A message kcspec's controller never writes is not guessed at.
  EXPECT_FALSE(agreement::failureOutcome(impl::StateChangeFailedException("Failed to elect leader for partition t-0 under strategy "
                                                                "SomeOtherStrategy")
                                  .failure())
                   .has_value());
  EXPECT_FALSE(agreement::failureOutcome(impl::Failure{"java.lang.NullPointerException", ""}).has_value());
}

spec::StateChangeRecord change(int partition, ChangeOutcome outcome, ElectionStrategy strategy = {}) {
  return spec::StateChangeRecord{1,
                                 false,
                                 TopicPartition{0, partition},
                                 kNoLeader,
                                 static_cast<std::uint8_t>(PartitionState::OnlinePartition),
                                 static_cast<std::uint8_t>(PartitionState::OnlinePartition),
                                 outcome,
                                 strategy};
}

TEST(FailedChanges, RecordsAreComparedAsMultisets) {
  Config config;
  config.topics.push_back(TopicConfig{.name = "t"});
  const ElectionStrategy reassign{ElectionStrategyKind::ReassignPartition, false};
  const std::vector<spec::StateChangeRecord> a = {change(0, ChangeOutcome::Applied), change(1, ChangeOutcome::NoLeaderElected, reassign)};
  const std::vector<spec::StateChangeRecord> b = {change(1, ChangeOutcome::NoLeaderElected, reassign), change(0, ChangeOutcome::Applied)};
  EXPECT_EQ(agreement::stateChangeDisagreement(config, a, b), "");  // the order within one call is a hash set's
  const std::vector<spec::StateChangeRecord> fewer = {change(0, ChangeOutcome::Applied)};
  const std::string missing = agreement::stateChangeDisagreement(config, a, fewer);
  EXPECT_NE(missing.find("t-1 OnlinePartition -> OnlinePartition: no leader elected (ReassignPartitionLeaderElectionStrategy)"),
            std::string::npos)
      << missing;
  // The same failure under another strategy is another failure.
  const std::vector<spec::StateChangeRecord> other = {change(0, ChangeOutcome::Applied),
                                                      change(1, ChangeOutcome::NoLeaderElected, ElectionStrategy{})};
  EXPECT_NE(agreement::stateChangeDisagreement(config, a, other), "");
}

// M17 runs an election that can only fail: the world after the step is the spec's, only the log
// differs. BothSystem reports it as C1 with both lists; without the mutant nothing differs.
TEST(FailedChanges, BothSystemFindsAFailedElectionThatOnlyTheLogShows) {
  const Config config = parseConfig(R"(name shutdown-single-replica
brokers 1 2
alive-at-start 1 2
topic t
  partition 0 replicas 1
  exists-at-start true
bound controlled-shutdowns 1
)",
                                    "test");
  ExploreOptions options;
  options.threads = 1;
  options.check_liveness = false;
  options.is_known_deviation = spec::isKnownKafkaDeviation;
  EXPECT_TRUE(explore(BothSystem(config), options).holds());
  const BothSystem system(config, impl::Mutants::of({impl::Mutant::M17}));
  const auto result = explore(system, options);
  ASSERT_FALSE(result.holds());
  const auto& v = result.violations.front();
  EXPECT_EQ(v.property, kSpecImplAgree.id);
  BothSystem::State state = system.initialStates().front();
  for (const Action& a : v.path) {
    PropertyMask ignored = 0;
    state = system.next(state, a, ignored);
  }
  ASSERT_NE(state.failed_changes, nullptr);
  EXPECT_EQ(state.impl_view, nullptr);  // the observations agree
  const std::string text = system.disagreement(state);
  EXPECT_NE(text.find("spec asked for 0 state changes"), std::string::npos) << text;
  EXPECT_NE(text.find("no leader elected (ControlledShutdownPartitionLeaderElectionStrategy)"), std::string::npos) << text;
  // Decoding the dead end reads the last step's records again.
  std::string bytes;
  system.encode(state, bytes);
  const BothSystem::State decoded = system.decode(bytes);
  ASSERT_NE(decoded.failed_changes, nullptr);
  EXPECT_EQ(*decoded.failed_changes, *state.failed_changes);
  EXPECT_EQ(system.fingerprint(decoded), system.fingerprint(state));
}

}  // namespace
}  // namespace kcspec::explorer
