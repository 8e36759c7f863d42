// A run that starts from a given world (a scenario's `given` section, spec/vocabulary/given_text.hpp;
// a trace header's "given", docs/trace-format.md; `kcspec drive --scenario`): the spec's starting
// state, and the judgement every command that starts there makes of the world — the given
// section's rules G1–G9 and the state properties of the invariant catalog.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "spec/rules/cluster_state.hpp"
#include "spec/vocabulary/config.hpp"
#include "spec/vocabulary/given_text.hpp"

namespace kcspec::conformance {

// One rule a given world breaks: a rule of the given section (G1–G9) or a state property of the
// invariant catalog (S…), with the line it is reported at.
struct GivenWorldBreak {
  std::string id;
  std::string statement;
  int line = 0;
  std::string message;        // what breaks it (empty for a catalog property: the catalog says)
  bool known_kafka_deviation = false;
};

// The spec's state for `given` (spec::givenState), judged by the catalog's state properties: unless
// the given is unchecked, a property that fails in it (and is not a known Kafka deviation, which
// Kafka's own histories reach) throws TextError at the given's line naming it, followed by
// `unchecked_hint` (how to state it anyway, e.g. "`given unchecked` states it anyway"); `breaks`
// receives every rule the world breaks, the given's G rules first (with `unchecked`, the run goes on).
spec::ClusterState givenStartingState(const Config& config, const Given& given, std::string_view file,
                                      std::vector<GivenWorldBreak>& breaks, std::string_view unchecked_hint);

// A given world stated as observation JSON (a trace header's "given", the driver's `given`), read
// and judged as a scenario's `given json [unchecked]` at `line` of `file`: a broker or topic the
// configuration does not have, a member outside observation_json.hpp's schema, and (unless
// `unchecked`) a broken rule G1–G9 throw TextError "file:line: message", the last followed by
// `unchecked_hint`. Then pass it to givenStartingState for the catalog's judgement.
Given givenFromJson(const Config& config, const nlohmann::ordered_json& observation, bool unchecked,
                    std::string_view file, int line, std::string_view unchecked_hint);

}  // namespace kcspec::conformance
