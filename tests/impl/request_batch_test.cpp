// ControllerBrokerRequestBatch (kafka.md Appendix A): sticky flags, "batch not empty", ordering,
// recipients filtered at flush, UpdateMetadata for deleted topics.
#include <gtest/gtest.h>

#include "controller_fixture.hpp"
#include "impl/errors.hpp"

namespace kcspec::impl {
namespace {

using testing::ControllerFixture;

constexpr TopicPartition kT0{0, 0};

LeaderIsrAndControllerEpoch leadership() { return {LeaderAndIsr::make(1, BrokerList{1, 2}), 1}; }

TEST(ImplRequestBatch, NewBatchRefusesAPendingBatch) {
  ControllerFixture f;
  ControllerBrokerRequestBatch batch;
  EXPECT_NO_THROW(batch.newBatch());
  batch.addStopReplicaRequestForBrokers(BrokerList{1}, kT0, false, f.context);
  EXPECT_THROW(batch.newBatch(), IllegalStateException);
  batch.clear();
  batch.addUpdateMetadataRequestForBrokers(BrokerSet{2}, PartitionSet{}, f.context);  // brokers only
  EXPECT_THROW(batch.newBatch(), IllegalStateException);
  batch.sendRequestsToBrokers(1, 1, f.context, f.channel, f.services.logger, f.config,
                              f.config.inter_broker_protocol_version);
  EXPECT_NO_THROW(batch.newBatch());
}

TEST(ImplRequestBatch, IsNewAndDeletePartitionAreSticky) {
  ControllerFixture f;
  f.context.updatePartitionFullReplicaAssignment(kT0, ReplicaAssignment(BrokerList{1, 2}));
  ControllerBrokerRequestBatch batch;
  batch.addLeaderAndIsrRequestForBrokers(BrokerList{2}, kT0, leadership(), ReplicaAssignment(BrokerList{1, 2}), true, f.context);
  LeaderIsrAndControllerEpoch later = leadership();
  later.leader_and_isr.leader_epoch = 5;
  batch.addLeaderAndIsrRequestForBrokers(BrokerList{2}, kT0, later, ReplicaAssignment(BrokerList{1, 2}), false, f.context);
  const auto& entry = batch.pendingLeaderAndIsr().at({2, 0});
  EXPECT_TRUE(entry.is_new);
  EXPECT_EQ(entry.leadership.leader_and_isr.leader_epoch, 5);  // later adds overwrite the rest
  batch.addStopReplicaRequestForBrokers(BrokerList{2}, kT0, true, f.context);
  batch.addStopReplicaRequestForBrokers(BrokerList{2}, kT0, false, f.context);
  EXPECT_TRUE(batch.pendingStopReplica().at({2, 0}).delete_partition);
  // A LeaderAndIsr add also queues UpdateMetadata to every live-or-shutting-down broker — but
  // only partitions with cached leadership get a state.
  EXPECT_EQ(batch.pendingUpdateMetadataBrokers(), (BrokerSet{1, 2, 3}));
  EXPECT_TRUE(batch.pendingUpdateMetadata().empty());
}

TEST(ImplRequestBatch, FlushOrderAndDroppedRecipients) {
  ControllerFixture f;
  f.context.updatePartitionFullReplicaAssignment(kT0, ReplicaAssignment(BrokerList{1, 2, 5}));
  f.context.putPartitionLeadershipInfo(kT0, leadership());
  ControllerBrokerRequestBatch batch;
  batch.addStopReplicaRequestForBrokers(BrokerList{2}, kT0, false, f.context);
  batch.addLeaderAndIsrRequestForBrokers(BrokerList{5, 2, 1}, kT0, leadership(), ReplicaAssignment(BrokerList{1, 2, 5}),
                                         false, f.context);
  batch.sendRequestsToBrokers(1, 1, f.context, f.channel, f.services.logger, f.config,
                              f.config.inter_broker_protocol_version);
  std::vector<std::pair<BrokerId, RequestKind>> sent;
  for (const auto& [b, r] : f.channel.sent) sent.emplace_back(b, r.kind);
  EXPECT_EQ(sent, (std::vector<std::pair<BrokerId, RequestKind>>{{1, RequestKind::LeaderAndIsr},
                                                                   {2, RequestKind::LeaderAndIsr},
                                                                   {1, RequestKind::UpdateMetadata},
                                                                   {2, RequestKind::UpdateMetadata},
                                                                   {3, RequestKind::UpdateMetadata},
                                                                   {2, RequestKind::StopReplica}}));
  const ControlRequest& um = f.channel.sent[2].second;
  EXPECT_EQ(um.broker_epoch, 1);
  EXPECT_EQ(um.live_brokers, (BrokerSet{1, 2, 3}));
  EXPECT_EQ(um.update_metadata[0].offline_replicas, (BrokerList{5}));
  EXPECT_TRUE(batch.empty());
}

TEST(ImplRequestBatch, QueuedTopicsAreAdvertisedDuringDeleteAndStopReplicaCarriesMinus2) {
  ControllerFixture f;
  f.context.updatePartitionFullReplicaAssignment(kT0, ReplicaAssignment(BrokerList{1, 2}));
  f.context.putPartitionLeadershipInfo(kT0, leadership());
  f.context.queueTopicDeletion(TopicSet{0});
  f.context.beginTopicDeletion(TopicSet{0});
  ControllerBrokerRequestBatch batch;
  batch.addUpdateMetadataRequestForBrokers(BrokerSet{1}, PartitionSet{kT0}, f.context);
  batch.addStopReplicaRequestForBrokers(BrokerList{1}, kT0, true, f.context);
  const auto& um = batch.pendingUpdateMetadata().at(0);
  EXPECT_EQ(um.leader, kLeaderDuringDelete);
  EXPECT_EQ(um.leader_epoch, 0);
  EXPECT_EQ(um.isr, (BrokerList{1, 2}));
  EXPECT_EQ(batch.pendingStopReplica().at({1, 0}).leader_epoch, LeaderAndIsr::kEpochDuringDelete);
  batch.sendRequestsToBrokers(1, 1, f.context, f.channel, f.services.logger, f.config,
                              f.config.inter_broker_protocol_version);
  EXPECT_TRUE(f.channel.sent.back().second.response_wanted.contains(kT0));
}

TEST(ImplRequestBatch, EveryFlushLogsTheUpdateMetadataSummary) {
  ControllerFixture f;
  ControllerBrokerRequestBatch batch;
  batch.sendRequestsToBrokers(1, 1, f.context, f.channel, f.services.logger, f.config,
                              f.config.inter_broker_protocol_version);
  EXPECT_EQ(f.sink.text(),
            "[2024-07-23 00:00:00,000] INFO [Controller id=1 epoch=1] Sending UpdateMetadata request to brokers HashSet() "
            "for 0 partitions (state.change.logger)\n");
  EXPECT_TRUE(f.channel.sent.empty());
}

}  // namespace
}  // namespace kcspec::impl
