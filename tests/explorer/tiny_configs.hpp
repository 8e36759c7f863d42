// The tiny configurations whose state counts the explorer tests compute by hand.
#pragma once

#include "spec/vocabulary/config.hpp"

namespace kcspec::explorer::testing {

// Broker 0 only, alive at start; every bound 0 unless said otherwise.
inline Config oneBroker() {
  Config config;
  config.name = "one-broker";
  config.brokers = BrokerSet{0};
  config.brokers_alive_at_start = BrokerSet{0};
  return config;
}

// Plus topic t, partition 0 on broker 0, in ZooKeeper at start (no partition state yet).
inline Config oneBrokerOneTopic() {
  Config config = oneBroker();
  TopicConfig topic;
  topic.name = "t";
  topic.assignment = {BrokerList{0}};
  topic.exists_at_start = true;
  config.topics.push_back(topic);
  return config;
}

}  // namespace kcspec::explorer::testing
