// What each of a system's properties is to a search (shared by the one-process search and the
// distributed one): which are known deviations (ExploreOptions::is_known_deviation), which are
// liveness goals — goal j is properties()[liveness[j]], and goal liveness.size() is the checker's
// own GOOD (kAllGoalsProperty) — and, from the goal bits recovery can reach from a state, which
// goals that state violates.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "proofs/explorer/explore_result.hpp"
#include "proofs/explorer/system.hpp"

namespace kcspec::explorer::detail {

class PropertyRoles {
 public:
  PropertyRoles(std::span<const PropertyInfo> properties, const ExploreOptions& options)
      : properties_(properties), options_(options) {
    if (properties.size() > kMaxProperties) throw std::invalid_argument("a system may declare at most 64 properties");
    for (std::size_t i = 0; i < properties.size(); ++i) {
      known_[i] = options.is_known_deviation && options.is_known_deviation(properties[i].id);
      if (properties[i].kind == PropertyKind::Liveness) liveness_.push_back(i);
    }
    // Goal bits 0 … n−1 and the all-goals bit n in 32 bits.
    if (liveness_.size() > 31) throw std::invalid_argument("a system may declare at most 31 liveness properties");
  }

  bool known(std::size_t property) const { return known_[property]; }
  const std::vector<std::size_t>& liveness() const { return liveness_; }
  std::size_t goalCount() const { return liveness_.size() + 1; }  // with GOOD

  const PropertyInfo& goal(std::size_t j) const {
    return j == liveness_.size() ? kAllGoalsProperty : properties_[liveness_[j]];
  }
  bool goalKnown(std::size_t j) const {
    return j == liveness_.size() ? options_.is_known_deviation && options_.is_known_deviation(kAllGoalsProperty.id)
                                 : known_[liveness_[j]];
  }

  // Calls violated(j) for each goal j a state violates, given the goal bits `reach` recovery can
  // reach from it: each goal whose bit is missing, and GOOD when every goal is reachable but not
  // one state where all hold at once.
  template <class Violated>
  void forEachViolatedGoal(std::uint32_t reach, Violated&& violated) const {
    bool some_goal_missing = false;
    for (std::size_t j = 0; j < liveness_.size(); ++j) {
      if ((reach >> j) & 1u) continue;
      some_goal_missing = true;
      violated(j);
    }
    if (!some_goal_missing && ((reach >> liveness_.size()) & 1u) == 0) violated(liveness_.size());
  }

 private:
  std::span<const PropertyInfo> properties_;
  const ExploreOptions& options_;
  std::array<bool, kMaxProperties> known_{};
  std::vector<std::size_t> liveness_;  // indexes of the liveness properties
};

}  // namespace kcspec::explorer::detail
