#include "proofs/conformance/log_checker.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <deque>
#include <string>
#include <unordered_map>

#include "proofs/conformance/log_line.hpp"
#include "proofs/conformance/log_parallel.hpp"
#include "proofs/conformance/log_partition_index.hpp"
#include "proofs/conformance/log_source.hpp"
#include "proofs/conformance/log_windows.hpp"
#include "spec/vocabulary/states.hpp"
#include "spec/vocabulary/valid_previous_states.hpp"

namespace kcspec::conformance {

std::string_view findingKindName(FindingKind kind) {
  switch (kind) {
    case FindingKind::InvalidTransition: return "invalid-transition";
    case FindingKind::KafkaFailure: return "kafka-failure";
    case FindingKind::FromStateMismatch: return "from-state-mismatch";
    case FindingKind::LeaderNotInIsr: return "leader-not-in-isr";
    case FindingKind::LeaderEpochBackwards: return "leader-epoch-backwards";
    case FindingKind::PartitionEpochBackwards: return "partition-epoch-backwards";
    case FindingKind::ControllerEpochBackwards: return "controller-epoch-backwards";
  }
  return "unknown";
}

namespace {

constexpr std::uint8_t kNone = 0xFF;
constexpr std::size_t kMaxQuoted = 400;  // bytes of log text quoted in a finding

std::string quoted(std::string_view text) {
  if (text.size() <= kMaxQuoted) return std::string(text);
  return std::string(text.substr(0, kMaxQuoted)) + "…";
}

template <class State>
std::string_view nameOf(std::uint8_t index) {
  return stateName(static_cast<State>(index));
}

// The states a machine may be in after a logged change to `mask`, when the changes Kafka logs only
// at TRACE are not in the log: those into `hidden` targets, repeated. With TRACE visible, `mask`.
template <class State>
std::uint8_t closeOver(std::uint8_t mask, std::uint8_t hidden_targets) {
  std::uint8_t closed = mask;
  bool grew = true;
  while (grew) {
    grew = false;
    for (const Transition<State>& edge : ValidPrevious<State>::table) {
      const auto from = static_cast<std::uint8_t>(stateIndex(edge.from));
      const auto to = static_cast<std::uint8_t>(stateIndex(edge.to));
      if ((closed & (1u << from)) && (hidden_targets & (1u << to)) && !(closed & (1u << to))) {
        closed = static_cast<std::uint8_t>(closed | (1u << to));
        grew = true;
      }
    }
  }
  return closed;
}

// Partition changes logged only at TRACE in 2.6+ (P4): into OfflinePartition and NonExistentPartition.
// Replica changes (R1) are all TRACE.
constexpr std::uint8_t kPartitionTraceTargets =
    (1u << static_cast<unsigned>(PartitionState::OfflinePartition)) |
    (1u << static_cast<unsigned>(PartitionState::NonExistentPartition));
constexpr std::uint8_t kReplicaTraceTargets = 0x7F;

struct Where {
  std::uint32_t file = 0;
  std::uint64_t line = 0;
};

constexpr std::uint32_t kNoReplica = UINT32_MAX;

struct ReplicaEntry {
  std::int32_t id = 0;
  std::uint32_t next = kNoReplica;     // the partition's next replica in the pool
  std::uint8_t possible = 0;           // states it may be in now (bit per ReplicaState)
  std::uint8_t last_state = kNone;     // last logged state
  std::uint32_t gen = 0;               // controller generation `possible` belongs to; 0: never
  Where at;
};

struct PartitionEntry {
  std::string topic_name;
  std::array<std::uint64_t, 3> topic_prefix{};  // ParsedLine::topic_prefix: compared on every lookup
  std::int32_t partition = 0;
  std::uint8_t possible = 0;
  std::uint8_t last_state = kNone;
  std::uint32_t state_gen = 0;
  Where state_at;
  std::int32_t leader_epoch = -1;
  std::uint32_t leader_epoch_gen = 0;
  Where leader_epoch_at;
  std::int64_t partition_epoch = -1;
  std::uint32_t partition_epoch_gen = 0;
  Where partition_epoch_at;
  std::uint64_t partition_changes = 0;
  std::uint64_t replica_changes = 0;
  std::uint64_t failures = 0;
  std::uint64_t findings = 0;
  std::uint32_t first_replica = kNoReplica;  // in LogChecker::Impl::replica_pool
  std::uint32_t replica_count = 0;
};

}  // namespace

struct LogChecker::Impl {
  CheckOptions options;
  UnparsedSink unparsed_sink;
  CheckReport report;

  // Partitions in a deque (stable addresses, allocated in blocks), found by (topic, partition)
  // through an open-addressing index; their replicas in one pool, linked partition by partition.
  std::deque<PartitionEntry> partitions;
  PartitionIndex partition_index;
  std::deque<ReplicaEntry> replica_pool;

  // The controller generation: bumped on every change of controller (id, epoch), across files.
  std::uint32_t gen = 1;
  std::int32_t controller_id = -1;
  std::int32_t controller_epoch = -1;

  // Per file.
  std::uint32_t file = 0;
  std::uint64_t line = 0;
  std::uint64_t parsed_at_file_start = 0;  // report.parsed when the file began: none more, nothing checked
  bool trace_visible = false;
  // Per controller id: the last epoch it logged and where. A file may interleave controllers
  // (a merged log, or a zombie still logging after a failover); each one's epoch only grows.
  std::unordered_map<std::int32_t, std::pair<std::int32_t, std::uint64_t>> last_epoch_by_controller;
  // The entry of the controller id seen last (consecutive lines mostly share one); node-based
  // map, so the address is stable until the map is cleared.
  std::int32_t cached_controller_id = -1;
  std::pair<std::int32_t, std::uint64_t>* cached_controller_entry = nullptr;

  // The record being read: a failure waiting for its exception line, or one already reported.
  bool pending = false;
  bool record_reported = false;
  bool pending_has_exception = false;
  Finding pending_finding;
  PartitionEntry* pending_entry = nullptr;

  ParsedLine parsed;

  bool cancelled = false;  // CheckOptions::cancel stopped a file: nothing more is read

  std::uint8_t partition_closure[16] = {};
  std::uint8_t replica_closure[128] = {};

  explicit Impl(CheckOptions o) : options(o) {
    for (std::uint8_t m = 0; m < 16; ++m) partition_closure[m] = closeOver<PartitionState>(m, kPartitionTraceTargets);
    for (std::uint8_t m = 0; m < 128; ++m) replica_closure[m] = closeOver<ReplicaState>(m, kReplicaTraceTargets);
  }

  std::string fmt(const Where& w) const {
    return report.files[w.file] + ":" + std::to_string(w.line);
  }

  // `hash` and `prefix` are ParsedLine::partition_hash and topic_prefix: a topic of up to 24
  // bytes is matched without reading its text.
  PartitionEntry& partitionEntry(std::string_view topic, std::int32_t partition, std::uint64_t hash,
                                 const std::array<std::uint64_t, 3>& prefix) {
    const std::uint32_t found = partition_index.find(hash, [&](std::uint32_t number) {
      const PartitionEntry& e = partitions[number];
      return e.partition == partition && e.topic_name.size() == topic.size() && e.topic_prefix == prefix &&
             (topic.size() <= sizeof(prefix) || e.topic_name == topic);
    });
    if (found != PartitionIndex::kAbsent) return partitions[found];
    partition_index.insert(hash);
    PartitionEntry& entry = partitions.emplace_back();
    entry.topic_name = topic;
    entry.topic_prefix = prefix;
    entry.partition = partition;
    return entry;
  }

  // Cache hints for the line `distance` lines ahead (log_parallel's chunks give the lines in
  // advance): its index slot 16 lines ahead, its entry 8 lines ahead.
  // (Inlined early on purpose: GCC takes a function that only prefetches for a const one and
  // drops the calls.)
  [[gnu::always_inline]] void prefetchFar(const ParsedLine& p) const {
    if (!p.topic.empty()) partition_index.prefetch(p.partition_hash);
  }
  [[gnu::always_inline]] void prefetchNear(const ParsedLine& p) const {
    if (p.topic.empty()) return;
    const std::uint32_t number = partition_index.likely(p.partition_hash);
    if (number != PartitionIndex::kAbsent) __builtin_prefetch(&partitions[number]);
  }

  ReplicaEntry& replicaEntry(PartitionEntry& entry, std::int32_t id) {
    std::uint32_t* link = &entry.first_replica;
    while (*link != kNoReplica) {
      ReplicaEntry& r = replica_pool[*link];
      if (r.id == id) return r;
      link = &r.next;
    }
    *link = static_cast<std::uint32_t>(replica_pool.size());
    ++entry.replica_count;
    return replica_pool.emplace_back(ReplicaEntry{.id = id});
  }

  std::string tpName(const PartitionEntry& entry) const {
    return entry.topic_name + "-" + std::to_string(entry.partition);
  }

  // "partition t-0", or "replica 2 of partition t-0"; built only for a finding's message.
  std::string subject(const PartitionEntry& entry, std::int32_t replica) const {
    if (replica < 0) return "partition " + tpName(entry);
    return "replica " + std::to_string(replica) + " of partition " + tpName(entry);
  }

  Where here() const { return Where{file, line}; }

  void addFinding(FindingKind kind, std::string message, PartitionEntry* entry, Where at) {
    report.findings.push_back(Finding{at.file, at.line, kind, std::move(message)});
    ++report.findings_by_kind[static_cast<std::size_t>(kind)];
    if (entry != nullptr) ++entry->findings;
  }
  void addFinding(FindingKind kind, std::string message, PartitionEntry* entry) {
    addFinding(kind, std::move(message), entry, here());
  }

  void closeRecord() {
    if (pending) addFinding(FindingKind::KafkaFailure, std::move(pending_finding.message), pending_entry,
                            Where{static_cast<std::uint32_t>(pending_finding.file), pending_finding.line});
    pending = false;
    pending_has_exception = false;
    record_reported = false;
    pending_entry = nullptr;
  }

  void startFailure(std::string message, PartitionEntry* entry) {
    pending = true;
    record_reported = true;
    pending_has_exception = false;
    pending_finding = Finding{file, line, FindingKind::KafkaFailure, std::move(message)};
    pending_entry = entry;
  }

  void controllerSeen(const ParsedLine& p) {
    if (p.controller_epoch >= 0) {
      bool first_time = false;
      if (cached_controller_entry == nullptr || cached_controller_id != p.controller_id) {
        auto [seen, inserted] = last_epoch_by_controller.try_emplace(p.controller_id, p.controller_epoch, line);
        first_time = inserted;
        cached_controller_id = p.controller_id;
        cached_controller_entry = &seen->second;
      }
      std::pair<std::int32_t, std::uint64_t>& entry = *cached_controller_entry;
      const auto [last_epoch, last_epoch_line] = entry;
      if (!first_time && p.controller_epoch < last_epoch) {
        addFinding(FindingKind::ControllerEpochBackwards,
                   "controller epoch " + std::to_string(p.controller_epoch) + " (controller " +
                       std::to_string(p.controller_id) + ") after its epoch " + std::to_string(last_epoch) +
                       " at line " + std::to_string(last_epoch_line),
                   nullptr);
      }
      entry = {p.controller_epoch, line};
    }
    if (p.controller_id != controller_id || (p.controller_epoch >= 0 && p.controller_epoch != controller_epoch)) {
      ++gen;  // a new controller: what the old one had logged is no longer known
      controller_id = p.controller_id;
      controller_epoch = p.controller_epoch;
    }
  }

  template <class State>
  std::string statesText(std::uint8_t mask) const {
    std::string text;
    for (State s : StateTraits<State>::all) {
      if (mask & (1u << stateIndex(s))) {
        if (!text.empty()) text += ",";
        text += stateName(s);
      }
    }
    return text;
  }

  // The "from" check and the new knowledge, shared by partitions and replicas.
  template <class State>
  void checkFrom(std::uint8_t& possible, std::uint32_t& known_gen, std::uint8_t last_state, const Where& known_at,
                 std::uint8_t from, std::int32_t replica, PartitionEntry& entry) {
    if (known_gen != gen || (possible & (1u << from))) return;
    std::string message = subject(entry, replica) + " changed from " + std::string(nameOf<State>(from)) +
                          ", but its last logged state is " +
                          (last_state == kNone ? std::string("unknown") : std::string(nameOf<State>(last_state))) +
                          " (" + fmt(known_at) + ")";
    if (possible != (1u << last_state)) message += "; states reachable without a logged change: " + statesText<State>(possible);
    addFinding(FindingKind::FromStateMismatch, std::move(message), &entry);
  }

  std::uint8_t knowledge(std::uint8_t state, bool partition) const {
    const std::uint8_t mask = static_cast<std::uint8_t>(1u << state);
    if (trace_visible) return mask;
    return partition ? partition_closure[mask] : replica_closure[mask];
  }

  void partitionChange(const ParsedLine& p, PartitionEntry& entry, bool failed) {
    checkFrom<PartitionState>(entry.possible, entry.state_gen, entry.last_state, entry.state_at, p.from, -1, entry);
    const auto from = static_cast<PartitionState>(p.from);
    const auto to = static_cast<PartitionState>(p.to);
    if (failed) {
      // The state is not changed (kafka.md §1.4): it is still `from`.
      entry.possible = knowledge(p.from, true);
      entry.last_state = p.from;
      ++entry.failures;
      startFailure(subject(entry, -1) + ": Kafka failed to change its state from " + std::string(stateName(from)) + " to " +
                       std::string(stateName(to)),
                   &entry);
    } else {
      if (!isValidTransition(from, to)) {
        addFinding(FindingKind::InvalidTransition,
                   subject(entry, -1) + " changed from " + std::string(stateName(from)) + " to " + std::string(stateName(to)) +
                       ", which " + std::string(stateName(to)) + " may not be entered from (valid previous states: " +
                       validPreviousText<PartitionState>(to) + ")",
                   &entry);
      }
      entry.possible = knowledge(p.to, true);
      entry.last_state = p.to;
      ++entry.partition_changes;
      if (to == PartitionState::NewPartition || to == PartitionState::NonExistentPartition) {
        // A (re)created partition starts again at leader epoch 0 and partition epoch 0.
        entry.leader_epoch_gen = 0;
        entry.partition_epoch_gen = 0;
      }
    }
    entry.state_gen = gen;
    entry.state_at = here();
  }

  void replicaChange(const ParsedLine& p, PartitionEntry& entry, bool failed) {
    ReplicaEntry& replica = replicaEntry(entry, p.replica);
    checkFrom<ReplicaState>(replica.possible, replica.gen, replica.last_state, replica.at, p.from, p.replica, entry);
    const auto from = static_cast<ReplicaState>(p.from);
    const auto to = static_cast<ReplicaState>(p.to);
    if (failed) {
      replica.possible = knowledge(p.from, false);
      replica.last_state = p.from;
      ++entry.failures;
      startFailure(subject(entry, p.replica) + ": Kafka failed to change its state from " + std::string(stateName(from)) + " to " +
                       std::string(stateName(to)),
                   &entry);
    } else {
      if (!isValidTransition(from, to)) {
        addFinding(FindingKind::InvalidTransition,
                   subject(entry, p.replica) + " changed from " + std::string(stateName(from)) + " to " + std::string(stateName(to)) +
                       ", which " + std::string(stateName(to)) + " may not be entered from (valid previous states: " +
                       validPreviousText<ReplicaState>(to) + ")",
                   &entry);
      }
      replica.possible = knowledge(p.to, false);
      replica.last_state = p.to;
      ++entry.replica_changes;
    }
    replica.gen = gen;
    replica.at = here();
  }

  template <class State>
  static std::string validPreviousText(State to) {
    std::string text;
    for (const Transition<State>& edge : ValidPrevious<State>::table) {
      if (edge.to != to) continue;
      if (!text.empty()) text += ",";
      text += stateName(edge.from);
    }
    return text;
  }

  void leadership(const Leadership& l, PartitionEntry& entry) {
    if (l.leader != -1 && l.leader != -2 && std::find(l.isr.begin(), l.isr.end(), l.leader) == l.isr.end()) {
      std::string isr;
      for (std::int32_t id : l.isr) {
        if (!isr.empty()) isr += ",";
        isr += std::to_string(id);
      }
      addFinding(FindingKind::LeaderNotInIsr,
                 subject(entry, -1) + ": leader " + std::to_string(l.leader) + " is not in ISR [" + isr + "] in " + quoted(l.rendering),
                 &entry);
    }
    if (l.leader == -2) return;  // written during deletion: epochs restart (kafka.md §0.1 duringDelete)
    if (l.leader_epoch >= 0) {
      if (entry.leader_epoch_gen == gen && l.leader_epoch < entry.leader_epoch) {
        addFinding(FindingKind::LeaderEpochBackwards,
                   subject(entry, -1) + ": leader epoch " + std::to_string(l.leader_epoch) + " after " +
                       std::to_string(entry.leader_epoch) + " (" + fmt(entry.leader_epoch_at) +
                       ") within controller epoch " + std::to_string(controller_epoch),
                   &entry);
      }
      entry.leader_epoch = l.leader_epoch;
      entry.leader_epoch_gen = gen;
      entry.leader_epoch_at = here();
    }
    if (l.partition_epoch >= 0) {
      if (entry.partition_epoch_gen == gen && l.partition_epoch < entry.partition_epoch) {
        addFinding(FindingKind::PartitionEpochBackwards,
                   subject(entry, -1) + ": partition epoch " + std::to_string(l.partition_epoch) + " after " +
                       std::to_string(entry.partition_epoch) + " (" + fmt(entry.partition_epoch_at) +
                       ") within controller epoch " + std::to_string(controller_epoch),
                   &entry);
      }
      entry.partition_epoch = l.partition_epoch;
      entry.partition_epoch_gen = gen;
      entry.partition_epoch_at = here();
    }
  }

  void head(const ParsedLine& p) {
    closeRecord();
    if (p.level == LogLevel::Trace || p.trace_only) trace_visible = true;
    if (p.controller_prefix || p.controller_id >= 0) controllerSeen(p);
    PartitionEntry* entry = p.topic.empty() ? nullptr : &partitionEntry(p.topic, p.partition, p.partition_hash, p.topic_prefix);
    switch (p.kind) {
      case RecordKind::PartitionChange:
        partitionChange(p, *entry, false);
        break;
      case RecordKind::PartitionFailed:
        partitionChange(p, *entry, true);
        break;
      case RecordKind::ReplicaChange:
        replicaChange(p, *entry, false);
        break;
      case RecordKind::ReplicaFailed:
        replicaChange(p, *entry, true);
        break;
      case RecordKind::Failure:
        if (entry != nullptr) ++entry->failures;
        startFailure("Kafka logged a failure: " + quoted(p.message), entry);
        break;
      case RecordKind::Leadership:
      case RecordKind::Other:
        break;
    }
    if (p.has_leadership && entry != nullptr) leadership(p.leadership, *entry);
  }

  void continuation(std::string_view text) {
    std::size_t i = 0;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    const std::string_view trimmed = text.substr(i);
    const bool frame = trimmed.starts_with("at ") || trimmed.starts_with("...");
    if (pending) {
      if (!pending_has_exception && !frame) {
        pending_finding.message += ": " + quoted(trimmed);
        pending_has_exception = true;
      }
      return;
    }
    if (record_reported || frame) return;
    const bool illegal_state = trimmed.find("should be in") != std::string_view::npos &&
                               trimmed.find("states before moving to") != std::string_view::npos;
    const bool failed_election = trimmed.find("Failed to elect leader for partition") != std::string_view::npos;
    if (illegal_state || failed_election) {
      addFinding(FindingKind::KafkaFailure, "Kafka logged a failure: " + quoted(trimmed), nullptr);
      record_reported = true;
    }
  }

  void tell(std::uint64_t bytes, std::uint64_t file_bytes) const {
    if (options.progress) options.progress(CheckProgress{file, bytes, file_bytes, report.lines});
  }

  // Polls CheckOptions::cancel; once raised, it stays so.
  bool stopRequested() {
    if (!cancelled && options.cancel != nullptr && options.cancel->load(std::memory_order_relaxed)) cancelled = true;
    return cancelled;
  }

  void unparsed(std::string_view text) {
    ++report.unparsed;
    if (unparsed_sink) unparsed_sink(report.files[file], line, text.substr(0, std::min<std::size_t>(text.size(), 300)));
  }
};

LogChecker::LogChecker(CheckOptions options) : state_(std::make_unique<Impl>(options)) {}
LogChecker::~LogChecker() = default;

void LogChecker::setUnparsedSink(UnparsedSink sink) { state_->unparsed_sink = std::move(sink); }

void LogChecker::beginFile(const std::string& name) {
  Impl& s = *state_;
  s.report.files.push_back(name);
  s.file = static_cast<std::uint32_t>(s.report.files.size() - 1);
  s.line = 0;
  s.parsed_at_file_start = s.report.parsed;
  s.trace_visible = false;
  s.last_epoch_by_controller.clear();
  s.cached_controller_entry = nullptr;
}

void LogChecker::addLine(std::string_view line) {
  parseLine(line, state_->parsed);
  addParsedLine(line, state_->parsed);
}

void LogChecker::addParsedLine(std::string_view line, const ParsedLine& parsed) {
  Impl& s = *state_;
  ++s.line;
  ++s.report.lines;
  switch (parsed.shape) {
    case LineShape::Blank:
      ++s.report.blank;
      break;
    case LineShape::Head:
      ++s.report.parsed;
      s.head(parsed);
      break;
    case LineShape::Continuation:
      ++s.report.parsed;
      s.continuation(parsed.message);
      break;
    case LineShape::Unparsed:
      s.unparsed(line);
      break;
  }
}

void LogChecker::addChunk(const ParsedChunk& chunk, std::size_t cap) {
  const std::size_t n = chunk.lines.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (i + 32 < n) {  // the parsed lines come from another core's cache
      const char* ahead = reinterpret_cast<const char*>(&chunk.parsed[i + 32]);
      for (std::size_t byte = 0; byte < sizeof(ParsedLine); byte += 64) __builtin_prefetch(ahead + byte);
    }
    if (i + 16 < n) state_->prefetchFar(chunk.parsed[i + 16]);
    if (i + 8 < n) state_->prefetchNear(chunk.parsed[i + 8]);
    if (chunk.lines[i].data() == nullptr) addOverlongLine();
    else addParsedLine(chunk.lines[i], chunk.parsed[i]);
  }
  forEachLine(chunk.rest_begin, chunk.rest_end, cap, [this](std::string_view line) { addLine(line); },
              [this] { addOverlongLine(); });
  if (chunk.trailing_overlong) addOverlongLine();
}

void LogChecker::addOverlongLine() {
  Impl& s = *state_;
  ++s.line;
  ++s.report.lines;
  s.unparsed("(line longer than " + std::to_string(s.options.max_line_bytes) + " bytes, skipped)");
}

void LogChecker::endFile() {
  Impl& s = *state_;
  s.closeRecord();
  if (!s.cancelled && s.report.parsed == s.parsed_at_file_start) s.report.nothing_checked.push_back(s.report.files[s.file]);
}

CheckReport LogChecker::finish() {
  Impl& s = *state_;
  s.closeRecord();
  CheckReport report = std::move(s.report);
  report.interrupted = s.cancelled;
  report.last_file_lines = report.files.empty() ? 0 : s.line;
  std::stable_sort(report.findings.begin(), report.findings.end(), [](const Finding& a, const Finding& b) {
    return a.file != b.file ? a.file < b.file : a.line < b.line;
  });
  if (s.options.partition_summaries) {
    std::vector<const PartitionEntry*> entries;
    entries.reserve(s.partitions.size());
    for (const PartitionEntry& entry : s.partitions) entries.push_back(&entry);
    std::sort(entries.begin(), entries.end(), [](const PartitionEntry* a, const PartitionEntry* b) {
      const int by_topic = a->topic_name.compare(b->topic_name);
      return by_topic != 0 ? by_topic < 0 : a->partition < b->partition;
    });
    report.partitions.reserve(entries.size());
    for (const PartitionEntry* entry : entries) {
      PartitionSummary summary;
      summary.topic = entry->topic_name;
      summary.partition = entry->partition;
      summary.partition_changes = entry->partition_changes;
      summary.replica_changes = entry->replica_changes;
      summary.failures = entry->failures;
      summary.findings = entry->findings;
      summary.replicas = entry->replica_count;
      if (entry->last_state != kNone) summary.last_state = std::string(nameOf<PartitionState>(entry->last_state));
      report.partitions.push_back(std::move(summary));
    }
  }
  s.report = CheckReport{};
  s.cancelled = false;
  s.partitions.clear();
  s.partition_index.clear();
  s.replica_pool.clear();
  return report;
}

void LogChecker::checkText(std::string_view text, const std::string& name) {
  beginFile(name);
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    if (line.size() > state_->options.max_line_bytes) addOverlongLine();
    else addLine(line);
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  endFile();
}

std::optional<std::string> cannotOpen(const std::string& path) {
  if (path == kStandardInput) return std::nullopt;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::string(std::strerror(errno));
  struct stat st {};
  std::optional<std::string> reason;
  if (::fstat(fd, &st) != 0) reason = std::strerror(errno);
  else if (S_ISDIR(st.st_mode)) reason = std::strerror(EISDIR);
  ::close(fd);
  return reason;
}

bool LogChecker::interrupted() const { return state_->cancelled; }

std::optional<std::string> LogChecker::checkFile(const std::string& path) {
  if (state_->stopRequested()) return std::nullopt;  // interrupted: the file is not begun
  if (auto reason = cannotOpen(path)) return "cannot open " + path + ": " + *reason;
  const bool standard_input = path == kStandardInput;
  const int fd = standard_input ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "cannot open " + path + ": " + std::strerror(errno);
  const auto closeFd = [&] {
    if (!standard_input) ::close(fd);
  };
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);

  struct stat st {};
  // A gzip-compressed file (its first two bytes 1f 8b, whatever its name) is inflated as it is
  // read (log_source.hpp), not mapped.
  unsigned char magic[2] = {0, 0};
  const bool gzip = ::pread(fd, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
  if (!gzip && state_->options.map_window_bytes > 0 && ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    const std::size_t cap = state_->options.max_line_bytes;
    const bool parallel = state_->options.threads > 1;
    const auto size = static_cast<std::uint64_t>(st.st_size);
    // On one thread the kernel fills each window's page tables in one pass when mapping it; with
    // parsing threads, the pages are faulted in by the threads that parse them, not by the
    // checking thread, which maps the windows.
    WindowReader reader(fd, static_cast<std::uint64_t>(st.st_size), state_->options.map_window_bytes, cap,
                        /*populate=*/!parallel);
    MappedWindow window;
    WindowReader::Next next = reader.next(window);
    if (next != WindowReader::Next::NotMappable) {
      beginFile(path);
      if (parallel) {
        next = parseInParallel(reader, window,
                               ParallelParseOptions{.threads = state_->options.threads,
                                                    .chunk_bytes = state_->options.parse_chunk_bytes,
                                                    .max_line_bytes = cap},
                               [this, cap, size](const ParsedChunk& chunk) {
                                 addChunk(chunk, cap);
                                 state_->tell(chunk.end_offset, size);
                                 // The last chunk ends at the end of the file: nothing is left to stop.
                                 return chunk.end_offset >= size || !state_->stopRequested();
                               });
      } else {
        while (next == WindowReader::Next::Window) {
          forEachLine(window.begin, window.end, cap, [this](std::string_view line) { addLine(line); },
                      [this] { addOverlongLine(); });
          if (window.trailing_overlong) addOverlongLine();
          const std::uint64_t done = WindowReader::offsetOf(window, window.end);
          WindowReader::unmap(window);
          state_->tell(done, size);
          next = reader.next(window);
          if (next == WindowReader::Next::Window && state_->stopRequested()) {
            WindowReader::unmap(window);
            break;
          }
        }
      }
      const int map_errno = errno;
      closeFd();
      endFile();
      if (next == WindowReader::Next::Failed) return "cannot read " + path + ": " + std::strerror(map_errno);
      return std::nullopt;
    }
    // Not mappable: read it with read(2) below (nothing was delivered yet).
  }

  // The buffer starts small enough to stay in cache between read() and parsing, and grows (up to
  // the line cap) only when one line does not fit.
  const std::size_t cap = state_->options.max_line_bytes;
  std::size_t size = std::max<std::size_t>(state_->options.read_buffer_bytes, 4096);
  std::unique_ptr<char[]> buffer(new char[size]);
  std::size_t have = 0;      // bytes of an unfinished line kept at the front of the buffer
  bool skipping = false;     // inside an overlong line: drop bytes up to its '\n'
  std::optional<std::string> error;
  // A regular file is read this way only when it cannot be mapped (or mapping is off).
  const std::uint64_t file_bytes = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? static_cast<std::uint64_t>(st.st_size) : 0;
  LogSource source(fd);

  beginFile(path);
  while (true) {
    if (state_->stopRequested()) break;  // also after a read(2) a signal interrupted
    char* const buf = buffer.get();
    const ssize_t n = source.read(buf + have, size - have);
    if (n < 0) {
      if (n == -1 && errno == EINTR && source.error().empty()) continue;
      error = "cannot read " + path + ": " + source.error();
      break;
    }
    if (n == 0) break;
    const std::size_t len = have + static_cast<std::size_t>(n);
    std::size_t start = 0;
    while (start < len) {
      const auto* nl = static_cast<const char*>(std::memchr(buf + start, '\n', len - start));
      if (nl == nullptr) break;
      const auto end = static_cast<std::size_t>(nl - buf);
      if (skipping) skipping = false;
      else if (end - start > cap) addOverlongLine();
      else addLine(std::string_view(buf + start, end - start));
      start = end + 1;
    }
    const std::size_t rest = len - start;
    if (skipping) {
      have = 0;
    } else if (rest > cap) {
      addOverlongLine();
      skipping = true;
      have = 0;
    } else {
      std::memmove(buf, buf + start, rest);
      have = rest;
      if (have == size) {  // one unfinished line fills the buffer: grow it
        const std::size_t bigger = std::min(size * 2, cap + 1);
        std::unique_ptr<char[]> grown(new char[bigger]);
        std::memcpy(grown.get(), buf, have);
        buffer = std::move(grown);
        size = bigger;
      }
    }
    state_->tell(source.compressed() ? source.compressedBytesRead() : source.compressedBytesRead() - have, file_bytes);
  }
  if (!error && !state_->cancelled && have > 0 && !skipping) addLine(std::string_view(buffer.get(), have));
  closeFd();
  endFile();
  return error;
}

}  // namespace kcspec::conformance
