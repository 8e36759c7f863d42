// The Boost.MSM back-ends behind model/lifecycle.hpp.
//
// MSM has no public way to place a machine in an arbitrary state, so each lifecycle keeps one
// prototype machine parked in every state, each reached from the initial state by replaying
// the shortest path of MoveTo events through MSM itself. A request copies the prototype of the
// current state (a few bytes) and processes MoveTo<target> on the copy.
#include "model/lifecycle.hpp"

#include <array>
#include <boost/mpl/for_each.hpp>
#include <boost/mpl/placeholders.hpp>
#include <boost/msm/back/state_machine.hpp>
#include <boost/type_traits/add_pointer.hpp>
#include <type_traits>
#include <utility>

#include "model/partition_lifecycle.hpp"
#include "model/replica_lifecycle.hpp"
#include "spec/vocabulary/assert.hpp"

namespace kcspec::model {
namespace {

template <class Def>
std::vector<Transition<typename Def::StateEnum>> walkTable() {
  using State = typename Def::StateEnum;
  std::vector<Transition<State>> rows;
  boost::mpl::for_each<typename Def::transition_table, boost::add_pointer<boost::mpl::_1>>(
      [&rows](auto* row) {
        using Row = std::remove_pointer_t<decltype(row)>;
        rows.push_back(Transition<State>{Row::Source::kind, Row::Target::kind});
      });
  return rows;
}

template <class Def>
class Oracle {
  using State = typename Def::StateEnum;
  using Machine = boost::msm::back::state_machine<Def>;
  static constexpr std::size_t kStateCount = StateTraits<State>::count;

 public:
  Oracle() {
    const std::vector<Transition<State>> rows = walkTable<Def>();
    for (State state : StateTraits<State>::all) {
      Machine& machine = prototypes_[stateIndex(state)];
      machine.start();
      for (State step : shortestPath(rows, state)) {
        dispatch(machine, step, std::make_index_sequence<kStateCount>{});
        KCSPEC_ASSERT(!machine.rejected);
      }
      msm_id_[stateIndex(state)] = machine.current_state()[0];
    }
    for (std::size_t i = 0; i < kStateCount; ++i) {
      for (std::size_t j = i + 1; j < kStateCount; ++j) KCSPEC_ASSERT(msm_id_[i] != msm_id_[j]);
    }
  }

  MoveOutcome<State> move(State current, State target) const {
    Machine machine = prototypes_[stateIndex(current)];
    machine.rejected = false;
    dispatch(machine, target, std::make_index_sequence<kStateCount>{});
    const State after = stateOfMsmId(machine.current_state()[0]);
    KCSPEC_ASSERT(!machine.rejected || after == current);  // a rejected request changes nothing
    return MoveOutcome<State>{current, after, !machine.rejected};
  }

 private:
  // Processes MoveTo<target> — the runtime target selects the event type.
  template <std::size_t... I>
  static void dispatch(Machine& machine, State target, std::index_sequence<I...>) {
    constexpr auto& all = StateTraits<State>::all;
    ((target == all[I] ? static_cast<void>(machine.process_event(MoveTo<all[I]>{})) : void()), ...);
  }

  // The targets to request, in order, to go from the initial state to `goal` (breadth-first).
  static std::vector<State> shortestPath(const std::vector<Transition<State>>& rows, State goal) {
    constexpr State kUnset = StateTraits<State>::initial;
    std::array<bool, kStateCount> seen{};
    std::array<State, kStateCount> parent{};
    parent.fill(kUnset);
    std::array<State, kStateCount> queue{};
    std::size_t head = 0, tail = 0;
    queue[tail++] = StateTraits<State>::initial;
    seen[stateIndex(StateTraits<State>::initial)] = true;
    while (head < tail) {  // bounded: each state is queued at most once
      const State at = queue[head++];
      for (const Transition<State>& row : rows) {
        if (row.from != at || seen[stateIndex(row.to)]) continue;
        seen[stateIndex(row.to)] = true;
        parent[stateIndex(row.to)] = at;
        queue[tail++] = row.to;
      }
    }
    KCSPEC_ASSERT(seen[stateIndex(goal)]);  // proven at compile time: every state is reachable
    std::vector<State> path;
    for (State at = goal; at != StateTraits<State>::initial; at = parent[stateIndex(at)]) {
      path.insert(path.begin(), at);
      KCSPEC_ASSERT(path.size() <= kStateCount);
    }
    return path;
  }

  State stateOfMsmId(int id) const {
    for (std::size_t i = 0; i < kStateCount; ++i) {
      if (msm_id_[i] == id) return StateTraits<State>::all[i];
    }
    KCSPEC_ASSERT(false && "MSM reported a state id that no prototype holds");
    return StateTraits<State>::initial;
  }

  std::array<Machine, kStateCount> prototypes_{};
  std::array<int, kStateCount> msm_id_{};
};

const Oracle<PartitionLifecycleDef>& partitionOracle() {
  static const Oracle<PartitionLifecycleDef> oracle;
  return oracle;
}

const Oracle<ReplicaLifecycleDef>& replicaOracle() {
  static const Oracle<ReplicaLifecycleDef> oracle;
  return oracle;
}

}  // namespace

MoveOutcome<PartitionState> requestMove(PartitionState current, PartitionState target) {
  return partitionOracle().move(current, target);
}

MoveOutcome<ReplicaState> requestMove(ReplicaState current, ReplicaState target) {
  return replicaOracle().move(current, target);
}

std::vector<Transition<PartitionState>> partitionTableFromMsm() {
  return walkTable<PartitionLifecycleDef>();
}

std::vector<Transition<ReplicaState>> replicaTableFromMsm() {
  return walkTable<ReplicaLifecycleDef>();
}

}  // namespace kcspec::model
