// `kcspec replay FILE [--json]`: runs a scenario file through the spec and prints what each step
// changed in the observation.
#pragma once

#include <string>

#include "cli/command.hpp"

namespace kcspec::cli {

// Prints, for each step, `step N (file:line): <action>` and its changes (`  path: before -> after`),
// or with `json` one object per step and line:
//   {"step":N,"line":L,"action":"…","changes":[{"path":…,"before":…,"after":…}]}
// (null for an absent value). Returns the exit status: 0 when every step ran; 1 when a step is
// not enabled (reported on stderr as `file:line: action not enabled in this state: <action>`,
// after the steps before it). Throws UserError (unreadable file) or TextError (bad scenario).
int replayScenario(const std::string& file, bool json);

// Adds `replay` to `app` (see command.hpp).
CommandRun addReplayCommand(CLI::App& app);

}  // namespace kcspec::cli
