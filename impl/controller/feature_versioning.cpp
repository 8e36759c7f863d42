// KafkaController's feature versioning (KIP-584) at failover: /feature is Enabled by a controller
// whose inter.broker.protocol.version is 2.7-IV0 or later and Disabled by an older one
// (docs/kafka.md §5.4 step 1; docs/world.md 14). The finalized features are not modeled: kcspec
// writes none, so "the broker's default finalized features" of a fresh cluster and "none" after
// a Disabled status read the same — what Kafka writes (or leaves) does not depend on them.
#include "impl/controller/kafka_controller.hpp"

#include "impl/zookeeper/zk_data.hpp"
#include "spec/vocabulary/assert.hpp"

namespace kcspec::impl {
namespace {

// FeatureZNode.apply(metadataVersion, status, features): format V2 from 3.3-IV0, V1 before.
FeatureZnode featureZNode(MetadataVersion version, FeatureZnodeStatus status) {
  return FeatureZnode{.status = status,
                      .format_version = static_cast<std::uint8_t>(version >= MetadataVersion::IBP_3_3_IV0 ? 2 : 1)};
}

}  // namespace

void KafkaController::maybeSetupFeatureVersioning() {
  if (services_.isFeatureVersioningSupported()) {
    enableFeatureVersioning();
  } else {
    disableFeatureVersioning();
  }
}

void KafkaController::enableFeatureVersioning() {
  const FeatureZnode enabled = featureZNode(services_.interBrokerProtocolVersion(), FeatureZnodeStatus::Enabled);
  const std::optional<std::string> existing_data = services_.zk.getFeatureZNodeData();
  if (!existing_data) {
    // createFeatureZNode; featureCache.waitUntilFeatureEpochOrThrow: this broker's own listener
    // reads the znode it wrote (the brokers' feature caches are not modeled).
    services_.zk.createFeatureZNode(enabled);
    return;
  }
  // FeatureZNode.decode; an Enabled node keeps its features, a Disabled one's are dropped.
  const std::optional<FeatureZnode> existing = zk::payload::decodeFeature(*existing_data);
  KCSPEC_ASSERT(existing.has_value());  // only controllers write it, in that form
  if (*existing != enabled) services_.zk.updateFeatureZNode(enabled);
}

void KafkaController::disableFeatureVersioning() {
  const FeatureZnode disabled = featureZNode(services_.interBrokerProtocolVersion(), FeatureZnodeStatus::Disabled);
  const std::optional<std::string> existing_data = services_.zk.getFeatureZNodeData();
  if (!existing_data) {
    services_.zk.createFeatureZNode(disabled);
    return;
  }
  const std::optional<FeatureZnode> existing = zk::payload::decodeFeature(*existing_data);
  KCSPEC_ASSERT(existing.has_value());
  if (*existing != disabled) services_.zk.updateFeatureZNode(disabled);
}

}  // namespace kcspec::impl
