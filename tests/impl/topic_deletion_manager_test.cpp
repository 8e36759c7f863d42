// TopicDeletionManager (kafka.md §4): queued vs eligible vs in progress, halting and resuming.
#include <gtest/gtest.h>

#include "controller_fixture.hpp"
#include "impl/controller/topic_deletion_manager.hpp"

namespace kcspec::impl {
namespace {

using testing::ControllerFixture;

constexpr TopicPartition kT0{0, 0};

class NullDeletionClient final : public DeletionClient {
 public:
  void deleteTopic(TopicIndex topic, std::int32_t) override { deleted.insert(topic); }
  void deleteTopicDeletions(TopicSet topics, std::int32_t) override { cleared = cleared | topics; }
  void mutePartitionModifications(TopicIndex) override {}
  void sendMetadataUpdate(PartitionSet) override {}
  TopicSet deleted, cleared;
};

struct TdmFixture : ControllerFixture {
  explicit TdmFixture(bool delete_enabled = true) : ControllerFixture(withDelete(delete_enabled)) {
    context.updatePartitionFullReplicaAssignment(kT0, ReplicaAssignment(BrokerList{1, 2}));
    context.allTopics.insert(0);
  }
  static Config withDelete(bool enabled) {
    Config c = defaultConfig();
    c.delete_topic_enable = enabled;
    return c;
  }
  void replicaIn(BrokerId r, ReplicaState s) { context.restoreReplicaState(PartitionAndReplica{kT0, r}, s); }
  TopicDeletionManager tdm() { return TopicDeletionManager(context, rsm_view, psm_view, client, services); }
  ReplicaStateMachine rsm_view = rsm();
  PartitionStateMachine psm_view = psm();
  NullDeletionClient client;
};

TEST(ImplTopicDeletionManager, EligibilityNeedsQueuedNotHaltedAndNothingStarted) {
  TdmFixture f;
  f.replicaIn(1, ReplicaState::OnlineReplica);
  f.replicaIn(2, ReplicaState::OnlineReplica);
  EXPECT_FALSE(f.tdm().isTopicEligibleForDeletion(0));  // not queued
  f.context.queueTopicDeletion(TopicSet{0});
  EXPECT_TRUE(f.tdm().isTopicEligibleForDeletion(0));
  f.tdm().markTopicIneligibleForDeletion(TopicSet{0}, "offline replicas");
  EXPECT_FALSE(f.tdm().isTopicEligibleForDeletion(0));
  f.context.topicsIneligibleForDeletion = TopicSet{};
  f.replicaIn(2, ReplicaState::ReplicaDeletionStarted);
  EXPECT_TRUE(f.tdm().isTopicDeletionInProgress(0));
  EXPECT_FALSE(f.tdm().isTopicEligibleForDeletion(0));
  EXPECT_FALSE(f.context.isTopicDeletionInProgress(0));  // the context's notion is deletion *started*
}

TEST(ImplTopicDeletionManager, MarkingIneligibleIgnoresTopicsThatAreNotQueued) {
  TdmFixture f;
  f.tdm().markTopicIneligibleForDeletion(TopicSet{0}, "topic reassignment in progress");
  EXPECT_TRUE(f.context.topicsIneligibleForDeletion.empty());
}

TEST(ImplTopicDeletionManager, DisabledDeletionQueuesNothingAndClearsTheAdminZnodes) {
  TdmFixture f(/*delete_enabled=*/false);
  f.tdm().init(TopicSet{0}, TopicSet{0});
  EXPECT_TRUE(f.context.topicsToBeDeleted.empty());
  EXPECT_TRUE(f.client.cleared.contains(0));
  EXPECT_FALSE(f.tdm().isTopicQueuedUpForDeletion(0));
}

TEST(ImplTopicDeletionManager, MutantM3QueuesDespiteDisabledDeletion) {
  TdmFixture f(/*delete_enabled=*/false);
  f.services.mutants = Mutants::of({Mutant::M3});
  f.tdm().init(TopicSet{0}, TopicSet{});
  EXPECT_TRUE(f.context.topicsToBeDeleted.contains(0));
}

TEST(ImplTopicDeletionManager, AllReplicasSuccessfulCompletesTheTopic) {
  TdmFixture f;
  f.context.queueTopicDeletion(TopicSet{0});
  f.context.beginTopicDeletion(TopicSet{0});
  f.replicaIn(1, ReplicaState::ReplicaDeletionSuccessful);
  f.replicaIn(2, ReplicaState::ReplicaDeletionStarted);
  f.tdm().completeReplicaDeletion({PartitionAndReplica{kT0, 2}});
  EXPECT_TRUE(f.client.deleted.contains(0));
  EXPECT_FALSE(f.context.allTopics.contains(0));
  EXPECT_FALSE(f.context.hasAssignment(kT0));
  EXPECT_FALSE(f.context.hasReplicaState(PartitionAndReplica{kT0, 1}));
}

TEST(ImplTopicDeletionManager, FailedReplicaHaltsTheTopic) {
  TdmFixture f;
  f.context.queueTopicDeletion(TopicSet{0});
  f.context.beginTopicDeletion(TopicSet{0});
  f.replicaIn(1, ReplicaState::ReplicaDeletionStarted);
  f.replicaIn(2, ReplicaState::ReplicaDeletionStarted);
  f.tdm().failReplicaDeletion({PartitionAndReplica{kT0, 1}});
  EXPECT_EQ(f.context.replicaState(PartitionAndReplica{kT0, 1}), ReplicaState::ReplicaDeletionIneligible);
  EXPECT_TRUE(f.context.topicsIneligibleForDeletion.contains(0));
  EXPECT_FALSE(f.tdm().isTopicEligibleForDeletion(0));
}

}  // namespace
}  // namespace kcspec::impl
