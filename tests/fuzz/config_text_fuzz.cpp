// Fuzz target: the configuration text format (spec/vocabulary/config_text.hpp). Any input either
// throws TextError or parses; a parsed configuration prints to a canonical text that parses
// again and prints the same (the format's round trip).
#include <string>

#include "fuzz_support.hpp"
#include "spec/vocabulary/config_text.hpp"
#include "spec/vocabulary/presets.hpp"

namespace kcspec::fuzz {

std::vector<std::pair<std::string, std::string>> builtinSeeds() {
  std::vector<std::pair<std::string, std::string>> seeds;
  for (std::string_view name : kPresetNames) {
    if (auto text = presetText(name)) seeds.emplace_back("preset-" + std::string(name) + ".conf", std::string(*text));
  }
  return seeds;
}

}  // namespace kcspec::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kcspec;
  Config config;
  try {
    config = parseConfig(fuzz::asText(data, size), "fuzz.conf");
  } catch (const TextError&) {
    return 0;
  }
  const std::string printed = printConfig(config);
  std::string again;
  try {
    again = printConfig(parseConfig(printed, "printed.conf"));
  } catch (const TextError& e) {
    fuzz::fail(std::string("the canonical text does not parse: ") + e.what(), printed);
  }
  if (again != printed) fuzz::fail("printing is not a fixed point", printed, again);
  return 0;
}
