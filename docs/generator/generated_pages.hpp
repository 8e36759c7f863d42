// Every page `kcspec docs` generates from the code, as (path, contents) pairs: the lifecycle
// tables and diagrams (model/'s MSM types), the spec pages (spec_pages.hpp), the component actions'
// worked examples (components_page.hpp). Deterministic: the
// same code gives byte-identical files. Writing, checking and the HTML site are the command's
// (cli/docs_command.hpp).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "docs/generator/components_page.hpp"

namespace kcspec::docs {

struct GeneratedFile {
  std::string path;  // relative to the docs folder, e.g. "spec/partition-states.md"
  std::string contents;
};

// Graphviz source to SVG (the caller runs `dot -Tsvg`).
using SvgRenderer = std::function<std::string(const std::string& dot)>;

// Every generated page. docs/proofs.md is not among them: `kcspec prove` writes it
// (proofs_page.hpp), and `proofs_md`, its text, gives the invariant catalog page its verdicts
// (empty: none). `component_suite` is the built-in component suite (cli/component_suite.hpp), whose
// runs are the worked examples of spec/components.md (components_page.hpp).
std::vector<GeneratedFile> generateDocs(const SvgRenderer& render_svg, ScenarioFiles component_suite,
                                        std::string_view proofs_md = {});

}  // namespace kcspec::docs
