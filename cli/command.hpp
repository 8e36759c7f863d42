// How a kcspec subcommand plugs into the executable: it declares its flags on a CLI11
// subcommand and returns the function that runs it (returning the exit status). main.cpp lists
// every command once, in the order `kcspec --help` shows them.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace kcspec::cli {

using CommandRun = std::function<int()>;

// Each command: `CommandRun addXCommand(CLI::App& app);` — adds the subcommand, keeps its options
// in state owned by the returned function.
CommandRun addTablesCommand(CLI::App& app);
CommandRun addDocsCommand(CLI::App& app);
CommandRun addExploreCommand(CLI::App& app);
CommandRun addCheckLogCommand(CLI::App& app);
CommandRun addCheckTraceCommand(CLI::App& app);  // cli/check_trace_command.cpp
CommandRun addTraceCommand(CLI::App& app);       // cli/trace_command.cpp
CommandRun addItfCommand(CLI::App& app);         // cli/trace_command.cpp
CommandRun addMutantsCommand(CLI::App& app);
CommandRun addProveCommand(CLI::App& app);
CommandRun addDriveCommand(CLI::App& app);  // cli/drive_command.cpp
CommandRun addSutCommand(CLI::App& app);    // cli/sut_command.cpp
CommandRun addCheckZkCommand(CLI::App& app);        // cli/check_zk_command.cpp
CommandRun addRunControllerCommand(CLI::App& app);  // cli/run_controller_command.cpp
CommandRun addSuiteCommand(CLI::App& app);          // cli/suite_command.cpp

}  // namespace kcspec::cli
