// A read-only snapshot of a ZooKeeper-mode Kafka cluster's metadata, in Kafka's exact znode
// formats (kafka.md §6.1): brokers, controller and epoch, topics with assignments and adding/removing
// replicas, partition states, admin deletion/reassignment/preferred-election nodes, topic configs.
// `kcspec check-zk` judges it (zk_findings.hpp). Reading uses only the store's const reads.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "impl/zookeeper/zk_store.hpp"

namespace kcspec::impl::zk {
class RealZkStore;  // impl/zookeeper/real_zk_store.hpp
}  // namespace kcspec::impl::zk

namespace kcspec::zkcheck {

struct PartitionStateSnapshot {
  int leader = -1;
  int leader_epoch = 0;
  std::vector<int> isr;
  int controller_epoch = 0;
  int partition_epoch = 0;  // the state znode's data version
  bool recovering = false;  // "leader_recovery_state":1
};

struct PartitionSnapshot {
  std::vector<int> replicas;  // the full assignment RS (empty when not in the topic znode)
  std::vector<int> adding;
  std::vector<int> removing;
  bool in_assignment = false;
  bool has_znode = false;  // /brokers/topics/<t>/partitions/<p>
  std::optional<PartitionStateSnapshot> state;
};

struct TopicSnapshot {
  bool znode = false;                  // /brokers/topics/<t>
  int version = 0;                     // the payload's "version"
  std::optional<std::string> topic_id;
  std::map<int, PartitionSnapshot> partitions;
  bool queued_for_deletion = false;    // /admin/delete_topics/<t>
  bool config = false;                 // /config/topics/<t>
  bool unclean_leader_election_enable = false;
};

struct MalformedZnode {
  std::string path;
  std::string message;
};

struct AdminPartition {
  std::string topic;
  int partition = 0;
  std::vector<int> replicas;  // reassignment target (empty for a preferred election)
};

struct ZkSnapshot {
  std::map<int, std::int64_t> brokers;  // registered id → broker epoch (czxid)
  std::optional<int> controller;        // /controller's brokerid
  std::optional<int> controller_epoch;  // /controller_epoch
  int controller_epoch_zk_version = 0;
  std::map<std::string, TopicSnapshot> topics;  // every topic named by any of the nodes above
  std::optional<std::vector<AdminPartition>> reassign_partitions;         // /admin/reassign_partitions
  std::optional<std::vector<AdminPartition>> preferred_replica_election;  // /admin/preferred_replica_election
  std::vector<MalformedZnode> malformed;
  std::uint64_t requests = 0;  // ZooKeeper requests the snapshot took
};

// Bounds on what one snapshot reads (a cluster beyond them is reported as bad input).
struct SnapshotLimits {
  std::size_t max_topics = 100000;
  std::size_t max_partitions_per_topic = 100000;
  std::size_t max_brokers = 100000;
};

// What a snapshot is read through: a znode (nullptr when it does not exist; valid until the next
// find) and a znode's children (none when it does not exist).
struct ZnodeReader {
  std::function<const impl::zk::Znode*(std::string_view path)> find;
  std::function<std::vector<std::string>(std::string_view path)> children;
};

// Throws std::invalid_argument when the path is not a Kafka cluster's root (no /brokers) or the
// limits are exceeded (and what `zk`'s functions throw). Every payload it cannot read as Kafka
// writes it is a MalformedZnode naming the znode, never an exception. `requests` stays 0.
ZkSnapshot readSnapshot(const ZnodeReader& zk, const SnapshotLimits& limits = {});

// The same from a live ZooKeeper server (zk_snapshot_real.cpp), with the requests it took.
// Throws impl::zk::ZkUnavailable when the server fails.
ZkSnapshot readSnapshot(const impl::zk::RealZkStore& zk, const SnapshotLimits& limits = {});

}  // namespace kcspec::zkcheck
