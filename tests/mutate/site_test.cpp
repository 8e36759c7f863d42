// The schema writer's text edits (tools/mutate/site.hpp): nested sites close inside-out and open
// outside-in, adjacent sites close before the next opens, and @ID@ becomes each site's id.
#include "site.hpp"

#include <gtest/gtest.h>

namespace kcspec::mutate {
namespace {

Site site(std::size_t begin, std::size_t end, int id, std::string prefix, std::string suffix) {
  Site s;
  s.begin = begin;
  s.end = end;
  s.id = id;
  s.prefix = std::move(prefix);
  s.suffix = std::move(suffix);
  return s;
}

TEST(ApplySites, NestedSitesAtOneOffsetOpenOutsideInAndCloseInsideOut) {
  const std::string text = "if (f(a)) g();";
  //                        0123456789
  // The condition f(a) is [4, 8); the call inside it the same range; an inner argument [6, 7).
  const std::vector<Site> sites = {site(6, 7, 3, "<@ID@", "@ID@>"), site(4, 8, 1, "[@ID@", "@ID@]"),
                                   site(4, 8, 2, "{@ID@", "@ID@}")};
  // Of two sites with one range the one listed first is the outer one: 1 opens first, closes last.
  EXPECT_EQ(applySites(text, sites), "if ([1{2f(<3a3>)2}1]) g();");
}

TEST(ApplySites, InnerRangeClosesBeforeOuterAndAdjacentSitesDoNotInterleave) {
  const std::string text = "ab";
  const std::vector<Site> sites = {site(0, 2, 7, "(", ")"), site(0, 1, 8, "[", "]"), site(1, 2, 9, "{", "}")};
  EXPECT_EQ(applySites(text, sites), "([a]{b})");
}

TEST(ApplySites, InsertionPointAndIds) {
  const std::string text = "void f() {x();}";
  const std::size_t body = text.find('{') + 1;
  const std::vector<Site> sites = {site(body, body, 12, " if (on(@ID@)) return;", ""),
                                   site(body, body + 3, 13, "(on(@ID@) ? 0 : ", ")")};
  // The insertion point's text comes before the site that starts where it is.
  EXPECT_EQ(applySites(text, sites), "void f() { if (on(12)) return;(on(13) ? 0 : x());}");
}

TEST(ApplySites, RejectsASiteOutsideTheText) {
  EXPECT_THROW(applySites("abc", {site(2, 9, 0, "(", ")")}), std::logic_error);
}

}  // namespace
}  // namespace kcspec::mutate
