// The symmetry group of a configuration (spec/vocabulary/symmetry.hpp): which broker permutations
// map the configuration onto itself up to topic names and partition numbers — and that only the
// spare-brokers preset has one (what explore's header says for each of them); and how broker epochs
// are renumbered for the symmetry reduction's classes.
#include <gtest/gtest.h>

#include <string>

#include "spec/vocabulary/config_text.hpp"
#include "spec/vocabulary/presets.hpp"
#include "spec/vocabulary/symmetry.hpp"

namespace kcspec {
namespace {

std::string symmetryOf(const std::string& text) {
  return symmetryText(configSymmetry(parseConfig("name s\n" + text, "test.config")));
}

TEST(Symmetry, OnlyTheSpareBrokersPresetHasOne) {
  const ConfigSymmetry spare = configSymmetry(*preset("spare-brokers"));
  EXPECT_EQ(symmetryText(spare), "brokers {2,3} (2 permutations)");
  for (std::string_view name : kPresetNames) {
    if (name == "spare-brokers") continue;
    SCOPED_TRACE(std::string(name));
    const ConfigSymmetry symmetry = configSymmetry(*preset(name));
    ASSERT_EQ(symmetry.permutations.size(), 1u);
    EXPECT_TRUE(symmetry.permutations[0].isIdentity());
    EXPECT_EQ(symmetryText(symmetry), "none");
  }
}

TEST(Symmetry, BrokersWithNothingToTellThemApartAreInterchangeable) {
  EXPECT_EQ(symmetryOf("brokers 1 2 3\nalive-at-start 1 2 3\n"), "brokers {1,2,3} (6 permutations)");
  // Brokers 3 and 4 host nothing; broker 4 not alive at start tells it from 3.
  EXPECT_EQ(symmetryOf("brokers 1 2 3 4\nalive-at-start 1 2 3 4\ntopic t\n  partition 0 replicas 1,2\n"),
            "brokers {3,4} (2 permutations)");
  EXPECT_EQ(symmetryOf("brokers 1 2 3 4\nalive-at-start 1 2 3\ntopic t\n  partition 0 replicas 1,2\n"), "none");
}

TEST(Symmetry, PartitionsAndTopicsMayBeRelabelled) {
  // Rotations map t-0 → t-1 → t-2 → t-0; a transposition reverses a preference order: no.
  EXPECT_EQ(symmetryOf("brokers 1 2 3\nalive-at-start 1 2 3\ntopic t\n  partition 0 replicas 1,2\n"
                       "  partition 1 replicas 2,3\n  partition 2 replicas 3,1\n"),
            "brokers {1,2,3} (3 permutations)");
  // Exchanging brokers 1 and 2 exchanges topics t and u.
  EXPECT_EQ(symmetryOf("brokers 1 2\nalive-at-start 1 2\ntopic t\n  partition 0 replicas 1,2\n"
                       "topic u\n  partition 0 replicas 2,1\n"),
            "brokers {1,2} (2 permutations)");
  // ... unless the topics differ in a flag.
  EXPECT_EQ(symmetryOf("brokers 1 2\nalive-at-start 1 2\ntopic t\n  partition 0 replicas 1,2\n"
                       "topic u\n  partition 0 replicas 2,1\n  unclean.leader.election.enable true\n"),
            "none");
}

TEST(Symmetry, ReassignmentTargetsAndAddedPartitionsCount) {
  const std::string two_ways = "brokers 1 2 3\nalive-at-start 1 2 3\ntopic t\n  partition 0 replicas 1,2\n"
                               "  partition 1 replicas 2,1\n";
  EXPECT_EQ(symmetryOf(two_ways), "brokers {1,2} (2 permutations)");
  EXPECT_EQ(symmetryOf(two_ways + "  reassign 0 to 1,3\n"), "none");
  EXPECT_EQ(symmetryOf(two_ways + "  reassign 0 to 1,3\n  reassign 1 to 2,3\n"), "brokers {1,2} (2 permutations)");
  EXPECT_EQ(symmetryOf(two_ways + "  add-partition replicas 3,1\n"), "none");
}

// Each broker's epochs become 1, 2, … in their order, wherever they are held, and the last zxid the
// most any broker holds; −1 stays.
TEST(Symmetry, BrokerEpochsAreRenumberedBrokerByBrokerInTheirOrder) {
  Observation world;
  world.zk.last_zxid = 9;
  world.zk.brokers[1] = BrokerRegistration{true, 7};
  world.brokers[1].broker_epoch = 7;
  world.brokers[1].inbox.push_back(ControlRequest{.broker_epoch = 4});  // a request for an earlier incarnation
  world.brokers[2].broker_epoch = 9;
  world.brokers[2].controller.context.live_broker_epochs[1] = 4;  // stale cache of broker 1
  world.brokers[2].controller.context.live_broker_epochs[2] = 9;
  world.brokers[2].controller.events.push_back(ControllerEvent{.kind = ControllerEventKind::AlterPartitionReceived,
                                                               .broker = 2, .broker_epoch = 2});
  ASSERT_TRUE(renumberBrokerEpochs(world));
  EXPECT_EQ(world.zk.brokers[1].broker_epoch, 2);  // broker 1 holds 4 and 7
  EXPECT_EQ(world.brokers[1].broker_epoch, 2);
  EXPECT_EQ(world.brokers[1].inbox.front().broker_epoch, 1);
  EXPECT_EQ(world.brokers[2].controller.context.live_broker_epochs[1], 1);
  EXPECT_EQ(world.brokers[2].broker_epoch, 2);  // broker 2 holds 2 and 9
  EXPECT_EQ(world.brokers[2].controller.context.live_broker_epochs[2], 2);
  EXPECT_EQ(world.brokers[2].controller.events.front().broker_epoch, 1);
  EXPECT_EQ(world.brokers[3].broker_epoch, -1);
  EXPECT_EQ(world.brokers[2].controller.context.live_broker_epochs[3], -1);
  EXPECT_EQ(world.zk.last_zxid, 2);
}

// An epoch the bitmask cannot hold (past 64, or past the last zxid) leaves the world as it was.
TEST(Symmetry, AnEpochOutOfRangeLeavesTheWorldUnrenumbered) {
  Observation world;
  world.zk.last_zxid = 70;
  world.brokers[1].broker_epoch = 70;
  const Observation before = world;
  EXPECT_FALSE(renumberBrokerEpochs(world));
  EXPECT_TRUE(world == before);
  world.zk.last_zxid = 5;
  world.brokers[1].broker_epoch = 6;  // newer than the last zxid: not a state the rules make
  const Observation inconsistent = world;
  EXPECT_FALSE(renumberBrokerEpochs(world));
  EXPECT_TRUE(world == inconsistent);
}

}  // namespace
}  // namespace kcspec
