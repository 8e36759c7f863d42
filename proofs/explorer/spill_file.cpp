// SpillFile (spill_file.hpp): O_TMPFILE where the file system has it, else a named file that is
// unlinked at once.
#include "proofs/explorer/spill_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "spec/vocabulary/assert.hpp"

namespace kcspec::explorer {
namespace {

std::string failure(const std::string& directory, const char* what, int error) {
  return "spill file in " + directory + ": " + what + ": " + std::strerror(error);
}

int openUnnamed(const std::string& directory, int& error) {
  int fd = ::open(directory.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0) return fd;
  if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) {
    error = errno;
    return -1;
  }
  std::string name = directory + "/kcspec-spill-XXXXXX";
  std::vector<char> path(name.begin(), name.end());
  path.push_back('\0');
  fd = ::mkostemp(path.data(), O_CLOEXEC);
  if (fd < 0) {
    error = errno;
    return -1;
  }
  ::unlink(path.data());
  return fd;
}

}  // namespace

SpillFile::SpillFile(std::string directory) : directory_(std::move(directory)) {
  int error = 0;
  fd_ = openUnnamed(directory_, error);
  if (fd_ < 0) throw std::runtime_error(failure(directory_, "cannot create", error));
}

SpillFile::~SpillFile() {
  if (fd_ >= 0) ::close(fd_);
}

std::uint64_t SpillFile::append(const void* bytes, std::size_t size) {
  const std::uint64_t begin = size_;
  const char* from = static_cast<const char*>(bytes);
  std::size_t left = size;
  while (left > 0) {
    const ssize_t written = ::pwrite(fd_, from, left, static_cast<off_t>(size_));
    if (written < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(failure(directory_, "write failed", errno));
    }
    from += written;
    left -= static_cast<std::size_t>(written);
    size_ += static_cast<std::uint64_t>(written);
  }
  return begin;
}

void SpillFile::read(std::uint64_t offset, void* bytes, std::size_t size) const {
  KCSPEC_ASSERT(offset + size <= size_);
  char* to = static_cast<char*>(bytes);
  std::size_t left = size;
  while (left > 0) {
    const ssize_t got = ::pread(fd_, to, left, static_cast<off_t>(offset));
    if (got < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(failure(directory_, "read failed", errno));
    }
    if (got == 0) throw std::runtime_error(failure(directory_, "read failed", EIO));  // shorter than written
    to += got;
    offset += static_cast<std::uint64_t>(got);
    left -= static_cast<std::size_t>(got);
  }
}

std::string spillDirectoryProblem(const std::string& directory) {
  try {
    SpillFile probe(directory);
    const char byte = 0;
    probe.append(&byte, 1);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return {};
}

}  // namespace kcspec::explorer
