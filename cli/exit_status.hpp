// The exit statuses of kcspec's commands, in one place (README "Exit status" lists them; each
// command's --help names the ones it uses). A script can tell a finished check from one that
// stopped early: 3 is never "it holds".
#pragma once

#include <string_view>

namespace kcspec::cli {

inline constexpr int kExitHolds = 0;        // checked to the end: nothing violated, no finding
inline constexpr int kExitViolation = 1;    // a violation, a finding, a disagreement
inline constexpr int kExitBadInput = 2;     // bad input: file:line: message on stderr
inline constexpr int kExitIncomplete = 3;   // stopped before the end (a depth, memory or time limit) or nothing
                                            // checked, with nothing violated in what was checked
inline constexpr int kExitInterrupted = 130;  // Ctrl-C, SIGTERM or SIGHUP before any violation (partial report)

// The --help footer of a command that can end incomplete.
inline constexpr std::string_view kExitStatusFooter =
    "Exit status: 0 checked to the end, nothing violated; 1 a violation or finding; 2 bad input; "
    "3 incomplete (stopped by a limit, or nothing checked) with nothing violated in what was checked; "
    "130 interrupted (SIGINT, SIGTERM, SIGHUP) with the partial report.";

}  // namespace kcspec::cli
