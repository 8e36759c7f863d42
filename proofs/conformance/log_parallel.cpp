#include "proofs/conformance/log_parallel.hpp"

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace kcspec::conformance {
namespace {

constexpr std::size_t kMaxChunksInFlight = 32;

struct Window {
  MappedWindow map;
  std::size_t outstanding = 0;  // chunks cut from it and not consumed yet
  bool cut_done = false;        // every chunk of it was cut
};

struct Slot {
  // Set by the calling thread when the chunk is published.
  const char* begin = nullptr;
  const char* end = nullptr;
  bool trailing_overlong = false;
  Window* window = nullptr;
  // Set by whoever parses it.
  std::vector<std::string_view> lines;
  std::vector<ParsedLine> parsed;  // reused chunk after chunk: each ISR vector keeps its storage
  std::size_t count = 0;
  const char* rest = nullptr;
  bool parsed_done = false;  // guarded by the mutex
};

class Pipeline {
 public:
  Pipeline(WindowReader& reader, const MappedWindow& first, const ParallelParseOptions& options)
      : reader_(reader), options_(options), slots_(std::min<std::size_t>(4 * options.threads, kMaxChunksInFlight)) {
    windows_.push_back(Window{.map = first});
    cut_window_ = &windows_.back();
    cut_at_ = first.begin;
    for (Slot& slot : slots_) slot.lines.reserve(256);
    workers_.reserve(options.threads - 1);
    for (std::size_t i = 0; i + 1 < options.threads; ++i) workers_.emplace_back([this] { work(); });
  }

  ~Pipeline() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    work_ready_.notify_all();
    for (std::thread& worker : workers_) worker.join();
    for (const Window& window : windows_) WindowReader::unmap(window.map);
  }

  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  WindowReader::Next run(const std::function<bool(const ParsedChunk&)>& consume) {
    fill();
    while (consumed_ < published_) {
      Slot& slot = slots_[consumed_ % slots_.size()];
      {
        std::unique_lock lock(mutex_);
        while (!slot.parsed_done) {
          if (claimed_ < published_) {  // rather than wait, parse the next chunk nobody took
            Slot& next = slots_[claimed_++ % slots_.size()];
            lock.unlock();
            parse(next);
            lock.lock();
            next.parsed_done = true;
          } else {
            parsed_.wait(lock);
          }
        }
      }
      const bool go_on = consume(ParsedChunk{.lines = std::span(slot.lines.data(), slot.count),
                                             .parsed = std::span(slot.parsed.data(), slot.count),
                                             .rest_begin = slot.rest,
                                             .rest_end = slot.end,
                                             .trailing_overlong = slot.trailing_overlong,
                                             .end_offset = WindowReader::offsetOf(slot.window->map, slot.end)});
      // Stopped: the destructor stops the workers and unmaps every window still mapped.
      if (!go_on) return WindowReader::Next::End;
      --slot.window->outstanding;
      while (!windows_.empty() && windows_.front().cut_done && windows_.front().outstanding == 0) {
        WindowReader::unmap(windows_.front().map);
        windows_.pop_front();
      }
      ++consumed_;
      fill();
    }
    if (failed_) {
      errno = failed_errno_;
      return WindowReader::Next::Failed;
    }
    return WindowReader::Next::End;
  }

 private:
  // Publishes chunks while fewer than slots_.size() are in flight and the file has more.
  void fill() {
    bool any = false;
    while (published_ - consumed_ < slots_.size()) {
      Slot& slot = slots_[published_ % slots_.size()];
      if (!cut(slot)) break;
      {
        std::lock_guard lock(mutex_);
        slot.parsed_done = false;
        ++published_;
      }
      any = true;
    }
    if (any) work_ready_.notify_all();
  }

  // The next chunk into `slot`: up to the first line end at or after chunk_bytes from the cut,
  // or the rest of the window's region. False at the end of the file (or at a window that
  // could not be mapped).
  bool cut(Slot& slot) {
    while (true) {
      if (cut_window_ == nullptr) {
        if (input_done_) return false;
        MappedWindow next;
        switch (reader_.next(next)) {
          case WindowReader::Next::Window:
            break;
          case WindowReader::Next::End:
          case WindowReader::Next::NotMappable:
            input_done_ = true;
            return false;
          case WindowReader::Next::Failed:
            failed_errno_ = errno;
            failed_ = true;
            input_done_ = true;
            return false;
        }
        windows_.push_back(Window{.map = next});
        cut_window_ = &windows_.back();
        cut_at_ = next.begin;
      }
      Window& window = *cut_window_;
      const char* const region_end = window.map.end;
      if (cut_at_ == region_end && !window.map.trailing_overlong) {
        // Nothing in it (the middle of an overlong line): no chunk refers to it, so it goes now,
        // and skipping a long line never keeps more than one such window mapped.
        WindowReader::unmap(window.map);
        windows_.pop_back();
        cut_window_ = nullptr;
        continue;
      }
      const char* stop = region_end;
      if (static_cast<std::size_t>(region_end - cut_at_) > options_.chunk_bytes) {
        const char* from = cut_at_ + options_.chunk_bytes;
        const auto* nl = static_cast<const char*>(std::memchr(from, '\n', static_cast<std::size_t>(region_end - from)));
        stop = nl == nullptr ? region_end : nl + 1;
      }
      slot.begin = cut_at_;
      slot.end = stop;
      slot.window = &window;
      ++window.outstanding;
      cut_at_ = stop;
      slot.trailing_overlong = false;
      if (stop == region_end) {
        slot.trailing_overlong = window.map.trailing_overlong;
        window.cut_done = true;
        cut_window_ = nullptr;
      }
      return true;
    }
  }

  void parse(Slot& slot) const {
    std::size_t count = 0;
    const char* p = slot.begin;
    const char* const end = slot.end;
    while (p < end && count < options_.max_chunk_lines) {
      const auto* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
      const char* const stop = nl == nullptr ? end : nl;
      const auto length = static_cast<std::size_t>(stop - p);
      if (count == slot.parsed.size()) {
        slot.parsed.emplace_back();
        slot.lines.emplace_back();
      }
      if (length > options_.max_line_bytes) {
        slot.lines[count] = std::string_view();
      } else {
        slot.lines[count] = std::string_view(p, length);
        parseLine(slot.lines[count], slot.parsed[count]);
      }
      ++count;
      p = nl == nullptr ? end : nl + 1;
    }
    slot.count = count;
    slot.rest = p;
  }

  void work() {
    std::unique_lock lock(mutex_);
    while (true) {
      work_ready_.wait(lock, [this] { return stop_ || claimed_ < published_; });
      // Stopping: nothing left to take, or the reading was stopped (chunks still published are
      // not wanted any more).
      if (stop_) return;
      Slot& slot = slots_[claimed_++ % slots_.size()];
      lock.unlock();
      parse(slot);
      lock.lock();
      slot.parsed_done = true;
      parsed_.notify_one();
    }
  }

  WindowReader& reader_;
  const ParallelParseOptions options_;
  std::vector<Slot> slots_;  // chunk n lives in slots_[n % size]
  std::deque<Window> windows_;  // mapped, in file order; references stay valid (push_back / pop_front)
  Window* cut_window_ = nullptr;  // the window chunks are being cut from
  const char* cut_at_ = nullptr;
  bool input_done_ = false;
  bool failed_ = false;
  int failed_errno_ = 0;

  std::mutex mutex_;
  std::condition_variable work_ready_;
  std::condition_variable parsed_;
  std::uint64_t published_ = 0;  // chunks cut and handed out
  std::uint64_t claimed_ = 0;    // chunks taken by a parser (guarded by mutex_)
  std::uint64_t consumed_ = 0;   // chunks consumed (the calling thread only)
  bool stop_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace

WindowReader::Next parseInParallel(WindowReader& reader, const MappedWindow& first, const ParallelParseOptions& options,
                                   const std::function<bool(const ParsedChunk&)>& consume) {
  ParallelParseOptions o = options;
  o.threads = std::max<std::size_t>(o.threads, 2);
  o.chunk_bytes = std::max<std::size_t>(o.chunk_bytes, 1);
  o.max_chunk_lines = std::max<std::size_t>(o.max_chunk_lines, 1);
  WindowReader::Next result = WindowReader::Next::End;
  int saved_errno = 0;
  {
    Pipeline pipeline(reader, first, o);
    result = pipeline.run(consume);
    saved_errno = errno;
  }  // the workers joined and the windows unmapped: keep the errno of a failed window
  errno = saved_errno;
  return result;
}

}  // namespace kcspec::conformance
