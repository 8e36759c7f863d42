// Where check-log's bytes come from when they are read rather than mapped: a file descriptor (a
// file, a pipe, standard input), read as it is or, when its first bytes are gzip's magic (1f 8b),
// inflated on the fly — rotated Kafka logs are usually gzip-compressed, and they are recognised by
// content, not by name. Concatenated gzip members (as `cat a.gz b.gz` makes) are read one after
// the other.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <sys/types.h>

namespace kcspec::conformance {

class LogSource {
 public:
  explicit LogSource(int fd);  // does not own fd
  ~LogSource();
  LogSource(const LogSource&) = delete;
  LogSource& operator=(const LogSource&) = delete;

  // Up to `n` bytes of the log's text into `out`: > 0 bytes given, 0 at the end, < 0 an error
  // (then error() says which). A read(2) interrupted by a signal returns -1 with EINTR, so that
  // the caller can poll its cancellation.
  ssize_t read(char* out, std::size_t n);
  const std::string& error() const { return error_; }
  bool compressed() const;  // known after the first read
  std::uint64_t compressedBytesRead() const { return raw_read_; }  // what was read from fd so far

 private:
  ssize_t fill();  // reads more raw bytes; as read(2)

  int fd_;
  struct Inflate;
  std::unique_ptr<Inflate> inflate_;  // set once the magic was seen
  bool sniffed_ = false;
  bool raw_eof_ = false;
  std::unique_ptr<char[]> raw_;
  std::size_t raw_begin_ = 0, raw_end_ = 0;
  std::uint64_t raw_read_ = 0;
  std::string error_;
};

}  // namespace kcspec::conformance
