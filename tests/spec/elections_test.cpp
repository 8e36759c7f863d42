// The four leader elections of spec/rules (kafka.md §2.7, §2.8, Appendix B.2/B.3), one edge case per test.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <optional>
#include <ostream>
#include <vector>

#include "spec/rules/elections.hpp"

namespace kcspec::spec {

// Readable failure messages.
void PrintTo(const ElectionDecision& d, std::ostream* os) {
  *os << "{leader " << d.leader << ", isr [";
  for (BrokerId i : d.new_isr) *os << i << ' ';
  *os << "], isr_replaced " << d.isr_replaced << ", recovering " << d.recovering << ", unclean " << d.unclean
      << ", recipients [";
  for (BrokerId r : d.recipients) *os << r << ' ';
  *os << "]}";
}

namespace {

constexpr ElectionStrategy kOffline{ElectionStrategyKind::OfflinePartition, false};
constexpr ElectionStrategy kOfflineUnclean{ElectionStrategyKind::OfflinePartition, true};
constexpr ElectionStrategy kReassign{ElectionStrategyKind::ReassignPartition, false};
constexpr ElectionStrategy kPreferred{ElectionStrategyKind::PreferredReplicaPartition, false};
constexpr ElectionStrategy kControlledShutdown{ElectionStrategyKind::ControlledShutdownPartition, false};

// A partition not being reassigned; no broker shutting down unless the test says so.
ElectionInputs partition(BrokerList assignment, BrokerList isr, BrokerSet live) {
  return ElectionInputs{.assignment = assignment, .target_replicas = assignment, .isr = isr, .live = live,
                        .live_or_shutting_down = live, .shutting_down = {}, .topic_unclean_enabled = false};
}

// ---- Strategy names (kafka.md §0.5) ----------------------------------------------------------------

TEST(ElectionStrategy, KafkaStrings) {
  EXPECT_EQ(toKafkaString(kOffline), "OfflinePartitionLeaderElectionStrategy(false)");
  EXPECT_EQ(toKafkaString(kOfflineUnclean), "OfflinePartitionLeaderElectionStrategy(true)");
  EXPECT_EQ(toKafkaString(kReassign), "ReassignPartitionLeaderElectionStrategy");
  EXPECT_EQ(toKafkaString(kPreferred), "PreferredReplicaPartitionLeaderElectionStrategy");
  EXPECT_EQ(toKafkaString(kControlledShutdown), "ControlledShutdownPartitionLeaderElectionStrategy");
}

TEST(ElectionStrategy, UncleanFlagIsPrintedOnlyByOffline) {
  EXPECT_EQ(toKafkaString({ElectionStrategyKind::ReassignPartition, true}), "ReassignPartitionLeaderElectionStrategy");
}

// ---- The algorithms alone (kafka.md §2.8, pseudo-code) -----------------------------------------------

TEST(OfflinePartitionLeaderElection, FirstLiveInSyncReplicaInAssignmentOrder) {
  EXPECT_EQ(offlinePartitionLeaderElection({3, 1, 2}, {1, 2, 3}, {1, 2, 3}, false), 3);
  EXPECT_EQ(offlinePartitionLeaderElection({1, 2, 3}, {3, 2}, {2, 3}, false), 2);
}

TEST(OfflinePartitionLeaderElection, CleanBeforeUncleanEvenWhenUncleanAllowed) {
  EXPECT_EQ(offlinePartitionLeaderElection({1, 2, 3}, {3}, {2, 3}, true), 3);
}

TEST(OfflinePartitionLeaderElection, UncleanFallsBackToFirstLiveReplica) {
  EXPECT_EQ(offlinePartitionLeaderElection({1, 2, 3}, {1}, {3, 2}, true), 2);
  EXPECT_EQ(offlinePartitionLeaderElection({1, 2, 3}, {1}, {3, 2}, false), std::nullopt);
}

TEST(OfflinePartitionLeaderElection, NoLiveReplicaIsNoneEvenUnclean) {
  EXPECT_EQ(offlinePartitionLeaderElection({1, 2, 3}, {1}, {}, true), std::nullopt);
  EXPECT_EQ(offlinePartitionLeaderElection({1, 2, 3}, {1}, {4, 5}, true), std::nullopt);
}

TEST(ReassignPartitionLeaderElection, FirstLiveInSyncTargetReplicaInTargetOrder) {
  EXPECT_EQ(reassignPartitionLeaderElection({4, 5, 6}, {1, 2, 6, 5}, {1, 2, 5, 6}), 5);
  EXPECT_EQ(reassignPartitionLeaderElection({4, 5, 6}, {1, 2, 4}, {1, 2}), std::nullopt);
}

TEST(PreferredReplicaPartitionLeaderElection, HeadOrNothing) {
  EXPECT_EQ(preferredReplicaPartitionLeaderElection({2, 1, 3}, {1, 2, 3}, {1, 2, 3}), 2);
  EXPECT_EQ(preferredReplicaPartitionLeaderElection({2, 1, 3}, {1, 3}, {1, 2, 3}), std::nullopt);
  EXPECT_EQ(preferredReplicaPartitionLeaderElection({2, 1, 3}, {1, 2, 3}, {1, 3}), std::nullopt);
  EXPECT_EQ(preferredReplicaPartitionLeaderElection({}, {1}, {1}), std::nullopt);
}

TEST(ControlledShutdownPartitionLeaderElection, FirstInSyncReplicaNotShuttingDown) {
  EXPECT_EQ(controlledShutdownPartitionLeaderElection({1, 2, 3}, {1, 2, 3}, {1, 2, 3}, {1}), 2);
  EXPECT_EQ(controlledShutdownPartitionLeaderElection({1, 2, 3}, {1, 2, 3}, {1, 3}, {1}), 3);
  EXPECT_EQ(controlledShutdownPartitionLeaderElection({1, 2, 3}, {1, 2}, {1, 2, 3}, {1, 2}), std::nullopt);
}

// ---- Offline strategy (kafka.md §2.7, §2.8 row 1, further facts 2, 3, 5, 6) ----------------------------

TEST(OfflineElection, CleanPicksAssignmentOrderNotIsrOrder) {
  const auto d = electLeader(kOffline, partition({3, 1, 2}, {1, 2, 3}, {1, 2, 3}));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->leader, 3);
  EXPECT_EQ(d->new_isr, (BrokerList{1, 2, 3}));
}

TEST(OfflineElection, CleanDropsDeadIsrMembersKeepingIsrOrder) {
  const auto d = electLeader(kOffline, partition({1, 2, 3, 4}, {4, 3, 2, 1}, {1, 2, 4}));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->leader, 1);
  EXPECT_EQ(d->new_isr, (BrokerList{4, 2, 1}));
  EXPECT_TRUE(d->isr_replaced);
  EXPECT_FALSE(d->unclean);
  EXPECT_FALSE(d->recovering);  // recovery state copied from ZK (further fact 3)
}

TEST(OfflineElection, ShuttingDownBrokersAreNeitherCandidatesNorKeptInIsrNorRecipients) {
  ElectionInputs in = partition({1, 2, 3}, {1, 2, 3}, {2, 3});
  in.live_or_shutting_down = {1, 2, 3};
  in.shutting_down = {1};
  EXPECT_EQ(electLeader(kOffline, in),
            (ElectionDecision{.leader = 2, .new_isr = {2, 3}, .isr_replaced = true, .recovering = false,
                              .unclean = false, .recipients = {2, 3}}));
}

TEST(OfflineElection, RecipientsAreOnlineAssignedReplicasInAssignmentOrder) {
  const auto d = electLeader(kOffline, partition({3, 1, 2, 4}, {3, 1, 2, 4}, {4, 2, 1}));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->leader, 1);
  EXPECT_EQ(d->recipients, (BrokerList{1, 2, 4}));
}

TEST(OfflineElection, NoLiveIsrMemberAndUncleanOffIsNone) {
  EXPECT_EQ(electLeader(kOffline, partition({1, 2, 3}, {1}, {2, 3})), std::nullopt);
}

TEST(OfflineElection, NoLeaderAndSoleIsrMemberDeadStaysOffline) {
  // Further fact 5: leader −1, ISR [x], x dead. The current leader is not an input: only the ISR counts.
  EXPECT_EQ(electLeader(kOffline, partition({1, 2, 3}, {1}, {2, 3})), std::nullopt);
  EXPECT_EQ(electLeader(kOffline, partition({2, 1}, {1}, {2})), std::nullopt);
}

TEST(OfflineElection, UncleanViaStrategyFlag) {
  EXPECT_EQ(electLeader(kOfflineUnclean, partition({1, 2, 3}, {1}, {3, 2})),
            (ElectionDecision{.leader = 2, .new_isr = {2}, .isr_replaced = true, .recovering = true,
                              .unclean = true, .recipients = {2, 3}}));
}

TEST(OfflineElection, UncleanViaTopicFlag) {
  ElectionInputs in = partition({1, 2, 3}, {1}, {3, 2});
  in.topic_unclean_enabled = true;
  EXPECT_EQ(electLeader(kOffline, in),
            (ElectionDecision{.leader = 2, .new_isr = {2}, .isr_replaced = true, .recovering = true,
                              .unclean = true, .recipients = {2, 3}}));
}

TEST(OfflineElection, UncleanSkipsShuttingDownBrokers) {
  ElectionInputs in = partition({1, 2, 3}, {1}, {3});
  in.live_or_shutting_down = {2, 3};
  in.shutting_down = {2};
  const auto d = electLeader(kOfflineUnclean, in);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->leader, 3);
  EXPECT_EQ(d->new_isr, (BrokerList{3}));
  EXPECT_EQ(d->recipients, (BrokerList{3}));
}

TEST(OfflineElection, NoLiveReplicaIsNoneEvenWithUnclean) {
  EXPECT_EQ(electLeader(kOfflineUnclean, partition({1, 2, 3}, {1}, {})), std::nullopt);
  ElectionInputs in = partition({1, 2, 3}, {1}, {4});
  in.topic_unclean_enabled = true;
  EXPECT_EQ(electLeader(kOfflineUnclean, in), std::nullopt);
}

TEST(OfflineElection, UncleanFlagsApplyOnlyWhenNoIsrMemberIsOnline) {
  // §2.7: a partition with a live ISR member gets unclean=false whatever the flags; here that member
  // is not in the assignment, so no clean leader exists and the election fails instead of going unclean.
  ElectionInputs in = partition({1, 2}, {3}, {2, 3});
  in.topic_unclean_enabled = true;
  EXPECT_EQ(electLeader(kOffline, in), std::nullopt);
  EXPECT_EQ(electLeader(kOfflineUnclean, in), std::nullopt);
}

TEST(OfflineElection, AppendixB2HardFailureOfTheLeader) {
  EXPECT_EQ(electLeader(kOffline, partition({1, 2, 3}, {1, 2, 3}, {2, 3})),
            (ElectionDecision{.leader = 2, .new_isr = {2, 3}, .isr_replaced = true, .recovering = false,
                              .unclean = false, .recipients = {2, 3}}));
}

TEST(OfflineElection, AppendixB2VariantSoleIsrMemberFails) {
  EXPECT_EQ(electLeader(kOffline, partition({1, 2, 3}, {1}, {2, 3})), std::nullopt);
}

// ---- Reassign strategy (§2.8 row 2, further fact 4) -----------------------------------------------

TEST(ReassignElection, PicksFromTargetReplicasInTargetOrder) {
  // [1,2,3] → [4,5,6]: full [4,5,6,1,2,3]; 4 is down; 6 precedes 5 in the ISR.
  ElectionInputs in = partition({4, 5, 6, 1, 2, 3}, {1, 2, 3, 6, 5}, {1, 2, 3, 5, 6});
  in.target_replicas = {4, 5, 6};
  EXPECT_EQ(electLeader(kReassign, in),
            (ElectionDecision{.leader = 5, .new_isr = {1, 2, 3, 6, 5}, .isr_replaced = false, .recovering = false,
                              .unclean = false, .recipients = {4, 5, 6}}));
}

TEST(ReassignElection, NeverPicksAReplicaOutsideTheTarget) {
  ElectionInputs in = partition({4, 5, 6, 1, 2, 3}, {1, 2, 3}, {1, 2, 3, 4, 5, 6});
  in.target_replicas = {4, 5, 6};
  EXPECT_EQ(electLeader(kReassign, in), std::nullopt);
}

TEST(ReassignElection, RecipientsAreAllTargetReplicasEvenOffline) {
  ElectionInputs in = partition({1, 2, 3}, {1, 2, 3}, {3});
  in.target_replicas = {2, 3, 1};
  const auto d = electLeader(kReassign, in);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->leader, 3);
  EXPECT_EQ(d->recipients, (BrokerList{2, 3, 1}));
}

TEST(ReassignElection, NeverChangesTheIsr) {
  const auto d = electLeader(kReassign, partition({1, 2, 3}, {3, 1, 2}, {1}));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->leader, 1);
  EXPECT_FALSE(d->isr_replaced);
  EXPECT_EQ(d->new_isr, (BrokerList{3, 1, 2}));  // dead members stay
}

TEST(ReassignElection, HasNoUncleanFallback) {
  ElectionInputs in = partition({1, 2, 3}, {1}, {2, 3});
  in.topic_unclean_enabled = true;
  EXPECT_EQ(electLeader({ElectionStrategyKind::ReassignPartition, true}, in), std::nullopt);
}

// ---- PreferredReplica strategy (§2.8 row 3, further fact 4) ---------------------------------------

TEST(PreferredReplicaElection, ElectsTheHeadAndTellsAllOfTheAssignment) {
  EXPECT_EQ(electLeader(kPreferred, partition({2, 1, 3}, {1, 2, 3}, {1, 2})),
            (ElectionDecision{.leader = 2, .new_isr = {1, 2, 3}, .isr_replaced = false, .recovering = false,
                              .unclean = false, .recipients = {2, 1, 3}}));
}

TEST(PreferredReplicaElection, DeadHeadIsNoneWithoutFallback) {
  EXPECT_EQ(electLeader(kPreferred, partition({2, 1, 3}, {1, 2, 3}, {1, 3})), std::nullopt);
}

TEST(PreferredReplicaElection, HeadOutsideIsrIsNoneWithoutFallback) {
  EXPECT_EQ(electLeader(kPreferred, partition({2, 1, 3}, {1, 3}, {1, 2, 3})), std::nullopt);
}

TEST(PreferredReplicaElection, ShuttingDownHeadIsNone) {
  ElectionInputs in = partition({2, 1, 3}, {1, 2, 3}, {1, 3});
  in.live_or_shutting_down = {1, 2, 3};
  in.shutting_down = {2};
  EXPECT_EQ(electLeader(kPreferred, in), std::nullopt);
}

TEST(PreferredReplicaElection, HasNoUncleanFallback) {
  ElectionInputs in = partition({1, 2, 3}, {1}, {2, 3});
  in.topic_unclean_enabled = true;
  EXPECT_EQ(electLeader({ElectionStrategyKind::PreferredReplicaPartition, true}, in), std::nullopt);
}

// ---- ControlledShutdown strategy (§2.8 row 4, §2.9, further fact 4) --------------------------------

TEST(ControlledShutdownElection, AppendixB3ControlledShutdownOfTheLeader) {
  ElectionInputs in = partition({1, 2, 3}, {1, 2, 3}, {2, 3});
  in.live_or_shutting_down = {1, 2, 3};
  in.shutting_down = {1};
  EXPECT_EQ(electLeader(kControlledShutdown, in),
            (ElectionDecision{.leader = 2, .new_isr = {2, 3}, .isr_replaced = true, .recovering = false,
                              .unclean = false, .recipients = {1, 2, 3}}));
}

TEST(ControlledShutdownElection, RemovesAllShuttingDownBrokersFromIsr) {
  ElectionInputs in = partition({1, 2, 3, 4}, {1, 3, 4, 2}, {2, 4});
  in.live_or_shutting_down = {1, 2, 3, 4};
  in.shutting_down = {1, 3};
  const auto d = electLeader(kControlledShutdown, in);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->leader, 2);
  EXPECT_EQ(d->new_isr, (BrokerList{4, 2}));
  EXPECT_TRUE(d->isr_replaced);
}

TEST(ControlledShutdownElection, CandidatesExcludeShuttingDownBrokers) {
  ElectionInputs in = partition({1, 2, 3}, {1, 2, 3}, {3});
  in.live_or_shutting_down = {1, 2, 3};
  in.shutting_down = {1, 2};
  const auto d = electLeader(kControlledShutdown, in);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->leader, 3);
  EXPECT_EQ(d->new_isr, (BrokerList{3}));
}

TEST(ControlledShutdownElection, KeepsDeadButNotShuttingDownIsrMembers) {
  // Only shutting-down brokers leave the ISR; 2 is dead (not registered), so it is no candidate but stays.
  ElectionInputs in = partition({1, 2, 3}, {1, 2, 3}, {3});
  in.live_or_shutting_down = {1, 3};
  in.shutting_down = {1};
  EXPECT_EQ(electLeader(kControlledShutdown, in),
            (ElectionDecision{.leader = 3, .new_isr = {2, 3}, .isr_replaced = true, .recovering = false,
                              .unclean = false, .recipients = {1, 3}}));
}

TEST(ControlledShutdownElection, RecipientsIncludeShuttingDownBrokersButNotDeadOnes) {
  ElectionInputs in = partition({3, 1, 2}, {1, 2, 3}, {2});
  in.live_or_shutting_down = {1, 2};
  in.shutting_down = {1};
  const auto d = electLeader(kControlledShutdown, in);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->leader, 2);
  EXPECT_EQ(d->recipients, (BrokerList{1, 2}));
}

TEST(ControlledShutdownElection, NoEligibleReplicaIsNoneAndIsrUntouched) {
  ElectionInputs in = partition({1, 2, 3}, {1}, {2, 3});
  in.live_or_shutting_down = {1, 2, 3};
  in.shutting_down = {1};
  EXPECT_EQ(electLeader(kControlledShutdown, in), std::nullopt);
}

TEST(ControlledShutdownElection, HasNoUncleanFallback) {
  ElectionInputs in = partition({1, 2, 3}, {1}, {2, 3});
  in.live_or_shutting_down = {1, 2, 3};
  in.shutting_down = {1};
  in.topic_unclean_enabled = true;
  EXPECT_EQ(electLeader({ElectionStrategyKind::ControlledShutdownPartition, true}, in), std::nullopt);
}

// ---- Properties over random partitions --------------------------------------------------------------

// A random partition: distinct replicas, an ISR drawn from them, random liveness and shutdown.
ElectionInputs randomPartition(const std::vector<bool>& bits) {
  const auto bit = [&](std::size_t i) { return i < bits.size() && bits[i]; };
  ElectionInputs in;
  for (BrokerId b = 0; b < kMaxBrokers; ++b) {
    const std::size_t base = static_cast<std::size_t>(b) * 5;
    if (bit(base)) in.assignment.push_back(b);
    if (bit(base) && bit(base + 1)) in.isr.push_back(b);
    if (bit(base + 2)) in.live_or_shutting_down.insert(b);
    if (bit(base + 2) && bit(base + 3)) in.shutting_down.insert(b);
    if (bit(base + 4)) in.target_replicas.push_back(b);
  }
  in.live = in.live_or_shutting_down - in.shutting_down;
  in.topic_unclean_enabled = bit(5 * kMaxBrokers);
  return in;
}

RC_GTEST_PROP(ElectionProperty, LeaderIsALiveCandidateAndCleanLeadersAreInSync, (const std::vector<bool>& bits)) {
  const ElectionInputs in = randomPartition(bits);
  int elected = 0;
  for (const ElectionStrategy strategy : {kOffline, kOfflineUnclean, kReassign, kPreferred, kControlledShutdown}) {
    const auto d = electLeader(strategy, in);
    if (!d) continue;
    ++elected;
    const BrokerList& candidates =
        strategy.kind == ElectionStrategyKind::ReassignPartition ? in.target_replicas : in.assignment;
    RC_ASSERT(candidates.contains(d->leader));
    RC_ASSERT(d->unclean != in.isr.contains(d->leader));
    RC_ASSERT(d->recovering == d->unclean);
    if (strategy.kind == ElectionStrategyKind::ControlledShutdownPartition) {
      RC_ASSERT(in.live_or_shutting_down.contains(d->leader) && !in.shutting_down.contains(d->leader));
    } else {
      RC_ASSERT(in.live.contains(d->leader));
    }
    RC_ASSERT(d->isr_replaced || d->new_isr == in.isr);
    RC_ASSERT(d->new_isr.contains(d->leader) || !d->isr_replaced);
  }
  RC_CLASSIFY(elected == 0, "no strategy elects");
  RC_CLASSIFY(elected > 0, "some strategy elects");
}

}  // namespace
}  // namespace kcspec::spec
