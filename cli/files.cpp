#include "cli/files.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <fstream>
#include <poll.h>
#include <spawn.h>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "spec/vocabulary/assert.hpp"
#include "spec/vocabulary/text_error.hpp"

extern char** environ;

namespace kcspec::cli {

std::optional<std::string> readFileIfExists(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream contents;
  contents << in.rdbuf();
  return contents.str();
}

namespace {

// A file the user named, opened for reading: a folder or a file that cannot be opened is refused
// as "file:0: …" (TextError).
int openUserFile(const std::string& file, std::string_view what) {
  std::error_code error;
  if (std::filesystem::is_directory(file, error)) throw TextError(file, 0, fmt::format("is a folder, not {}", what));
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw TextError(file, 0, fmt::format("cannot read the file: {}", std::strerror(errno)));
  return fd;
}

}  // namespace

std::string readUserFile(const std::string& file, std::string_view what) {
  const auto refused = [&file](std::string message) { return TextError(file, 0, std::move(message)); };
  constexpr std::size_t kMaxBytes = std::size_t{1} << 30;  // far above any configuration, scenario or trace
  const int fd = openUserFile(file, what);
  std::string contents;
  char buffer[1 << 16];
  for (;;) {  // bounded: each round adds to `contents`, which stops at kMaxBytes
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    const int failure = n < 0 ? errno : 0;
    if (n <= 0 || contents.size() + static_cast<std::size_t>(n) > kMaxBytes) {
      ::close(fd);
      if (n == 0) return contents;
      throw refused(n < 0 ? fmt::format("cannot read the file: {}", std::strerror(failure))
                          : std::string("larger than 1 GiB: not a file kcspec reads"));
    }
    contents.append(buffer, static_cast<std::size_t>(n));
  }
}

UserFileLines::UserFileLines(const std::string& file, std::string_view what, std::size_t max_line_bytes)
    : file_(file), fd_(openUserFile(file, what)), max_line_bytes_(max_line_bytes) {
  struct stat st {};
  if (::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode)) file_bytes_ = static_cast<std::uint64_t>(st.st_size);
}

UserFileLines::~UserFileLines() {
  if (fd_ >= 0) ::close(fd_);
}

bool UserFileLines::next(std::string& line) {
  for (;;) {  // bounded: each round reads more, and a line stops at max_line_bytes_
    const std::size_t end = buffer_.find('\n', std::max(start_, scanned_));
    if (end != std::string::npos) {
      line.assign(buffer_, start_, end - start_);
      start_ = end + 1;
      scanned_ = start_;
      ++line_number_;
      return true;
    }
    scanned_ = buffer_.size();  // no line end up to here: the next search starts after it
    if (buffer_.size() - start_ > max_line_bytes_) {
      throw TextError(file_, line_number_ + 1,
                      fmt::format("line longer than {} MiB: not a line of this format", max_line_bytes_ >> 20));
    }
    if (eof_) {
      if (start_ >= buffer_.size()) return false;
      line.assign(buffer_, start_, std::string::npos);  // a last line without its line end
      start_ = buffer_.size();
      ++line_number_;
      return true;
    }
    buffer_.erase(0, start_);
    scanned_ -= start_;
    start_ = 0;
    char chunk[1 << 16];
    const ssize_t n = ::read(fd_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw TextError(file_, line_number_ + 1, fmt::format("cannot read the file: {}", std::strerror(errno)));
    if (n == 0) eof_ = true;
    buffer_.append(chunk, static_cast<std::size_t>(n));
    bytes_read_ += static_cast<std::uint64_t>(n);
  }
}

int writeAll(int fd, std::string_view contents) {
  std::size_t written = 0;
  while (written < contents.size()) {
    const ssize_t n = ::write(fd, contents.data() + written, contents.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? errno : EIO;
    written += static_cast<std::size_t>(n);
  }
  return 0;
}

void checkWritableLater(const std::filesystem::path& path, bool folder, std::string_view option) {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::path absolute = fs::absolute(path, error);
  if (error || path.empty()) throw UserError(std::string(option), fmt::format("{}: not a usable path", path.string()));
  if (fs::exists(absolute, error)) {
    const bool is_folder = fs::is_directory(absolute, error);
    if (folder && !is_folder) throw UserError(std::string(option), fmt::format("{}: not a folder", path.string()));
    if (!folder && is_folder) throw UserError(std::string(option), fmt::format("{}: is a folder", path.string()));
  }
  // The folder that will hold it (the path itself for a folder that exists), or the nearest one
  // above that exists: it must be a folder kcspec may write into.
  fs::path holder = folder && fs::is_directory(absolute, error) ? absolute : absolute.parent_path();
  for (int depth = 0; depth < 4096 && !fs::exists(holder, error) && holder != holder.parent_path(); ++depth) {
    holder = holder.parent_path();
  }
  if (!fs::is_directory(holder, error)) {
    throw UserError(std::string(option), fmt::format("{}: cannot be written ({} is not a folder)", path.string(), holder.string()));
  }
  if (::access(holder.c_str(), W_OK | X_OK) != 0) {
    throw UserError(std::string(option),
                    fmt::format("{}: cannot be written ({}: {})", path.string(), holder.string(), std::strerror(errno)));
  }
  // access() answers yes to root for almost any folder (/proc, a read-only mount): make a file
  // there and take it away at once. O_TMPFILE leaves no name at all; where the file system has
  // none, a name of this process's own, unlinked at once.
  int fd = ::open(holder.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
  if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
    const fs::path probe = holder / (".kcspec-write-probe." + std::to_string(::getpid()));
    fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0) ::unlink(probe.c_str());
  }
  if (fd < 0) {
    throw UserError(std::string(option),
                    fmt::format("{}: cannot be written ({}: {})", path.string(), holder.string(), std::strerror(errno)));
  }
  ::close(fd);
}

AtomicFileWriter::AtomicFileWriter(std::filesystem::path path) : path_(std::move(path)) {
  std::error_code error;
  if (path_.has_parent_path()) std::filesystem::create_directories(path_.parent_path(), error);
  if (error) throw UserError(path_.parent_path().string(), "cannot create folder: " + error.message());
  // A name no other writer uses at the same time: this process, and a count within it.
  static std::atomic<std::uint64_t> count{0};
  temporary_ = path_.string() + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(count.fetch_add(1));
  fd_ = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) throw UserError(path_.string(), std::string("cannot write file: ") + std::strerror(errno));
}

AtomicFileWriter::~AtomicFileWriter() {
  if (fd_ < 0) return;  // committed, or failed and cleaned up
  ::close(fd_);
  ::unlink(temporary_.c_str());
}

void AtomicFileWriter::fail(int error_number, std::string_view what) {
  ::close(fd_);
  fd_ = -1;
  ::unlink(temporary_.c_str());
  throw UserError(path_.string(), fmt::format("{}: {}", what, std::strerror(error_number)));
}

void AtomicFileWriter::write(std::string_view text) {
  KCSPEC_ASSERT(fd_ >= 0);
  buffer_.append(text);
  if (buffer_.size() >= kFlushBytes) flush();
}

void AtomicFileWriter::flush() {
  if (const int failure = writeAll(fd_, buffer_); failure != 0) fail(failure, "cannot write file");
  buffer_.clear();
}

void AtomicFileWriter::commit() {
  KCSPEC_ASSERT(fd_ >= 0);
  flush();
  // The contents reach the disk before the rename makes them visible under `path`; on any failure
  // the temporary file goes and `path` keeps what it held.
  if (::fsync(fd_) != 0) fail(errno, "cannot write file");
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) {
    const int failure = errno;
    ::unlink(temporary_.c_str());
    throw UserError(path_.string(), std::string("cannot write file: ") + std::strerror(failure));
  }
  std::error_code error;
  std::filesystem::rename(temporary_, path_, error);
  if (error) {
    ::unlink(temporary_.c_str());
    throw UserError(path_.string(), "cannot replace file: " + error.message());
  }
}

void writeFileAtomically(const std::filesystem::path& path, const std::string& contents) {
  AtomicFileWriter writer(path);
  writer.write(contents);
  writer.commit();
}

std::string runFilter(const std::string& program, const std::vector<std::string>& args,
                      const std::string& input) {
  int to_child[2], from_child[2];
  if (::pipe2(to_child, O_CLOEXEC) != 0 || ::pipe2(from_child, O_CLOEXEC) != 0) {
    throw UserError(program, std::string("cannot create pipe: ") + std::strerror(errno));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, to_child[0], 0);
  posix_spawn_file_actions_adddup2(&actions, from_child[1], 1);
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(program.c_str()));
  for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(to_child[0]);
  ::close(from_child[1]);
  if (spawned != 0) {
    ::close(to_child[1]);
    ::close(from_child[0]);
    throw UserError(program, std::string("cannot run: ") + std::strerror(spawned));
  }
  // Feed the input and drain the output together, so neither side can block the other.
  std::string output;
  std::size_t written = 0;
  int writer = to_child[1];
  if (input.empty()) { ::close(writer); writer = -1; }
  char buffer[1 << 16];
  for (;;) {
    pollfd fds[2] = {{from_child[0], POLLIN, 0}, {writer, POLLOUT, 0}};
    if (::poll(fds, writer >= 0 ? 2 : 1, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (writer >= 0 && (fds[1].revents & (POLLOUT | POLLERR | POLLHUP))) {
      const ssize_t n = ::write(writer, input.data() + written, input.size() - written);
      if (n > 0) written += static_cast<std::size_t>(n);
      if (n < 0 || written == input.size()) { ::close(writer); writer = -1; }
    }
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      const ssize_t n = ::read(from_child[0], buffer, sizeof buffer);
      if (n <= 0) break;
      output.append(buffer, static_cast<std::size_t>(n));
    }
  }
  if (writer >= 0) ::close(writer);
  ::close(from_child[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw UserError(program, "exited with failure status " + std::to_string(WEXITSTATUS(status)) +
                                 (WEXITSTATUS(status) == 127 ? " (not installed?)" : ""));
  }
  return output;
}

}  // namespace kcspec::cli
