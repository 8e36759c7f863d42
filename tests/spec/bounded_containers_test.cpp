// BoundedVector and BrokerSet: the inline containers every state of the world is built from.
#include <gtest/gtest.h>

#include "spec/vocabulary/broker_set.hpp"
#include "spec/vocabulary/ids.hpp"

namespace kcspec {
namespace {

TEST(BoundedVector, KeepsOrderWhenRemoving) {
  BrokerList isr{3, 1, 2, 1};
  isr.remove(1);
  EXPECT_EQ(isr, (BrokerList{3, 2}));
  isr.erase_at(0);
  EXPECT_EQ(isr, (BrokerList{2}));
  EXPECT_TRUE(isr.contains(2));
  EXPECT_FALSE(isr.contains(3));
}

TEST(BoundedVector, EqualityIsOrderSensitiveAndIgnoresRemovedSlots) {
  BrokerList a{1, 2, 3};
  a.pop_back();
  EXPECT_EQ(a, (BrokerList{1, 2}));
  EXPECT_NE(a, (BrokerList{2, 1}));
  EXPECT_LT((BrokerList{1, 2}), (BrokerList{1, 3}));
}

TEST(BoundedVectorDeathTest, OverflowStopsTheProgram) {
  BoundedVector<int, 2> two{1, 2};
  EXPECT_DEATH(two.push_back(3), "invariant broken");
}

TEST(BrokerSet, SetAlgebraAndAscendingIteration) {
  BrokerSet live{5, 1, 3};
  const BrokerSet shutting_down{3};
  EXPECT_EQ(live.size(), 3);
  EXPECT_EQ(live - shutting_down, (BrokerSet{1, 5}));
  EXPECT_EQ((live & BrokerSet{1, 2}), (BrokerSet{1}));
  EXPECT_EQ((live | BrokerSet{2}), (BrokerSet{1, 2, 3, 5}));
  BrokerList order;
  live.forEach([&](BrokerId id) { order.push_back(id); });
  EXPECT_EQ(order, (BrokerList{1, 3, 5}));
  EXPECT_FALSE(live.contains(kNoLeader));
  live.erase(5);
  EXPECT_FALSE(live.contains(5));
}

}  // namespace
}  // namespace kcspec
