// The component suite built into kcspec: the scenario files of tests/components/ (their names and
// texts), embedded at build time (cli/CMakeLists.txt) so that `kcspec suite` runs without a source tree.
#pragma once

#include <span>
#include <string_view>
#include <utility>

namespace kcspec::cli {

std::span<const std::pair<std::string_view, std::string_view>> componentSuite();

}  // namespace kcspec::cli
