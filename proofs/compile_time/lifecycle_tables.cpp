// Compile-time proofs over the two Boost.MSM lifecycles (issue "Foundation", item 5).
//
// Each theorem is a static_assert over the Rows of model/'s transition tables, read from the
// types (model/table_rows.hpp). Change one Row in model/ and this file stops compiling; the
// test `proofs.changed_row_breaks_build` demonstrates it on every run of the suite.
#include <boost/msm/back/state_machine.hpp>

#include "model/partition_lifecycle.hpp"
#include "model/replica_lifecycle.hpp"
#include "model/table_rows.hpp"
#include "proofs/compile_time/graph.hpp"
#include "proofs/compile_time/theorems.hpp"
#include "spec/vocabulary/valid_previous_states.hpp"

namespace kcspec::proofs {
namespace {

using model::kEventsNameTheirTargets;
using model::kInitialState;
using model::kMsmTransitions;
using model::PartitionLifecycleDef;
using model::ReplicaLifecycleDef;
using P = PartitionState;
using R = ReplicaState;

constexpr auto& kPartitionMsm = kMsmTransitions<PartitionLifecycleDef>;
constexpr auto& kReplicaMsm = kMsmTransitions<ReplicaLifecycleDef>;

// X-macro: (id, statement, predicate). Each line becomes a static_assert and a catalog entry.
#define KCSPEC_COMPILE_TIME_THEOREMS(THEOREM)                                                     \
  THEOREM(MSM-P1, "Every Row of the partition MSM is a pair of spec's validPreviousStates table.", \
          isSubset(kPartitionMsm, kPartitionValidPrevious))                                       \
  THEOREM(MSM-P2, "Every pair of spec's partition validPreviousStates table is a Row of the MSM.", \
          isSubset(kPartitionValidPrevious, kPartitionMsm))                                       \
  THEOREM(MSM-P3, "The partition MSM has exactly 8 Rows and no Row twice.",                      \
          kPartitionMsm.size() == 8 && !hasDuplicates(kPartitionMsm))                             \
  THEOREM(MSM-P4, "The partition MSM starts in NonExistentPartition.",                           \
          kInitialState<PartitionLifecycleDef> == P::NonExistentPartition)                        \
  THEOREM(MSM-P5, "Every partition state is reachable from NonExistentPartition.",               \
          reachableFrom(kPartitionMsm, P::NonExistentPartition) == allStates<P>())     \
  THEOREM(MSM-P6, "NonExistentPartition is reachable from every partition state (the set from which it is not is empty).", \
          outside<P>(canReach(kPartitionMsm, P::NonExistentPartition)) == StateSet<P>{})         \
  THEOREM(MSM-P7, "NonExistentPartition is entered only from OfflinePartition (deletion always goes Offline first).", \
          previousOf(kPartitionMsm, P::NonExistentPartition) == setOf({P::OfflinePartition}))     \
  THEOREM(MSM-P8, "The only partition self-loops are OnlinePartition and OfflinePartition (re-election; New->New is invalid).", \
          selfLoops(kPartitionMsm) == setOf({P::OnlinePartition, P::OfflinePartition}))           \
  THEOREM(MSM-P9, "Every partition Row is triggered by MoveTo<its target state>.",               \
          kEventsNameTheirTargets<PartitionLifecycleDef>)                                         \
  THEOREM(MSM-R1, "Every Row of the replica MSM is a pair of spec's validPreviousStates table.",  \
          isSubset(kReplicaMsm, kReplicaValidPrevious))                                           \
  THEOREM(MSM-R2, "Every pair of spec's replica validPreviousStates table is a Row of the MSM.",  \
          isSubset(kReplicaValidPrevious, kReplicaMsm))                                           \
  THEOREM(MSM-R3, "The replica MSM has exactly 14 Rows and no Row twice.",                       \
          kReplicaMsm.size() == 14 && !hasDuplicates(kReplicaMsm))                                \
  THEOREM(MSM-R4, "The replica MSM starts in NonExistentReplica.",                               \
          kInitialState<ReplicaLifecycleDef> == R::NonExistentReplica)                            \
  THEOREM(MSM-R5, "Every replica state is reachable from NonExistentReplica.",                   \
          reachableFrom(kReplicaMsm, R::NonExistentReplica) == allStates<R>())         \
  THEOREM(MSM-R6, "NonExistentReplica is reachable from every replica state (the set from which it is not is empty).", \
          outside<R>(canReach(kReplicaMsm, R::NonExistentReplica)) == StateSet<R>{})             \
  THEOREM(MSM-R7, "A replica reaches NonExistentReplica only through ReplicaDeletionStarted and then ReplicaDeletionSuccessful.", \
          previousOf(kReplicaMsm, R::NonExistentReplica) == setOf({R::ReplicaDeletionSuccessful}) && \
              previousOf(kReplicaMsm, R::ReplicaDeletionSuccessful) == setOf({R::ReplicaDeletionStarted})) \
  THEOREM(MSM-R8, "Replica deletion starts only from OfflineReplica.",                           \
          previousOf(kReplicaMsm, R::ReplicaDeletionStarted) == setOf({R::OfflineReplica}))       \
  THEOREM(MSM-R9, "The only replica self-loops are OnlineReplica and OfflineReplica.",           \
          selfLoops(kReplicaMsm) == setOf({R::OnlineReplica, R::OfflineReplica}))                 \
  THEOREM(MSM-R10, "Once ReplicaDeletionStarted, a replica cannot go back online without first becoming ReplicaDeletionIneligible and then OfflineReplica or OnlineReplica.", \
          !contains(kReplicaMsm, Transition<R>{R::ReplicaDeletionStarted, R::OnlineReplica}) &&   \
              !contains(kReplicaMsm, Transition<R>{R::ReplicaDeletionStarted, R::OfflineReplica})) \
  THEOREM(MSM-R11, "Every replica Row is triggered by MoveTo<its target state>.",                \
          kEventsNameTheirTargets<ReplicaLifecycleDef>)

#define KCSPEC_ASSERT_THEOREM(id, statement, predicate) static_assert(predicate, #id ": " statement);
KCSPEC_COMPILE_TIME_THEOREMS(KCSPEC_ASSERT_THEOREM)
#undef KCSPEC_ASSERT_THEOREM

#define KCSPEC_LIST_THEOREM(id, statement, predicate) CompileTimeTheorem{#id, statement},
constexpr CompileTimeTheorem kTheorems[] = {KCSPEC_COMPILE_TIME_THEOREMS(KCSPEC_LIST_THEOREM)};
#undef KCSPEC_LIST_THEOREM

}  // namespace

std::span<const CompileTimeTheorem> compileTimeTheorems() { return kTheorems; }

}  // namespace kcspec::proofs
