// The recovery walk a liveness counterexample's scenario file carries as comments: the explorer
// writes "# from here, recovery actions alone never reach the goal; for example:" after the steps,
// then one "#   <action>" line per step of the walk. Shared by the tests that replay a known
// deviation's history to its end (tests/spec/deviation_liveness_scopes_test.cpp on the spec,
// tests/zk/check_zk_test.cpp on the reference controller over a real ZooKeeper).
#pragma once

#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/config.hpp"

namespace kcspec::test_common {

struct WalkStep {
  Action action;
  int line = 0;  // in the scenario file
};

// The walk's actions, parsed against `config` (a malformed line is reported as `file:line`).
inline std::vector<WalkStep> recoveryWalk(const Config& config, const std::string& text, const std::string& file) {
  std::vector<WalkStep> walk;
  std::istringstream lines(text);
  std::string line;
  int line_number = 0;
  bool walking = false;
  while (std::getline(lines, line)) {  // bounded by the file
    ++line_number;
    walking = walking || line.starts_with("# from here");
    if (!walking || !line.starts_with("#   ")) continue;
    walk.push_back(WalkStep{parseAction(config, std::string_view(line).substr(4), file, line_number), line_number});
  }
  return walk;
}

}  // namespace kcspec::test_common
