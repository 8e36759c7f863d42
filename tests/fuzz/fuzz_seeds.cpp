// Linked into every fuzz target: fail(), and with KCSPEC_FUZZ_WRITE_SEEDS=<folder> in the
// environment the libFuzzer binary writes its built-in seeds there and exits (scripts/fuzz uses
// it to assemble the seed corpus).
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "fuzz_support.hpp"

namespace kcspec::fuzz {

void fail(std::string_view what, std::string_view expected, std::string_view actual) {
  std::fprintf(stderr, "fuzz finding: %.*s\n", static_cast<int>(what.size()), what.data());
  if (!expected.empty() || !actual.empty()) {
    std::fprintf(stderr, "--- expected ---\n%.*s\n--- actual ---\n%.*s\n", static_cast<int>(expected.size()),
                 expected.data(), static_cast<int>(actual.size()), actual.data());
  }
  std::abort();
}

// Writes the built-in seeds into `folder`; the number written.
int writeBuiltinSeeds(const std::filesystem::path& folder) {
  std::filesystem::create_directories(folder);
  int written = 0;
  for (const auto& [name, contents] : builtinSeeds()) {
    std::ofstream(folder / name, std::ios::binary) << contents;
    ++written;
  }
  return written;
}

}  // namespace kcspec::fuzz

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (const char* folder = std::getenv("KCSPEC_FUZZ_WRITE_SEEDS")) {
    const int written = kcspec::fuzz::writeBuiltinSeeds(folder);
    std::fprintf(stderr, "wrote %d built-in seeds into %s\n", written, folder);
    std::exit(0);
  }
  return 0;
}
