// Starting from a given world (given_start.hpp).
#include "proofs/conformance/given_start.hpp"

#include <fmt/format.h>

#include <array>

#include "spec/rules/invariants.hpp"
#include "spec/rules/step.hpp"
#include "spec/vocabulary/config_text.hpp"
#include "spec/vocabulary/text_error.hpp"

namespace kcspec::conformance {
namespace {

std::string_view ruleStatement(std::string_view id) {
  for (const GivenRule& rule : kGivenRules) {
    if (rule.id == id) return rule.statement;
  }
  return "";
}

}  // namespace

spec::ClusterState givenStartingState(const Config& config, const Given& given, std::string_view file,
                                      std::vector<GivenWorldBreak>& breaks, std::string_view unchecked_hint) {
  breaks.clear();
  spec::ClusterState state = spec::givenState(config, given.world);
  for (const GivenBreak& b : given.breaks) {
    breaks.push_back(GivenWorldBreak{std::string(b.rule), std::string(ruleStatement(b.rule)), b.line, b.message, false});
  }
  for (std::string_view id : spec::violatedStateProperties(config, state)) {
    const spec::Property* property = spec::catalogProperty(id);
    const bool known = spec::isKnownKafkaDeviation(id);
    if (!given.unchecked && !known) {
      throw TextError(file, given.line,
                      fmt::format("the given world breaks {} ({}); {}", id, property != nullptr ? property->name : "",
                                  unchecked_hint));
    }
    breaks.push_back(GivenWorldBreak{std::string(id), property != nullptr ? std::string(property->name) : "", given.line,
                                     "", known});
  }
  return state;
}

Given givenFromJson(const Config& config, const nlohmann::ordered_json& observation, bool unchecked,
                    std::string_view file, int line, std::string_view unchecked_hint) {
  // given_text.hpp reads `given json` from the section's lines: the document as one line. It is
  // read as unchecked, so that the rule it breaks is reported here with this format's hint.
  const std::string document = observation.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  const std::array<text::SourceLine, 1> lines = {text::SourceLine{line, document}};
  const std::array<std::string_view, 2> arguments = {"json", "unchecked"};
  Given given = parseGiven(config, lines, arguments, file, line);
  given.unchecked = unchecked;
  if (!unchecked && !given.breaks.empty()) {
    const GivenBreak& first = given.breaks.front();
    throw TextError(file, line,
                    fmt::format("the given world breaks {} ({}): {}; {}", first.rule, ruleStatement(first.rule),
                                first.message, unchecked_hint));
  }
  return given;
}

}  // namespace kcspec::conformance
