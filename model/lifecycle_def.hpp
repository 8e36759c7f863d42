// The common shape of kcspec's two Boost.MSM lifecycles (functor front-end).
//
// Each lifecycle state is a StateNode tagged with its vocabulary enum value; each event is
// MoveTo<target>, Kafka's "handleStateChanges(..., target)" for one partition or replica. A
// request whose (current, target) pair has no Row is rejected by LifecycleDef::no_transition —
// never Boost's default, which is a silent no-op in release builds — and the state is left as
// it was (kafka.md §1.4).
#pragma once

#include <boost/msm/front/functor_row.hpp>
#include <boost/msm/front/state_machine_def.hpp>

namespace kcspec::model {

// The event "move to <target>".
template <auto Target>
struct MoveTo {
  static constexpr auto target = Target;
};

// A lifecycle state, tagged with its vocabulary value.
template <auto Kind>
struct StateNode : boost::msm::front::state<> {
  static constexpr auto kind = Kind;
};

template <auto Source, auto Target>
using Edge = boost::msm::front::Row<StateNode<Source>, MoveTo<Target>, StateNode<Target>>;

template <class Derived, class State>
struct LifecycleDef : boost::msm::front::state_machine_def<Derived> {
  using StateEnum = State;
  using no_exception_thrown = int;  // transitions have no actions that could throw
  using no_message_queue = int;     // events are never posted from inside a transition

  // Called by the back-end when the current state has no Row for the event: remember it so
  // the caller learns the request was rejected; the active state is untouched.
  template <class Fsm, class Event>
  void no_transition(Event const&, Fsm&, int) {
    rejected = true;
  }

  bool rejected = false;
};

}  // namespace kcspec::model
