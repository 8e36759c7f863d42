// Symmetry reduction (`kcspec explore --reduction full`, docs/proofs.md "Symmetry reduction"):
// the fingerprint of a state's class under the configuration's broker symmetries
// (spec/vocabulary/symmetry.hpp) — the xxHash64 of the least encoding, byte-wise, among the
// state's images under the group's permutations that keep topics and partitions, each taken
// after the broker epochs are renumbered (renumberBrokerEpochs); only the images that order the
// brokers' id-free signatures (liveness, epochs, queue lengths, …) the least way are encoded,
// which leaves one in most states. Two states get the same
// fingerprint exactly when one is a relabelling of the other up to that renumbering, which the
// rules cannot tell apart; the explorer then keeps the first state of the class it meets and its
// own path, so every counterexample is a real history.
#pragma once

#include <string>
#include <vector>

#include "proofs/explorer/state_codec.hpp"
#include "proofs/explorer/system.hpp"
#include "spec/vocabulary/config.hpp"
#include "spec/vocabulary/observation.hpp"
#include "spec/vocabulary/symmetry.hpp"

namespace kcspec::explorer {

class CanonicalFingerprint {
 public:
  explicit CanonicalFingerprint(const Config& config);

  // The group's permutations besides the identity (none: the configuration has no symmetry
  // that keeps topics and partitions, and the fingerprint is the plain one).
  const std::vector<BrokerPermutation>& permutations() const { return permutations_; }

  Fingerprint operator()(const Observation& world, const Bounds& budget) const;

 private:
  StateShape shape_;
  std::vector<BrokerId> brokers_;                  // the shape's, ascending
  std::vector<BrokerPermutation> permutations_;
  std::vector<BrokerPermutation> inverses_;        // of permutations_, position by position
};

}  // namespace kcspec::explorer
