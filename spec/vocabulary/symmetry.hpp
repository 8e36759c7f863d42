// The symmetries of a configuration: the permutations of its brokers under which the
// configuration is the same up to the names of its topics and the numbering of its partitions
// (issue 27, item 2). A permutation σ is one when it keeps the brokers alive at start, and maps
// every topic to a topic that is alike — the same flags, and for each partition another partition
// whose replicas are σ of its replicas, in the same preference order, with σ of its reassignment
// targets; the partitions `add-partitions` appends map in their order.
//
// This is the group the explorer's symmetry reduction is to use; today it is computed and printed
// in explore's header only: the search does not reduce by it yet. Before it does, that the rules
// treat such brokers alike — that two states which differ by the relabelling have the same
// futures, relabelled — must be checked over reachable states, as the independence relation of
// partial-order reduction is (tests/explorer/reduction_test.cpp). The presets have no symmetry:
// each assignment list is ordered, and no broker permutation maps their lists onto lists of the
// configuration (their test says so).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "spec/vocabulary/config.hpp"
#include "spec/vocabulary/ids.hpp"

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

// "none", or "brokers {1,2,3} (6 permutations)" / "brokers {1,2} {3,4} (4 permutations)".
std::string symmetryText(const ConfigSymmetry& symmetry);

}  // namespace kcspec
