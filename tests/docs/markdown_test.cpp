// The Markdown converter of `kcspec docs --html`, on the subset the pages use.
#include <gtest/gtest.h>

#include "docs/generator/markdown.hpp"

namespace kcspec::docs {
namespace {

std::string html(std::string_view md) { return markdownToHtml(md).body; }

TEST(Markdown, HeadingsGetGitHubIdsAndTheFirstH1IsTheTitle) {
  const HtmlPage page = markdownToHtml("# The `kcspec` spec\n\n## Findings so far (properties Kafka 3.8 violates)\n");
  EXPECT_EQ(page.title, "The kcspec spec");
  EXPECT_EQ(page.body,
            "<h1 id=\"the-kcspec-spec\">The <code>kcspec</code> spec</h1>\n"
            "<h2 id=\"findings-so-far-properties-kafka-38-violates\">Findings so far (properties Kafka 3.8 violates)</h2>\n");
  EXPECT_EQ(headingId("The controller's rules — generated pages"), "the-controllers-rules--generated-pages");
}

TEST(Markdown, ParagraphsJoinLinesAndEscapeHtml) {
  EXPECT_EQ(html("a <b> & c\nd\n\ne"), "<p>a &lt;b&gt; &amp; c\nd</p>\n<p>e</p>\n");
}

TEST(Markdown, InlineCodeStrongEmphasisAndEscapes) {
  EXPECT_EQ(html("`a*b|c<d>` **bold** *em* 2 * 3 \\*not\\*"),
            "<p><code>a*b|c&lt;d&gt;</code> <strong>bold</strong> <em>em</em> 2 * 3 *not*</p>\n");
}

TEST(Markdown, LinksAndImagesAreRewritten) {
  MarkdownOptions options;
  options.rewrite_target = [](std::string_view target) {
    std::string t(target);
    const auto at = t.find(".md");
    if (at != std::string::npos) t.replace(at, 3, ".html");
    return t;
  };
  EXPECT_EQ(markdownToHtml("see [the `rules`](spec/rules.md#a) and ![diagram](x.svg)", options).body,
            "<p>see <a href=\"spec/rules.html#a\">the <code>rules</code></a> and <img src=\"x.svg\" alt=\"diagram\"></p>\n");
  EXPECT_EQ(html("[not a link] (x)"), "<p>[not a link] (x)</p>\n");
}

TEST(Markdown, FencedCodeIsEscapedVerbatim) {
  EXPECT_EQ(html("```text\n  a <-> b\n# not a heading\n```\nafter"),
            "<pre><code class=\"language-text\">  a &lt;-&gt; b\n# not a heading\n</code></pre>\n<p>after</p>\n");
}

TEST(Markdown, TablesWithAlignmentAndEscapedPipes) {
  EXPECT_EQ(html("| a | b |\n|---|:---:|\n| `x|y` | 1 \\| 2 |\n| z |\n"),
            "<table>\n<thead><tr><th>a</th><th style=\"text-align:center\">b</th></tr></thead>\n<tbody>\n"
            "<tr><td><code>x|y</code></td><td style=\"text-align:center\">1 | 2</td></tr>\n"
            "<tr><td>z</td><td style=\"text-align:center\"></td></tr>\n</tbody>\n</table>\n");
}

TEST(Markdown, NestedListsAndContinuationLines) {
  EXPECT_EQ(html("1. one\n   more\n   - a\n   - b\n2. two\n\n- x\n"),
            "<ol>\n<li>one\nmore<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n</li>\n<li>two</li>\n</ol>\n<ul>\n<li>x</li>\n</ul>\n");
  EXPECT_EQ(html("3. three\n4. four\n"), "<ol start=\"3\">\n<li>three</li>\n<li>four</li>\n</ol>\n");
}

TEST(Markdown, CommentsAreDroppedQuotesAndRulesKept) {
  EXPECT_EQ(html("<!-- generated\nby kcspec -->\n> quoted\n\n---\n"),
            "<blockquote><p>quoted</p>\n</blockquote>\n<hr>\n");
}

}  // namespace
}  // namespace kcspec::docs
