// KafkaController (kafka.md §5): one broker's controller module. KafkaControllerState is the data
// (a value inside the broker); KafkaController is the logic, a view built per step over that
// state and the ControllerServices. Its handlers live in files named after their concern:
//   kafka_controller.cpp        dispatch, election, failover, resignation, helpers
//   broker_membership.cpp       BrokerChange, onBrokerStartup/Failure, onReplicasBecomeOffline
//   controlled_shutdown.cpp     ControlledShutdown
//   topic_changes.cpp           TopicChange, PartitionModifications, onNewPartitionCreation
//   topic_deletion_events.cpp   TopicDeletion, TopicDeletionStopReplicaResponseReceived
//   partition_reassignment.cpp  ApiPartitionReassignment, ZkPartitionReassignment and the
//                               reassignment phases (§5.7)
//   leader_elections.cpp        ReplicaLeaderElection (ElectLeaders and /admin/preferred_replica_election),
//                               the auto rebalance, TopicUncleanLeaderElectionEnable
//   alter_partition.cpp         AlterPartitionReceived (§5.12)
//   log_dir_failures.cpp        LogDirEventNotification (§5.5.6), LeaderAndIsrResponseReceived (§5.6.1)
#pragma once

#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "impl/controller/controller_broker_request_batch.hpp"
#include "impl/controller/controller_context.hpp"
#include "impl/controller/controller_event_manager.hpp"
#include "impl/controller/controller_services.hpp"
#include "impl/controller/partition_state_machine.hpp"
#include "impl/controller/replica_state_machine.hpp"
#include "impl/controller/topic_deletion_manager.hpp"
#include "spec/vocabulary/component_call.hpp"
#include "spec/vocabulary/observation.hpp"

namespace kcspec::impl {

// Kafka's ElectionTrigger: who asked for a leader election (kafka.md §5.8.1).
enum class ElectionTrigger : std::uint8_t { AutoTriggered, ZkTriggered, AdminClientTriggered };

struct KafkaControllerState {
  bool active = false;        // activeControllerId == this broker
  bool session_lost = false;  // /controller is gone with the session; Expire not queued yet
  ControllerContext context;
  ControllerEventManager events;
  // Each of KafkaController, the PSM and the RSM owns a batch (kafka.md Appendix A). They survive
  // resignation as in Kafka, so a batch left unflushed by a ControllerMovedException stays.
  ControllerBrokerRequestBatch controller_batch;
  ControllerBrokerRequestBatch psm_batch;
  ControllerBrokerRequestBatch rsm_batch;

  void toObservation(ControllerData& out) const;  // into `out`, a default value
  // Broker `self`'s module as toObservation shows it (a stated world, issue 28). The
  // controller's own batch is empty between steps (nothing between its newBatch() and its send
  // can throw, and handleIllegalState clears it); a state machine's is non-empty when the world
  // says it was left so (ControllerBrokerRequestBatch::restoreUnflushed). (impl/given_world.cpp.)
  static KafkaControllerState fromObservation(const ControllerData& given, BrokerId self);
};

class KafkaController final : public DeletionClient {
 public:
  KafkaController(BrokerId id, KafkaControllerState& state, ControllerServices& services)
      : id_(id),
        state_(state),
        context_(state.context),
        services_(services),
        psm_(state.context, state.psm_batch, services),
        rsm_(state.context, state.rsm_batch, services),
        tdm_(state.context, rsm_, psm_, *this, services) {}

  // elect-controller (docs/world.md §9): Kafka's elect(), including onControllerFailover.
  void elect();
  // process-event: one event, atomically; ControllerMovedException ⇒ maybeResign (kafka.md §5.6).
  void process(const ControllerEvent& event);

  // A stated world (issue 28): the ZooKeeper handlers the active controller `id` (alive, active,
  // with its session) holds after any history — those onControllerFailover registers (the child
  // handlers, /log_dir_event_notification's included, and the /admin/reassign_partitions and
  // /admin/preferred_replica_election ones), and a
  // PartitionModificationsHandler for every topic of its context: registered for allTopics at
  // failover and for each topic TopicChange adds, muted when a topic's deletion completes, which
  // removes it from allTopics. (TopicChange drops a topic whose znode is gone without muting it,
  // but only a controller completing the deletion removes a topic znode, and any other than the
  // active one is fenced.) Other modules' handlers are not restored: no watch reaches a module
  // that is not the active one, and each is removed (resignation at Expire, a crash) before it can
  // be elected again. (impl/given_world.cpp.)
  static void restoreHandlers(BrokerId id, const ControllerContext& context, zk::KafkaZkClient& zk);

  // A component action (spec/vocabulary/component_call.hpp): one method of this controller's
  // PartitionStateMachine, ReplicaStateMachine, TopicDeletionManager, request batch, context or
  // Election, called with no event around it. Returns the exception that escaped and what the
  // method answered (impl/component_calls.cpp).
  ComponentResult callComponent(const ComponentCall& call);

  // The event a ZooKeeper change seen by this controller's watches becomes, if any.
  static std::optional<ControllerEvent> eventForWatch(const Config& config, const zk::WatchEvent& change);

  // DeletionClient
  void deleteTopic(TopicIndex topic, std::int32_t epochZkVersion) override;
  void deleteTopicDeletions(TopicSet topics, std::int32_t epochZkVersion) override;
  void mutePartitionModifications(TopicIndex topic) override;
  void sendMetadataUpdate(PartitionSet partitions) override;

 private:
  bool isActive() const { return state_.active; }
  StateChangeLogger stateChangeLog() const { return services_.logger.withControllerEpoch(context_.epoch); }
  std::string name(TopicPartition tp) const { return renderTopicPartition(services_.config, tp); }

  // --- kafka_controller.cpp
  void dispatch(const ControllerEvent& event);
  void onControllerFailover();
  // maybeSetupFeatureVersioning and its two branches (feature_versioning.cpp).
  void maybeSetupFeatureVersioning();
  void enableFeatureVersioning();
  void disableFeatureVersioning();
  void initializeControllerContext();
  void processTopicIds(TopicSet topics);
  void initializePartitionReassignments();
  PartitionSet fetchPendingPreferredReplicaElections();
  void registerPartitionModificationsHandlers(TopicSet topics);
  void onControllerResignation();
  void maybeResign();
  void triggerControllerMove();
  // eventManager.put from the controller thread (a plain put, not coalesced), after the watch
  // notifications of its earlier ZooKeeper writes (ControllerServices::deliver_watch_events).
  void putOwnEvent(const ControllerEvent& event);
  void deliverWatchEvents() {
    if (services_.deliver_watch_events) services_.deliver_watch_events();
  }
  [[noreturn]] void handleIllegalState(const IllegalStateException& e);
  void processExpire();
  // RegisterBrokerAndReelect (kafka.md §5.6 event 4): /brokers/ids/<me> again with the new session
  // (its czxid the new broker epoch), then as Reelect — maybeResign; the election itself is the
  // elect-controller step any live registered broker may take.
  void processRegisterBrokerAndReelect();
  void sendUpdateMetadataRequest(BrokerSet brokers, PartitionSet partitions);

  // --- broker_membership.cpp
  void processBrokerChange();
  void onBrokerStartup(BrokerSet newBrokers);
  void onBrokerFailure(BrokerSet deadBrokers);
  void onReplicasBecomeOffline(const std::vector<PartitionAndReplica>& newOfflineReplicas);

  // --- controlled_shutdown.cpp
  void processControlledShutdown(BrokerId id, std::int64_t brokerEpoch);
  PartitionSet doControlledShutdown(BrokerId id, std::int64_t brokerEpoch);

  // --- topic_changes.cpp
  void processTopicChange();
  void processPartitionModifications(TopicIndex topic);
  void onNewPartitionCreation(PartitionSet newPartitions);

  // --- topic_deletion_events.cpp
  void processTopicDeletion();
  void processTopicDeletionStopReplicaResponseReceived(BrokerId replicaId, PartitionSet partitions,
                                                       PartitionSet partitionsInError);

  // --- partition_reassignment.cpp
  using ShouldRemoveReassignment = std::function<bool(TopicPartition, const BrokerList&)>;
  using ShouldResumeReassignment = std::function<bool(TopicPartition, const ReplicaAssignment&)>;
  PartitionSet processZkPartitionReassignment();  // the partitions whose reassignment started
  void processApiPartitionReassignment(TopicPartition tp, std::optional<BrokerList> targetReplicas);
  bool validateReplicas(TopicPartition tp, const BrokerList& replicas) const;
  std::optional<ReplicaAssignment> maybeBuildReassignment(TopicPartition tp,
                                                          std::optional<BrokerList> targetReplicas) const;
  // Whether it started (ApiError.NONE); false for every error (UNKNOWN_TOPIC_OR_PARTITION, UNKNOWN_SERVER_ERROR).
  bool maybeTriggerPartitionReassignment(TopicPartition tp, const ReplicaAssignment& reassignment);
  void onPartitionReassignment(TopicPartition tp, const ReplicaAssignment& reassignment);
  void updateCurrentReassignment(TopicPartition tp, const ReplicaAssignment& reassignment);
  void updateReplicaAssignmentForPartition(TopicPartition tp, const ReplicaAssignment& assignment);
  bool isReassignmentComplete(TopicPartition tp, const ReplicaAssignment& assignment) const;
  void maybeCompleteReassignment(TopicPartition tp);
  void maybeResumeReassignments(const ShouldResumeReassignment& shouldResume);
  void moveReassignedPartitionLeaderIfRequired(TopicPartition tp, const ReplicaAssignment& newAssignment);
  void stopRemovedReplicasOfReassignedPartition(TopicPartition tp, const BrokerList& removedReplicas);
  void updateLeaderEpochAndSendRequest(TopicPartition tp, const ReplicaAssignment& assignment);
  std::optional<LeaderIsrAndControllerEpoch> updateLeaderEpoch(TopicPartition tp);
  void removePartitionFromReassigningPartitions(TopicPartition tp, const ReplicaAssignment& assignment);
  void maybeRemoveFromZkReassignment(const ShouldRemoveReassignment& shouldRemoveReassignment);

  // --- leader_elections.cpp
  // partitionsFromAdminClient: nullopt for ZkTriggered (the partitions are the znode's).
  void processReplicaLeaderElection(std::optional<PartitionSet> partitionsFromAdminClient, ElectionType type,
                                    ElectionTrigger trigger);
  ElectionOutcomes onReplicaElection(PartitionSet partitions, ElectionType type, ElectionTrigger trigger);
  void removePartitionsFromPreferredReplicaElection(PartitionSet partitionsToBeRemoved,
                                                    bool isTriggeredByAutoRebalance);
  void processAutoPreferredReplicaLeaderElection();
  void checkAndTriggerAutoLeaderRebalance();
  bool canPreferredReplicaBeLeader(TopicPartition tp) const;
  void processTopicUncleanLeaderElectionEnable(TopicIndex topic);

  // --- component_calls.cpp (component actions only: no event reaches these)
  ComponentAnswer electLeadersWithoutChange(const ComponentCall& call);
  void sendComponentBatch(const std::vector<BatchEntry>& entries);

  // --- alter_partition.cpp
  // `topicId`: the request names the topic by id (version 2 and later); nothing when by name.
  void processAlterPartition(BrokerId brokerId, std::int64_t brokerEpoch, TopicPartition tp, const LeaderAndIsr& proposed,
                             std::optional<TopicId> topicId);

  // --- isr_change_notifications.cpp (inter.broker.protocol.version < 2.7-IV2)
  void processIsrChangeNotification();
  void processPartitionReassignmentIsrChange(TopicPartition tp);
  std::string statePath(TopicPartition tp) const;  // TopicPartitionStateZNode.path
  // updateLeaderAndIsrCache: each partition's leadership read again from its state znode (kept as
  // it is when the znode is gone).
  void updateLeaderAndIsrCache(PartitionSet partitions);

  // --- log_dir_failures.cpp
  void processLogDirEventNotification();
  void onBrokerLogDirFailure(const std::vector<BrokerId>& brokerIds);
  // The response's partitions and those it answered KAFKA_STORAGE_ERROR (kcspec keeps only
  // responses with some: their top-level error is NONE).
  // `topicIds`: a version 5+ response names its topics by these ids; nothing: by name.
  void processLeaderAndIsrResponseReceived(BrokerId brokerId, PartitionSet partitions, PartitionSet storageErrors,
                                           const std::optional<std::array<TopicId, kMaxTopics>>& topicIds);

  BrokerId id_;
  KafkaControllerState& state_;
  ControllerContext& context_;
  ControllerServices& services_;
  PartitionStateMachine psm_;
  ReplicaStateMachine rsm_;
  TopicDeletionManager tdm_;
};

}  // namespace kcspec::impl
