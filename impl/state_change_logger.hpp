// state-change.log as Kafka 3.8 writes it (kafka.md §7): logger `state.change.logger`, layout
// `[yyyy-MM-dd HH:mm:ss,SSS] LEVEL message (state.change.logger)`, an attached exception on the
// following line as `<class>: <message>`, and the `[Controller id=<id> epoch=<e>] ` prefix.
//
// Where lines go is the caller's choice (a LogSink); so is the time (a Clock, by default a fixed
// fake clock so output is deterministic). Messages are built only when the sink wants the level,
// so a NullLogSink costs nothing during exploration.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "impl/errors.hpp"
#include "spec/vocabulary/broker_set.hpp"
#include "spec/vocabulary/config.hpp"
#include "spec/vocabulary/ids.hpp"

namespace kcspec::impl {

enum class LogLevel : std::uint8_t { TRACE, DEBUG, INFO, WARN, ERROR, OFF };
std::string_view levelName(LogLevel level);

struct LogRecord {
  std::int64_t timestamp_ms = 0;  // Unix epoch milliseconds, UTC
  LogLevel level = LogLevel::INFO;
  std::string message;
  std::optional<Failure> exception;
};

class LogSink {
 public:
  virtual ~LogSink() = default;
  virtual bool enabled(LogLevel level) const = 0;
  virtual void write(const LogRecord& record) = 0;
};

// Discards everything (exploration).
class NullLogSink final : public LogSink {
 public:
  bool enabled(LogLevel) const override { return false; }
  void write(const LogRecord&) override {}
  static NullLogSink& instance();
};

// Formats every record at or above `threshold` as state-change.log text.
class TextLogSink final : public LogSink {
 public:
  explicit TextLogSink(LogLevel threshold = LogLevel::TRACE) : threshold_(threshold) {}
  bool enabled(LogLevel level) const override { return level >= threshold_; }
  void write(const LogRecord& record) override;
  const std::string& text() const { return text_; }

 private:
  LogLevel threshold_;
  std::string text_;
};

// `[2024-07-23 00:00:00,000] INFO message (state.change.logger)` plus the exception line.
std::string formatLogRecord(const LogRecord& record);
// yyyy-MM-dd HH:mm:ss,SSS (UTC)
std::string formatTimestamp(std::int64_t timestamp_ms);

class Clock {
 public:
  virtual ~Clock() = default;
  virtual std::int64_t nowMillis() = 0;
};

// A fixed fake clock: starts at `start_ms` (default 2024-07-23 00:00:00,000 UTC, Kafka 3.8.0's
// release day) and advances by `step_ms` per reading (default 0: every line has the same time).
class FakeClock final : public Clock {
 public:
  static constexpr std::int64_t kDefaultStartMs = 1721692800000;
  explicit FakeClock(std::int64_t start_ms = kDefaultStartMs, std::int64_t step_ms = 0) : now_(start_ms), step_(step_ms) {}
  std::int64_t nowMillis() override {
    const std::int64_t now = now_;
    now_ += step_;
    return now;
  }
  static FakeClock& shared();

 private:
  std::int64_t now_;
  std::int64_t step_;
};

// Where a controller's state-change lines go. Non-owning; copying it shares the sink and clock.
struct LogTarget {
  LogSink* sink = &NullLogSink::instance();
  Clock* clock = &FakeClock::shared();
};

// Kafka's StateChangeLogger for one controller: `withControllerEpoch(e)` gives the prefixed
// logger of kafka.md §7.1. Messages are callables, built only when the level is enabled.
class StateChangeLogger {
 public:
  StateChangeLogger(LogTarget target, BrokerId controller_id, std::optional<std::int32_t> epoch = std::nullopt)
      : target_(target), controller_id_(controller_id), epoch_(epoch) {}

  StateChangeLogger withControllerEpoch(std::int32_t epoch) const { return StateChangeLogger(target_, controller_id_, epoch); }

  bool isEnabled(LogLevel level) const { return target_.sink->enabled(level); }
  bool isTraceEnabled() const { return isEnabled(LogLevel::TRACE); }

  template <class Message>
  void trace(Message&& message) const { log(LogLevel::TRACE, std::forward<Message>(message), std::nullopt); }
  template <class Message>
  void info(Message&& message) const { log(LogLevel::INFO, std::forward<Message>(message), std::nullopt); }
  template <class Message>
  void error(Message&& message, std::optional<Failure> exception = std::nullopt) const {
    log(LogLevel::ERROR, std::forward<Message>(message), std::move(exception));
  }

 private:
  template <class Message>
  void log(LogLevel level, Message&& message, std::optional<Failure> exception) const {
    if (!isEnabled(level)) return;
    write(level, std::string(message()), std::move(exception));
  }
  void write(LogLevel level, std::string message, std::optional<Failure> exception) const;

  LogTarget target_;
  BrokerId controller_id_;
  std::optional<std::int32_t> epoch_;
};

// ------------------------------------------------------------ Scala/Java renderings (kafka.md §7.6)

// `t-0`
std::string renderTopicPartition(const Config& config, TopicPartition tp);
// `[Topic=t,Partition=0,Replica=5]`
std::string renderPartitionAndReplica(const Config& config, PartitionAndReplica replica);
// An immutable Scala 2.13 Set: `Set(1, 2)` up to 4 elements, `HashSet(…)` beyond; ascending.
std::string renderScalaImmutableSet(BrokerSet set);
// A mutable Scala 2.13 HashSet: always `HashSet(…)`; ascending.
std::string renderScalaMutableSet(BrokerSet set);

}  // namespace kcspec::impl
