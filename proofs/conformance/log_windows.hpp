// A regular file read through mmap windows, for `kcspec check-log` (log_checker.hpp): each window
// is mapped from the page holding the first line the previous window left unfinished, and what
// it holds is told as a region of whole lines plus, possibly, one overlong line after them.
// No byte is copied; the caller unmaps each window when it is done with the lines in it, so
// memory is bounded by the windows it keeps at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace kcspec::conformance {

struct MappedWindow {
  void* map_base = nullptr;  // for unmap()
  std::size_t map_length = 0;
  std::uint64_t map_offset = 0;  // the file offset map_base is mapped from
  // Whole lines, each ending in '\n' except the file's last line when the file does not end in
  // one. Lines in here may still be longer than the cap: forEachLine() tells them apart.
  const char* begin = nullptr;
  const char* end = nullptr;
  // After the region's lines: one line longer than the cap, whose rest (up to its '\n') the
  // next windows skip.
  bool trailing_overlong = false;
};

class WindowReader {
 public:
  enum class Next { Window, End, NotMappable, Failed };

  // `window_bytes` is raised to 2 × `cap` + 2 pages, so every window holds at least one line
  // end or one overlong line. With `populate`, each window's page tables are filled when it is
  // mapped (MAP_POPULATE: one pass in the kernel); without, on first touch (page faults, taken
  // by whichever thread reads the page first).
  WindowReader(int fd, std::uint64_t file_size, std::size_t window_bytes, std::size_t cap, bool populate = true);

  // Maps the next window. NotMappable: the first window could not be mapped (nothing was read:
  // read the file another way); Failed: a later one could not (errno tells why).
  Next next(MappedWindow& out);

  static void unmap(const MappedWindow& window);

  // The file offset of `at`, a position in `window`.
  static std::uint64_t offsetOf(const MappedWindow& window, const char* at) {
    return window.map_offset + static_cast<std::uint64_t>(at - static_cast<const char*>(window.map_base));
  }

 private:
  int fd_;
  std::uint64_t file_size_;
  std::uint64_t window_;
  std::uint64_t page_;
  std::size_t cap_;
  bool populate_;
  std::uint64_t line_start_ = 0;  // file offset of the first byte not yet told
  bool skipping_ = false;         // inside an overlong line: drop bytes up to its '\n'
  bool first_ = true;
  bool done_ = false;
};

// Calls line(std::string_view) for each line of [begin, end) (without its '\n'), or overlong()
// for a line longer than `cap`, in order.
template <class Line, class Overlong>
void forEachLine(const char* begin, const char* end, std::size_t cap, Line&& line, Overlong&& overlong) {
  while (begin < end) {
    const auto* nl = static_cast<const char*>(std::memchr(begin, '\n', static_cast<std::size_t>(end - begin)));
    const char* const stop = nl == nullptr ? end : nl;
    const auto length = static_cast<std::size_t>(stop - begin);
    if (length > cap) overlong();
    else line(std::string_view(begin, length));
    if (nl == nullptr) break;
    begin = nl + 1;
  }
}

}  // namespace kcspec::conformance
