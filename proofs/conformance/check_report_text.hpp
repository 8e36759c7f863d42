// A log check's report, rendered: text for people and one JSON object for tools (what
// `kcspec check-log` prints, docs/conformance.md).
#pragma once

#include <string>
#include <string_view>

#include "proofs/conformance/log_checker.hpp"

namespace kcspec::conformance {

// Findings as `FILE:LINE: kind: message`, then one line per partition, then the totals.
std::string checkReportText(const CheckReport& report);

// Exactly one object and a newline:
// {"files":N,"lines":N,"parsed":N,"unparsed":N,"findings":[{"file":…,"line":N,"kind":…,"message":…}]}
std::string checkReportJson(const CheckReport& report);

// Log text made safe for a terminal: control and non-ASCII bytes as \xNN.
std::string printable(std::string_view text);

}  // namespace kcspec::conformance
