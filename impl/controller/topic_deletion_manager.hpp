// TopicDeletionManager (kafka.md §4): queues topics for deletion, drives their replicas through
// OfflineReplica → ReplicaDeletionStarted → ReplicaDeletionSuccessful, halts and resumes, and
// finally removes the topic from ZK and the context. A per-use view over the controller's state.
#pragma once

#include <vector>

#include "impl/controller/controller_context.hpp"
#include "impl/controller/controller_services.hpp"
#include "impl/controller/partition_state_machine.hpp"
#include "impl/controller/replica_state_machine.hpp"

namespace kcspec::impl {

// What the manager asks of the controller (Kafka's DeletionClient; KafkaController implements it).
class DeletionClient {
 public:
  virtual ~DeletionClient() = default;
  // Delete /brokers/topics/<t> recursively, /config/topics/<t> and /admin/delete_topics/<t> (fenced).
  virtual void deleteTopic(TopicIndex topic, std::int32_t epochZkVersion) = 0;
  virtual void deleteTopicDeletions(TopicSet topics, std::int32_t epochZkVersion) = 0;
  virtual void mutePartitionModifications(TopicIndex topic) = 0;
  virtual void sendMetadataUpdate(PartitionSet partitions) = 0;
};

class TopicDeletionManager {
 public:
  TopicDeletionManager(ControllerContext& context, ReplicaStateMachine& rsm, PartitionStateMachine& psm,
                       DeletionClient& client, ControllerServices& services)
      : context_(context), rsm_(rsm), psm_(psm), client_(client), services_(services) {}

  void init(TopicSet initialTopicsToBeDeleted, TopicSet initialTopicsIneligibleForDeletion);
  void tryTopicDeletion();
  void enqueueTopicsForDeletion(TopicSet topics);
  void resumeDeletionForTopics(TopicSet topics);
  void failReplicaDeletion(const std::vector<PartitionAndReplica>& replicas);
  void markTopicIneligibleForDeletion(TopicSet topics, std::string_view reason);
  bool isTopicQueuedUpForDeletion(TopicIndex topic) const;
  void completeReplicaDeletion(const std::vector<PartitionAndReplica>& replicas);

  // TDM-private notion (kafka.md §4): some replica of the topic is in ReplicaDeletionStarted.
  bool isTopicDeletionInProgress(TopicIndex topic) const;
  bool isTopicEligibleForDeletion(TopicIndex topic) const;

 private:
  void resumeDeletions();
  void retryDeletionForIneligibleReplicas(TopicSet topics);
  void completeDeleteTopic(TopicIndex topic);
  void onTopicDeletion(TopicSet topics);
  void onPartitionDeletion(TopicSet topics);

  ControllerContext& context_;
  ReplicaStateMachine& rsm_;
  PartitionStateMachine& psm_;
  DeletionClient& client_;
  ControllerServices& services_;
};

}  // namespace kcspec::impl
