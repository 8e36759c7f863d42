// Each broker's inter.broker.protocol.version (docs/world.md 14): the configuration's, or its
// `upgrade inter.broker.protocol.version` once a rolling upgrade restarted the broker with it.
// A fact of the world read by both versions; what the value changes is rule code.
// Also the projection of an observation onto what a reader from before rolling upgrades (driver
// protocol 4, trace format 4) sees.
#pragma once

#include "spec/vocabulary/config.hpp"
#include "spec/vocabulary/observation.hpp"

namespace kcspec {

constexpr MetadataVersion interBrokerProtocolVersion(const Config& config, bool ibp_upgraded) {
  return ibp_upgraded && config.upgrade_inter_broker_protocol_version ? *config.upgrade_inter_broker_protocol_version
                                                                      : config.inter_broker_protocol_version;
}

inline MetadataVersion interBrokerProtocolVersion(const Config& config, const Observation& world, BrokerId b) {
  return interBrokerProtocolVersion(config, world.brokers[static_cast<std::size_t>(b)].ibp_upgraded);
}

// The newest value any broker of the configuration may run with (what the observations can show).
constexpr MetadataVersion newestInterBrokerProtocolVersion(const Config& config) {
  return config.upgrade_inter_broker_protocol_version ? *config.upgrade_inter_broker_protocol_version
                                                      : config.inter_broker_protocol_version;
}

// `world` without /feature (and a lost response of its write) and without the brokers'
// rolling-upgrade flags: what a SUT of driver
// protocol 4 or older reports (it cannot state a configuration with an upgrade).
inline Observation withoutRollingUpgradeMembers(Observation world) {
  world.zk.feature = FeatureZnode{};
  world.zk.lost_feature_write_response = false;
  for (BrokerData& broker : world.brokers) broker.ibp_upgraded = false;
  return world;
}

}  // namespace kcspec
