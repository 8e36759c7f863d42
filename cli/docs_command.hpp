// `kcspec docs [--dir DIR] [--check] [--html [--out DIR]]`: the pages generated from the code.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace kcspec::cli {

struct GeneratedFile {
  std::string path;  // relative to the docs folder, e.g. "spec/partition-states.md"
  std::string contents;
};

// Every generated page, rendered from the code (lifecycle SVGs through Graphviz's `dot`, sequence
// diagrams by kcspec itself). Deterministic: the same code gives byte-identical files.
// docs/proofs.md is not among them: `kcspec prove` writes it (cli/proofs_page.hpp), and
// `proofs_md`, its text, gives the invariant catalog page its verdicts (empty: none).
std::vector<GeneratedFile> generateDocs(std::string_view proofs_md = {});

// Writes the pages under `docs_dir` and removes files of the generated-only folders that the
// code no longer generates; returns 0.
int writeDocs(const std::filesystem::path& docs_dir);

// Compares the pages under `docs_dir` with what the code generates; prints each file that
// differs, is missing, or sits in a generated-only folder without being generated, and checks
// that docs/proofs.md was written by `kcspec prove` for the current theorem catalog. Returns 0
// when all match, 1 otherwise.
int checkDocs(const std::filesystem::path& docs_dir);

// Builds the static HTML site of `docs_dir` (with the generated pages as the code generates them
// now) under `out_dir`; returns 0.
int writeSite(const std::filesystem::path& docs_dir, const std::filesystem::path& out_dir);

}  // namespace kcspec::cli
