// The state a scenario's steps start from: its `given` world (spec/vocabulary/given_text.hpp) or,
// without one, the configuration's initial state — and what the given world breaks.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "proofs/conformance/given_start.hpp"
#include "spec/rules/cluster_state.hpp"
#include "spec/vocabulary/scenario_text.hpp"

namespace kcspec::cli {

// One rule a given world breaks: a rule of the given section (G1–G9) or a state property of the
// invariant catalog (S…), with the line it is reported at.
using GivenWorldBreak = conformance::GivenWorldBreak;

// The spec's starting state of `scenario`. A given world is also judged by the catalog's state
// properties: without `unchecked`, a property that fails in it (and is not a known Kafka
// deviation, which Kafka's own histories reach) throws TextError at the `given` line naming it;
// with `unchecked`, `breaks` receives every rule it breaks, G rules first.
spec::ClusterState startingState(const Scenario& scenario, std::string_view file, std::vector<GivenWorldBreak>& breaks);
// The same for a scenario read a line at a time (ScenarioReader: its configuration and given).
spec::ClusterState startingState(const Config& config, const std::optional<Given>& given, std::string_view file,
                                 std::vector<GivenWorldBreak>& breaks);

// For the commands that run scenarios from the configuration's initial state with cluster actions
// only: a given section or a component action is a TextError at its line, saying that `kcspec
// replay` runs it (rather than a run from the wrong state).
void requireNoGiven(const std::optional<Given>& given, std::string_view file, std::string_view command);
void requireClusterScenario(const Scenario& scenario, std::string_view file, std::string_view command);
// For the commands that start from a given world but take cluster actions only (`kcspec drive
// --scenario`): a component action is a TextError at its line.
void requireNoComponentActions(const Scenario& scenario, std::string_view file, std::string_view command);

}  // namespace kcspec::cli
