#include "proofs/conformance/log_windows.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>

namespace kcspec::conformance {

WindowReader::WindowReader(int fd, std::uint64_t file_size, std::size_t window_bytes, std::size_t cap, bool populate)
    : fd_(fd),
      file_size_(file_size),
      window_(0),
      page_(static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE))),
      cap_(cap),
      populate_(populate) {
  window_ = std::max<std::uint64_t>(window_bytes, 2 * std::uint64_t{cap} + 2 * page_);
}

WindowReader::Next WindowReader::next(MappedWindow& out) {
  if (done_ || line_start_ >= file_size_) return Next::End;
  const std::uint64_t map_offset = line_start_ - line_start_ % page_;
  const std::uint64_t map_length = std::min(window_, file_size_ - map_offset);
  const int flags = MAP_PRIVATE | (populate_ ? MAP_POPULATE : 0);
  void* mapped = ::mmap(nullptr, map_length, PROT_READ, flags, fd_, static_cast<off_t>(map_offset));
  if (mapped == MAP_FAILED) return first_ ? Next::NotMappable : Next::Failed;
  first_ = false;
  ::madvise(mapped, map_length, MADV_SEQUENTIAL);
  const char* const base = static_cast<const char*>(mapped);
  const char* const end = base + map_length;
  const bool at_eof = map_offset + map_length == file_size_;
  const char* s = base + (line_start_ - map_offset);
  out = MappedWindow{.map_base = mapped, .map_length = static_cast<std::size_t>(map_length), .map_offset = map_offset};
  if (skipping_) {  // the rest of an overlong line, up to its '\n'
    const auto* nl = static_cast<const char*>(std::memchr(s, '\n', static_cast<std::size_t>(end - s)));
    if (nl == nullptr) {
      out.begin = out.end = end;
      line_start_ = map_offset + map_length;
      done_ = at_eof;
      return Next::Window;
    }
    s = nl + 1;
    skipping_ = false;
  }
  const auto* last = static_cast<const char*>(::memrchr(s, '\n', static_cast<std::size_t>(end - s)));
  const char* region_end = last == nullptr ? s : last + 1;
  const char* next_start = region_end;
  const auto rest = static_cast<std::size_t>(end - region_end);
  if (rest > cap_) {  // an unfinished line already over the cap: reported once, then skipped
    out.trailing_overlong = true;
    skipping_ = true;
    next_start = end;
  } else if (at_eof && rest > 0) {  // the last line, without '\n'
    region_end = end;
    next_start = end;
  }
  out.begin = s;
  out.end = region_end;
  line_start_ = map_offset + static_cast<std::uint64_t>(next_start - base);
  done_ = at_eof;
  return Next::Window;
}

void WindowReader::unmap(const MappedWindow& window) {
  if (window.map_base != nullptr) ::munmap(window.map_base, window.map_length);
}

}  // namespace kcspec::conformance
