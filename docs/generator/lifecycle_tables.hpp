// A lifecycle's transition table as the CLI and the docs present it, read from model/'s MSM
// types (model::tableFromMsm) — never from a second hand-written copy.
#pragma once

#include <string>
#include <vector>

#include "spec/vocabulary/states.hpp"

namespace kcspec::docs {

// The MSM Rows sorted by target, then source, both in Kafka's declaration order — the order of
// Kafka's own "target ← validPreviousStates" table.
template <class State>
std::vector<Transition<State>> sortedTable();

// {"partition":[["NonExistentPartition","NewPartition"],...],"replica":[...]} on one line.
std::string tablesJson();

// Both machines as "target ← valid previous states" and as a from×to matrix, for a terminal.
std::string tablesText();

// Markdown page and Graphviz source for one machine (docs/spec/<machine>-states.{md,dot}).
template <class State>
std::string lifecyclePage();
template <class State>
std::string lifecycleDot();

}  // namespace kcspec::docs
