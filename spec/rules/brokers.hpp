// The broker side, as far as the controller's world needs it (kafka.md Appendix E leaves it out; the
// rules, read from Kafka's ReplicaManager, are docs/world.md §5): a broker applies
// control requests in order, rejects those from an older controller epoch or for an older broker
// epoch, and answers StopReplica(delete=true) and, when a replica's log directory failed,
// LeaderAndIsr.
#pragma once

#include "spec/vocabulary/observation.hpp"

namespace kcspec::spec {

// The broker processes the head of its request queue. It changes that broker's own data and
// nothing else (not even its controller module): the explorer compares only those parts after a
// delivery (proofs/explorer/state_codec.hpp brokerDataSegments).
void processNextRequest(Observation& world, BrokerId broker);

// The broker process dies: its registration, queues, caches and controller module are gone.
void crashBroker(Observation& world, BrokerId broker);

// The broker registers again, with a new broker epoch (the znode's creation order). Its log
// directories are healthy again (a restart after the disk was replaced: docs/world.md §5).
void startBroker(Observation& world, BrokerId broker);

// The broker's ZooKeeper session expires while it runs (kafka.md §6.3.7): its ephemeral
// registration goes, and `/controller` when it holds it; the broker keeps everything else. Its
// controller module is session-lost until the client notices (notice-session-expiry queues
// Expire). Fires BrokerChange.
void loseBrokerSession(Observation& world, BrokerId broker);

// RegisterBrokerAndReelect's registration (kafka.md §5.6 event 4): with the new session the broker
// creates `/brokers/ids/<b>` again; the znode's creation order is its new broker epoch, which the
// broker itself now goes by. Fires BrokerChange.
void registerBrokerAgain(Observation& world, BrokerId broker);

// Whether the broker holds a log for tp: it hosts the replica, or stopped it (StopReplica
// delete=false keeps the log).
bool hasLog(const BrokerData& broker, TopicPartition tp);

// ReplicaManager.handleLogDirFailure for the directory holding the broker's replica of tp: the
// replica goes offline (it leads and follows nothing, and every later request naming it is answered
// KAFKA_STORAGE_ERROR) until the broker restarts, and the broker writes
// /log_dir_event_notification/log_dir_event_<seq> (propagateLogDirEvent), whose child watch
// queues LogDirEventNotification. The broker keeps running: kcspec gives each replica its own
// directory and the broker enough others that it is never left with none (when Kafka halts it).
void failLogDir(Observation& world, BrokerId broker, TopicPartition tp);

// ZkAlterPartitionManager.submit (inter.broker.protocol.version < 2.7-IV2): the leader writes its
// proposed ISR to t-p's state znode itself, conditional on the partition epoch it holds. The
// znode keeps its controller epoch: the leader writes the epoch of the controller whose
// leadership it holds (Partition.controllerEpoch), and a znode still at the version the leader
// holds is the one that leadership came from. Written: the leader commits the ISR and the new
// version, and adds the partition to the changes its propagation task has yet to write (below).
// Refused (BADVERSION, or no znode): the change stays pending ("awaiting new metadata") until a
// LeaderAndIsr.
void writeIsrChangeToZooKeeper(Observation& world, BrokerId leader, TopicPartition tp, const LeaderAndIsr& proposed);

// maybePropagateIsrChanges: the broker's scheduled task writes the ISR changes it made since its
// last run as one /isr_change_notification/isr_change_<seq> (propagateIsrChanges), whose child
// watch queues IsrChangeNotification. Kafka runs it every 2.5 s and writes once no change came
// for 5 s or 60 s passed; kcspec lets it run at any moment after a change, so every batching of
// the changes, and a crash before any is written, are histories.
void propagateIsrChanges(Observation& world, BrokerId broker);

}  // namespace kcspec::spec
