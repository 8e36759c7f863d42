// `kcspec replay FILE [--json]`: runs a scenario file through the spec and prints what each step
// changed in the observation.
#pragma once

#include <string>

#include "cli/command.hpp"

namespace kcspec::cli {

// Prints, for each step, `step N (file:line): <action>` and its changes (`  path: before -> after`),
// then a line `  VIOLATES <id> <name>` for each safety property of the catalog the step breaks
// (its step properties, and the state properties that held before it and fail after it), with
// ` (a known Kafka deviation)` for those; or with `json` one object per step and line:
//   {"step":N,"line":L,"action":"…","changes":[{"path":…,"before":…,"after":…}],
//    "violates":[{"property":…,"name":…,"known_kafka_deviation":…}]}
// (null for an absent value; "violates" only when the step breaks one). Liveness is not judged:
// a path alone cannot show that recovery never reaches a goal. Returns the exit status: 0 when
// every step ran and broke nothing but known Kafka deviations; 1 when a step is not enabled
// (reported on stderr as `file:line: action not enabled in this state: <action>`, after the
// steps before it) or broke another property. Throws UserError (unreadable file) or TextError
// (bad scenario).
int replayScenario(const std::string& file, bool json);

// Adds `replay` to `app` (see command.hpp).
CommandRun addReplayCommand(CLI::App& app);

}  // namespace kcspec::cli
