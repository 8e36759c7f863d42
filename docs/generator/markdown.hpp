// A small Markdown-to-HTML converter for the subset kcspec's pages use (generated and written):
//   blocks   ATX headings (# … ######, with GitHub-style ids), paragraphs, fenced code blocks
//            (``` with an optional language), pipe tables (with :---: alignment), ordered and
//            unordered lists (nested by indentation, continuation lines joined), block quotes
//            (> …), thematic breaks (---), HTML comments (dropped)
//   inline   `code`, **strong**, *emphasis*, [links](url), ![images](src), backslash escapes
// Everything else is text: every <, > and & is escaped, so no raw HTML passes through.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace kcspec::docs {

struct MarkdownOptions {
  // Rewrites a link or image target (e.g. `x.md#a` → `x.html#a`); empty: targets are kept.
  std::function<std::string(std::string_view target)> rewrite_target;
};

struct HtmlPage {
  std::string title;  // the text of the first level-1 heading ("" when there is none)
  std::string body;   // the HTML of the blocks
};

HtmlPage markdownToHtml(std::string_view markdown, const MarkdownOptions& options = {});

// The id GitHub gives a heading: lower case, ASCII letters, digits, '-' and '_' kept, spaces
// become '-', everything else dropped (the anchors the pages link to).
std::string headingId(std::string_view heading_text);

// `text` with &, <, >, " escaped.
std::string escapeHtml(std::string_view text);

}  // namespace kcspec::docs
