// SpillFile: an unnamed temporary file in a directory the user chose (`kcspec explore
// --spill-dir`), for explorer records that are written once, in order, and read back in large
// pieces: the frontier's compressed blocks and liveness' recovery edges. Nothing else can open it
// (it has no name), and its space is returned when it is closed — also when the process dies.
//
// An I/O error (a full disk, a directory that went away) throws std::runtime_error naming the
// directory: the explorer cannot go on without what it wrote.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace kcspec::explorer {

class SpillFile {
 public:
  // Throws std::runtime_error when no file can be created in `directory`.
  explicit SpillFile(std::string directory);
  ~SpillFile();
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;

  // Appends `size` bytes at the end; returns where they begin.
  std::uint64_t append(const void* bytes, std::size_t size);

  // Reads `size` bytes from `offset` (within what was appended). Thread-safe (pread).
  void read(std::uint64_t offset, void* bytes, std::size_t size) const;

  std::uint64_t size() const { return size_; }
  const std::string& directory() const { return directory_; }

 private:
  std::string directory_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
};

// Empty when a spill file can be created in `directory`, else why not (for the CLI's check of
// --spill-dir before a run starts).
std::string spillDirectoryProblem(const std::string& directory);

}  // namespace kcspec::explorer
