// The shared scenario files (tests/scenarios/ and tests/cli/), sorted: the hand-written histories
// that both versions and both ZooKeeper backends must run alike. Needs KCSPEC_SOURCE_DIR.
#pragma once

#include <algorithm>
#include <filesystem>
#include <vector>

namespace kcspec::testing {

inline std::vector<std::filesystem::path> sharedScenarios() {
  std::vector<std::filesystem::path> files;
  // tests/scenarios/given: scenarios that start from a given world (`kcspec mutants --generated`,
  // which reads tests/scenarios, starts every run from the initial state).
  for (const char* folder : {"tests/scenarios", "tests/scenarios/given", "tests/cli"}) {
    for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(KCSPEC_SOURCE_DIR) / folder)) {
      if (entry.path().extension() == ".scenario") files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace kcspec::testing
