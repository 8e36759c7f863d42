// Valid-previous lists from the MSM tables (state_names.hpp).
#include "impl/controller/state_names.hpp"

#include <vector>

#include "model/lifecycle.hpp"

namespace kcspec::impl {
namespace {

template <class State>
std::string predecessors(State target) {
  static const std::vector<Transition<State>> table = model::tableFromMsm<State>();
  std::string out;
  for (const Transition<State>& row : table) {
    if (row.to != target) continue;
    if (!out.empty()) out += ',';
    out += stateName(row.from);
  }
  return out;
}

}  // namespace

std::string validPreviousStatesText(PartitionState target) { return predecessors(target); }
std::string validPreviousStatesText(ReplicaState target) { return predecessors(target); }

}  // namespace kcspec::impl
