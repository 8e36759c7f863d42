// GridSystem: a system with next to no rules, for the checker alone. bench/ measures the
// explorer's own cost per state on it (the checker's ceiling: no system with the same state
// count, successors per state and encoding size explores faster); tests/explorer checks the
// explorer's counts on it against formulas.
//
// A state is kCounters counters, each 0 … max_count; action i increments counter i (enabled
// while it is below max_count). The state graph is a grid: (m + 1)^k states for m = max_count
// and k = kCounters, k·m·(m + 1)^(k−1) transitions (each of the k counters steps m times for each
// value of the others), and k·m the deepest level. A state encodes as `encoding_bytes` bytes
// (the counters every 64 bytes, zeros between), hashed with the spec's fingerprint (xxHash64 of
// the encoding). One state safety property (the counters stay in range) and one liveness goal
// (counter 0 reaches max_count; recovery actions: incrementing counter 0) make the checker do
// its whole work.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "proofs/explorer/state_codec.hpp"
#include "proofs/explorer/system.hpp"
#include "spec/vocabulary/assert.hpp"

namespace kcspec::explorer {

class GridSystem {
 public:
  static constexpr int kCounters = 4;
  struct State {
    std::array<std::uint8_t, kCounters> counters{};
    friend bool operator==(const State&, const State&) = default;
  };
  using Action = int;  // the counter it increments
  using Observation = State;

  GridSystem(int max_count, std::size_t encoding_bytes) : max_count_(max_count), encoding_bytes_(encoding_bytes) {
    KCSPEC_ASSERT(max_count > 0 && max_count < 256);
    KCSPEC_ASSERT(encoding_bytes >= kCounters);
  }

  // (m + 1)^k and k·m·(m + 1)^(k−1), as the header says.
  std::uint64_t stateCount() const { return power(max_count_ + 1, kCounters); }
  std::uint64_t transitionCount() const {
    return std::uint64_t{kCounters} * static_cast<std::uint64_t>(max_count_) * power(max_count_ + 1, kCounters - 1);
  }

  std::string_view name() const { return "grid"; }
  std::vector<State> initialStates() const { return {State{}}; }
  void actions(const State& state, std::vector<Action>& out) const {
    for (int i = 0; i < kCounters; ++i) {
      if (state.counters[static_cast<std::size_t>(i)] < max_count_) out.push_back(i);
    }
  }
  State next(const State& state, const Action& action, PropertyMask&) const {
    State successor = state;
    ++successor.counters[static_cast<std::size_t>(action)];
    return successor;
  }
  Fingerprint fingerprint(const State& state) const {
    std::string bytes;
    encode(state, bytes);
    return hashEncoding(bytes);
  }
  // The counters, then the filler: the counters again every 64 bytes, zeros between.
  void encode(const State& state, std::string& out) const {
    const std::size_t start = out.size();
    out.resize(start + encoding_bytes_);
    for (std::size_t at = 0; at + kCounters <= encoding_bytes_; at += 64) {
      std::memcpy(out.data() + start + at, state.counters.data(), kCounters);
    }
  }
  State decode(std::string_view bytes) const {
    KCSPEC_ASSERT(bytes.size() == encoding_bytes_);
    State state;
    for (std::size_t i = 0; i < kCounters; ++i) state.counters[i] = static_cast<std::uint8_t>(bytes[i]);
    return state;
  }
  // The fast paths the spec's system has (system.hpp), so that the explorer takes the same road.
  Fingerprint encodeFingerprinted(const State& state, std::string& out) const {
    const std::size_t start = out.size();
    encode(state, out);
    return hashEncoding(std::string_view(out).substr(start));
  }
  void decodeInto(std::string_view bytes, State& state) const { state = decode(bytes); }
  void nextInto(const State& state, const Action& action, PropertyMask& violated, State& successor) const {
    successor = next(state, action, violated);
  }
  const Observation& observe(const State& state) const { return state; }
  std::span<const PropertyInfo> properties() const { return kProperties; }
  PropertyMask violatedStateProperties(const State& state) const {
    const bool in_range = std::all_of(state.counters.begin(), state.counters.end(),
                                      [this](std::uint8_t c) { return c <= max_count_; });
    return in_range ? 0 : propertyBit(0);
  }
  PropertyMask goalsReached(const State& state) const {
    return state.counters[0] == max_count_ ? propertyBit(1) : 0;
  }
  bool isRecovery(const Action& action) const { return action == 0; }

 private:
  static constexpr std::array<PropertyInfo, 2> kProperties{{
      {"C1", "CountersInRange", PropertyKind::StateSafety},
      {"C2", "CounterZeroReachesMax", PropertyKind::Liveness},
  }};
  static std::uint64_t power(int base, int exponent) {
    std::uint64_t result = 1;
    for (int i = 0; i < exponent; ++i) result *= static_cast<std::uint64_t>(base);
    return result;
  }

  int max_count_;
  std::size_t encoding_bytes_;
};

static_assert(System<GridSystem> && EncodesFingerprinted<GridSystem> &&
              DecodesInto<GridSystem> && StepsInto<GridSystem>);

}  // namespace kcspec::explorer
