// kcspec: argument parsing and output only; the work lives in the layers.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <new>
#include <utility>
#include <vector>

#include "cli/command.hpp"
#include "cli/files.hpp"
#include "cli/replay_command.hpp"
#include "cli/run_folder.hpp"
#include "spec/vocabulary/capacity.hpp"
#include "spec/vocabulary/text_error.hpp"

int main(int argc, char** argv) {
  using namespace kcspec::cli;
  setCommandLine(argc, argv);
  CLI::App app{"kcspec: a checked model and reference implementation of Kafka's ZooKeeper-mode controller"};
  app.set_version_flag("--version", "kcspec 0.1.0");
  app.require_subcommand(1);

  // Every command, once. Each returns the function that runs it if it was chosen.
  std::vector<std::pair<CLI::App*, CommandRun>> commands;
  auto add = [&](CommandRun run) { commands.emplace_back(app.get_subcommands([](CLI::App*) { return true; }).back(), std::move(run)); };
  add(addTablesCommand(app));
  add(addDocsCommand(app));
  add(addExploreCommand(app));
  add(addProveCommand(app));
  add(addReplayCommand(app));
  add(addSuiteCommand(app));
  add(addCheckLogCommand(app));
  add(addCheckTraceCommand(app));
  add(addTraceCommand(app));
  add(addItfCommand(app));
  add(addMutantsCommand(app));
  add(addDriveCommand(app));
  add(addSutCommand(app));
  add(addCheckZkCommand(app));
  add(addRunControllerCommand(app));

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    fmt::print(stderr, "kcspec: {}\nRun `kcspec --help` for usage.\n", e.what());
    return 2;
  }

  try {
    for (auto& [subcommand, run] : commands) {
      if (subcommand->parsed()) return run();
    }
  } catch (const UserError& e) {
    fmt::print(stderr, "kcspec: {}\n", e.what());
    return 2;
  } catch (const kcspec::TextError& e) {  // bad input in a kcspec text format: file:line: message
    std::fflush(stdout);
    fmt::print(stderr, "{}\n", e.what());
    return 2;
  } catch (const std::filesystem::filesystem_error& e) {  // a folder or file the system refused
    std::fflush(stdout);
    fmt::print(stderr, "kcspec: {}\n", e.what());
    return 2;
  } catch (const kcspec::CapacityExceeded& e) {  // a history beyond the modeled world's bounds
    std::fflush(stdout);
    fmt::print(stderr, "kcspec: {}\n", e.what());
    return 2;
  } catch (const std::bad_alloc&) {
    std::fflush(stdout);
    fmt::print(stderr, "kcspec: out of memory (explore: --max-memory stops a run cleanly before it, --spill-dir "
                       "moves the frontier to disk)\n");
    return 2;
  }
  return 2;
}
