// The historic Kafka controller bugs of /work/shared/kafka/historic-bugs.md, each re-introducible
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

enum class Mutant : std::uint8_t { M1, M2, M3, M4, M5, M6, M7, M8 };

struct MutantInfo {
  Mutant id;
  std::string_view name;         // what `--mutant` takes
  std::string_view ticket;       // the Kafka issue(s)
  std::string_view description;  // one line
  std::string_view where;        // the class/method that carries it
};

inline constexpr std::array<MutantInfo, 8> kMutants = {{
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
}};

class Mutants {
 public:
  constexpr Mutants() = default;
  constexpr bool has(Mutant m) const { return (bits_ >> static_cast<unsigned>(m)) & 1u; }
  constexpr void enable(Mutant m) { bits_ = static_cast<std::uint8_t>(bits_ | (1u << static_cast<unsigned>(m))); }
  constexpr bool none() const { return bits_ == 0; }
  constexpr std::uint8_t bits() const { return bits_; }
  friend constexpr bool operator==(Mutants, Mutants) = default;

  static constexpr Mutants of(std::initializer_list<Mutant> ms) {
    Mutants out;
    for (Mutant m : ms) out.enable(m);
    return out;
  }

 private:
  std::uint8_t bits_ = 0;
};

// The mutant called `name` ("M3" or "m3", or its ticket "KAFKA-3175"), if any.
constexpr std::optional<Mutant> mutantNamed(std::string_view name) {
  for (const MutantInfo& info : kMutants) {
    if (name == info.name || name == info.ticket ||
        (name.size() == 2 && (name[0] == 'm') && name[1] == info.name[1])) {
      return info.id;
    }
  }
  return std::nullopt;
}

constexpr const MutantInfo& mutantInfo(Mutant m) { return kMutants[static_cast<std::size_t>(m)]; }

}  // namespace kcspec::impl
