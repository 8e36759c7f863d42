// `kcspec check-log --threads N`: a mapped file's lines parsed on several threads (parseLine is a
// pure function of the line), handed back to the calling thread chunk by chunk in file order,
// where the checker reads them exactly as it would have on one thread.
//
// The calling thread maps the windows (log_windows.hpp) and cuts their regions into chunks of
// about `chunk_bytes` at line ends; N - 1 worker threads, and the calling thread whenever the
// next chunk in order is not parsed yet, take the chunks in order and parse them. At most
// `4 × threads` chunks (and no more than 32) are in flight (parsed or waiting), each holding at
// most `max_chunk_lines` parsed lines (the rest of a chunk of very short lines is parsed by the
// calling thread when it reaches it), and a window is unmapped once its last chunk is checked:
// memory is bounded whatever the file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string_view>

#include "proofs/conformance/log_line.hpp"
#include "proofs/conformance/log_windows.hpp"

namespace kcspec::conformance {

// One chunk, in file order: `lines[i]` parsed into `parsed[i]` (a line whose data() is nullptr
// was longer than the cap: not parsed); then the lines of [rest_begin, rest_end), not parsed yet;
// then, with `trailing_overlong`, one more line longer than the cap.
struct ParsedChunk {
  std::span<const std::string_view> lines;
  std::span<const ParsedLine> parsed;
  const char* rest_begin = nullptr;
  const char* rest_end = nullptr;
  bool trailing_overlong = false;
  std::uint64_t end_offset = 0;  // the file offset just past the chunk (its last line's '\n')
};

struct ParallelParseOptions {
  std::size_t threads = 2;             // parsing threads, the calling one included (≥ 2)
  std::size_t chunk_bytes = std::size_t{512} << 10;
  std::size_t max_chunk_lines = 8192;
  std::size_t max_line_bytes = std::size_t{1} << 20;  // longer lines are not parsed
};

// Reads the rest of `reader`, whose first window `first` is already mapped (this takes it over),
// calling `consume` on the calling thread for every chunk in file order. Returns End, or Failed
// when a later window could not be mapped (every chunk before it was consumed; errno tells why).
// When `consume` returns false, the reading stops there (no further chunk is consumed): the
// parsing threads finish the chunk each is parsing, take no other, and are joined before this
// returns End.
WindowReader::Next parseInParallel(WindowReader& reader, const MappedWindow& first, const ParallelParseOptions& options,
                                   const std::function<bool(const ParsedChunk&)>& consume);

}  // namespace kcspec::conformance
