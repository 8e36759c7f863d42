// The generated spec pages under docs/spec/: one page per action (actions/<name>.md + .svg), one
// per controller event (events/<Event>.md + .svg), the election decision tables, the invariant
// catalog and the index that links them. Every example on them is produced by running the spec.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "docs/generator/generated_pages.hpp"

namespace kcspec::docs {

// Appends the pages to `files`. `proofs_md` is the text of docs/proofs.md, from which the
// invariant catalog takes each property's latest verdict.
void addSpecPages(std::vector<GeneratedFile>& files, std::string_view proofs_md);

// The verdicts a docs/proofs.md lists: from every Markdown table whose header has an `id` (or
// `property`) column and a column whose name contains `verdict`, property id → verdict cell.
std::map<std::string, std::string> verdictsFromProofsPage(std::string_view proofs_md);

// The folders (relative to the docs folder) whose every file is generated: a file there that the
// code does not generate is stale.
inline constexpr std::string_view kGeneratedFolders[] = {"spec/actions", "spec/events"};

}  // namespace kcspec::docs
