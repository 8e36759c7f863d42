// The invariant catalog (DESIGN.md): each property has an id, an English statement, the Kafka
// rule or bug it guards, and a predicate. Safety properties hold in every state (or across every
// step); liveness properties are "good state" goals that recovery actions alone must reach.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "spec/rules/cluster_state.hpp"
#include "spec/vocabulary/config.hpp"

namespace kcspec::spec {

enum class PropertyKind : std::uint8_t { StateSafety, StepSafety, Liveness };

// What a step did besides its successor state, for step properties.
struct StepRecord {
  std::vector<StateChangeRecord> state_changes;
  // Fenced writes that ZooKeeper accepted, with the writer's epoch.
  std::vector<std::pair<BrokerId, std::int32_t>> accepted_writes;
  // Fenced writes that ZooKeeper rejected because the writer's epoch was stale.
  std::vector<std::pair<BrokerId, std::int32_t>> rejected_writes;
  // Empties the record for the next step (keeping the storage).
  void clear() {
    state_changes.clear();
    accepted_writes.clear();
    rejected_writes.clear();
  }
};

// A StepObserver that keeps everything in a StepRecord.
class RecordingObserver : public StepObserver {
 public:
  void stateChange(const StateChangeRecord& change) override { record.state_changes.push_back(change); }
  void controllerWriteAccepted(BrokerId controller, std::int32_t epoch) override {
    record.accepted_writes.emplace_back(controller, epoch);
  }
  void staleControllerWriteRejected(BrokerId controller, std::int32_t epoch) override {
    record.rejected_writes.emplace_back(controller, epoch);
  }
  StepRecord record;
};

struct Property {
  std::string_view id;
  std::string_view name;
  std::string_view statement;
  std::string_view guards;  // the Kafka rule, fact or historic bug it stands for
  PropertyKind kind;
  // StateSafety and Liveness: holds(config, state). StepSafety: holdsAcross(config, before, after, record).
  bool (*holds)(const Config&, const ClusterState&) = nullptr;
  bool (*holds_across)(const Config&, const ClusterState&, const ClusterState&, const StepRecord&) = nullptr;
  // Empty when Kafka 3.8 keeps the property. Otherwise the property is a known Kafka deviation
  // (DESIGN.md: kept, checked, reported with its counterexample, never failed) and this says what
  // Kafka does and where; docs/spec/rules.md "Findings" tells the story with its evidence.
  std::string_view kafka_deviation = {};
};

std::span<const Property> invariantCatalog();

// The catalog's property `id`, or nullptr when there is none.
const Property* catalogProperty(std::string_view id);

// Whether Kafka 3.8 itself violates the property `id` (a non-empty kafka_deviation).
bool isKnownKafkaDeviation(std::string_view id);

// The ids of the state-safety properties that fail in `state` (empty: all hold).
std::vector<std::string_view> violatedStateProperties(const Config& config, const ClusterState& state);

// The ids of the step-safety properties that fail across one step.
std::vector<std::string_view> violatedStepProperties(const Config& config, const ClusterState& before,
                                                     const ClusterState& after, const StepRecord& record);

// The ids of the liveness goals that do not hold in `state`.
std::vector<std::string_view> unmetGoals(const Config& config, const ClusterState& state);

}  // namespace kcspec::spec

namespace kcspec::spec {

// Nothing is in flight (no controller event, request or response), every configured broker is
// alive and registered and a controller is active: the states in which liveness goals are judged.
bool isQuiescent(const Config& config, const ClusterState& state);

}  // namespace kcspec::spec
