// Runs a fuzz target's entry point on files, without libFuzzer:
// `<target>_replay [--each-line] FILE|FOLDER...` (a folder: every file in it, recursively, in
// sorted order). Built with the normal compiler, so the seed corpora and the regression inputs of
// past findings run in every CTest run. With --each-line, each line of a file is one input (for
// the targets whose input is one line: action_text, driver_protocol; their seed files from tests/
// hold many). Exit 0 when every input was handled; a finding aborts, as under libFuzzer.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv);

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  LLVMFuzzerInitialize(&argc, &argv);
  std::vector<fs::path> inputs;
  bool each_line = false;
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--each-line") {
      each_line = true;
      continue;
    }
    const fs::path path = argv[i];
    std::error_code error;
    if (fs::is_directory(path, error)) {
      for (const fs::directory_entry& entry : fs::recursive_directory_iterator(path)) {
        if (entry.is_regular_file()) inputs.push_back(entry.path());
      }
    } else if (fs::is_regular_file(path, error)) {
      inputs.push_back(path);
    } else {
      std::fprintf(stderr, "%s: no such file or folder\n", argv[i]);
      return 2;
    }
  }
  std::sort(inputs.begin(), inputs.end());
  std::size_t handled = 0;
  const auto run = [&](std::string_view bytes) {
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    ++handled;
  };
  for (const fs::path& input : inputs) {
    std::ifstream in(input, std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    std::fprintf(stderr, "%s\n", input.c_str());
    if (!each_line) {
      run(bytes);
      continue;
    }
    const std::string_view text = bytes;
    for (std::size_t start = 0; start < text.size();) {  // a file's last line may lack its '\n'
      const std::size_t end = std::min(text.find('\n', start), text.size());
      run(text.substr(start, end - start));
      start = end + 1;
    }
  }
  std::printf("%zu inputs handled\n", handled);
  return 0;
}
