#include "proofs/conformance/log_checker.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <string>
#include <unordered_map>

#include "proofs/conformance/log_line.hpp"
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

struct ReplicaEntry {
  std::int32_t id = 0;
  std::uint8_t possible = 0;           // states it may be in now (bit per ReplicaState)
  std::uint8_t last_state = kNone;     // last logged state
  std::uint32_t gen = 0;               // controller generation `possible` belongs to; 0: never
  Where at;
};

struct PartitionEntry {
  std::uint32_t topic = 0;
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
  std::vector<ReplicaEntry> replicas;
};

struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

}  // namespace

struct LogChecker::Impl {
  CheckOptions options;
  UnparsedSink unparsed_sink;
  CheckReport report;

  // Interned topics, and partitions by (topic id, partition). Lines name a few partitions over
  // and over, so both lookups go through a small direct-mapped cache first (bounded: a fixed
  // number of slots, each holding one name or one pointer into the node-based map).
  std::unordered_map<std::string, std::uint32_t, StringHash, std::equal_to<>> topic_ids;
  std::vector<std::string> topic_names;
  struct TopicSlot {
    std::string_view name;  // the key in topic_ids (node-based, never erased: the view stays valid)
    std::uint32_t id = 0;
    bool used = false;
  };
  std::array<TopicSlot, 64> topic_cache{};
  std::unordered_map<std::uint64_t, PartitionEntry> partitions;
  struct PartitionSlot {
    std::uint64_t key = 0;
    PartitionEntry* entry = nullptr;  // nullptr: empty
  };
  std::array<PartitionSlot, 256> partition_cache{};

  // The controller generation: bumped on every change of controller (id, epoch), across files.
  std::uint32_t gen = 1;
  std::int32_t controller_id = -1;
  std::int32_t controller_epoch = -1;

  // Per file.
  std::uint32_t file = 0;
  std::uint64_t line = 0;
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

  std::uint8_t partition_closure[16] = {};
  std::uint8_t replica_closure[128] = {};

  explicit Impl(CheckOptions o) : options(o) {
    for (std::uint8_t m = 0; m < 16; ++m) partition_closure[m] = closeOver<PartitionState>(m, kPartitionTraceTargets);
    for (std::uint8_t m = 0; m < 128; ++m) replica_closure[m] = closeOver<ReplicaState>(m, kReplicaTraceTargets);
  }

  std::string fmt(const Where& w) const {
    return report.files[w.file] + ":" + std::to_string(w.line);
  }

  static std::size_t topicSlot(std::string_view topic) {
    if (topic.empty()) return 0;
    const auto at = [&](std::size_t i) { return static_cast<std::size_t>(static_cast<unsigned char>(topic[i])); };
    return (topic.size() * 31 + at(0) * 7 + at(topic.size() / 2) * 3 + at(topic.size() - 1)) & 63;
  }

  std::uint32_t topicId(std::string_view topic) {
    TopicSlot& slot = topic_cache[topicSlot(topic)];
    if (slot.used && topic == slot.name) return slot.id;
    auto it = topic_ids.find(topic);
    if (it == topic_ids.end()) {
      const auto id = static_cast<std::uint32_t>(topic_names.size());
      topic_names.emplace_back(topic);
      it = topic_ids.emplace(std::string(topic), id).first;
    }
    slot.name = it->first;
    slot.id = it->second;
    slot.used = true;
    return it->second;
  }

  PartitionEntry& partitionEntry(std::string_view topic, std::int32_t partition) {
    const std::uint32_t topic_id = topicId(topic);
    const std::uint64_t key = (std::uint64_t{topic_id} << 32) | static_cast<std::uint32_t>(partition);
    PartitionSlot& slot = partition_cache[(key * 0x9E3779B97F4A7C15ULL) >> 56];
    if (slot.entry != nullptr && slot.key == key) return *slot.entry;
    auto [it, inserted] = partitions.try_emplace(key);
    if (inserted) {
      it->second.topic = topic_id;
      it->second.partition = partition;
    }
    slot.key = key;
    slot.entry = &it->second;  // node-based map: the address is stable until finish()
    return it->second;
  }

  static ReplicaEntry& replicaEntry(PartitionEntry& entry, std::int32_t id) {
    for (ReplicaEntry& r : entry.replicas) {
      if (r.id == id) return r;
    }
    entry.replicas.push_back(ReplicaEntry{.id = id});
    return entry.replicas.back();
  }

  std::string tpName(const PartitionEntry& entry) const {
    return topic_names[entry.topic] + "-" + std::to_string(entry.partition);
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
      // The state is not changed (facts §1.4): it is still `from`.
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
    if (l.leader == -2) return;  // written during deletion: epochs restart (facts §0.1 duringDelete)
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
    PartitionEntry* entry = p.topic.empty() ? nullptr : &partitionEntry(p.topic, p.partition);
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
  s.trace_visible = false;
  s.last_epoch_by_controller.clear();
  s.cached_controller_entry = nullptr;
}

void LogChecker::addLine(std::string_view line) {
  Impl& s = *state_;
  ++s.line;
  ++s.report.lines;
  parseLine(line, s.parsed);
  switch (s.parsed.shape) {
    case LineShape::Blank:
      ++s.report.blank;
      break;
    case LineShape::Head:
      ++s.report.parsed;
      s.head(s.parsed);
      break;
    case LineShape::Continuation:
      ++s.report.parsed;
      s.continuation(s.parsed.message);
      break;
    case LineShape::Unparsed:
      s.unparsed(line);
      break;
  }
}

void LogChecker::addOverlongLine() {
  Impl& s = *state_;
  ++s.line;
  ++s.report.lines;
  s.unparsed("(line longer than " + std::to_string(s.options.max_line_bytes) + " bytes, skipped)");
}

void LogChecker::endFile() { state_->closeRecord(); }

CheckReport LogChecker::finish() {
  Impl& s = *state_;
  s.closeRecord();
  CheckReport report = std::move(s.report);
  std::stable_sort(report.findings.begin(), report.findings.end(), [](const Finding& a, const Finding& b) {
    return a.file != b.file ? a.file < b.file : a.line < b.line;
  });
  if (s.options.partition_summaries) {
    // Topics ranked by name once, so partitions sort by two integers.
    std::vector<std::uint32_t> by_name(s.topic_names.size());
    for (std::uint32_t id = 0; id < by_name.size(); ++id) by_name[id] = id;
    std::sort(by_name.begin(), by_name.end(),
              [&s](std::uint32_t a, std::uint32_t b) { return s.topic_names[a] < s.topic_names[b]; });
    std::vector<std::uint32_t> rank(by_name.size());
    for (std::uint32_t r = 0; r < by_name.size(); ++r) rank[by_name[r]] = r;
    std::vector<const PartitionEntry*> entries;
    entries.reserve(s.partitions.size());
    for (const auto& [key, entry] : s.partitions) entries.push_back(&entry);
    std::sort(entries.begin(), entries.end(), [&rank](const PartitionEntry* a, const PartitionEntry* b) {
      return rank[a->topic] != rank[b->topic] ? rank[a->topic] < rank[b->topic] : a->partition < b->partition;
    });
    report.partitions.reserve(entries.size());
    for (const PartitionEntry* entry : entries) {
      PartitionSummary summary;
      summary.topic = s.topic_names[entry->topic];
      summary.partition = entry->partition;
      summary.partition_changes = entry->partition_changes;
      summary.replica_changes = entry->replica_changes;
      summary.failures = entry->failures;
      summary.findings = entry->findings;
      summary.replicas = entry->replicas.size();
      if (entry->last_state != kNone) summary.last_state = std::string(nameOf<PartitionState>(entry->last_state));
      report.partitions.push_back(std::move(summary));
    }
  }
  s.report = CheckReport{};
  s.partitions.clear();
  s.partition_cache.fill(Impl::PartitionSlot{});
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
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::string(std::strerror(errno));
  struct stat st {};
  std::optional<std::string> reason;
  if (::fstat(fd, &st) != 0) reason = std::strerror(errno);
  else if (S_ISDIR(st.st_mode)) reason = std::strerror(EISDIR);
  ::close(fd);
  return reason;
}

namespace {

enum class Mapped { Done, NotMappable, Failed };

// Streams a regular file through `line` / `overlong` window by window: each window is mapped
// from the start of the line that the previous one left unfinished, scanned for line ends with
// memchr, and unmapped. A line longer than `cap` is reported once and skipped up to its '\n',
// across windows. `begin` runs once the first window is mapped; NotMappable: it did not run and
// nothing was read (the caller falls back to read(2)).
template <class Begin, class Line, class Overlong>
Mapped streamMapped(int fd, std::uint64_t file_size, std::size_t window_bytes, std::size_t cap, Begin&& begin,
                    Line&& line, Overlong&& overlong) {
  const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  const std::uint64_t window = std::max<std::uint64_t>(window_bytes, 2 * cap + 2 * page);
  std::uint64_t line_start = 0;  // file offset of the first byte not yet delivered
  bool skipping = false;         // inside an overlong line: drop bytes up to its '\n'
  bool first = true;
  while (line_start < file_size) {
    const std::uint64_t map_offset = line_start - line_start % page;
    const std::uint64_t map_length = std::min(window, file_size - map_offset);
    void* mapped = ::mmap(nullptr, map_length, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, static_cast<off_t>(map_offset));
    if (mapped == MAP_FAILED) return first ? Mapped::NotMappable : Mapped::Failed;
    if (first) begin();
    first = false;
    ::madvise(mapped, map_length, MADV_SEQUENTIAL);
    const char* const base = static_cast<const char*>(mapped);
    const char* const end = base + map_length;
    const char* s = base + (line_start - map_offset);
    while (s < end) {
      const auto* nl = static_cast<const char*>(std::memchr(s, '\n', static_cast<std::size_t>(end - s)));
      if (nl == nullptr) break;
      const auto length = static_cast<std::size_t>(nl - s);
      if (skipping) skipping = false;
      else if (length > cap) overlong();
      else line(std::string_view(s, length));
      s = nl + 1;
    }
    const auto rest = static_cast<std::size_t>(end - s);
    const bool at_eof = map_offset + map_length == file_size;
    if (skipping) {
      s = end;  // still inside the overlong line
    } else if (rest > cap) {
      overlong();
      skipping = true;
      s = end;
    } else if (at_eof && rest > 0) {
      line(std::string_view(s, rest));  // the last line, without '\n'
      s = end;
    }
    line_start = map_offset + static_cast<std::uint64_t>(s - base);
    ::munmap(mapped, map_length);
    if (at_eof) break;
  }
  return Mapped::Done;
}

}  // namespace

std::optional<std::string> LogChecker::checkFile(const std::string& path) {
  if (auto reason = cannotOpen(path)) return "cannot open " + path + ": " + *reason;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "cannot open " + path + ": " + std::strerror(errno);
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);

  struct stat st {};
  if (state_->options.map_window_bytes > 0 && ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    const Mapped mapped = streamMapped(
        fd, static_cast<std::uint64_t>(st.st_size), state_->options.map_window_bytes, state_->options.max_line_bytes,
        [this, &path] { beginFile(path); }, [this](std::string_view line) { addLine(line); },
        [this] { addOverlongLine(); });
    if (mapped != Mapped::NotMappable) {
      const int map_errno = errno;
      ::close(fd);
      endFile();
      if (mapped == Mapped::Failed) return "cannot read " + path + ": " + std::strerror(map_errno);
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

  beginFile(path);
  while (true) {
    char* const buf = buffer.get();
    const ssize_t n = ::read(fd, buf + have, size - have);
    if (n < 0) {
      if (errno == EINTR) continue;
      error = "cannot read " + path + ": " + std::strerror(errno);
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
  }
  if (!error && have > 0 && !skipping) addLine(std::string_view(buffer.get(), have));
  ::close(fd);
  endFile();
  return error;
}

}  // namespace kcspec::conformance
