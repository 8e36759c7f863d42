// `kcspec docs --html`: the docs folder as a static site — plain HTML pages (docs_markdown.hpp)
// and the SVG diagrams, relative links only, no script and no network fetch, so it opens in a
// browser from the file system.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/docs_command.hpp"

namespace kcspec::cli {

// Every .md file under `docs_dir` becomes an .html file at the same relative path under `out_dir`
// (README.md also becomes index.html); every other file (.svg, .dot) is copied. The generated
// pages are taken from `generated`, not from the disk, so the site shows what the code generates
// now. Links between pages point at the .html files; links to files outside the docs folder point
// at those files in the source tree, relative to `out_dir`. Returns the number of pages written.
int buildSite(const std::filesystem::path& docs_dir, const std::filesystem::path& out_dir,
              const std::vector<docs::GeneratedFile>& generated);

// The HTML page for one Markdown file: `relative_path` is its path under the docs folder (it
// decides the relative links back to the site's index).
std::string sitePage(const std::string& markdown, const std::filesystem::path& relative_path,
                     const std::function<std::string(std::string_view)>& rewrite_target);

}  // namespace kcspec::cli
