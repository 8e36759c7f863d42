// The symmetries of a configuration: the permutations of its brokers under which the
// configuration is the same up to the names of its topics and the numbering of its partitions
// (issue 27, item 2). A permutation σ is one when it keeps the brokers alive at start, and maps
// every topic to a topic that is alike — the same flags, and for each partition another partition
// whose replicas are σ of its replicas, in the same preference order, with σ of its reassignment
// targets; the partitions `add-partitions` appends map in their order.
//
// This is the group the explorer's symmetry reduction is to use; today it is computed and printed
// in explore's header only: the search does not reduce by it yet. What a reduction would rest on —
// that the rules treat such brokers alike, two states that differ by the relabelling having the
// same futures, relabelled — is checked over every reachable state of small symmetric
// configurations for the permutations that keep topics and partitions
// (tests/explorer/symmetry_relabelling_test.cpp; the spec passes), as the independence relation of
// partial-order reduction is.
//
// What that check does not give: classes that merge in reachable states. A broker's epoch is the
// czxid of its registration znode (ZooKeeper's creation order), and the brokers alive at start
// register in id order, so the relabelled initial state — broker 3 with broker 1's epoch — is not
// the initial state, and a search that fingerprints states up to this group alone merges almost
// nothing (tried in session 21: electing broker 1 and electing broker 3 in a three-broker
// configuration without topics stay two classes). A symmetry reduction must also take epochs and
// zxids up to an order-preserving renumbering, or start from every registration order. The presets have no symmetry:
// each assignment list is ordered, and no broker permutation maps their lists onto lists of the
// configuration (their test says so).
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
Action relabelled(const Action& action, const BrokerPermutation& sigma);

// Whether `sigma` belongs to the group with every topic and partition mapped to itself (the
// permutations `relabelled` applies to as it is).
bool keepsTopicsAndPartitions(const Config& config, const BrokerPermutation& sigma);

// "none", or "brokers {1,2,3} (6 permutations)" / "brokers {1,2} {3,4} (4 permutations)".
std::string symmetryText(const ConfigSymmetry& symmetry);

}  // namespace kcspec
