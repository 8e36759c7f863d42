// kcspec_log_gen: writes a large, realistic Kafka 3.8 state-change.log for measuring
// `kcspec check-log` (docs/performance.md "check-log throughput"): the reference controller's own
// log of one long random run (proofs/conformance/impl_log_run.hpp), TRACE on, the fake clock
// advancing 7 ms per line. `kcspec check-log` reports no findings on it.
//
//   kcspec_log_gen OUT.log [--mb 1100] [--seed 1] [--info]
//
// Prints the seed, steps, lines and bytes written. Exit 2 on bad usage or a write error.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "proofs/conformance/impl_log_run.hpp"

namespace {

int usage() {
  std::fprintf(stderr, "usage: kcspec_log_gen OUT.log [--mb N] [--seed N] [--info]\n");
  return 2;
}

bool parseCount(const char* text, std::uint64_t& out) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0') return false;
  out = value;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  const char* out_path = argv[1];
  std::uint64_t megabytes = 1100;
  kcspec::conformance::ImplLogRunOptions options;
  options.max_steps = UINT64_MAX;
  for (int i = 2; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--mb" && i + 1 < argc) {
      if (!parseCount(argv[++i], megabytes) || megabytes == 0) return usage();
    } else if (arg == "--seed" && i + 1 < argc) {
      if (!parseCount(argv[++i], options.seed)) return usage();
    } else if (arg == "--info") {
      options.threshold = kcspec::impl::LogLevel::INFO;
    } else {
      return usage();
    }
  }
  options.max_log_bytes = megabytes << 20;

  std::FILE* out = std::fopen(out_path, "wb");
  if (out == nullptr) {
    std::fprintf(stderr, "%s:0: cannot open for writing: %s\n", out_path, std::strerror(errno));
    return 2;
  }
  bool write_failed = false;
  const auto stats = kcspec::conformance::runImplLog(options, [&](std::string_view chunk) {
    if (!write_failed && std::fwrite(chunk.data(), 1, chunk.size(), out) != chunk.size()) write_failed = true;
  });
  if (std::fclose(out) != 0 || write_failed) {
    std::fprintf(stderr, "%s:0: write failed: %s\n", out_path, std::strerror(errno));
    return 2;
  }
  std::printf("%s: seed %llu, %llu steps (%llu perturbations), %llu lines, %llu bytes\n", out_path,
              static_cast<unsigned long long>(options.seed), static_cast<unsigned long long>(stats.steps),
              static_cast<unsigned long long>(stats.perturbations), static_cast<unsigned long long>(stats.log_lines),
              static_cast<unsigned long long>(stats.log_bytes));
  return 0;
}
