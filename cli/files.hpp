// Small file helpers for the CLI: whole-file reads, atomic writes, running a filter program.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "spec/vocabulary/text_error.hpp"

namespace kcspec::cli {

// A failure the user can fix (bad flag, unreadable file, missing tool): printed as
// "<where>: <message>" and answered with exit status 2.
// Control characters in what the user gave (a file name, an option's value) are escaped
// (escapedControls): the message cannot send escape codes to a terminal.
struct UserError : std::runtime_error {
  UserError(std::string where, const std::string& message)
      : std::runtime_error(escapedControls(where.empty() ? message : where + ": " + message)) {}
};

// The file's contents, or nullopt when it does not exist.
std::optional<std::string> readFileIfExists(const std::filesystem::path& path);

// The contents of a file the user named, which holds `what` ("a configuration file"): throws
// TextError(file, 0, …) — printed `file:0: message`, as the parsers' errors are — when it is a
// folder, does not exist, cannot be read (with the system's reason) or is over 1 GiB, so none of
// these reaches a parser as an empty text.
std::string readUserFile(const std::string& file, std::string_view what);

// Writes all of `contents` to `fd` (retrying short writes and EINTR); the errno of the first
// failure, or 0.
int writeAll(int fd, std::string_view contents);

// Writes through a temporary file in the same folder (flushed to disk) and a rename, so a reader
// never sees a half-written file and a failed or interrupted write leaves the old file as it was
// (parent folders are created). Every file kcspec writes goes through here. Throws UserError.
void writeFileAtomically(const std::filesystem::path& path, const std::string& contents);

// The same, for a file written piece by piece (a long trace): what is written is buffered (at
// most kFlushBytes held) into the temporary file, and `commit` makes it the file at `path`. Not
// committed — an exception, a refused step — the temporary file is removed and `path` is as it was.
class AtomicFileWriter {
 public:
  explicit AtomicFileWriter(std::filesystem::path path);  // throws UserError
  ~AtomicFileWriter();
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  void write(std::string_view text);  // throws UserError
  void commit();                      // throws UserError; once

 private:
  static constexpr std::size_t kFlushBytes = std::size_t{1} << 20;
  void flush();
  [[noreturn]] void fail(int error_number, std::string_view what);

  std::filesystem::path path_;
  std::filesystem::path temporary_;
  int fd_ = -1;
  std::string buffer_;
};

// Before a run's work: throws UserError(option, …) unless `path` — a folder when `folder`, else a
// file — can be written later (it, or the nearest folder above it that exists, is a writable
// folder, where a file can be made — tried with a file that has no name, or is unlinked at once;
// a file path must not be a folder). Leaves nothing behind, so a run that writes nothing leaves
// nothing; a report is then never lost to an --out that was wrong from the start.
void checkWritableLater(const std::filesystem::path& path, bool folder, std::string_view option);

// A file the user named, read one line at a time (without the line end) in bounded memory: the
// same refusals as readUserFile (TextError "file:0: …"), and a line longer than `max_line_bytes`
// is refused as "file:N: line longer than …" as soon as that many bytes were read without a line
// end (/dev/zero fails at once, not after a gigabyte).
class UserFileLines {
 public:
  UserFileLines(const std::string& file, std::string_view what, std::size_t max_line_bytes);
  ~UserFileLines();
  UserFileLines(const UserFileLines&) = delete;
  UserFileLines& operator=(const UserFileLines&) = delete;

  bool next(std::string& line);             // false at the end of the file
  std::uint64_t bytesRead() const { return bytes_read_; }
  std::uint64_t fileBytes() const { return file_bytes_; }  // 0 when not a regular file

 private:
  std::string file_;
  int fd_ = -1;
  std::size_t max_line_bytes_;
  std::string buffer_;
  std::size_t start_ = 0;
  std::size_t scanned_ = 0;  // buffer_ holds no line end in [start_, scanned_)
  bool eof_ = false;
  int line_number_ = 0;
  std::uint64_t bytes_read_ = 0, file_bytes_ = 0;
};

// Runs `program args...` with `input` on its standard input and returns its standard output;
// throws UserError when it cannot be run or exits non-zero.
std::string runFilter(const std::string& program, const std::vector<std::string>& args,
                      const std::string& input);

}  // namespace kcspec::cli
