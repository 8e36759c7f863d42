// Kafka 3.8's rendering of ReplicaAssignment (kafka.md §0.3, §7.6).
#include "spec/vocabulary/replica_assignment.hpp"

#include <fmt/format.h>

#include "spec/vocabulary/leader_and_isr.hpp"  // joinIds

namespace kcspec {

std::string toKafkaString(const ReplicaAssignment& assignment) {
  return fmt::format("ReplicaAssignment(replicas={}, addingReplicas={}, removingReplicas={})",
                     joinIds(assignment.replicas, ","), joinIds(assignment.adding_replicas, ","),
                     joinIds(assignment.removing_replicas, ","));
}

}  // namespace kcspec
