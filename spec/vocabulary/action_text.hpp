// An action's text form, one per line (scenarios and counterexamples are lists of them). The
// first word is the action's name (kActionNames); topics and partitions are named as the
// configuration names them, a partition as `<topic>-<partition>`:
//
//   create-topic <t>      delete-topic <t>      add-partitions <t>      enable-unclean <t>
//   reassign <t>-<p> <id>,<id>,…                cancel-reassignment <t>-<p>
//   elect-preferred <t>-<p>                     elect-unclean <t>-<p>
//   crash <b>    start <b>    controlled-shutdown <b>
//   shrink-isr <t>-<p> leader <b> remove <b>    expand-isr <t>-<p> leader <b> add <b>
//   process-event <b>    lose-controller-session <b>    notice-session-expiry <b>
//   elect-controller <b>    deliver-request <b>    deliver-stop-replica-response <b> [error]
//
// A parsed action names only brokers of the configuration's `brokers` and partitions the
// configuration can create (counting added ones); whether it is enabled is the spec's question.
// Fields an action does not use keep Action's defaults, so a parsed action compares equal to the
// one spec::enabledActions lists.
#pragma once

#include <string>
#include <string_view>

#include "spec/vocabulary/action.hpp"
#include "spec/vocabulary/config.hpp"
#include "spec/vocabulary/text_error.hpp"

namespace kcspec {

std::string printAction(const Config& config, const Action& action);

// One line (a trailing `#` comment is allowed); TextError at file:line_number otherwise.
Action parseAction(const Config& config, std::string_view line, std::string_view file, int line_number);

}  // namespace kcspec
