// The symmetries of a configuration: the permutations of its brokers under which the
// configuration is the same up to the names of its topics and the numbering of its partitions
// (issue 27, item 2). A permutation σ is one when it keeps the brokers alive at start, and maps
// every topic to a topic that is alike — the same flags, and for each partition another partition
// whose replicas are σ of its replicas, in the same preference order, with σ of its reassignment
// targets; the partitions `add-partitions` appends map in their order.
//
// `kcspec explore --reduction full` reduces the spec's search by this group (the permutations
// that keep topics and partitions, the ones `relabelled` applies to): a state is fingerprinted as
// the least encoding of its images, after its broker epochs are renumbered (below), and the search
// keeps the first state of each class it meets (proofs/explorer/canonical_fingerprint.hpp). What
// that rests on is checked over every reachable state of small symmetric configurations, as the
// independence relation of partial-order reduction is (tests/explorer/symmetry_relabelling_test.cpp):
// the rules treat such brokers alike — two states that differ by the relabelling have the same
// futures, relabelled — and look at broker epochs only through comparisons between epochs of the
// same broker and through "a new registration's epoch exceeds every epoch so far".
//
// Why the renumbering: a broker's epoch is the czxid of its registration znode (ZooKeeper's
// creation order), and the brokers alive at start register in id order, so the relabelled initial
// state — broker 3 with broker 1's epoch — is not the initial state, and a search that
// fingerprints states up to the group alone merges almost nothing (tried in session 21: electing
// broker 1 and electing broker 3 in a three-broker configuration without topics stayed two
// classes). Renumbering each broker's epochs to 1, 2, … in their order makes those classes one.
// The presets other than `spare-brokers` have no symmetry: each assignment list is ordered, and no
// broker permutation maps their lists onto lists of the configuration (their test says so).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "spec/vocabulary/action.hpp"
#include "spec/vocabulary/config.hpp"
#include "spec/vocabulary/ids.hpp"
#include "spec/vocabulary/observation.hpp"

namespace kcspec {

// A permutation of broker ids: `to[b]` is b's image (ids outside the configuration map to themselves).
struct BrokerPermutation {
  std::array<BrokerId, kMaxBrokers> to{};
  BrokerId operator()(BrokerId b) const { return isBrokerId(b) ? to[static_cast<std::size_t>(b)] : b; }
  bool isIdentity() const;
};

struct ConfigSymmetry {
  std::vector<BrokerPermutation> permutations;  // the group, the identity first
  std::vector<std::vector<BrokerId>> orbits;    // brokers that some permutation exchanges, ascending; fixed ones left out
};

// The group of `config` (at most 8! permutations are tried).
ConfigSymmetry configSymmetry(const Config& config);

// The world and an action with every broker id relabelled by `sigma` (topics and partitions kept):
// arrays indexed by broker move to the image's slot, ids in lists are replaced in place (their order
// kept), sets are relabelled. A permutation of the group that relabels no topic or partition maps
// a reachable state's successors onto the relabelled state's successors; that is what
// tests/explorer/symmetry_relabelling_test.cpp checks over every reachable state of small symmetric
// configurations. (Permutations that also renumber partitions or exchange topics need the world's
// topic and partition slots relabelled too: not written yet.)
Observation relabelled(const Observation& world, const BrokerPermutation& sigma);
void relabel(Observation& world, const BrokerPermutation& sigma);  // the same, in place
Action relabelled(const Action& action, const BrokerPermutation& sigma);

// Whether `sigma` belongs to the group with every topic and partition mapped to itself (the
// permutations `relabelled` applies to as it is).
bool keepsTopicsAndPartitions(const Config& config, const BrokerPermutation& sigma);

// Each broker's epochs renumbered 1, 2, … in their order, broker by broker (−1 stays −1), and the
// last zxid set to the most epochs any broker holds, so that a new registration still exceeds
// every epoch: a state the rules cannot tell from `world` (only comparisons between one broker's
// epochs and "newer than every epoch" read them), the same for every registration history that
// leaves the same order per broker. False, with `world` unchanged, when an epoch lies outside
// 1 … 64 or past the last zxid (not renumbered: the state keeps its own class).
bool renumberBrokerEpochs(Observation& world);

// "none", or "brokers {1,2,3} (6 permutations)" / "brokers {1,2} {3,4} (4 permutations)".
std::string symmetryText(const ConfigSymmetry& symmetry);

}  // namespace kcspec
