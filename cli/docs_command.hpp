// `kcspec docs [--dir DIR] [--check] [--html [--out DIR]]`: the pages generated from the code.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "docs/generator/generated_pages.hpp"

namespace kcspec::cli {

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
