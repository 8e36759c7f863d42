// The historic Kafka controller bugs (docs/testing.md "Mutation testing"), each re-introducible
// in the reference controller by name at run time. Off by default; a Mutants value is a bitset
// carried in the cluster and passed down, so a check costs one bit test when it is off. Each
// switch sits where Kafka had the bug (see the `where` column).
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string_view>

namespace kcspec::impl {

enum class Mutant : std::uint8_t { M1, M2, M3, M4, M5, M6, M7, M8, M9, M10, M11, M12, M13, M14, M15, M16, M17 };

struct MutantInfo {
  Mutant id;
  std::string_view name;         // what `--mutant` takes
  std::string_view ticket;       // the Kafka issue(s)
  std::string_view description;  // one line
  std::string_view where;        // the class/method that carries it
};

inline constexpr std::array<MutantInfo, 17> kMutants = {{
    {Mutant::M1, "M1", "KAFKA-1742",
     "removing a deleted topic drops context entries only while they match (a prefix in hash order)",
     "ControllerContext::removeTopic"},
    {Mutant::M2, "M2", "KAFKA-2937",
     "OfflineReplica fails for a queued topic's partition without leader/ISR state, stalling deletion",
     "ReplicaStateMachine OfflineReplica"},
    {Mutant::M3, "M3", "KAFKA-3175",
     "with delete.topic.enable=false a new controller still queues /admin/delete_topics children",
     "TopicDeletionManager::init"},
    {Mutant::M4, "M4", "KAFKA-5107",
     "a preferred election marks its topics ineligible for deletion and never resumes them",
     "KafkaController::processReplicaLeaderElection"},
    {Mutant::M5, "M5", "KAFKA-6650",
     "replicas whose partition has no leadership info are skipped by the OfflineReplica transition",
     "ReplicaStateMachine OfflineReplica"},
    {Mutant::M6, "M6", "KAFKA-6753/KAFKA-8237",
     "controlled shutdown moves leaders of queued topics; queuing a topic takes its partitions to NonExistent",
     "KafkaController::doControlledShutdown, TopicDeletionManager::enqueueTopicsForDeletion"},
    {Mutant::M7, "M7", "KAFKA-10548",
     "a dead broker's replicas of topics being deleted stay in ReplicaDeletionStarted",
     "KafkaController::onReplicasBecomeOffline"},
    {Mutant::M8, "M8", "KAFKA-1120/KAFKA-7235",
     "a broker that re-registered before BrokerChange (a bounce) goes unnoticed",
     "KafkaController::processBrokerChange"},
    // kcspec's own: one wrong line each, of the families the historic bugs belong to.
    {Mutant::M9, "M9", "kcspec-election-isr",
     "the offline election ignores the ISR (first live assigned replica, as if unclean were always allowed)",
     "Election::leaderForOffline"},
    {Mutant::M10, "M10", "kcspec-resume-deletions",
     "completeReplicaDeletion does not call resumeDeletions, so the last successful response never completes the topic",
     "TopicDeletionManager::completeReplicaDeletion"},
    {Mutant::M11, "M11", "kcspec-offline-isr",
     "the OfflineReplica transition does not remove the replica from the ISR (re-caches the state unchanged)",
     "ReplicaStateMachine::doRemoveReplicasFromIsr"},
    {Mutant::M12, "M12", "kcspec-epoch-fence",
     "leader elections write the partition state without the /controller_epoch version check (no fencing)",
     "PartitionStateMachine::doElectLeaderForPartitions"},
    {Mutant::M13, "M13", "kcspec-cs-broker-epoch",
     "ControlledShutdown does not compare the request's broker epoch (a stale request from an earlier incarnation is acted on)",
     "KafkaController::doControlledShutdown"},
    {Mutant::M14, "M14", "kcspec-reassign-epoch",
     "updateLeaderEpoch rewrites the state without bumping the leader epoch during reassignment",
     "KafkaController::updateLeaderEpoch"},
    {Mutant::M15, "M15", "kcspec-cs-leader",
     "the controlled-shutdown election may pick a shutting-down broker as the new leader",
     "Election::leaderForControlledShutdown"},
    {Mutant::M16, "M16", "kcspec-sole-isr",
     "removing a replica from the ISR also removes a sole ISR member, leaving the ISR empty",
     "ReplicaStateMachine::doRemoveReplicasFromIsr"},
    // Leaves the world as it was and shows only in the state-change.log: found only by comparing
    // the versions' failed state changes (docs/testing.md "Mutation testing").
    {Mutant::M17, "M17", "kcspec-cs-single-replica",
     "controlled shutdown also runs the election for single-replica partitions, which can only fail",
     "KafkaController::doControlledShutdown"},
}};

class Mutants {
 public:
  constexpr Mutants() = default;
  constexpr bool has(Mutant m) const { return (bits_ >> static_cast<unsigned>(m)) & 1u; }
  constexpr void enable(Mutant m) { bits_ = bits_ | (1u << static_cast<unsigned>(m)); }
  constexpr bool none() const { return bits_ == 0; }
  constexpr std::uint32_t bits() const { return bits_; }
  friend constexpr bool operator==(Mutants, Mutants) = default;

  static constexpr Mutants of(std::initializer_list<Mutant> ms) {
    Mutants out;
    for (Mutant m : ms) out.enable(m);
    return out;
  }

 private:
  std::uint32_t bits_ = 0;
};

// The mutant called `name` ("M3" or "m3", or its ticket "KAFKA-3175"), if any.
constexpr std::optional<Mutant> mutantNamed(std::string_view name) {
  for (const MutantInfo& info : kMutants) {
    if (name == info.name || name == info.ticket ||
        (!name.empty() && name[0] == 'm' && name.substr(1) == info.name.substr(1))) {
      return info.id;
    }
  }
  return std::nullopt;
}

constexpr const MutantInfo& mutantInfo(Mutant m) { return kMutants[static_cast<std::size_t>(m)]; }

}  // namespace kcspec::impl
