// state-change.log formatting (state_change_logger.hpp).
#include "impl/state_change_logger.hpp"

#include <fmt/format.h>

#include <vector>

#include "spec/vocabulary/config_text.hpp"

namespace kcspec::impl {

std::string_view levelName(LogLevel level) {
  switch (level) {
    case LogLevel::TRACE: return "TRACE";
    case LogLevel::DEBUG: return "DEBUG";
    case LogLevel::INFO: return "INFO";
    case LogLevel::WARN: return "WARN";
    case LogLevel::ERROR: return "ERROR";
    case LogLevel::OFF: return "OFF";
  }
  return "INFO";
}

NullLogSink& NullLogSink::instance() {
  static NullLogSink sink;
  return sink;
}

FakeClock& FakeClock::shared() {
  static FakeClock clock;
  return clock;
}

namespace {

// Days since 1970-01-01 → civil date (Howard Hinnant's algorithm).
void civilFromDays(std::int64_t z, std::int64_t& y, unsigned& m, unsigned& d) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const auto doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  y = static_cast<std::int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  if (m <= 2) ++y;
}

}  // namespace

std::string formatTimestamp(std::int64_t timestamp_ms) {
  std::int64_t days = timestamp_ms / 86400000;
  std::int64_t rest = timestamp_ms % 86400000;
  if (rest < 0) {
    rest += 86400000;
    --days;
  }
  std::int64_t year = 0;
  unsigned month = 0, day = 0;
  civilFromDays(days, year, month, day);
  return fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02},{:03}", year, month, day, rest / 3600000, rest / 60000 % 60,
                     rest / 1000 % 60, rest % 1000);
}

std::string formatLogRecord(const LogRecord& record) {
  std::string line = fmt::format("[{}] {} {} (state.change.logger)\n", formatTimestamp(record.timestamp_ms),
                                 levelName(record.level), record.message);
  if (record.exception) line += fmt::format("{}: {}\n", record.exception->exception_class, record.exception->message);
  return line;
}

void TextLogSink::write(const LogRecord& record) {
  if (enabled(record.level)) text_ += formatLogRecord(record);
}

void StateChangeLogger::write(LogLevel level, std::string message, std::optional<Failure> exception) const {
  std::string prefix = epoch_ ? fmt::format("[Controller id={} epoch={}] ", controller_id_, *epoch_)
                              : fmt::format("[Controller id={}] ", controller_id_);
  target_.sink->write(LogRecord{target_.clock->nowMillis(), level, prefix + message, std::move(exception)});
}

std::string renderTopicPartition(const Config& config, TopicPartition tp) { return partitionName(config, tp); }

std::string renderPartitionAndReplica(const Config& config, PartitionAndReplica replica) {
  return fmt::format("[Topic={},Partition={},Replica={}]", topicName(config, replica.tp.topic), replica.tp.partition,
                     replica.replica);
}

namespace {
std::string joinSet(BrokerSet set) {
  std::vector<BrokerId> ids;
  set.forEach([&](BrokerId id) { ids.push_back(id); });
  return fmt::format("{}", fmt::join(ids, ", "));
}
}  // namespace

std::string renderScalaImmutableSet(BrokerSet set) {
  return fmt::format("{}({})", set.size() <= 4 ? "Set" : "HashSet", joinSet(set));
}

std::string renderScalaMutableSet(BrokerSet set) { return fmt::format("HashSet({})", joinSet(set)); }

}  // namespace kcspec::impl
