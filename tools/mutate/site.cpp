#include "site.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace kcspec::mutate {
namespace {

std::string withId(std::string text, int id) {
  const std::string placeholder = "@ID@";
  for (std::size_t at = text.find(placeholder); at != std::string::npos; at = text.find(placeholder, at)) {
    text.replace(at, placeholder.size(), std::to_string(id));
  }
  return text;
}

}  // namespace

std::string applySites(const std::string& text, const std::vector<Site>& sites) {
  struct Insertion {
    std::size_t at;
    int rank;           // 0: suffix, 1: an insertion point's text, 2: prefix
    std::size_t span;   // the site's length: orders nesting at one offset
    std::size_t index;  // the site's place in `sites`: orders sites with equal ranges
    std::string text;
  };
  std::vector<Insertion> insertions;
  for (std::size_t i = 0; i < sites.size(); ++i) {
    const Site& s = sites[i];
    if (s.end < s.begin || s.end > text.size()) throw std::logic_error("site outside the file");
    const std::size_t span = s.end - s.begin;
    if (!s.prefix.empty()) insertions.push_back({s.begin, span == 0 ? 1 : 2, span, i, withId(s.prefix, s.id)});
    if (!s.suffix.empty()) insertions.push_back({s.end, 0, span, i, withId(s.suffix, s.id)});
  }
  // At one offset: suffixes inner first (shorter; of equal ranges the later-listed), then the
  // texts of insertion points, then prefixes outer first (longer; of equal ranges the earlier-listed).
  std::sort(insertions.begin(), insertions.end(), [](const Insertion& a, const Insertion& b) {
    if (a.at != b.at) return a.at < b.at;
    if (a.rank != b.rank) return a.rank < b.rank;
    if (a.rank == 0) return a.span != b.span ? a.span < b.span : a.index > b.index;
    return a.span != b.span ? a.span > b.span : a.index < b.index;
  });
  std::string out;
  out.reserve(text.size() + insertions.size() * 48);
  std::size_t from = 0;
  for (const Insertion& i : insertions) {
    out.append(text, from, i.at - from);
    out += i.text;
    from = i.at;
  }
  out.append(text, from, std::string::npos);
  return out;
}

}  // namespace kcspec::mutate
