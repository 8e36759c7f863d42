// Property: any random sequence of move requests applied to model/'s Boost.MSM lifecycle ends
// in the same state, request by request, as a plain walk of spec/'s valid-previous table.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "model/lifecycle.hpp"
#include "spec/vocabulary/valid_previous_states.hpp"

namespace kcspec {
namespace {

template <class State>
void walkMatchesPlainTable(const std::vector<std::size_t>& target_indexes, std::size_t start_index) {
  const State start = StateTraits<State>::all[start_index % StateTraits<State>::count];
  auto machine = model::Lifecycle<State>::restoredAt(start);
  State plain = start;
  std::size_t accepted = 0;
  for (std::size_t index : target_indexes) {
    const State target = StateTraits<State>::all[index % StateTraits<State>::count];
    const bool valid = isValidTransition(plain, target);
    if (valid) plain = target;
    const auto outcome = machine.request(target);
    RC_ASSERT(outcome.accepted == valid);
    RC_ASSERT(machine.current() == plain);
    accepted += outcome.accepted ? 1 : 0;
  }
  RC_CLASSIFY(accepted == 0, "no request accepted");
  RC_CLASSIFY(accepted > 0 && accepted < target_indexes.size(), "some accepted, some rejected");
}

RC_GTEST_PROP(PartitionLifecycleProperty, RandomRequestsMatchPlainWalk,
              (const std::vector<std::size_t>& targets, std::size_t start)) {
  walkMatchesPlainTable<PartitionState>(targets, start);
}

RC_GTEST_PROP(ReplicaLifecycleProperty, RandomRequestsMatchPlainWalk,
              (const std::vector<std::size_t>& targets, std::size_t start)) {
  walkMatchesPlainTable<ReplicaState>(targets, start);
}

}  // namespace
}  // namespace kcspec
