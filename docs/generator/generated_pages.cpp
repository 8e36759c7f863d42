#include "docs/generator/generated_pages.hpp"

#include <fmt/format.h>

#include "docs/generator/lifecycle_tables.hpp"
#include "docs/generator/spec_pages.hpp"

namespace kcspec::docs {
namespace {

template <class State>
void addLifecycle(std::vector<GeneratedFile>& files, const SvgRenderer& render_svg) {
  const std::string stem = fmt::format("spec/{}-states", StateTraits<State>::machine_name);
  const std::string dot = lifecycleDot<State>();
  files.push_back({stem + ".md", lifecyclePage<State>()});
  files.push_back({stem + ".dot", dot});
  files.push_back({stem + ".svg", render_svg(dot)});
}

}  // namespace

std::vector<GeneratedFile> generateDocs(const SvgRenderer& render_svg, ScenarioFiles component_suite,
                                        std::string_view proofs_md) {
  std::vector<GeneratedFile> files;
  addLifecycle<PartitionState>(files, render_svg);
  addLifecycle<ReplicaState>(files, render_svg);
  addSpecPages(files, proofs_md);
  files.push_back({"spec/components.md", componentsPage(component_suite)});
  return files;
}

}  // namespace kcspec::docs
