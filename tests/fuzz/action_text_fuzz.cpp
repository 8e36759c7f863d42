// Fuzz target: action lines (spec/vocabulary/action_text.hpp), the first 16 of an input, against
// every preset's configuration. Any line either throws TextError or parses to an action that
// prints and parses back to the same action.
#include <algorithm>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/presets.hpp"

namespace kcspec::fuzz {

std::vector<std::pair<std::string, std::string>> builtinSeeds() {
  // One line per action kind, as the format's documentation spells them (names of preset `large`).
  return {{"actions.txt",
           "create-topic t\ndelete-topic t\nadd-partitions u\nenable-unclean t\nreassign t-0 2,3\n"
           "cancel-reassignment t-0\nelect-preferred t-0\nelect-unclean t-0\ncrash 1\nstart 2\n"
           "controlled-shutdown 3\nshrink-isr t-0 leader 1 remove 2\nexpand-isr t-0 leader 1 add 2\n"
           "process-event 1\nlose-controller-session 1\nnotice-session-expiry 2\nelect-controller 3\n"
           "deliver-request 1\ndeliver-stop-replica-response 2 error\nauto-rebalance-timer 1\n"}};
}

}  // namespace kcspec::fuzz

namespace {
constexpr int kMaxLines = 16;  // lines of one input that are parsed
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kcspec;
  static const std::vector<Config> configs = [] {
    std::vector<Config> all;
    for (std::string_view name : kPresetNames) all.push_back(*preset(name));
    return all;
  }();
  // The first lines of the input, one action each, as scenario files give them.
  const std::string_view text = fuzz::asText(data, size);
  std::size_t start = 0;
  for (int number = 1; number <= kMaxLines && start <= text.size(); ++number) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    for (const Config& config : configs) {
      Action action;
      try {
        action = parseAction(config, line, "fuzz.actions", number);
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
  }
  return 0;
}
