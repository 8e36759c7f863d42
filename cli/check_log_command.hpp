// `kcspec check-log`'s two renderings of a report (text for people, one JSON object for tools).
#pragma once

#include <string>

#include "proofs/conformance/log_checker.hpp"

namespace kcspec::cli {

// Findings as `FILE:LINE: kind: message`, then one line per partition, then the totals.
std::string checkLogText(const conformance::CheckReport& report);

// Exactly one object and a newline:
// {"files":N,"lines":N,"parsed":N,"unparsed":N,"findings":[{"file":…,"line":N,"kind":…,"message":…}]}
std::string checkLogJson(const conformance::CheckReport& report);

}  // namespace kcspec::cli
