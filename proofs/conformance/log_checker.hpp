// `kcspec check-log`'s engine: reads Kafka state-change.log / controller.log lines in one
// streaming pass, rebuilds every partition's and replica's timeline, and reports where the log
// disagrees with Kafka 3.8's rules (kafka.md §1 valid-previous tables, §0.1 epochs, §7 formats).
//
// Files are one stream, in the order given (give rotated files oldest first). What is known about
// a partition or replica is forgotten whenever the controller changes (a new id or epoch in a
// line's controller prefix): a new controller rebuilds its state from ZooKeeper without logging it.
//
// Memory is constant per partition and per replica (plus one entry per finding); lines are never
// held beyond the one being read (with `threads` > 1: beyond the bounded number of chunks being
// parsed ahead, log_parallel.hpp), and lines longer than `max_line_bytes` are counted as
// unparsed and skipped without being stored.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kcspec::conformance {

struct ParsedLine;
struct ParsedChunk;

enum class FindingKind : std::uint8_t {
  InvalidTransition,        // a logged successful change that the valid-previous table forbids
  KafkaFailure,             // Kafka logged a failed state change or election (P5, R3, K2–K4, …)
  FromStateMismatch,        // a change whose "from" is not the state last logged for it
  LeaderNotInIsr,           // a LeaderAndIsr / LICE rendering whose leader (not -1/-2) is not in its ISR
  LeaderEpochBackwards,     // a partition's leader epoch went down within one controller epoch
  PartitionEpochBackwards,  // a partition's partition epoch (zkVersion) went down within one controller epoch
  ControllerEpochBackwards, // a controller prefix with a lower epoch than the line before it, in one file
};
inline constexpr std::size_t kFindingKindCount = 7;

// The kind as printed: invalid-transition, kafka-failure, from-state-mismatch, leader-not-in-isr,
// leader-epoch-backwards, partition-epoch-backwards, controller-epoch-backwards.
std::string_view findingKindName(FindingKind kind);

struct Finding {
  std::size_t file = 0;     // index into CheckReport::files
  std::uint64_t line = 0;   // 1-based, within that file
  FindingKind kind = FindingKind::KafkaFailure;
  std::string message;
};

struct PartitionSummary {
  std::string topic;
  std::int32_t partition = 0;
  std::uint64_t partition_changes = 0;  // logged partition state changes (successful)
  std::uint64_t replica_changes = 0;    // logged replica state changes (successful)
  std::uint64_t failures = 0;           // logged failed changes (P5, R3, …)
  std::uint64_t findings = 0;
  std::size_t replicas = 0;             // replicas seen in replica lines
  std::string last_state;               // the last logged partition state, or "" if none
};

struct CheckReport {
  std::vector<std::string> files;
  std::uint64_t lines = 0;     // physical lines; lines = parsed + unparsed + blank
  std::uint64_t parsed = 0;    // record heads of known templates/prefixes, and their exception lines
  std::uint64_t unparsed = 0;
  std::uint64_t blank = 0;
  std::vector<Finding> findings;                // ordered by file, then line
  std::vector<PartitionSummary> partitions;     // ordered by topic, then partition (if asked for)
  std::array<std::uint64_t, kFindingKindCount> findings_by_kind{};
  // The run was cancelled (CheckOptions::cancel) before every file was read to its end: the
  // report covers the lines up to `last_file_lines` of the last file in `files`.
  bool interrupted = false;
  std::uint64_t last_file_lines = 0;  // lines checked in the last file of `files`
  // Files read to their end of which no line was a record the checker reads (a compressed file,
  // another layout, another log): nothing in them was checked. In `files` order.
  std::vector<std::string> nothing_checked;
};

// How far a run is, for a progress line: told on the checking thread (the one calling checkFile)
// after each mapped window, parsed chunk or read(2) buffer.
struct CheckProgress {
  std::size_t file = 0;          // index into CheckReport::files (the file being read)
  std::uint64_t bytes = 0;       // bytes of that file checked so far
  std::uint64_t file_bytes = 0;  // its size; 0 when not known (a pipe, a device)
  std::uint64_t lines = 0;       // lines checked so far, every file
};

struct CheckOptions {
  std::size_t max_line_bytes = std::size_t{1} << 20;  // longer lines: unparsed, skipped
  bool partition_summaries = true;  // fill CheckReport::partitions in finish()
  std::size_t read_buffer_bytes = std::size_t{256} << 10;  // grows when a line does not fit
  // Regular files are mapped (mmap) this many bytes at a time and unmapped behind the reader, so
  // no byte is copied and at most one window is mapped; 0 reads with read(2) into the buffer
  // instead (also the fallback for what cannot be mapped: pipes, devices). At least
  // 2 × max_line_bytes + 2 pages are mapped at a time, whatever this says.
  std::size_t map_window_bytes = std::size_t{16} << 20;
  // Threads for a mapped file (log_parallel.hpp): the lines are parsed on up to this many threads,
  // in chunks of about `parse_chunk_bytes`, while the calling thread checks them in file order
  // (and parses too when it would otherwise wait). 1: parse and check on the calling thread
  // alone. The report is the same for every value; read(2) input (pipes, devices) always uses 1.
  std::size_t threads = 1;
  std::size_t parse_chunk_bytes = std::size_t{512} << 10;
  // Polled by checkFile on the checking thread after each mapped window, parsed chunk or read(2)
  // buffer (and when a read is interrupted by a signal): once it is true, checkFile stops there
  // (with threads > 1, after joining its parsing threads), returns no error, and every later
  // checkFile returns at once without reading; finish() then reports `interrupted`.
  const std::atomic<bool>* cancel = nullptr;
  // Called at the same points with how far the run is (CheckProgress).
  std::function<void(const CheckProgress&)> progress;
};

// Called for each unparsed line: file name, line number, the line (possibly cut to a prefix).
using UnparsedSink = std::function<void(std::string_view file, std::uint64_t line, std::string_view text)>;

class LogChecker {
 public:
  explicit LogChecker(CheckOptions options = {});
  ~LogChecker();
  LogChecker(const LogChecker&) = delete;
  LogChecker& operator=(const LogChecker&) = delete;

  void setUnparsedSink(UnparsedSink sink);

  // Streams one file through the checker ("-": standard input; a gzip-compressed file or stream,
  // recognised by its first bytes, is inflated as it is read). Returns an error message ("cannot
  // open …: reason", "cannot read …", a gzip stream that is corrupt or cut short) when the file
  // cannot be read; a file of any content is otherwise accepted.
  std::optional<std::string> checkFile(const std::string& path);

  // The same for text already in memory (tests): `name` is the file name findings carry.
  void checkText(std::string_view text, const std::string& name);

  // Line-level interface, used by both of the above.
  void beginFile(const std::string& name);
  void addLine(std::string_view line);   // one physical line, without '\n'
  // The same for a line already parsed (`parsed` is parseLine(line)'s result), in file order.
  void addParsedLine(std::string_view line, const ParsedLine& parsed);
  void addOverlongLine();                // a line longer than max_line_bytes, already skipped
  void endFile();

  CheckReport finish();

  // Whether CheckOptions::cancel stopped a checkFile (the rest was not read).
  bool interrupted() const;

 private:
  void addChunk(const ParsedChunk& chunk, std::size_t cap);

  struct Impl;
  std::unique_ptr<Impl> state_;
};

// The file name that means standard input (checkFile reads it once, as a stream).
inline constexpr std::string_view kStandardInput = "-";

// Whether `path` can be opened for reading as a file; the reason when not (never for "-").
std::optional<std::string> cannotOpen(const std::string& path);

}  // namespace kcspec::conformance
