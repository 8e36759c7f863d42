#include "docs/generator/markdown.hpp"

#include <fmt/format.h>

#include <cctype>
#include <vector>

namespace kcspec::docs {
namespace {

using Lines = std::vector<std::string_view>;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

bool blank(std::string_view line) { return trim(line).empty(); }

std::size_t indentOf(std::string_view line) {
  std::size_t n = 0;
  for (char c : line) {
    if (c == ' ') {
      ++n;
    } else if (c == '\t') {
      n += 4;
    } else {
      break;
    }
  }
  return n;
}

// ---- inline

class Inline {
 public:
  explicit Inline(const MarkdownOptions& options) : options_(options) {}

  std::string render(std::string_view text) const {
    std::string out;
    std::size_t i = 0;
    while (i < text.size()) {
      const char c = text[i];
      if (c == '\\' && i + 1 < text.size() && std::ispunct(static_cast<unsigned char>(text[i + 1]))) {
        out += escapeHtml(text.substr(i + 1, 1));
        i += 2;
      } else if (c == '`') {
        std::size_t run = 0;
        while (i + run < text.size() && text[i + run] == '`') ++run;
        const std::string fence(run, '`');
        const std::size_t close = text.find(fence, i + run);
        if (close == std::string_view::npos) {
          out += fence;
          i += run;
        } else {
          out += "<code>" + escapeHtml(trimCode(text.substr(i + run, close - i - run))) + "</code>";
          i = close + run;
        }
      } else if (c == '!' && i + 1 < text.size() && text[i + 1] == '[' && link(text, i + 1, true, out, i)) {
      } else if (c == '[' && link(text, i, false, out, i)) {
      } else if (c == '*' && i + 1 < text.size() && text[i + 1] == '*' && emphasis(text, i, "**", "strong", out, i)) {
      } else if (c == '*' && emphasis(text, i, "*", "em", out, i)) {
      } else {
        out += escapeHtml(text.substr(i, 1));
        ++i;
      }
    }
    return out;
  }

  std::string target(std::string_view url) const {
    return options_.rewrite_target ? options_.rewrite_target(url) : std::string(url);
  }

 private:
  static std::string_view trimCode(std::string_view code) {
    if (code.size() >= 2 && code.front() == ' ' && code.back() == ' ') return code.substr(1, code.size() - 2);
    return code;
  }

  // [text](url) at `at` (the '['); on success appends the element and moves `next` past it.
  bool link(std::string_view text, std::size_t at, bool image, std::string& out, std::size_t& next) const {
    int depth = 0;
    std::size_t close = std::string_view::npos;
    for (std::size_t j = at; j < text.size(); ++j) {
      if (text[j] == '\\') {
        ++j;
      } else if (text[j] == '`') {  // brackets inside code spans do not count
        const std::size_t end = text.find('`', j + 1);
        if (end == std::string_view::npos) break;
        j = end;
      } else if (text[j] == '[') {
        ++depth;
      } else if (text[j] == ']' && --depth == 0) {
        close = j;
        break;
      }
    }
    if (close == std::string_view::npos || close + 1 >= text.size() || text[close + 1] != '(') return false;
    const std::size_t end = text.find(')', close + 2);
    if (end == std::string_view::npos) return false;
    const std::string_view label = text.substr(at + 1, close - at - 1);
    const std::string_view url = trim(text.substr(close + 2, end - close - 2));
    if (url.empty() || url.find(' ') != std::string_view::npos) return false;
    if (image) {
      out += fmt::format("<img src=\"{}\" alt=\"{}\">", escapeHtml(target(url)), escapeHtml(label));
    } else {
      out += fmt::format("<a href=\"{}\">{}</a>", escapeHtml(target(url)), render(label));
    }
    next = end + 1;
    return true;
  }

  // `marker`text`marker` with no space just inside either marker.
  bool emphasis(std::string_view text, std::size_t at, std::string_view marker, std::string_view tag, std::string& out,
                std::size_t& next) const {
    const std::size_t start = at + marker.size();
    if (start >= text.size() || text[start] == ' ' || text[start] == '*') return false;
    std::size_t close = text.find(marker, start);
    while (close != std::string_view::npos) {
      const bool inner_ok = text[close - 1] != ' ';
      const bool longer = marker.size() == 1 && close + 1 < text.size() && text[close + 1] == '*';
      if (inner_ok && !longer) break;
      close = text.find(marker, close + (longer ? 2 : 1));
    }
    if (close == std::string_view::npos) return false;
    out += fmt::format("<{0}>{1}</{0}>", tag, render(text.substr(start, close - start)));
    next = close + marker.size();
    return true;
  }

  const MarkdownOptions& options_;
};

// ---- blocks

bool isFence(std::string_view line) { return trim(line).starts_with("```"); }

bool isHeading(std::string_view line) {
  std::size_t n = 0;
  while (n < line.size() && line[n] == '#') ++n;
  return n >= 1 && n <= 6 && (n == line.size() || line[n] == ' ');
}

bool isRule(std::string_view line) {
  const std::string_view t = trim(line);
  return t.size() >= 3 && t.find_first_not_of('-') == std::string_view::npos;
}

// A list marker: "- ", "* ", "+ " or "<digits>. " after the indentation. Returns the marker's
// length (0: none) and whether the list is ordered.
std::size_t listMarker(std::string_view line, bool& ordered) {
  const std::size_t first = line.find_first_not_of(" \t");
  if (first == std::string_view::npos) return 0;
  const std::string_view t = line.substr(first);
  if (t.size() >= 2 && (t[0] == '-' || t[0] == '*' || t[0] == '+') && t[1] == ' ') {
    ordered = false;
    return 2;
  }
  std::size_t digits = 0;
  while (digits < t.size() && std::isdigit(static_cast<unsigned char>(t[digits]))) ++digits;
  if (digits > 0 && digits + 1 < t.size() && t[digits] == '.' && t[digits + 1] == ' ') {
    ordered = true;
    return digits + 2;
  }
  return 0;
}

bool isTableStart(const Lines& lines, std::size_t i) {
  if (i + 1 >= lines.size()) return false;
  const std::string_view head = trim(lines[i]);
  const std::string_view sep = trim(lines[i + 1]);
  if (!head.starts_with('|') || !sep.starts_with('|')) return false;
  return sep.find_first_not_of("|-: ") == std::string_view::npos && sep.find('-') != std::string_view::npos;
}

std::vector<std::string> tableCells(std::string_view line) {
  std::string_view t = trim(line);
  if (t.starts_with('|')) t.remove_prefix(1);
  if (t.ends_with('|') && !t.ends_with("\\|")) t.remove_suffix(1);
  std::vector<std::string> cells;
  std::string current;
  bool in_code = false;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i] == '\\' && i + 1 < t.size() && t[i + 1] == '|') {
      current += "\\|";
      ++i;
    } else if (t[i] == '`') {
      in_code = !in_code;
      current += '`';
    } else if (t[i] == '|' && !in_code) {
      cells.emplace_back(trim(current));
      current.clear();
    } else {
      current += t[i];
    }
  }
  cells.emplace_back(trim(current));
  return cells;
}

class Blocks {
 public:
  Blocks(const Lines& lines, const MarkdownOptions& options) : lines_(lines), inline_(options) {}

  std::string render(HtmlPage& page) {
    std::string out;
    std::size_t i = 0;
    while (i < lines_.size()) out += block(i, page);
    return out;
  }

 private:
  // Renders the block starting at line i and moves i past it.
  std::string block(std::size_t& i, HtmlPage& page) {
    const std::string_view line = lines_[i];
    if (blank(line)) {
      ++i;
      return "";
    }
    if (trim(line).starts_with("<!--")) {
      while (i < lines_.size() && lines_[i].find("-->") == std::string_view::npos) ++i;
      ++i;
      return "";
    }
    if (isFence(line)) return code(i);
    if (isHeading(line)) {
      std::size_t level = 0;
      while (line[level] == '#') ++level;
      const std::string_view text = trim(line.substr(level));
      ++i;
      if (level == 1 && page.title.empty()) page.title = plainText(text);
      return fmt::format("<h{0} id=\"{1}\">{2}</h{0}>\n", level, headingId(plainText(text)), inline_.render(text));
    }
    if (isTableStart(lines_, i)) return table(i);
    bool ordered = false;
    if (listMarker(line, ordered) > 0) return list(i, indentOf(line));
    if (trim(line).starts_with('>')) {
      std::string inner;
      while (i < lines_.size() && trim(lines_[i]).starts_with('>')) {
        std::string_view t = trim(lines_[i]).substr(1);
        inner += std::string(trim(t)) + "\n";
        ++i;
      }
      return "<blockquote>" + markdownToHtml(inner, options()).body + "</blockquote>\n";
    }
    if (isRule(line)) {
      ++i;
      return "<hr>\n";
    }
    std::string text;
    while (i < lines_.size() && !blank(lines_[i]) && !startsBlock(i)) {
      text += (text.empty() ? "" : "\n") + std::string(trim(lines_[i]));
      ++i;
    }
    return "<p>" + inline_.render(text) + "</p>\n";
  }

  const MarkdownOptions& options() const { return options_holder_; }

  bool startsBlock(std::size_t i) const {
    const std::string_view line = lines_[i];
    bool ordered = false;
    return isFence(line) || isHeading(line) || isTableStart(lines_, i) || listMarker(line, ordered) > 0 ||
           trim(line).starts_with('>') || trim(line).starts_with("<!--");
  }

  std::string code(std::size_t& i) {
    const std::string_view open = trim(lines_[i]);
    const std::string_view language = trim(open.substr(3));
    ++i;
    std::string body;
    while (i < lines_.size() && !isFence(lines_[i])) {
      body += escapeHtml(lines_[i]);
      body += '\n';
      ++i;
    }
    ++i;  // the closing fence
    const std::string cls = language.empty() ? "" : fmt::format(" class=\"language-{}\"", escapeHtml(language));
    return fmt::format("<pre><code{}>{}</code></pre>\n", cls, body);
  }

  std::string table(std::size_t& i) {
    const std::vector<std::string> head = tableCells(lines_[i]);
    const std::vector<std::string> sep = tableCells(lines_[i + 1]);
    std::vector<std::string> align;
    for (const std::string& s : sep) {
      const bool left = s.starts_with(':');
      const bool right = s.ends_with(':');
      align.push_back(left && right ? " style=\"text-align:center\"" : right ? " style=\"text-align:right\"" : "");
    }
    const auto alignment = [&](std::size_t c) { return c < align.size() ? align[c] : std::string(); };
    std::string out = "<table>\n<thead><tr>";
    for (std::size_t c = 0; c < head.size(); ++c) out += fmt::format("<th{}>{}</th>", alignment(c), inline_.render(head[c]));
    out += "</tr></thead>\n<tbody>\n";
    i += 2;
    while (i < lines_.size() && trim(lines_[i]).starts_with('|')) {
      const std::vector<std::string> row = tableCells(lines_[i]);
      out += "<tr>";
      for (std::size_t c = 0; c < head.size(); ++c) {
        out += fmt::format("<td{}>{}</td>", alignment(c), c < row.size() ? inline_.render(row[c]) : std::string());
      }
      out += "</tr>\n";
      ++i;
    }
    return out + "</tbody>\n</table>\n";
  }

  // A list whose markers are at `indent`.
  std::string list(std::size_t& i, std::size_t indent) {
    bool ordered = false;
    listMarker(lines_[i], ordered);
    std::string start;
    if (ordered) {
      const std::string_view t = trim(lines_[i]);
      const std::string number(t.substr(0, t.find('.')));
      if (number != "1") start = fmt::format(" start=\"{}\"", number);
    }
    std::string out = ordered ? "<ol" + start + ">\n" : "<ul>\n";
    while (i < lines_.size()) {
      const std::string_view line = lines_[i];
      bool this_ordered = false;
      const std::size_t marker = listMarker(line, this_ordered);
      if (marker == 0 || indentOf(line) != indent || this_ordered != ordered) break;
      // The item: its first line, continuation lines, nested lists and code blocks.
      std::string text(trim(line.substr(line.find_first_not_of(" \t") + marker)));
      std::string nested;
      ++i;
      while (i < lines_.size()) {
        const std::string_view next = lines_[i];
        if (blank(next)) {
          // A blank line continues the item only when an indented line follows.
          std::size_t j = i;
          while (j < lines_.size() && blank(lines_[j])) ++j;
          if (j < lines_.size() && indentOf(lines_[j]) > indent) {
            i = j;
            text += "\n";
            continue;
          }
          break;
        }
        bool o = false;
        if (listMarker(next, o) > 0) {
          if (indentOf(next) <= indent) break;
          nested += list(i, indentOf(next));
          continue;
        }
        if (indentOf(next) <= indent && (startsBlock(i) || isRule(next))) break;
        if (isFence(next)) {
          nested += code(i);
          continue;
        }
        if (indentOf(next) == 0 && !text.empty() && text.back() == '\n') break;
        text += "\n" + std::string(trim(next));
        ++i;
      }
      while (!text.empty() && text.back() == '\n') text.pop_back();
      out += "<li>" + inline_.render(text) + nested + "</li>\n";
    }
    return out + (ordered ? "</ol>\n" : "</ul>\n");
  }

  // The heading's text without inline markup (for ids and titles).
  static std::string plainText(std::string_view text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
      const char c = text[i];
      if (c == '`' || c == '*') continue;
      if (c == '\\' && i + 1 < text.size()) {
        out += text[++i];
        continue;
      }
      out += c;
    }
    return out;
  }

  const Lines& lines_;
  Inline inline_;
  MarkdownOptions options_holder_;

 public:
  void setOptions(const MarkdownOptions& options) { options_holder_ = options; }
};

}  // namespace

std::string escapeHtml(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string headingId(std::string_view heading_text) {
  std::string out;
  for (char c : heading_text) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x80 && std::isalnum(u)) {
      out += static_cast<char>(std::tolower(u));
    } else if (c == '-' || c == '_') {
      out += c;
    } else if (c == ' ') {
      out += '-';
    }
  }
  return out;
}

HtmlPage markdownToHtml(std::string_view markdown, const MarkdownOptions& options) {
  Lines lines;
  std::size_t start = 0;
  while (start < markdown.size()) {
    std::size_t end = markdown.find('\n', start);
    if (end == std::string_view::npos) end = markdown.size();
    std::string_view line = markdown.substr(start, end - start);
    if (line.ends_with('\r')) line.remove_suffix(1);
    lines.push_back(line);
    start = end + 1;
  }
  HtmlPage page;
  Blocks blocks(lines, options);
  blocks.setOptions(options);
  page.body = blocks.render(page);
  return page;
}

}  // namespace kcspec::docs
