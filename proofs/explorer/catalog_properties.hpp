// The invariant catalog (spec/rules/invariants.hpp) as explorer properties (system.hpp), for the
// systems whose states are judged through a spec::ClusterState view (an observation and the
// remaining budget): SpecSystem, ImplSystem and BothSystem. Catalog order; bit i is the catalog's i-th
// property; a system may append its own properties after them (extra()).
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "proofs/explorer/system.hpp"
#include "spec/rules/cluster_state.hpp"
#include "spec/rules/invariants.hpp"
#include "spec/vocabulary/config.hpp"

namespace kcspec::explorer {

class CatalogProperties {
 public:
  // The catalog, then `extra` (their kinds and ids as given; ids must not repeat the catalog's).
  explicit CatalogProperties(std::span<const PropertyInfo> extra = {});

  std::span<const PropertyInfo> all() const { return properties_; }
  // The bit of property `id` (0 when there is none).
  PropertyMask bitOf(std::string_view id) const;

  // The state-safety properties that fail in `state`.
  PropertyMask violatedState(const Config& config, const spec::ClusterState& state) const;
  // The step-safety properties that fail across before -> after, given what the step recorded.
  PropertyMask violatedStep(const Config& config, const spec::ClusterState& before, const spec::ClusterState& after,
                            const spec::StepRecord& record) const;
  // The liveness goals reached: in a quiescent state (spec::isQuiescent), the goals that hold;
  // none otherwise (SpecSystem's rule).
  PropertyMask goalsReached(const Config& config, const spec::ClusterState& state) const;

 private:
  std::vector<PropertyInfo> properties_;
  PropertyMask liveness_ = 0;
};

}  // namespace kcspec::explorer
