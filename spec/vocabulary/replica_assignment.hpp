// ReplicaAssignment: a partition's replicas, including an in-flight reassignment (kafka.md §0.3,
// KIP-455). `replicas` is the full set RS in preference order; during a reassignment it holds
// both the replicas being added (AR) and those being removed (RR).
#pragma once

#include <algorithm>
#include <compare>
#include <cstddef>
#include <initializer_list>
#include <string>

#include "spec/vocabulary/ids.hpp"

namespace kcspec {

struct ReplicaAssignment {
  BrokerList replicas;
  BrokerList adding_replicas;
  BrokerList removing_replicas;

  // Default-constructed is Kafka's `ReplicaAssignment.empty`.
  constexpr ReplicaAssignment() = default;
  // ReplicaAssignment(replicas): an assignment that is not being reassigned.
  constexpr explicit ReplicaAssignment(const BrokerList& all_replicas) : replicas(all_replicas) {}
  constexpr ReplicaAssignment(const BrokerList& all_replicas, const BrokerList& adding,
                              const BrokerList& removing)
      : replicas(all_replicas), adding_replicas(adding), removing_replicas(removing) {}

  // ORS: the replicas before the reassignment began.
  constexpr BrokerList originReplicas() const { return diff(replicas, adding_replicas); }
  // TRS: the replicas once the reassignment completes.
  constexpr BrokerList targetReplicas() const { return diff(replicas, removing_replicas); }

  constexpr bool isBeingReassigned() const {
    return !adding_replicas.empty() || !removing_replicas.empty();
  }

  // Starts (or replaces, or cancels) a reassignment. The origin is kept across a replacement, so
  // replicas of an abandoned target that are not in the new one are removed again.
  constexpr ReplicaAssignment reassignTo(const BrokerList& target) const {
    const BrokerList origin = originReplicas();
    const BrokerList full = distinct(target, origin);
    return ReplicaAssignment{full, diff(full, origin), diff(full, target)};
  }

  constexpr ReplicaAssignment removeReplica(BrokerId replica) const {
    ReplicaAssignment next = *this;
    next.replicas.remove(replica);
    next.adding_replicas.remove(replica);
    next.removing_replicas.remove(replica);
    return next;
  }

  constexpr bool empty() const {
    return replicas.empty() && adding_replicas.empty() && removing_replicas.empty();
  }

  friend constexpr bool operator==(const ReplicaAssignment&, const ReplicaAssignment&) = default;
  friend constexpr auto operator<=>(const ReplicaAssignment&, const ReplicaAssignment&) = default;

 private:
  // Scala's `from.diff(minus)`: drops one occurrence of `from` per occurrence in `minus`,
  // keeping `from`'s order.
  static constexpr BrokerList diff(const BrokerList& from, BrokerList minus) {
    BrokerList kept;
    for (BrokerId id : from) {
      const auto* hit = std::find(minus.begin(), minus.end(), id);
      if (hit == minus.end()) {
        kept.push_back(id);
      } else {
        minus.erase_at(static_cast<std::size_t>(hit - minus.begin()));
      }
    }
    return kept;
  }

  // Scala's `(first ++ second).distinct`: first occurrences, in order.
  static constexpr BrokerList distinct(const BrokerList& first, const BrokerList& second) {
    BrokerList out;
    for (const BrokerList* part : {&first, &second}) {
      for (BrokerId id : *part) {
        if (!out.contains(id)) out.push_back(id);
      }
    }
    return out;
  }
};

// `ReplicaAssignment(replicas=4,5,6,1,2,3, addingReplicas=4,5,6, removingReplicas=1,2,3)`.
std::string toKafkaString(const ReplicaAssignment& assignment);

}  // namespace kcspec
