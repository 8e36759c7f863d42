// check-log's byte source: plain or gzip (log_source.hpp).
#include "proofs/conformance/log_source.hpp"

#include <zlib.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "spec/vocabulary/assert.hpp"

namespace kcspec::conformance {
namespace {
constexpr std::size_t kRawBytes = 256 * 1024;
}  // namespace

struct LogSource::Inflate {
  z_stream stream{};
  bool member_ended = false;  // the last gzip member ended: another may follow
  Inflate() {
    const int rc = inflateInit2(&stream, 15 + 16);  // gzip only
    KCSPEC_ASSERT(rc == Z_OK);
  }
  ~Inflate() { inflateEnd(&stream); }
};

LogSource::LogSource(int fd) : fd_(fd), raw_(new char[kRawBytes]) {}
LogSource::~LogSource() = default;

bool LogSource::compressed() const { return inflate_ != nullptr; }

ssize_t LogSource::fill() {
  KCSPEC_ASSERT(raw_begin_ == raw_end_);
  raw_begin_ = raw_end_ = 0;
  const ssize_t n = ::read(fd_, raw_.get(), kRawBytes);
  if (n < 0) {
    if (errno != EINTR) error_ = std::strerror(errno);
    return -1;
  }
  if (n == 0) raw_eof_ = true;
  raw_end_ = static_cast<std::size_t>(n);
  raw_read_ += static_cast<std::uint64_t>(n);
  return n;
}

ssize_t LogSource::read(char* out, std::size_t n) {
  if (!sniffed_) {
    // Enough bytes to see the magic (a pipe may give one at a time).
    while (raw_end_ < 2 && !raw_eof_) {
      const ssize_t got = ::read(fd_, raw_.get() + raw_end_, kRawBytes - raw_end_);
      if (got < 0) {
        if (errno != EINTR) error_ = std::strerror(errno);
        return -1;
      }
      if (got == 0) raw_eof_ = true;
      raw_end_ += static_cast<std::size_t>(got);
      raw_read_ += static_cast<std::uint64_t>(got);
    }
    sniffed_ = true;
    if (raw_end_ >= 2 && static_cast<unsigned char>(raw_[0]) == 0x1f && static_cast<unsigned char>(raw_[1]) == 0x8b) {
      inflate_ = std::make_unique<Inflate>();
    }
  }
  if (!inflate_) {
    if (raw_begin_ < raw_end_) {
      const std::size_t k = std::min(n, raw_end_ - raw_begin_);
      std::memcpy(out, raw_.get() + raw_begin_, k);
      raw_begin_ += k;
      return static_cast<ssize_t>(k);
    }
    if (raw_eof_) return 0;
    const ssize_t got = ::read(fd_, out, n);
    if (got < 0 && errno != EINTR) error_ = std::strerror(errno);
    if (got > 0) raw_read_ += static_cast<std::uint64_t>(got);
    return got;
  }
  z_stream& z = inflate_->stream;
  z.next_out = reinterpret_cast<Bytef*>(out);
  z.avail_out = static_cast<uInt>(std::min<std::size_t>(n, 1u << 30));
  while (z.avail_out > 0) {
    if (raw_begin_ == raw_end_) {
      if (raw_eof_) break;
      if (z.avail_out < n) break;  // give what there is before blocking on more input
      const ssize_t got = fill();
      if (got < 0) return -1;
      if (got == 0) break;
    }
    if (inflate_->member_ended) {
      // Another gzip member follows the last one (concatenated files).
      const int rc = inflateReset(&z);
      KCSPEC_ASSERT(rc == Z_OK);
      inflate_->member_ended = false;
    }
    z.next_in = reinterpret_cast<Bytef*>(raw_.get() + raw_begin_);
    z.avail_in = static_cast<uInt>(raw_end_ - raw_begin_);
    const int rc = ::inflate(&z, Z_NO_FLUSH);
    raw_begin_ = raw_end_ - z.avail_in;
    if (rc == Z_STREAM_END) {
      inflate_->member_ended = true;
    } else if (rc == Z_BUF_ERROR && z.avail_in == 0) {
      continue;  // all input used: read more
    } else if (rc != Z_OK) {
      error_ = std::string("not a valid gzip stream (") + (z.msg != nullptr ? z.msg : "zlib error " + std::to_string(rc)) + ")";
      return -2;
    }
  }
  const auto given = static_cast<ssize_t>(n - z.avail_out);
  if (given == 0 && raw_eof_ && raw_begin_ == raw_end_ && !inflate_->member_ended) {
    error_ = "a gzip stream cut short (truncated)";
    return -2;
  }
  return given;
}

}  // namespace kcspec::conformance
