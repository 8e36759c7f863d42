// What checked histories exercised (docs/testing.md "Reading the coverage report"): actions by
// kind, the valid transitions of both lifecycle tables, and election outcomes per strategy, as
// the spec's StepObserver reports them.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "spec/rules/invariants.hpp"
#include "spec/vocabulary/action.hpp"

namespace kcspec::agreement {

// Counts of what the checked histories exercised: actions by kind, the valid transitions of both
// tables, and election outcomes per strategy.
struct Coverage {
  std::array<std::uint64_t, kActionKindCount> actions{};
  std::array<std::uint64_t, 8> partition_transitions{};  // by index in kPartitionValidPrevious
  std::array<std::uint64_t, 14> replica_transitions{};   // by index in kReplicaValidPrevious
  // [strategy kind][0 = clean, 1 = unclean allowed][0 = failed, 1 = elected]
  std::array<std::array<std::array<std::uint64_t, 2>, 2>, 4> elections{};
  std::uint64_t histories = 0;
  std::uint64_t steps = 0;
  // Histories that ended where their next step outgrew the modeled world (docs/spec/rules.md,
  // "Histories that outgrow the model"), compared up to there.
  std::uint64_t histories_at_capacity = 0;

  void merge(const Coverage& other);
  // The valid transitions never taken, e.g. "replica NewReplica -> OfflineReplica".
  std::vector<std::string> unreachedTransitions() const;
  std::string report() const;  // a table, one line per counter
};

// A StepObserver that keeps the step's record and counts transitions and elections.
class CoverageObserver : public spec::RecordingObserver {
 public:
  explicit CoverageObserver(Coverage* coverage) : coverage_(coverage) {}
  void stateChange(const spec::StateChangeRecord& change) override;
  void electionOutcome(TopicPartition tp, const spec::ElectionStrategy& strategy, bool elected) override;

 private:
  Coverage* coverage_;
};

}  // namespace kcspec::agreement
