#include "proofs/explorer/catalog_properties.hpp"

#include <stdexcept>

namespace kcspec::explorer {
namespace {

PropertyKind kindOf(spec::PropertyKind kind) {
  switch (kind) {
    case spec::PropertyKind::StateSafety: return PropertyKind::StateSafety;
    case spec::PropertyKind::StepSafety: return PropertyKind::StepSafety;
    case spec::PropertyKind::Liveness: return PropertyKind::Liveness;
  }
  throw std::logic_error("unknown property kind");
}

}  // namespace

CatalogProperties::CatalogProperties(std::span<const PropertyInfo> extra) {
  for (const spec::Property& property : spec::invariantCatalog()) {
    properties_.push_back(PropertyInfo{property.id, property.name, kindOf(property.kind)});
  }
  for (const PropertyInfo& info : extra) {
    if (bitOf(info.id) != 0) throw std::invalid_argument("a property id repeats the catalog's");
    properties_.push_back(info);
  }
  if (properties_.size() > kMaxProperties) throw std::length_error("more than 64 properties");
  for (std::size_t i = 0; i < properties_.size(); ++i) {
    if (properties_[i].kind == PropertyKind::Liveness) liveness_ |= propertyBit(i);
  }
}

PropertyMask CatalogProperties::bitOf(std::string_view id) const {
  for (std::size_t i = 0; i < properties_.size(); ++i) {
    if (properties_[i].id == id) return propertyBit(i);
  }
  return 0;
}

PropertyMask CatalogProperties::violatedState(const Config& config, const spec::ClusterState& state) const {
  PropertyMask violated = 0;
  for (std::string_view id : spec::violatedStateProperties(config, state)) violated |= bitOf(id);
  return violated;
}

PropertyMask CatalogProperties::violatedStep(const Config& config, const spec::ClusterState& before,
                                             const spec::ClusterState& after, const spec::StepRecord& record) const {
  PropertyMask violated = 0;
  for (std::string_view id : spec::violatedStepProperties(config, before, after, record)) violated |= bitOf(id);
  return violated;
}

PropertyMask CatalogProperties::goalsReached(const Config& config, const spec::ClusterState& state) const {
  if (!spec::isQuiescent(config, state)) return 0;
  PropertyMask reached = liveness_;
  for (std::string_view id : spec::unmetGoals(config, state)) reached &= ~bitOf(id);
  return reached;
}

}  // namespace kcspec::explorer
