#include "cli/docs_site.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <set>

#include "docs/generator/markdown.hpp"
#include "cli/files.hpp"

namespace kcspec::cli {

using namespace docs;  // the generator (docs/generator/) renders what this command prints
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kStyle = R"(
body { font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; color: #1a1a1a; margin: 0; line-height: 1.5; }
nav { background: #24323f; padding: 0.5em 1.5em; }
nav a { color: #f0f0f0; margin-right: 1.5em; text-decoration: none; font-weight: bold; }
main { max-width: 78em; padding: 1em 1.5em 3em; }
h1, h2, h3 { line-height: 1.25; }
h2 { border-bottom: 1px solid #d8d8d8; padding-bottom: 0.2em; margin-top: 1.6em; }
code { font-family: "DejaVu Sans Mono", "Liberation Mono", monospace; font-size: 0.9em; background: #f3f3f3; padding: 0 0.2em; }
pre { background: #f6f6f6; border: 1px solid #e0e0e0; padding: 0.7em; overflow-x: auto; }
pre code { background: none; padding: 0; font-size: 0.85em; }
table { border-collapse: collapse; margin: 0.8em 0; }
th, td { border: 1px solid #d0d0d0; padding: 0.25em 0.6em; vertical-align: top; }
th { background: #eef1f4; }
img { max-width: 100%; border: 1px solid #e4e4e4; }
blockquote { border-left: 4px solid #d0d0d0; margin-left: 0; padding-left: 1em; color: #444; }
)";

bool hasScheme(std::string_view url) {
  const std::size_t colon = url.find(':');
  if (colon == std::string_view::npos) return false;
  return std::all_of(url.begin(), url.begin() + static_cast<std::ptrdiff_t>(colon),
                     [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '+' || c == '.' || c == '-'; });
}

std::string toHtmlName(const fs::path& path) {
  fs::path out = path;
  out.replace_extension(".html");
  return out.generic_string();
}

}  // namespace

std::string sitePage(const std::string& markdown, const fs::path& relative_path,
                     const std::function<std::string(std::string_view)>& rewrite_target) {
  MarkdownOptions options;
  options.rewrite_target = rewrite_target;
  const HtmlPage page = markdownToHtml(markdown, options);
  // The way back to the site's root from this page's folder.
  std::string root;
  const fs::path folder = relative_path.parent_path();
  for (auto it = folder.begin(); it != folder.end(); ++it) root += "../";
  const std::string title = page.title.empty() ? relative_path.generic_string() : page.title;
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<title>{0} — kcspec</title>\n<link rel=\"icon\" href=\"data:,\">\n<style>{1}</style>\n</head>\n<body>\n"
      "<nav><a href=\"{2}index.html\">kcspec docs</a><a href=\"{2}spec/index.html\">spec pages</a>"
      "<a href=\"{2}spec/rules.html\">rules</a><a href=\"{2}spec/invariants.html\">invariants</a>"
      "<a href=\"{2}glossary.html\">glossary</a></nav>\n<main>\n{3}</main>\n</body>\n</html>\n",
      escapeHtml(title), kStyle, root, page.body);
}

int buildSite(const fs::path& docs_dir, const fs::path& out_dir, const std::vector<docs::GeneratedFile>& generated) {
  // The docs folder's files: on disk, overlaid by the generated ones.
  std::map<std::string, std::string> files;
  std::error_code error;
  if (fs::is_directory(docs_dir, error)) {
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(docs_dir)) {
      if (!entry.is_regular_file()) continue;
      const fs::path relative = fs::relative(entry.path(), docs_dir);
      if (relative.filename().string().starts_with('.')) continue;
      const auto contents = readFileIfExists(entry.path());
      if (contents) files[relative.generic_string()] = *contents;
    }
  } else {
    throw UserError(docs_dir.string(), "is not a folder");
  }
  for (const GeneratedFile& file : generated) files[file.path] = file.contents;

  const fs::path source_root = fs::weakly_canonical(fs::absolute(docs_dir));
  const fs::path out_root = fs::weakly_canonical(fs::absolute(out_dir));
  int pages = 0;
  for (const auto& [path, contents] : files) {
    const fs::path relative(path);
    if (relative.extension() != ".md") {
      writeFileAtomically(out_dir / relative, contents);
      continue;
    }
    const fs::path folder = relative.parent_path();
    const auto rewrite = [&](std::string_view url) -> std::string {
      if (url.empty() || url.front() == '#' || hasScheme(url) || url.front() == '/') return std::string(url);
      const std::size_t hash = url.find('#');
      const std::string target(url.substr(0, hash));
      const std::string anchor(hash == std::string_view::npos ? "" : url.substr(hash));
      const fs::path in_docs = (folder / target).lexically_normal();
      const std::string key = in_docs.generic_string();
      if (files.contains(key)) {
        return (in_docs.extension() == ".md" ? toHtmlName(fs::path(target)) : target) + anchor;
      }
      if (files.contains(key + "/README.md") || files.contains(key + "README.md")) {
        return target + (target.ends_with('/') ? "" : "/") + "README.html" + anchor;
      }
      // Outside the docs folder: the file in the source tree, relative to this page in the site.
      const fs::path source = (source_root / folder / target).lexically_normal();
      if (fs::exists(source, error)) {
        return source.lexically_relative(out_root / folder).generic_string() + anchor;
      }
      return std::string(url);
    };
    const std::string html = sitePage(contents, relative, rewrite);
    writeFileAtomically(out_dir / toHtmlName(relative), html);
    ++pages;
    if (relative == "README.md") {
      writeFileAtomically(out_dir / "index.html", html);
      ++pages;
    }
  }
  return pages;
}

}  // namespace kcspec::cli
