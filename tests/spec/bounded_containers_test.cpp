// BoundedVector, BoundedList and BrokerSet: the containers every state of the world is built from.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "spec/vocabulary/bounded_list.hpp"
#include "spec/vocabulary/capacity.hpp"
#include "spec/vocabulary/events.hpp"
#include "spec/vocabulary/requests.hpp"
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

// A push onto a full container is a history outgrowing the world (spec/vocabulary/capacity.hpp):
// CapacityExceeded names what was full and its capacity, and the container is left as it was.
template <class Container>
std::string overflowMessage(Container& full) {
  try {
    full.push_back(typename Container::value_type{});
  } catch (const CapacityExceeded& e) {
    EXPECT_EQ(e.capacity(), Container::capacity);
    return e.what();
  }
  ADD_FAILURE() << "no CapacityExceeded";
  return "";
}

TEST(BoundedVector, OverflowThrowsCapacityExceeded) {
  BoundedVector<int, 2> two{1, 2};
  EXPECT_NE(overflowMessage(two).find("more than 2 values"), std::string::npos);
  EXPECT_EQ(two, (BoundedVector<int, 2>{1, 2}));
  BoundedVector<LeaderAndIsrResponse, kMaxLeaderAndIsrResponsesPerBroker> responses;
  for (int i = 0; i < kMaxLeaderAndIsrResponsesPerBroker; ++i) responses.push_back(LeaderAndIsrResponse{});
  EXPECT_NE(overflowMessage(responses).find("more than 8 LeaderAndIsr responses on their way back from one broker "
                                            "(kMaxLeaderAndIsrResponsesPerBroker"),
            std::string::npos);
  EXPECT_EQ(responses.size(), static_cast<std::size_t>(kMaxLeaderAndIsrResponsesPerBroker));
}

using Entries = BoundedList<int, 8>;
using Queue = BoundedList<Entries, 4>;

TEST(BoundedList, KeepsOrderWhenRemovingAndErasing) {
  Entries list{3, 1, 2, 1, 4};
  list.remove(1);
  EXPECT_EQ(list, (Entries{3, 2, 4}));
  list.erase_at(1);
  EXPECT_EQ(list, (Entries{3, 4}));
  list.push_back(5);
  EXPECT_EQ(list, (Entries{3, 4, 5}));
  EXPECT_EQ(list.size(), 3u);
}

TEST(BoundedList, EqualityCopiesAndMovesSeeTheElementsNotTheSpares) {
  Entries spared{1, 2, 3, 4};
  spared.pop_back();
  spared.erase_at(0);  // two spares now hold 1 and 4
  EXPECT_EQ(spared, (Entries{2, 3}));
  const Entries copy = spared;
  EXPECT_EQ(copy, (Entries{2, 3}));
  Entries assigned{9, 9, 9, 9, 9};
  assigned = spared;
  EXPECT_EQ(assigned, (Entries{2, 3}));
  Entries moved = std::move(assigned);
  EXPECT_EQ(moved, (Entries{2, 3}));
  EXPECT_TRUE(assigned.empty());  // NOLINT(bugprone-use-after-move): a moved-from list is empty
  Entries target{7};
  target = std::move(moved);
  EXPECT_EQ(target, (Entries{2, 3}));
  EXPECT_TRUE(moved.empty());  // NOLINT(bugprone-use-after-move)
}

TEST(BoundedList, ResizeAppendsDefaultsEvenOverSpares) {
  Entries list{5, 6, 7};
  list.clear();
  list.resize(2);
  EXPECT_EQ(list, (Entries{0, 0}));
  Entries overwritten{5, 6, 7};
  overwritten.clear();
  overwritten.resize_for_overwrite(2);  // the caller assigns every element
  ASSERT_EQ(overwritten.size(), 2u);
  overwritten[0] = 1;
  overwritten[1] = 2;
  EXPECT_EQ(overwritten, (Entries{1, 2}));
}

// A queue stepped and put back (the explorer's scratch state, a broker's inbox) reuses an element
// taken off: its own list keeps its storage for the next push. Another allocation of the same size
// is held in between, so a list that freed the storage could not get it back by chance.
TEST(BoundedList, AnElementTakenOffKeepsItsStorageForTheNextPush) {
  Queue queue;
  queue.push_back(Entries{1, 2, 3});
  const int* storage = &queue[0][0];
  queue.erase_at(0);
  const std::vector<int> blocker(3, 0);
  queue.push_back(Entries{4, 5});
  EXPECT_EQ(&queue[0][0], storage);
  EXPECT_EQ(queue[0], (Entries{4, 5}));
  EXPECT_NE(blocker.data(), storage);

  Queue parent;
  parent.push_back(Entries{6, 7});
  parent.push_back(Entries{8});
  queue = parent;  // copies into the element and its spare first
  EXPECT_EQ(&queue[0][0], storage);
  EXPECT_EQ(queue, parent);
}

TEST(BoundedList, OverflowThrowsCapacityExceeded) {
  BoundedList<int, 2> two{1, 2};
  EXPECT_NE(overflowMessage(two).find("more than 2 values"), std::string::npos);
  EXPECT_EQ(two, (BoundedList<int, 2>{1, 2}));
  BoundedList<ControllerEvent, kMaxControllerEvents> events;
  for (int i = 0; i < kMaxControllerEvents; ++i) events.push_back(ControllerEvent{});
  EXPECT_NE(overflowMessage(events).find("more than 64 events queued for one controller (kMaxControllerEvents"),
            std::string::npos);
  BoundedList<ControlRequest, kMaxRequestsPerBroker> inbox;
  for (int i = 0; i < kMaxRequestsPerBroker; ++i) inbox.push_back(ControlRequest{});
  EXPECT_NE(overflowMessage(inbox).find("more than 1024 requests queued for one broker (kMaxRequestsPerBroker"),
            std::string::npos);
}

TEST(BoundedListDeathTest, ReadingPastTheEndStopsTheProgram) {
  BoundedList<int, 2> two{1, 2};
  two.pop_back();
  EXPECT_DEATH((void)two[1], "invariant broken");
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
