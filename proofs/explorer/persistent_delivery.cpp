#include "proofs/explorer/persistent_delivery.hpp"

#include "spec/vocabulary/independence.hpp"

namespace kcspec::explorer {

std::optional<std::size_t> persistentDelivery(const Observation& world, const PersistenceScope& scope,
                                              std::span<const Action> enabled) {
  for (std::size_t k = 0; k < enabled.size(); ++k) {
    const Action& action = enabled[k];
    if (action.kind != ActionKind::DeliverRequest) continue;
    if (deliveryIsPersistent(world, action.broker, scope)) return k;
  }
  return std::nullopt;
}

std::size_t queuedRequests(const Observation& world) {
  std::size_t queued = 0;
  for (const BrokerData& broker : world.brokers) queued += broker.inbox.size();
  return queued;
}

}  // namespace kcspec::explorer
