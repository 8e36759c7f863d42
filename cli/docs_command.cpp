#include "cli/docs_command.hpp"

#include <fmt/format.h>

#include <memory>

#include "cli/command.hpp"

#include "cli/files.hpp"
#include "cli/lifecycle_tables.hpp"
#include "cli/proofs_page.hpp"

namespace kcspec::cli {
namespace {

template <class State>
void addLifecycle(std::vector<GeneratedFile>& files) {
  const std::string stem = fmt::format("spec/{}-states", StateTraits<State>::machine_name);
  const std::string dot = lifecycleDot<State>();
  files.push_back({stem + ".md", lifecyclePage<State>()});
  files.push_back({stem + ".dot", dot});
  files.push_back({stem + ".svg", runFilter("dot", {"-Tsvg"}, dot)});
}

}  // namespace

std::vector<GeneratedFile> generateDocs() {
  std::vector<GeneratedFile> files;
  addLifecycle<PartitionState>(files);
  addLifecycle<ReplicaState>(files);
  files.push_back({"proofs.md", proofsPage()});
  return files;
}

int writeDocs(const std::filesystem::path& docs_dir) {
  for (const GeneratedFile& file : generateDocs()) {
    writeFileAtomically(docs_dir / file.path, file.contents);
    fmt::print("wrote {}\n", (docs_dir / file.path).string());
  }
  return 0;
}

int checkDocs(const std::filesystem::path& docs_dir) {
  int stale = 0;
  const std::vector<GeneratedFile> files = generateDocs();
  for (const GeneratedFile& file : files) {
    const auto path = docs_dir / file.path;
    const auto on_disk = readFileIfExists(path);
    if (!on_disk) {
      fmt::print("{}: missing (run `kcspec docs`)\n", path.string());
      ++stale;
    } else if (*on_disk != file.contents) {
      fmt::print("{}: differs from what the code generates (run `kcspec docs`)\n", path.string());
      ++stale;
    }
  }
  if (stale == 0) fmt::print("docs up to date: {} generated files checked\n", files.size());
  return stale == 0 ? 0 : 1;
}

CommandRun addDocsCommand(CLI::App& app) {
  struct Options {
    std::string dir = "docs";
    bool check = false;
  };
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand("docs", "Generate the spec pages under docs/ from the code");
  command->add_option("--dir", options->dir, "The docs folder")->capture_default_str();
  command->add_flag("--check", options->check, "Exit 1 if the pages on disk differ from what the code generates");
  return [options] { return options->check ? checkDocs(options->dir) : writeDocs(options->dir); };
}

}  // namespace kcspec::cli
