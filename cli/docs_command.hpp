// `kcspec docs [--dir DIR] [--check]`: the pages generated from the code.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace kcspec::cli {

struct GeneratedFile {
  std::string path;  // relative to the docs folder, e.g. "spec/partition-states.md"
  std::string contents;
};

// Every generated page, rendered from the code (SVGs through Graphviz's `dot`).
std::vector<GeneratedFile> generateDocs();

// Writes the pages under `docs_dir`; returns 0.
int writeDocs(const std::filesystem::path& docs_dir);

// Compares the pages under `docs_dir` with what the code generates; prints each file that
// differs or is missing. Returns 0 when all match, 1 otherwise.
int checkDocs(const std::filesystem::path& docs_dir);

}  // namespace kcspec::cli
