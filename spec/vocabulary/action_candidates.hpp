// Every action a configuration can name in a state, enumerated from the action definitions
// (action.hpp): the spec and the impl both take their candidates from here, so they offer the
// same actions in the same order, and a new action kind is a candidate as soon as it is defined.
// Which candidates are enabled is each version's own rule.
#pragma once

#include <bitset>

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

// The kinds a version asks for in a state: it may leave out, before any of their candidates is
// named, kinds it knows to be disabled there (a spent bound), and the others keep their order.
struct CandidateKinds {
  std::bitset<kActionKindCount> kinds;          // kinds whose candidates are named
  std::bitset<kActionKindCount> error_variants; // BrokerError kinds: whether `error` candidates are named too

  static CandidateKinds all() {
    CandidateKinds every;
    every.kinds.set();
    every.error_variants.set();
    return every;
  }
  bool has(ActionKind kind) const { return kinds.test(static_cast<std::size_t>(kind)); }
  bool hasErrorVariant(ActionKind kind) const { return error_variants.test(static_cast<std::size_t>(kind)); }

  // `list`'s kinds that are asked for, in its order.
  ActionKindList of(const ActionKindList& list) const {
    ActionKindList kept;
    for (ActionKind kind : list) {
      if (has(kind)) kept.kinds[kept.size++] = kind;
    }
    return kept;
  }
};

// `in_zookeeper(t, p)`: whether topic t's znode lists partition p now (its ids are 0…n−1 but
// for a topic whose assignment was restored during its deletion, kafka.md §5.10.2).
// `add(action)` is called once per candidate, in a fixed order: the actions without arguments, per topic its topic actions,
// then per partition, in id order, its partition actions (then its partition-replica actions, per
// broker); then per broker its broker actions,
// each group in the order of ActionKind.
template <class InZooKeeper, class Add>
void forEachCandidate(const Config& config, InZooKeeper in_zookeeper, const CandidateKinds& asked, Add add) {
  static constexpr ActionKindList all_topic_kinds = kindsTaking(ActionArgs::Topic);
  static constexpr ActionKindList all_target_kinds = kindsTaking(ActionArgs::PartitionTarget);
  static constexpr ActionKindList all_partition_kinds = kindsTaking(ActionArgs::Partition);
  static constexpr ActionKindList all_leader_follower_kinds = kindsTaking(ActionArgs::LeaderFollower);
  static constexpr ActionKindList all_broker_kinds = kindsTaking(ActionArgs::Broker);
  static constexpr ActionKindList all_broker_error_kinds = kindsTaking(ActionArgs::BrokerError);
  static constexpr ActionKindList all_argumentless_kinds = kindsTaking(ActionArgs::None);
  static constexpr ActionKindList all_partition_replica_kinds = kindsTaking(ActionArgs::PartitionReplica);
  const ActionKindList topic_kinds = asked.of(all_topic_kinds);
  const ActionKindList target_kinds = asked.of(all_target_kinds);
  const ActionKindList partition_kinds = asked.of(all_partition_kinds);
  const ActionKindList leader_follower_kinds = asked.of(all_leader_follower_kinds);
  const ActionKindList broker_kinds = asked.of(all_broker_kinds);
  const ActionKindList broker_error_kinds = asked.of(all_broker_error_kinds);
  const ActionKindList argumentless_kinds = asked.of(all_argumentless_kinds);
  const ActionKindList partition_replica_kinds = asked.of(all_partition_replica_kinds);
  const bool partitions_asked =
      target_kinds.size + partition_kinds.size + leader_follower_kinds.size + partition_replica_kinds.size > 0;
  for (ActionKind kind : argumentless_kinds) add(Action{.kind = kind});
  for (TopicIndex t = 0; t < config.topicCount(); ++t) {
    for (ActionKind kind : topic_kinds) add(Action{.kind = kind, .topic = t});
    if (!partitions_asked) continue;
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
      if (leader_follower_kinds.size == 0) continue;
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
      if (asked.hasErrorVariant(kind)) add(Action{.kind = kind, .broker = b, .error = true});
    }
  });
}

// Every candidate.
template <class InZooKeeper, class Add>
void forEachCandidate(const Config& config, InZooKeeper in_zookeeper, Add add) {
  forEachCandidate(config, in_zookeeper, CandidateKinds::all(), add);
}

}  // namespace kcspec
