// ReplicaAssignment (kafka.md §0.3): the examples Kafka's own unit tests assert, and reassignTo's laws
// over random assignments.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <vector>

#include "spec/vocabulary/replica_assignment.hpp"

namespace kcspec {
namespace {

// The in-flight reassignment of kafka.md §5.7.8: ORS {1,2,3} → TRS {4,5,6}.
const ReplicaAssignment kOneTwoThreeToFourFiveSix{BrokerList{4, 5, 6, 1, 2, 3}, BrokerList{4, 5, 6},
                                                  BrokerList{1, 2, 3}};

TEST(ReplicaAssignment, OneListMeansNotBeingReassigned) {
  const ReplicaAssignment assignment{BrokerList{1, 2, 3}};
  EXPECT_EQ(assignment.replicas, (BrokerList{1, 2, 3}));
  EXPECT_TRUE(assignment.adding_replicas.empty());
  EXPECT_TRUE(assignment.removing_replicas.empty());
  EXPECT_FALSE(assignment.isBeingReassigned());
  EXPECT_EQ(assignment.originReplicas(), (BrokerList{1, 2, 3}));
  EXPECT_EQ(assignment.targetReplicas(), (BrokerList{1, 2, 3}));
}

// ControllerContextTest.testPartitionReplicaAssignment's hand-built assignments.
TEST(ReplicaAssignment, TargetIsReplicasLessRemoving) {
  const ReplicaAssignment a{BrokerList{1, 2, 3, 4, 5, 6}, BrokerList{2, 3, 4}, BrokerList{1, 5, 6}};
  EXPECT_TRUE(a.isBeingReassigned());
  EXPECT_EQ(a.targetReplicas(), (BrokerList{2, 3, 4}));
  const ReplicaAssignment b{BrokerList{1, 2, 3, 4}, BrokerList{}, BrokerList{1, 4}};
  EXPECT_TRUE(b.isBeingReassigned());
  EXPECT_EQ(b.targetReplicas(), (BrokerList{2, 3}));
  const ReplicaAssignment c{BrokerList{1, 2, 3, 4}, BrokerList{4}, BrokerList{2}};
  EXPECT_TRUE(c.isBeingReassigned());
  EXPECT_EQ(c.targetReplicas(), (BrokerList{1, 3, 4}));
  const ReplicaAssignment d{BrokerList{1, 2, 3, 4, 5, 6}, BrokerList{}, BrokerList{}};
  EXPECT_FALSE(d.isBeingReassigned());
  EXPECT_EQ(d.targetReplicas(), (BrokerList{1, 2, 3, 4, 5, 6}));
}

TEST(ReplicaAssignment, OriginAndTargetKeepReplicaOrder) {
  EXPECT_TRUE(kOneTwoThreeToFourFiveSix.isBeingReassigned());
  EXPECT_EQ(kOneTwoThreeToFourFiveSix.originReplicas(), (BrokerList{1, 2, 3}));
  EXPECT_EQ(kOneTwoThreeToFourFiveSix.targetReplicas(), (BrokerList{4, 5, 6}));
  EXPECT_TRUE((ReplicaAssignment{BrokerList{1, 2}, BrokerList{2}, BrokerList{}}).isBeingReassigned());
  EXPECT_TRUE((ReplicaAssignment{BrokerList{1, 2}, BrokerList{}, BrokerList{1}}).isBeingReassigned());
}

TEST(ReplicaAssignment, ReassignToAnOverlappingTarget) {
  const ReplicaAssignment reassigned =
      ReplicaAssignment{BrokerList{1, 2, 3, 4}}.reassignTo(BrokerList{4, 2, 5, 3});
  EXPECT_EQ(reassigned, (ReplicaAssignment{BrokerList{4, 2, 5, 3, 1}, BrokerList{5}, BrokerList{1}}));
  EXPECT_EQ(reassigned.targetReplicas(), (BrokerList{4, 2, 5, 3}));
  // The origin comes back in the full list's order, not its own: Kafka forgets the old
  // preference order once a reassignment starts (so cancelling it can move the preferred leader).
  EXPECT_EQ(reassigned.originReplicas(), (BrokerList{4, 2, 3, 1}));
}

TEST(ReplicaAssignment, CancellingAfterAnOverlapRestoresTheOriginInFullOrder) {
  const ReplicaAssignment reassigned = ReplicaAssignment{BrokerList{1, 2, 3}}.reassignTo(BrokerList{3, 4});
  EXPECT_EQ(reassigned, (ReplicaAssignment{BrokerList{3, 4, 1, 2}, BrokerList{4}, BrokerList{1, 2}}));
  EXPECT_EQ(reassigned.reassignTo(reassigned.originReplicas()), (ReplicaAssignment{BrokerList{3, 1, 2}}));
}

TEST(ReplicaAssignment, ReassignToDisjointTarget) {
  EXPECT_EQ((ReplicaAssignment{BrokerList{1, 2, 3}}.reassignTo(BrokerList{4, 5, 6})),
            kOneTwoThreeToFourFiveSix);
}

TEST(ReplicaAssignment, ReassignToAPermutationIsNotAReassignment) {
  const ReplicaAssignment reordered =
      ReplicaAssignment{BrokerList{1, 2, 3}}.reassignTo(BrokerList{3, 1, 2});
  EXPECT_EQ(reordered, (ReplicaAssignment{BrokerList{3, 1, 2}}));
  EXPECT_FALSE(reordered.isBeingReassigned());
}

TEST(ReplicaAssignment, ReplacingAReassignmentKeepsTheOrigin) {
  const ReplicaAssignment expected{BrokerList{7, 8, 9, 1, 2, 3}, BrokerList{7, 8, 9}, BrokerList{1, 2, 3}};
  EXPECT_EQ(kOneTwoThreeToFourFiveSix.reassignTo(BrokerList{7, 8, 9}), expected);
  EXPECT_EQ((ReplicaAssignment{BrokerList{1, 2, 3}}.reassignTo(BrokerList{7, 8, 9})), expected);
}

TEST(ReplicaAssignment, ReassigningToTheOriginCancels) {
  const ReplicaAssignment cancelled = kOneTwoThreeToFourFiveSix.reassignTo(BrokerList{1, 2, 3});
  EXPECT_EQ(cancelled, (ReplicaAssignment{BrokerList{1, 2, 3}}));
  EXPECT_FALSE(cancelled.isBeingReassigned());
}

TEST(ReplicaAssignment, ReassigningToTheCurrentTargetIsIdempotent) {
  EXPECT_EQ(kOneTwoThreeToFourFiveSix.reassignTo(kOneTwoThreeToFourFiveSix.targetReplicas()),
            kOneTwoThreeToFourFiveSix);
  const ReplicaAssignment settled{BrokerList{1, 2, 3}};
  EXPECT_EQ(settled.reassignTo(settled.targetReplicas()), settled);
  const ReplicaAssignment overlapping{BrokerList{4, 2, 3, 1}, BrokerList{4}, BrokerList{1}};
  EXPECT_EQ(overlapping.reassignTo(overlapping.targetReplicas()), overlapping);
}

TEST(ReplicaAssignment, RemoveReplicaRemovesFromAllThreeLists) {
  EXPECT_EQ(kOneTwoThreeToFourFiveSix.removeReplica(5),
            (ReplicaAssignment{BrokerList{4, 6, 1, 2, 3}, BrokerList{4, 6}, BrokerList{1, 2, 3}}));
  EXPECT_EQ(kOneTwoThreeToFourFiveSix.removeReplica(2),
            (ReplicaAssignment{BrokerList{4, 5, 6, 1, 3}, BrokerList{4, 5, 6}, BrokerList{1, 3}}));
  EXPECT_EQ(kOneTwoThreeToFourFiveSix.removeReplica(0), kOneTwoThreeToFourFiveSix);
}

TEST(ReplicaAssignment, EmptyMeansAllThreeListsEmpty) {
  EXPECT_TRUE(ReplicaAssignment{}.empty());
  EXPECT_TRUE(ReplicaAssignment{BrokerList{}}.empty());
  EXPECT_FALSE(ReplicaAssignment{BrokerList{1}}.empty());
  EXPECT_FALSE((ReplicaAssignment{BrokerList{}, BrokerList{1}, BrokerList{}}).empty());
  EXPECT_FALSE((ReplicaAssignment{BrokerList{}, BrokerList{}, BrokerList{1}}).empty());
  EXPECT_TRUE(ReplicaAssignment{BrokerList{2}}.removeReplica(2).empty());
}

TEST(ReplicaAssignment, EqualityIsOrderSensitive) {
  EXPECT_NE((ReplicaAssignment{BrokerList{1, 2, 3}}), (ReplicaAssignment{BrokerList{3, 2, 1}}));
  EXPECT_NE(kOneTwoThreeToFourFiveSix,
            (ReplicaAssignment{BrokerList{4, 5, 6, 1, 2, 3}, BrokerList{6, 5, 4}, BrokerList{1, 2, 3}}));
}

TEST(ReplicaAssignment, RendersAsKafka) {
  EXPECT_EQ(toKafkaString(kOneTwoThreeToFourFiveSix),
            "ReplicaAssignment(replicas=4,5,6,1,2,3, addingReplicas=4,5,6, removingReplicas=1,2,3)");
  EXPECT_EQ(toKafkaString(ReplicaAssignment{BrokerList{1, 2, 3}}),
            "ReplicaAssignment(replicas=1,2,3, addingReplicas=, removingReplicas=)");
  EXPECT_EQ(toKafkaString(ReplicaAssignment{}),
            "ReplicaAssignment(replicas=, addingReplicas=, removingReplicas=)");
}

// A list of distinct brokers 0…7, of any length and order: a random prefix of a random permutation.
BrokerList distinctBrokers() {
  const auto sort_keys = *rc::gen::container<std::vector<int>>(kMaxBrokers, rc::gen::arbitrary<int>());
  const auto length = *rc::gen::inRange<std::size_t>(0, kMaxBrokers + 1);
  std::vector<BrokerId> ids(kMaxBrokers);
  for (BrokerId id = 0; id < kMaxBrokers; ++id) ids[static_cast<std::size_t>(id)] = id;
  std::stable_sort(ids.begin(), ids.end(), [&](BrokerId a, BrokerId b) {
    return sort_keys[static_cast<std::size_t>(a)] < sort_keys[static_cast<std::size_t>(b)];
  });
  BrokerList out;
  for (std::size_t i = 0; i < length; ++i) out.push_back(ids[i]);
  return out;
}

// distinct(target ++ origin), by the obvious reading.
BrokerList targetThenOrigin(const BrokerList& target, const BrokerList& origin) {
  BrokerList full = target;
  for (BrokerId id : origin) {
    if (!target.contains(id)) full.push_back(id);
  }
  return full;
}

// The origin's brokers in the order `full` lists them.
BrokerList inOrderOf(const BrokerList& full, const BrokerList& origin) {
  BrokerList out;
  for (BrokerId id : full) {
    if (origin.contains(id)) out.push_back(id);
  }
  return out;
}

RC_GTEST_PROP(ReplicaAssignmentProperty, ReassignToKeepsOriginReachesTargetAndIsIdempotent, ()) {
  const BrokerList origin = distinctBrokers();
  const BrokerList target = distinctBrokers();
  const ReplicaAssignment reassigned = ReplicaAssignment{origin}.reassignTo(target);
  RC_ASSERT(reassigned.replicas == targetThenOrigin(target, origin));
  RC_ASSERT(reassigned.targetReplicas() == target);
  // The origin survives as a set only: its brokers that are also in the target take the target's
  // order (see CancellingAfterAnOverlapRestoresTheOriginInFullOrder).
  const BrokerList kept_origin = reassigned.originReplicas();
  RC_ASSERT(std::is_permutation(kept_origin.begin(), kept_origin.end(), origin.begin(), origin.end()));
  RC_ASSERT(kept_origin == inOrderOf(reassigned.replicas, origin));
  RC_ASSERT(reassigned.reassignTo(target) == reassigned);
  RC_ASSERT(reassigned.isBeingReassigned() == (reassigned != ReplicaAssignment{target}));
}

RC_GTEST_PROP(ReplicaAssignmentProperty, ReplacingATargetKeepsTheOriginAndCancelRestoresIt, ()) {
  const ReplicaAssignment first = ReplicaAssignment{distinctBrokers()}.reassignTo(distinctBrokers());
  const BrokerList origin = first.originReplicas();
  const BrokerList target = distinctBrokers();
  const ReplicaAssignment second = first.reassignTo(target);
  RC_ASSERT(second == ReplicaAssignment{origin}.reassignTo(target));
  RC_ASSERT(second.originReplicas() == inOrderOf(second.replicas, origin));
  RC_ASSERT(first.reassignTo(origin) == ReplicaAssignment{origin});
}

}  // namespace
}  // namespace kcspec
