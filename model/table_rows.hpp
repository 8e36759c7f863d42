// The rows of an MSM transition_table as constexpr data, derived from the types themselves:
// the mpl::vector of Rows is folded into a Boost.Mp11 list, and each Row's Source/Target tags
// become one Transition. proofs/compile_time reasons over these arrays with static_assert.
#pragma once

#include <array>
#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/list.hpp>
#include <boost/mpl/fold.hpp>

#include "spec/vocabulary/states.hpp"

namespace kcspec::model {

namespace detail {
struct PushBackRow {
  template <class List, class Row>
  struct apply {
    using type = boost::mp11::mp_push_back<List, Row>;
  };
};

template <class State, class... Rows>
constexpr std::array<Transition<State>, sizeof...(Rows)> rowsToTransitions(boost::mp11::mp_list<Rows...>) {
  return {{Transition<State>{Rows::Source::kind, Rows::Target::kind}...}};
}

template <class... Rows>
constexpr bool eventsNameTheirTargets(boost::mp11::mp_list<Rows...>) {
  return ((Rows::Evt::target == Rows::Target::kind) && ...);
}
}  // namespace detail

// The transition_table of Def as an Mp11 list of Rows.
template <class Def>
using RowList = typename boost::mpl::fold<typename Def::transition_table, boost::mp11::mp_list<>,
                                          detail::PushBackRow>::type;

// Every (source → target) pair of Def's transition_table, in row order.
template <class Def>
inline constexpr auto kMsmTransitions =
    detail::rowsToTransitions<typename Def::StateEnum>(RowList<Def>{});

// True when every Row's event is MoveTo<T> with T its target state.
template <class Def>
inline constexpr bool kEventsNameTheirTargets = detail::eventsNameTheirTargets(RowList<Def>{});

// The state the machine starts in.
template <class Def>
inline constexpr auto kInitialState = Def::initial_state::kind;

}  // namespace kcspec::model
