// What every fuzz target shares. A target defines LLVMFuzzerTestOneInput (libFuzzer's entry) and
// kcspec::fuzz::builtinSeeds() (inputs that live in the code rather than in tests/, such as the
// presets); fuzz_seeds.cpp writes those seeds on request, replay_main.cpp runs inputs without
// libFuzzer (the corpus and regression inputs in the normal CTest suite).
//
// A target accepts exactly the failures its parser documents (TextError for kcspec's text
// formats); anything else — another exception, an assertion, a sanitizer report, a round trip that
// does not give the same text back — is a crash for libFuzzer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kcspec::fuzz {

inline std::string_view asText(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// (file name, contents) pairs added to the target's seed corpus.
std::vector<std::pair<std::string, std::string>> builtinSeeds();

// Prints `what` (and the two texts that should have been equal) and aborts: a finding.
[[noreturn]] void fail(std::string_view what, std::string_view expected = {}, std::string_view actual = {});

}  // namespace kcspec::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
