// kafka.md Appendix A.6 as a table for the tests of both versions: one row per
// inter.broker.protocol.version where some request's version changes, with the version of each.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "spec/vocabulary/requests.hpp"

namespace kcspec::testing {

struct RequestVersionRow {
  const char* protocol;
  std::int16_t leader_and_isr, update_metadata, stop_replica;
};

inline constexpr RequestVersionRow kRequestVersionRows[] = {
    {"0.8.2", 0, 0, 0},      {"0.9.0", 0, 1, 0},   {"0.10.0-IV1", 0, 2, 0}, {"0.10.2-IV0", 0, 3, 0},
    {"1.0-IV0", 1, 4, 0},    {"2.1-IV2", 1, 4, 0}, {"2.2-IV0", 2, 5, 1},    {"2.4-IV0", 3, 5, 1},
    {"2.4-IV1", 4, 6, 2},    {"2.6-IV0", 4, 6, 3}, {"2.8-IV0", 4, 6, 3},    {"2.8-IV1", 5, 7, 3},
    {"3.2-IV0", 6, 7, 3},    {"3.3-IV3", 6, 7, 3}, {"3.4-IV0", 7, 8, 4},    {"3.8-IV0", 7, 8, 4},
};

// Broker b's queued requests of one kind (`run`: the spec's or the reference controller's test run).
template <class Run>
std::vector<ControlRequest> requestsOf(const Run& run, BrokerId b, RequestKind kind) {
  std::vector<ControlRequest> out;
  for (const ControlRequest& r : run.broker(b).inbox) {
    if (r.kind == kind) out.push_back(r);
  }
  return out;
}

// Every request of one kind in one broker's queue went out at `version`, and there is one.
inline void expectAllAtVersion(const std::vector<ControlRequest>& requests, std::int16_t version) {
  ASSERT_FALSE(requests.empty());
  for (const ControlRequest& r : requests) EXPECT_EQ(r.version, version);
}

}  // namespace kcspec::testing
