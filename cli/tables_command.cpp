// `kcspec tables [--json]`: both lifecycles' transition tables, read from the Boost.MSM types.
#include <fmt/format.h>

#include <memory>

#include "cli/command.hpp"
#include "docs/generator/lifecycle_tables.hpp"

namespace kcspec::cli {

using namespace docs;  // the generator (docs/generator/) renders what this command prints

CommandRun addTablesCommand(CLI::App& app) {
  auto json = std::make_shared<bool>(false);
  auto* command = app.add_subcommand("tables", "Print both lifecycles' transition tables, read from the Boost.MSM types");
  command->add_flag("--json", *json, "One line of JSON: {\"partition\":[[from,to],...],\"replica\":[...]}");
  return [json] {
    fmt::print("{}", *json ? tablesJson() : tablesText());
    return 0;
  };
}

}  // namespace kcspec::cli
