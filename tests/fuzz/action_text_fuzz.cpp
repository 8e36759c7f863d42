// Fuzz target: one action line (spec/vocabulary/action_text.hpp) — the input up to its first
// '\n' — against every preset's configuration. The line either throws TextError or parses to an
// action that prints and parses back to the same action. parseAction reads one line and keeps
// nothing between lines, so an input is one line (scripts/fuzz: -max_len=256; the seed files
// from tests/ are cut into one file per step line, and CTest replays them line by line).
#include <algorithm>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/presets.hpp"

namespace kcspec::fuzz {

std::vector<std::pair<std::string, std::string>> builtinSeeds() {
  // One line per action kind, as the format's documentation spells them (names of preset `large`).
  const std::vector<std::string> lines = {
      "create-topic t", "delete-topic t", "add-partitions u", "enable-unclean t", "reassign t-0 2,3",
      "cancel-reassignment t-0", "elect-preferred t-0", "elect-unclean t-0", "crash 1", "start 2",
      "controlled-shutdown 3", "shrink-isr t-0 leader 1 remove 2", "expand-isr t-0 leader 1 add 2",
      "process-event 1", "lose-controller-session 1", "notice-session-expiry 2", "elect-controller 3",
      "deliver-request 1", "deliver-stop-replica-response 2 error", "auto-rebalance-timer 1"};
  std::vector<std::pair<std::string, std::string>> seeds;
  for (std::size_t i = 0; i < lines.size(); ++i) seeds.emplace_back("action-" + std::to_string(i) + ".txt", lines[i]);
  return seeds;
}

}  // namespace kcspec::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kcspec;
  static const std::vector<Config> configs = [] {
    std::vector<Config> all;
    for (std::string_view name : kPresetNames) all.push_back(*preset(name));
    return all;
  }();
  const std::string_view text = fuzz::asText(data, size);
  const std::string_view line = text.substr(0, std::min(text.find('\n'), text.size()));
  for (const Config& config : configs) {
    Action action;
    try {
      action = parseAction(config, line, "fuzz.actions", 1);
    } catch (const TextError&) {
      continue;
    }
    const std::string printed = printAction(config, action);
    try {
      if (!(parseAction(config, printed, "printed.actions", 1) == action)) {
        fuzz::fail("an action does not parse back to itself", line, printed);
      }
    } catch (const TextError& e) {
      fuzz::fail(std::string("a printed action does not parse: ") + e.what(), line, printed);
    }
  }
  return 0;
}
