// kcspec: argument parsing and output only; the work lives in the layers.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/docs_command.hpp"
#include "cli/files.hpp"
#include "cli/lifecycle_tables.hpp"

int main(int argc, char** argv) {
  using namespace kcspec::cli;
  CLI::App app{"kcspec: a checked model and reference implementation of Kafka's ZooKeeper-mode controller"};
  app.set_version_flag("--version", "kcspec 0.1.0");
  app.require_subcommand(1);

  bool tables_json = false;
  auto* tables = app.add_subcommand("tables", "Print both lifecycles' transition tables, read from the Boost.MSM types");
  tables->add_flag("--json", tables_json, "One line of JSON: {\"partition\":[[from,to],...],\"replica\":[...]}");

  std::string docs_dir = "docs";
  bool docs_check = false;
  auto* docs = app.add_subcommand("docs", "Generate the spec pages under docs/ from the code");
  docs->add_option("--dir", docs_dir, "The docs folder")->capture_default_str();
  docs->add_flag("--check", docs_check, "Exit 1 if the pages on disk differ from what the code generates");

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
    if (tables->parsed()) {
      fmt::print("{}", tables_json ? tablesJson() : tablesText());
      return 0;
    }
    if (docs->parsed()) return docs_check ? checkDocs(docs_dir) : writeDocs(docs_dir);
  } catch (const UserError& e) {
    fmt::print(stderr, "kcspec: {}\n", e.what());
    return 2;
  }
  return 2;
}
