// Properties that Apache Kafka 3.8 itself violates (DESIGN.md: "A property that real Kafka 3.8
// violates is kept, marked known Kafka deviation, with its counterexample in the docs: finding
// those is a feature"). The explorer keeps checking them, counts their violations and keeps the
// shortest counterexample of each, but a run that finds only these still succeeds.
#pragma once

#include <array>
#include <string_view>

namespace kcspec::explorer {

struct KnownDeviation {
  std::string_view property;  // the catalog id
  std::string_view why;       // what Kafka does, and where
};

// docs/spec/rules.md "Findings so far" tells each story; keep the two lists together.
inline constexpr std::array kKnownKafkaDeviations = {
    KnownDeviation{"T3",
                   "Kafka asks for OnlineReplica -> ReplicaDeletionIneligible when a broker dies while its topic is "
                   "queued for deletion but deletion has not started (failReplicaDeletion); the valid-previous-state "
                   "table forbids it, so Kafka logs the invalid transition and skips it (facts §1.4). The explorer's "
                   "shortest T3 is another path: a controller that lost its session (not noticed yet) processes "
                   "TopicDeletion after the new controller rewrote the partition states; removeReplicasFromIsr "
                   "skips them (\"written by another controller\"), so OfflineReplica is skipped and Kafka asks "
                   "for OnlineReplica -> ReplicaDeletionStarted."},
    KnownDeviation{"S7",
                   "Deleting a topic during a reassignment of one of its partitions leaves the partition in "
                   "partitionsBeingReassigned (removeTopic does not touch it) until the next failover."},
    KnownDeviation{"S8",
                   "The TopicDeletion event marks topics with a reassignment in progress ineligible before queueing "
                   "them, and marking only applies to queued topics, so a newly requested deletion starts during a "
                   "reassignment (what KAFKA-8237's fix meant to exclude)."},
    KnownDeviation{"L6",
                   "After a StopReplica error the topic is ineligible and retryDeletionForIneligibleReplicas does "
                   "not clear the mark, so deletion waits for a broker hosting one of its replicas to start again "
                   "(facts §4.2), forever if none does."},
};

constexpr bool isKnownKafkaDeviation(std::string_view property) {
  for (const KnownDeviation& deviation : kKnownKafkaDeviations) {
    if (deviation.property == property) return true;
  }
  return false;
}

}  // namespace kcspec::explorer
