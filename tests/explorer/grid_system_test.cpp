// The explorer on GridSystem (proofs/explorer/grid_system.hpp), a system whose state graph is a
// grid of four counters 0 … m: every count has a formula, so the checker's bookkeeping — the
// visited set and its growth, the batches, the overlapped merge, the depth limit, liveness — is
// checked against numbers computed by hand, without the spec's rules in between.
#include <gtest/gtest.h>

#include <cstdint>

#include "proofs/explorer/explorer.hpp"
#include "proofs/explorer/grid_system.hpp"

namespace kcspec::explorer {
namespace {

ExploreResult<GridSystem> run(const GridSystem& system, unsigned threads, ExploreOptions options = {}) {
  options.threads = threads;
  return explore(system, options);
}

// m = 3: 4^4 = 256 states; 4·3·4^3 = 768 transitions (each counter steps 3 times for each of the
// 4^3 values of the other three); the deepest state (3,3,3,3) is 4·3 = 12 steps away.
TEST(GridSystem, CountsAreTheFormulasOnEveryThreadCountAndBatchSize) {
  const GridSystem system(/*max_count=*/3, /*encoding_bytes=*/40);
  ASSERT_EQ(system.stateCount(), 256u);
  ASSERT_EQ(system.transitionCount(), 768u);
  for (const unsigned threads : {1u, 2u, 4u}) {
    for (const std::size_t batch_states : {std::size_t{0}, std::size_t{3}}) {
      ExploreOptions options;
      options.batch_states = batch_states;
      const auto result = run(system, threads, options);
      SCOPED_TRACE(testing::Message() << threads << " threads, batches of " << batch_states);
      EXPECT_TRUE(result.complete());
      EXPECT_EQ(result.states, 256u);
      EXPECT_EQ(result.transitions, 768u);
      EXPECT_EQ(result.max_depth, 12);
      EXPECT_TRUE(result.liveness_checked);
      EXPECT_TRUE(result.violations.empty());  // counter 0 can always be stepped to 3
    }
  }
}

// m = 20: 21^4 = 194,481 states and 4·20·21^3 = 740,880 transitions, depth 80 — enough for the
// visited set to grow many times, also while a batch is merged and the next one expanded (small
// batches). Past its first thousand states the table is 78–88 % full: at most 16 bytes a state.
TEST(GridSystem, TheTableGrowsUnderOverlappedMergesAndKeepsTheCounts) {
  const GridSystem system(/*max_count=*/20, /*encoding_bytes=*/64);
  ASSERT_EQ(system.stateCount(), 194'481u);
  ASSERT_EQ(system.transitionCount(), 740'880u);
  for (const unsigned threads : {1u, 2u}) {
    ExploreOptions options;
    options.batch_states = 64;
    const auto result = run(system, threads, options);
    SCOPED_TRACE(testing::Message() << threads << " threads");
    EXPECT_TRUE(result.complete());
    EXPECT_EQ(result.states, 194'481u);
    EXPECT_EQ(result.transitions, 740'880u);
    EXPECT_EQ(result.max_depth, 80);
    EXPECT_TRUE(result.violations.empty());
    EXPECT_LE(result.visited_bytes, 16 * result.states);
  }
}

// m = 3 cut at depth 5: the states whose counters sum to at most 5. By level (the coefficients of
// (1 + x + x² + x³)^4): 1, 4, 10, 20, 31, 40 — 106 states. Only levels 0–4 are expanded: each
// state has one successor per counter below 3, so 4 × (1 + 4 + 10) = 60 from levels 0–2, 20 × 4 − 4
// = 76 from level 3 (four states have a counter at 3) and 31 × 4 − 12 = 112 from level 4 (the
// twelve orderings of 3, 1, 0, 0): 248 transitions.
TEST(GridSystem, DepthLimitKeepsTheLevelsAboveIt) {
  const GridSystem system(/*max_count=*/3, /*encoding_bytes=*/40);
  ExploreOptions options;
  options.max_depth = 5;
  for (const unsigned threads : {1u, 2u}) {
    const auto result = run(system, threads, options);
    EXPECT_EQ(result.stop, StopReason::DepthLimit);
    EXPECT_EQ(result.states, 106u);
    EXPECT_EQ(result.transitions, 248u);
    EXPECT_EQ(result.max_depth, 5);
    EXPECT_FALSE(result.liveness_checked);
  }
}

}  // namespace
}  // namespace kcspec::explorer
