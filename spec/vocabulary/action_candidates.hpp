// Every action a configuration can name in a state, enumerated from the action definitions
// (action.hpp): the spec and the impl both take their candidates from here, so they offer the
// same actions in the same order, and a new action kind is a candidate as soon as it is defined.
// Which candidates are enabled is each version's own rule.
#pragma once

#include "spec/vocabulary/action.hpp"
#include "spec/vocabulary/config.hpp"

namespace kcspec {

// The kinds that take arguments `args`, in the order of ActionKind (computed once, at compile time).
struct ActionKindList {
  std::array<ActionKind, kActionKindCount> kinds{};
  std::size_t size = 0;
  constexpr const ActionKind* begin() const { return kinds.data(); }
  constexpr const ActionKind* end() const { return kinds.data() + size; }
};

constexpr ActionKindList kindsTaking(ActionArgs args) {
  ActionKindList list;
  for (const ActionDefinition& d : kActionDefinitions) {
    if (d.args == args) list.kinds[list.size++] = d.kind;
  }
  return list;
}

// `in_zookeeper(t, p)`: whether topic t's znode lists partition p now (its ids are 0…n−1 but
// for a topic whose assignment was restored during its deletion, kafka.md §5.10.2).
// `add(action)` is called once per candidate, in a fixed order: the actions without arguments, per topic its topic actions,
// then per partition, in id order, its partition actions (then its partition-replica actions, per
// broker); then per broker its broker actions,
// each group in the order of ActionKind.
template <class InZooKeeper, class Add>
void forEachCandidate(const Config& config, InZooKeeper in_zookeeper, Add add) {
  static constexpr ActionKindList topic_kinds = kindsTaking(ActionArgs::Topic);
  static constexpr ActionKindList target_kinds = kindsTaking(ActionArgs::PartitionTarget);
  static constexpr ActionKindList partition_kinds = kindsTaking(ActionArgs::Partition);
  static constexpr ActionKindList leader_follower_kinds = kindsTaking(ActionArgs::LeaderFollower);
  static constexpr ActionKindList broker_kinds = kindsTaking(ActionArgs::Broker);
  static constexpr ActionKindList broker_error_kinds = kindsTaking(ActionArgs::BrokerError);
  static constexpr ActionKindList argumentless_kinds = kindsTaking(ActionArgs::None);
  static constexpr ActionKindList partition_replica_kinds = kindsTaking(ActionArgs::PartitionReplica);
  for (ActionKind kind : argumentless_kinds) add(Action{.kind = kind});
  for (TopicIndex t = 0; t < config.topicCount(); ++t) {
    for (ActionKind kind : topic_kinds) add(Action{.kind = kind, .topic = t});
    const TopicConfig& topic = config.topics[static_cast<std::size_t>(t)];
    for (int p = 0; p < kMaxPartitionsPerTopic; ++p) {
      if (!in_zookeeper(t, p)) continue;
      const TopicPartition tp{t, p};
      for (ActionKind kind : target_kinds) {
        for (const auto& [partition, target] : topic.reassignment_targets) {
          if (partition == p) add(Action{.kind = kind, .tp = tp, .replicas = target});
        }
      }
      for (ActionKind kind : partition_kinds) add(Action{.kind = kind, .tp = tp});
      for (ActionKind kind : partition_replica_kinds) {
        config.brokers.forEach([&](BrokerId b) { add(Action{.kind = kind, .broker = b, .tp = tp}); });
      }
      // Leader and follower among the configured brokers: no other broker is ever started, so
      // none leads, follows or is in an ISR.
      config.brokers.forEach([&](BrokerId leader) {
        config.brokers.forEach([&](BrokerId follower) {
          for (ActionKind kind : leader_follower_kinds) {
            add(Action{.kind = kind, .broker = leader, .tp = tp, .replica = follower});
          }
        });
      });
    }
  }
  config.brokers.forEach([&](BrokerId b) {
    for (ActionKind kind : broker_kinds) add(Action{.kind = kind, .broker = b});
    for (ActionKind kind : broker_error_kinds) {
      add(Action{.kind = kind, .broker = b});
      add(Action{.kind = kind, .broker = b, .error = true});
    }
  });
}

}  // namespace kcspec
