// The smallest configuration the explorer tests grow from: brokers 1 and 2, topic t with partition
// 0 on both, in ZooKeeper at start, and the given bounds.
#pragma once

#include "spec/vocabulary/config.hpp"

namespace kcspec::test {

inline Config twoBrokers(Bounds bounds) {
  Config config;
  config.name = "two-brokers";
  config.brokers = BrokerSet{1, 2};
  config.brokers_alive_at_start = BrokerSet{1, 2};
  TopicConfig topic;
  topic.name = "t";
  topic.assignment = {BrokerList{1, 2}};
  topic.exists_at_start = true;
  config.topics.push_back(topic);
  config.bounds = bounds;
  return config;
}

}  // namespace kcspec::test
