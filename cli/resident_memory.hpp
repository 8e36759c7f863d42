// The process's resident memory as Linux reports it (/proc/self/statm's second field, in pages):
// what --max-memory bounds besides the checker's own accounting (issue "A tool that CI and
// operators can trust"). 0 when it cannot be read.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>

namespace kcspec::cli {

inline std::uint64_t residentBytes() {
  const int fd = ::open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char text[128];
  const ssize_t n = ::read(fd, text, sizeof text - 1);
  ::close(fd);
  if (n <= 0) return 0;
  text[n] = '\0';
  char* end = nullptr;
  std::strtoull(text, &end, 10);  // the total program size, skipped
  const unsigned long long pages = std::strtoull(end, nullptr, 10);
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
}

}  // namespace kcspec::cli
