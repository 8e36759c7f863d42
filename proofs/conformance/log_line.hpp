// One physical line of a Kafka state-change.log or controller.log, read by hand-written scanning
// (no std::regex): which layout wraps it, which message template it is, and the values the
// checker needs (kafka.md §7, every format generation of §7.7).
//
// A line is one of:
//   Blank         — nothing but whitespace;
//   Head          — a record: a state-change line whose message is a template kcspec knows, read to
//                   the end of its values, after `[Controller id=… epoch=…] `, `[Controller id=…] `
//                   or 0.8–0.11's `Controller N epoch E `; or a line with a prefix whose messages
//                   kcspec does not read (`[Broker id=…] `, 0.8 `Broker N `, the controller.log class
//                   prefixes of §7.8/§7.7, and `[Controller id=…] ` lines of KafkaController's own
//                   logger: no epoch, not from the state-change logger, no ` from <State> to <State>`);
//   Continuation  — a line of an exception attached to the previous record
//                   (`java.lang.IllegalStateException: …`, `\tat …`, `Caused by: …`, `... N more`);
//   Unparsed      — anything else, including a state-change line whose message is no template
//                   kcspec knows (a misspelt first word) and a known template that does not parse to
//                   the end of its values (a line cut short, an unknown state name).
// Layouts are peeled off before the message: docker-compose prefixes (`kafka_1  | `, ANSI colours),
// bracketed log4j timestamps, bare date/time/pid tokens, level words, `[thread]` tokens, and
// `logger:line - ` of custom layouts. The ` (state.change.logger)` suffix is ignored.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace kcspec::conformance {

enum class LogLevel : std::uint8_t { Unknown, Trace, Debug, Info, Warn, Error, Fatal };

enum class LineShape : std::uint8_t { Blank, Head, Continuation, Unparsed };

enum class RecordKind : std::uint8_t {
  Other,            // a known record that carries nothing the checker uses
  PartitionChange,  // P1–P4, 1.0 "with leader", 0.8 "changed partition [t,p] …"
  PartitionFailed,  // P5, 0.8 "initiated state change for partition … failed"
  ReplicaChange,    // R1, 0.8 "changed state of replica …"
  ReplicaFailed,    // R3, 0.8 "initiated state change of replica … failed"
  Leadership,       // R2, C1, K1: a LeaderAndIsr / LICE rendering for a partition, no transition
  Failure,          // K2–K4, 0.8 "encountered error while electing leader": Kafka logged a failure
};

// A LeaderAndIsr, LeaderIsrAndControllerEpoch or LeaderAndIsrPartitionState rendering (§7.6).
struct Leadership {
  std::int32_t leader = -1;
  std::int32_t leader_epoch = -1;      // -1: absent
  std::int64_t partition_epoch = -1;   // zkVersion / partitionEpoch / ZkVersion; -1: absent
  std::vector<std::int32_t> isr;
  std::string_view rendering;          // the rendering's text, for messages
};

struct ParsedLine {
  LineShape shape = LineShape::Unparsed;
  LogLevel level = LogLevel::Unknown;
  RecordKind kind = RecordKind::Other;

  // The controller that wrote the line, from `[Controller id=N epoch=E]` or 0.8's
  // `Controller N epoch E`; epoch -1 for `[Controller id=N]` (K3–K5).
  bool controller_prefix = false;
  std::int32_t controller_id = -1;
  std::int32_t controller_epoch = -1;

  // Kafka logs this template only at TRACE (P4, R1, C1, C6, every 0.8–1.0 change line), so
  // seeing it proves TRACE lines are being written.
  bool trace_only = false;

  std::string_view topic;          // empty: the record names no partition
  std::int32_t partition = -1;
  // When topic is not empty: PartitionIndex::hash(topic, partition), and the topic's first
  // bytes, zero-padded (an exact key for topics of up to 24 bytes, so the checker thread compares
  // these instead of reading the line again).
  std::uint64_t partition_hash = 0;
  std::array<std::uint64_t, 3> topic_prefix{};
  std::int32_t replica = -1;       // ReplicaChange / ReplicaFailed
  std::uint8_t from = 0;           // state indexes (PartitionState or ReplicaState, by kind)
  std::uint8_t to = 0;
  bool has_leadership = false;
  Leadership leadership;

  std::string_view message;        // the message (layout removed), for finding texts
};

// Parses `line` (one physical line, without its '\n') into `out`; `out` is fully reset, and its
// ISR vector's storage is reused, so a loop over a file does not allocate per line.
void parseLine(std::string_view line, ParsedLine& out);

// What follows the first ": " of an exception line (`java.lang.X: message` → `message`), or the
// whole text when there is none. Leading whitespace is dropped.
std::string_view exceptionText(std::string_view continuation);

}  // namespace kcspec::conformance
