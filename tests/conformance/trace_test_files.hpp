// Helpers of the trace tests (trace_test.cpp, trace_input_test.cpp): a scenario file read whole,
// and a trace split into lines and joined again.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "spec/vocabulary/scenario_text.hpp"

namespace kcspec::conformance::test {

inline Scenario readScenario(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return parseScenario(text.str(), path.string());
}

inline std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

inline std::string joinLines(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) out += line + "\n";
  return out;
}

}  // namespace kcspec::conformance::test
