#include "proofs/agreement/coverage.hpp"

#include <fmt/format.h>

#include "spec/vocabulary/valid_previous_states.hpp"

namespace kcspec::agreement {

void Coverage::merge(const Coverage& other) {
  for (std::size_t i = 0; i < actions.size(); ++i) actions[i] += other.actions[i];
  for (std::size_t i = 0; i < partition_transitions.size(); ++i) partition_transitions[i] += other.partition_transitions[i];
  for (std::size_t i = 0; i < replica_transitions.size(); ++i) replica_transitions[i] += other.replica_transitions[i];
  for (std::size_t k = 0; k < elections.size(); ++k) {
    for (std::size_t u = 0; u < 2; ++u) {
      for (std::size_t e = 0; e < 2; ++e) elections[k][u][e] += other.elections[k][u][e];
    }
  }
  histories += other.histories;
  steps += other.steps;
  histories_at_capacity += other.histories_at_capacity;
}

std::vector<std::string> Coverage::unreachedTransitions() const {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < kPartitionValidPrevious.size(); ++i) {
    if (partition_transitions[i] == 0) {
      out.push_back(fmt::format("partition {} -> {}", stateName(kPartitionValidPrevious[i].from),
                                stateName(kPartitionValidPrevious[i].to)));
    }
  }
  for (std::size_t i = 0; i < kReplicaValidPrevious.size(); ++i) {
    if (replica_transitions[i] == 0) {
      out.push_back(fmt::format("replica {} -> {}", stateName(kReplicaValidPrevious[i].from),
                                stateName(kReplicaValidPrevious[i].to)));
    }
  }
  return out;
}

std::string Coverage::report() const {
  std::string out = fmt::format("coverage: {} histories, {} steps{}\n", histories, steps,
                                histories_at_capacity == 0
                                    ? ""
                                    : fmt::format(" ({} ended where a step outgrew the modeled world)",
                                                  histories_at_capacity));
  out += "actions:\n";
  for (std::size_t i = 0; i < actions.size(); ++i) out += fmt::format("  {:<32} {:>9}\n", kActionNames[i], actions[i]);
  out += "partition transitions (valid):\n";
  for (std::size_t i = 0; i < kPartitionValidPrevious.size(); ++i) {
    out += fmt::format("  {:<52} {:>9}\n",
                       fmt::format("{} -> {}", stateName(kPartitionValidPrevious[i].from), stateName(kPartitionValidPrevious[i].to)),
                       partition_transitions[i]);
  }
  out += "replica transitions (valid):\n";
  for (std::size_t i = 0; i < kReplicaValidPrevious.size(); ++i) {
    out += fmt::format("  {:<52} {:>9}\n",
                       fmt::format("{} -> {}", stateName(kReplicaValidPrevious[i].from), stateName(kReplicaValidPrevious[i].to)),
                       replica_transitions[i]);
  }
  out += "elections (elected / failed):\n";
  constexpr std::array<std::string_view, 4> kinds = {"OfflinePartition", "ReassignPartition", "PreferredReplicaPartition",
                                                     "ControlledShutdownPartition"};
  for (std::size_t k = 0; k < elections.size(); ++k) {
    for (std::size_t u = 0; u < 2; ++u) {
      if (k != 0 && u == 1) continue;  // allowUnclean only matters for the Offline strategy
      const std::string name = k == 0 ? fmt::format("{}(allowUnclean={})", kinds[k], u == 1) : std::string(kinds[k]);
      out += fmt::format("  {:<52} {:>9} / {}\n", name, elections[k][u][1], elections[k][u][0]);
    }
  }
  const std::vector<std::string> missing = unreachedTransitions();
  out += missing.empty() ? "every valid transition of both tables was taken\n" : "valid transitions never taken:\n";
  for (const std::string& m : missing) out += "  " + m + "\n";
  return out;
}

void CoverageObserver::stateChange(const spec::StateChangeRecord& change) {
  RecordingObserver::stateChange(change);
  if (coverage_ == nullptr || !change.applied()) return;
  if (change.is_replica) {
    for (std::size_t i = 0; i < kReplicaValidPrevious.size(); ++i) {
      if (static_cast<std::uint8_t>(kReplicaValidPrevious[i].from) == change.from &&
          static_cast<std::uint8_t>(kReplicaValidPrevious[i].to) == change.to) {
        ++coverage_->replica_transitions[i];
      }
    }
  } else {
    for (std::size_t i = 0; i < kPartitionValidPrevious.size(); ++i) {
      if (static_cast<std::uint8_t>(kPartitionValidPrevious[i].from) == change.from &&
          static_cast<std::uint8_t>(kPartitionValidPrevious[i].to) == change.to) {
        ++coverage_->partition_transitions[i];
      }
    }
  }
}

void CoverageObserver::electionOutcome(TopicPartition, const spec::ElectionStrategy& strategy, bool elected) {
  if (coverage_ == nullptr) return;
  const std::size_t kind = static_cast<std::size_t>(strategy.kind);
  const std::size_t unclean = strategy.kind == spec::ElectionStrategyKind::OfflinePartition && strategy.allow_unclean ? 1 : 0;
  ++coverage_->elections[kind][unclean][elected ? 1 : 0];
}

}  // namespace kcspec::agreement
