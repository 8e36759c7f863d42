#include "proofs/conformance/log_line.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>

#include "proofs/conformance/log_partition_index.hpp"
#include "spec/vocabulary/states.hpp"

namespace kcspec::conformance {
namespace {

constexpr bool isDigit(char c) { return c >= '0' && c <= '9'; }
constexpr bool isAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
constexpr bool isIdent(char c) { return isAlpha(c) || isDigit(c) || c == '_' || c == '$'; }
constexpr bool isSpace(char c) { return c == ' ' || c == '\t'; }
// Kafka's legal topic characters: [a-zA-Z0-9._-] (a table: topics are checked on every line).
constexpr std::array<bool, 256> kTopicChars = [] {
  std::array<bool, 256> table{};
  for (int c = 0; c < 256; ++c) {
    const char ch = static_cast<char>(c);
    table[static_cast<std::size_t>(c)] = isAlpha(ch) || isDigit(ch) || ch == '.' || ch == '_' || ch == '-';
  }
  return table;
}();
constexpr bool isTopicChar(char c) { return kTopicChars[static_cast<unsigned char>(c)]; }

bool startsWith(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && std::memcmp(s.data(), prefix.data(), prefix.size()) == 0;
}

// The first `ch` in [p, e), or nullptr: the first 32 bytes a word at a time (a log4j timestamp
// closes within them), then memchr.
const char* findByte(const char* p, const char* e, char ch) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
  constexpr std::uint64_t kHighs = 0x8080808080808080ULL;
  const std::uint64_t pattern = kOnes * static_cast<unsigned char>(ch);
  for (int word = 0; word < 4 && e - p >= 8; ++word, p += 8) {
    std::uint64_t v = 0;
    std::memcpy(&v, p, 8);
    v ^= pattern;  // a zero byte where `ch` is
    const std::uint64_t zero = (v - kOnes) & ~v & kHighs;
    if (zero != 0) return p + __builtin_ctzll(zero) / 8;  // little-endian: the lowest set byte is the first
  }
  return static_cast<const char*>(std::memchr(p, ch, static_cast<std::size_t>(e - p)));
}

// A forward-only scanner over one message.
struct Cursor {
  const char* p;
  const char* e;

  explicit Cursor(std::string_view s) : p(s.data()), e(s.data() + s.size()) {}
  std::size_t left() const { return static_cast<std::size_t>(e - p); }
  bool done() const { return p >= e; }
  char peek() const { return p < e ? *p : '\0'; }
  std::string_view rest() const { return {p, left()}; }

  // A literal: its length is a constant, so the comparison compiles to a few 8-byte loads and
  // compares (overlapping at the end), not a call to memcmp.
  template <std::size_t N>
  bool lit(const char (&s)[N]) {
    constexpr std::size_t n = N - 1;
    if (left() < n || !equalBytes<n>(p, s)) return false;
    p += n;
    return true;
  }
  template <std::size_t n>
  static bool equalBytes(const char* a, const char* b) {
    if constexpr (n < 8) {
      return std::memcmp(a, b, n) == 0;  // short: the compiler expands it inline
    } else {
      std::size_t i = 0;
      for (; i + 8 <= n; i += 8) {
        if (load8(a + i) != load8(b + i)) return false;
      }
      if constexpr (n % 8 != 0) {
        if (load8(a + n - 8) != load8(b + n - 8)) return false;
      }
      return true;
    }
  }
  static std::uint64_t load8(const char* q) {
    std::uint64_t v = 0;
    std::memcpy(&v, q, 8);
    return v;
  }
  bool lit(std::string_view s) {
    if (left() < s.size() || std::memcmp(p, s.data(), s.size()) != 0) return false;
    p += s.size();
    return true;
  }

  // An optional '-' and 1–18 digits.
  bool integer(std::int64_t& value) {
    const char* q = p;
    bool negative = false;
    if (q < e && *q == '-') {
      negative = true;
      ++q;
    }
    const char* digits = q;
    std::int64_t v = 0;
    while (q < e && isDigit(*q)) {
      if (q - digits >= 18) return false;
      v = v * 10 + (*q - '0');
      ++q;
    }
    if (q == digits) return false;
    value = negative ? -v : v;
    p = q;
    return true;
  }

  bool int32(std::int32_t& value) {
    const char* start = p;
    std::int64_t v = 0;
    if (!integer(v) || v < std::numeric_limits<std::int32_t>::min() ||
        v > std::numeric_limits<std::int32_t>::max()) {
      p = start;
      return false;
    }
    value = static_cast<std::int32_t>(v);
    return true;
  }

  std::string_view word() {
    const char* start = p;
    while (p < e && isAlpha(*p)) ++p;
    return {start, static_cast<std::size_t>(p - start)};
  }

  // Up to (not including) the next space, or the end.
  std::string_view token() {
    const char* start = p;
    while (p < e && *p != ' ') ++p;
    return {start, static_cast<std::size_t>(p - start)};
  }

  // Moves just past the first occurrence of `needle`; false (and no move) when absent.
  bool skipPast(std::string_view needle) {
    const std::string_view r = rest();
    const std::size_t at = r.find(needle);
    if (at == std::string_view::npos) return false;
    p += at + needle.size();
    return true;
  }
};

// Whether the `n` (≥ 8) bytes at `a` and `b` are equal: 8-byte loads, the last one overlapping.
bool equalLong(const char* a, const char* b, std::size_t n) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    if (Cursor::load8(a + i) != Cursor::load8(b + i)) return false;
  }
  return i == n || Cursor::load8(a + n - 8) == Cursor::load8(b + n - 8);
}

// The states whose names start with each capital letter (state indexes, kNoState after the
// last), so a name is compared only with the one or two that can match.
constexpr std::uint8_t kNoState = 0xFF;
template <class State>
constexpr auto kStatesByInitial = [] {
  std::array<std::array<std::uint8_t, StateTraits<State>::count + 1>, 26> table{};
  for (auto& row : table) row.fill(kNoState);
  for (const State state : StateTraits<State>::all) {
    auto& row = table[static_cast<std::size_t>(stateName(state)[0] - 'A')];
    std::size_t at = 0;
    while (row[at] != kNoState) ++at;
    row[at] = static_cast<std::uint8_t>(stateIndex(state));
  }
  return table;
}();

// A state name as a whole word (the maximal run of letters at the cursor is exactly the name),
// matched against the names directly rather than scanning the word first.
template <class State>
bool parseState(Cursor& c, std::uint8_t& index) {
  const char first = c.peek();
  if (first >= 'A' && first <= 'Z') {
    for (const std::uint8_t candidate : kStatesByInitial<State>[static_cast<std::size_t>(first - 'A')]) {
      if (candidate == kNoState) break;
      const std::string_view name = StateTraits<State>::names[candidate];
      if (c.left() < name.size()) continue;
      if (!(name.size() >= 8 ? equalLong(c.p, name.data(), name.size())
                             : std::memcmp(c.p, name.data(), name.size()) == 0)) {
        continue;
      }
      if (c.left() > name.size() && isAlpha(c.p[name.size()])) continue;  // a longer word
      c.p += name.size();
      index = candidate;
      return true;
    }
  }
  c.word();  // as the word-first reader left it
  return false;
}

// " from <State> to <State>"
template <class State>
bool parseFromTo(Cursor& c, ParsedLine& out) {
  return c.lit(" from ") && parseState<State>(c, out.from) && c.lit(" to ") && parseState<State>(c, out.to);
}

bool validTopic(std::string_view topic) {
  if (topic.empty() || topic.size() > 249) return false;
  for (char ch : topic) {
    if (!isTopicChar(ch)) return false;
  }
  return true;
}

// `topic-3` (1.0+): the topic is everything before the last '-'. One pass over the topic
// characters; the token must end at a space or at the end of the message.
bool parseTpDash(Cursor& c, ParsedLine& out) {
  const char* start = c.p;
  const char* q = start;
  const char* dash = nullptr;
  while (q < c.e && isTopicChar(*q)) {
    if (*q == '-') dash = q;
    ++q;
  }
  if (dash == nullptr || dash == start || dash - start > 249 || (q < c.e && *q != ' ')) return false;
  std::int64_t v = 0;
  const char* digit = dash + 1;
  if (digit == q || q - digit > 10) return false;
  for (; digit < q; ++digit) {
    if (!isDigit(*digit)) return false;
    v = v * 10 + (*digit - '0');
  }
  if (v > std::numeric_limits<std::int32_t>::max()) return false;
  out.partition = static_cast<std::int32_t>(v);
  out.topic = {start, static_cast<std::size_t>(dash - start)};
  c.p = q;
  return true;
}

// `[topic,3]` (0.8–0.11).
bool parseTpBracket(Cursor& c, ParsedLine& out) {
  const char* start = c.p;
  if (!c.lit("[")) return false;
  const char* topic_start = c.p;
  while (!c.done() && isTopicChar(c.peek())) ++c.p;
  const std::string_view topic{topic_start, static_cast<std::size_t>(c.p - topic_start)};
  if (!validTopic(topic) || !c.lit(",") || !c.int32(out.partition) || out.partition < 0 || !c.lit("]")) {
    c.p = start;
    return false;
  }
  out.topic = topic;
  return true;
}

// Characters that end or nest a `key=value` value.
constexpr std::array<bool, 256> kValueSpecial = [] {
  std::array<bool, 256> table{};
  for (char ch : {'(', '[', ')', ']', ',', '\''}) table[static_cast<unsigned char>(ch)] = true;
  return table;
}();

// The value of one `key=value` field: up to ", " or ')' at depth 0, skipping nested (), [] and
// quoted strings. Leaves the cursor on the separator.
std::string_view scanValue(Cursor& c) {
  const char* start = c.p;
  int depth = 0;
  while (true) {
    while (c.p < c.e && !kValueSpecial[static_cast<unsigned char>(*c.p)]) ++c.p;
    if (c.done()) break;
    const char ch = *c.p;
    if (ch == '\'') {
      const void* close = std::memchr(c.p + 1, '\'', static_cast<std::size_t>(c.e - c.p - 1));
      c.p = close == nullptr ? c.e : static_cast<const char*>(close) + 1;
      continue;
    }
    if (ch == '(' || ch == '[') {
      ++depth;
    } else if (ch == ')' || ch == ']') {
      if (depth == 0) break;
      --depth;
    } else if (depth == 0 && c.p + 1 < c.e && c.p[1] == ' ') {  // ", "
      break;
    }
    ++c.p;
  }
  return {start, static_cast<std::size_t>(c.p - start)};
}

bool parseIntText(std::string_view text, std::int64_t& value) {
  Cursor c(text);
  return c.integer(value) && c.done();
}

// A list of broker ids in any rendering: `List(1, 2)`, `Vector(1)`, `[3, 2]`, `1001,1002`, `List()`.
bool parseIdList(std::string_view text, std::vector<std::int32_t>& ids) {
  std::size_t i = 0;
  while (i < text.size() && isAlpha(text[i])) ++i;
  std::string_view inner = text.substr(i);
  if (!inner.empty() && (inner.front() == '(' || inner.front() == '[')) {
    const char close = inner.front() == '(' ? ')' : ']';
    if (inner.back() != close) return false;
    inner = inner.substr(1, inner.size() - 2);
  } else if (i != 0) {
    return false;
  }
  Cursor c(inner);
  while (!c.done()) {
    while (c.peek() == ' ') ++c.p;
    std::int32_t id = 0;
    if (!c.int32(id)) return false;
    ids.push_back(id);
    while (c.peek() == ' ') ++c.p;
    if (c.done()) break;
    if (!c.lit(",")) return false;
  }
  return true;
}

// `List(BrokerState(brokerId=1, brokerEpoch=-1), …)` (3.5+).
bool parseBrokerStateList(std::string_view text, std::vector<std::int32_t>& ids) {
  Cursor c(text);
  while (c.skipPast("brokerId=")) {
    std::int32_t id = 0;
    if (!c.int32(id)) return false;
    ids.push_back(id);
  }
  return true;
}

// `List(BrokerState(brokerId=1, brokerEpoch=-1), …)` read in place; false (cursor unmoved, ISR
// unchanged) when the value has another shape.
bool parseBrokerStates(Cursor& c, std::vector<std::int32_t>& ids) {
  Cursor probe = c;
  const std::size_t before = ids.size();
  if (!probe.lit("List(")) return false;
  bool ok = true;
  if (!probe.lit(")")) {
    while (true) {
      std::int32_t id = 0;
      std::int32_t epoch = 0;
      if (!probe.lit("BrokerState(brokerId=") || !probe.int32(id) || !probe.lit(", brokerEpoch=") ||
          !probe.int32(epoch) || !probe.lit(")")) {
        ok = false;
        break;
      }
      ids.push_back(id);
      if (probe.lit(")")) break;
      if (!probe.lit(", ")) {
        ok = false;
        break;
      }
    }
  }
  if (!ok) {
    ids.resize(before);
    return false;
  }
  c = probe;
  return true;
}

// `Name(key=value, key=value, …)` — LeaderAndIsr (1.1+), LeaderAndIsrPartitionState (2.4+) and
// the hand-written PartitionState (1.1–2.3). Reads the fields the checker uses. With `tail`
// (what follows the rendering's ')' in the message), the fields after zkVersion/partitionEpoch —
// which every rendering lists after leader, leaderEpoch and isr — are skipped by searching for
// `tail` instead of being scanned one by one.
bool parseKeyValueRendering(Cursor& c, std::string_view name, Leadership& out, std::string_view tail = {}) {
  const char* start = c.p;
  if (!c.lit(name) || !c.lit("(")) return false;
  bool has_leader = false;
  bool has_isr = false;
  while (true) {
    const std::string_view key = c.word();
    if (key.empty() || !c.lit("=")) return false;
    if (key == "isrWithBrokerEpoch" && parseBrokerStates(c, out.isr)) {  // the long one, read directly
      has_isr = true;
      if (c.lit(")")) break;
      if (!c.lit(", ")) return false;
      continue;
    }
    const std::string_view value = scanValue(c);
    std::int64_t number = 0;
    if (key == "leader") {
      if (!parseIntText(value, number)) return false;
      out.leader = static_cast<std::int32_t>(number);
      has_leader = true;
    } else if (key == "leaderEpoch") {
      if (!parseIntText(value, number)) return false;
      out.leader_epoch = static_cast<std::int32_t>(number);
    } else if (key == "zkVersion" || key == "partitionEpoch") {
      if (!parseIntText(value, number)) return false;
      out.partition_epoch = number;
      if (!tail.empty() && has_leader && has_isr) {
        const std::size_t at = c.rest().find(tail);
        if (at == std::string_view::npos) return false;
        c.p += at + 1;  // just past the rendering's ')'
        out.rendering = {start, static_cast<std::size_t>(c.p - start)};
        return true;
      }
    } else if (key == "isr") {
      if (!parseIdList(value, out.isr)) return false;
      has_isr = true;
    } else if (key == "isrWithBrokerEpoch") {
      if (!parseBrokerStateList(value, out.isr)) return false;
      has_isr = true;
    }
    if (c.lit(")")) break;
    if (!c.lit(", ")) return false;
  }
  if (!has_leader || !has_isr) return false;
  out.rendering = {start, static_cast<std::size_t>(c.p - start)};
  return true;
}

// The first `tail` in the rest of `q` (the same as rest().find(tail)), by memchr for its first
// byte and a compare, without string_view::find's generic search and memcmp call.
const char* findTail(const Cursor& q, std::string_view tail) {
  if (tail.empty()) return q.p;
  const char* p = q.p;
  while (true) {
    p = static_cast<const char*>(std::memchr(p, tail[0], static_cast<std::size_t>(q.e - p)));
    if (p == nullptr || static_cast<std::size_t>(q.e - p) < tail.size()) return nullptr;
    if (tail.size() >= 8 ? equalLong(p, tail.data(), tail.size()) : std::memcmp(p, tail.data(), tail.size()) == 0) return p;
    ++p;
  }
}

// The generated 2.4+ C1 rendering in the exact member order Kafka writes it, read straight
// through (the hot template of TRACE logs):
//   LeaderAndIsrPartitionState(topicName='t', partitionIndex=0, controllerEpoch=1, leader=1,
//   leaderEpoch=0, isr=[1, 2], partitionEpoch=0, …
// then past `tail`. Gives exactly what parseKeyValueRendering gives for such a line; on any
// other shape it returns false and leaves `c` and `out` as they were, for the general reader.
bool parseLeaderAndIsrPartitionStateFast(Cursor& c, Leadership& out, std::string_view tail) {
  Cursor q = c;
  const std::size_t isr_size = out.isr.size();
  const auto fallBack = [&] {
    out.isr.resize(isr_size);
    return false;
  };
  std::int64_t ignored = 0;
  if (!q.lit("LeaderAndIsrPartitionState(topicName='")) return false;
  const void* quote = std::memchr(q.p, '\'', q.left());
  if (quote == nullptr) return false;
  q.p = static_cast<const char*>(quote) + 1;
  std::int64_t leader = 0;
  std::int64_t leader_epoch = 0;
  std::int64_t partition_epoch = 0;
  if (!q.lit(", partitionIndex=") || !q.integer(ignored) || !q.lit(", controllerEpoch=") || !q.integer(ignored) ||
      !q.lit(", leader=") || !q.integer(leader) || !q.lit(", leaderEpoch=") || !q.integer(leader_epoch) ||
      !q.lit(", isr=[")) {
    return false;
  }
  if (!q.lit("]")) {
    while (true) {
      std::int32_t id = 0;
      if (!q.int32(id)) return fallBack();
      out.isr.push_back(id);
      if (q.lit("]")) break;
      if (!q.lit(", ")) return fallBack();
    }
  }
  if (!(q.lit(", partitionEpoch=") || q.lit(", zkVersion=")) || !q.integer(partition_epoch) ||
      !(q.peek() == ')' || (q.left() >= 2 && q.p[0] == ',' && q.p[1] == ' '))) {  // where the general reader's value ends
    return fallBack();
  }
  const char* close = findTail(q, tail);
  if (close == nullptr) return fallBack();
  q.p = close + 1;  // just past the rendering's ')'
  out.leader = static_cast<std::int32_t>(leader);
  out.leader_epoch = static_cast<std::int32_t>(leader_epoch);
  out.partition_epoch = partition_epoch;
  out.rendering = {c.p, static_cast<std::size_t>(q.p - c.p)};
  c = q;
  return true;
}

// The 3.2+ LeaderAndIsr rendering of P2/P3 lines in the exact member order Kafka writes it, read
// straight through:
//   LeaderAndIsr(leader=1, leaderEpoch=0, isrWithBrokerEpoch=List(BrokerState(brokerId=1,
//   brokerEpoch=-1), …), leaderRecoveryState=RECOVERED, partitionEpoch=0)
// or with `isr=List(1, 2)` (3.2–3.4). Gives exactly what parseKeyValueRendering gives for such a
// rendering; on any other shape it returns false and leaves `c` and `out` as they were.
bool parseLeaderAndIsrFast(Cursor& c, Leadership& out) {
  Cursor q = c;
  const std::size_t isr_size = out.isr.size();
  const auto fallBack = [&] {
    out.isr.resize(isr_size);
    return false;
  };
  std::int64_t leader = 0;
  std::int64_t leader_epoch = 0;
  std::int64_t partition_epoch = 0;
  if (!q.lit("LeaderAndIsr(leader=") || !q.integer(leader) || !q.lit(", leaderEpoch=") || !q.integer(leader_epoch)) {
    return false;
  }
  if (q.lit(", isrWithBrokerEpoch=")) {
    if (!parseBrokerStates(q, out.isr)) return false;
  } else if (q.lit(", isr=List(")) {
    if (!q.lit(")")) {
      while (true) {
        std::int32_t id = 0;
        if (!q.int32(id)) return fallBack();
        out.isr.push_back(id);
        if (q.lit(")")) break;
        if (!q.lit(", ")) return fallBack();
      }
    }
  } else {
    return false;
  }
  if (!q.lit(", leaderRecoveryState=") || q.word().empty() || !q.lit(", partitionEpoch=") || !q.integer(partition_epoch) ||
      !q.lit(")")) {
    return fallBack();
  }
  out.leader = static_cast<std::int32_t>(leader);
  out.leader_epoch = static_cast<std::int32_t>(leader_epoch);
  out.partition_epoch = partition_epoch;
  out.rendering = {c.p, static_cast<std::size_t>(q.p - c.p)};
  c = q;
  return true;
}

// `(Leader:1,ISR:1,2,LeaderRecoveryState:RECOVERED,LeaderEpoch:2,ZkVersion:3,ControllerEpoch:5)`
// and its older forms (§7.6).
bool parseLice(Cursor& c, Leadership& out) {
  const char* start = c.p;
  if (!c.lit("(Leader:") || !c.int32(out.leader) || !c.lit(",ISR:")) return false;
  while (isDigit(c.peek()) || c.peek() == '-') {
    std::int32_t id = 0;
    if (!c.int32(id)) return false;
    out.isr.push_back(id);
    if (!c.lit(",")) break;
    if (!isDigit(c.peek()) && c.peek() != '-') {
      --c.p;  // the ',' before the next key
      break;
    }
  }
  while (c.lit(",")) {
    const std::string_view key = c.word();
    if (key.empty() || !c.lit(":")) return false;
    if (key == "LeaderEpoch") {
      if (!c.int32(out.leader_epoch)) return false;
    } else if (key == "ZkVersion") {
      std::int64_t v = 0;
      if (!c.integer(v)) return false;
      out.partition_epoch = v;
    } else if (key == "ControllerEpoch") {
      std::int32_t ignored = 0;
      if (!c.int32(ignored)) return false;
    } else {
      c.word();  // LeaderRecoveryState:RECOVERED
    }
  }
  if (!c.lit(")")) return false;
  out.rendering = {start, static_cast<std::size_t>(c.p - start)};
  return true;
}

// ---------------------------------------------------------------------------------------------
// Message templates

// What a message after `[Controller id=…]` is: a template kcspec knows, read to the end of its values
// (Record); the start of one whose values do not parse — cut short, an unknown state name (Broken);
// or no template kcspec knows (Unknown: a controller.log line of KafkaController, which shares the
// prefix, or a state-change line kcspec cannot read — parseLine decides which).
enum class Body : std::uint8_t { Record, Broken, Unknown };

// After `[Controller id=N epoch=E] ` (1.0+), or `[Controller id=N] `: the state-change templates of
// kafka.md §7.2–7.5 (P1–P5, R1–R3, C1–C6, K1–K5) and 1.0's `… with leader N`.
Body parseControllerBody(Cursor c, ParsedLine& out) {
  constexpr auto read = [](bool parsed) { return parsed ? Body::Record : Body::Broken; };
  switch (c.peek()) {
    case 'C':
      if (c.lit("Changed partition ")) {
        if (!parseTpDash(c, out)) return Body::Broken;
        const bool state_form = c.lit(" state");
        if (!parseFromTo<PartitionState>(c, out)) return Body::Broken;
        out.kind = RecordKind::PartitionChange;
        if (c.lit(" with state ")) {  // P2, P3
          if (state_form || !(parseLeaderAndIsrFast(c, out.leadership) ||
                              parseKeyValueRendering(c, "LeaderAndIsr", out.leadership))) {
            return Body::Broken;
          }
          out.has_leadership = true;
        } else if (c.lit(" with leader ")) {  // 1.0.x
          std::int32_t leader = 0;
          if (!c.int32(leader)) return Body::Broken;
          out.trace_only = true;
        } else if (c.lit(" with assigned replicas")) {  // P1
        } else {  // P4
          const auto to = static_cast<PartitionState>(out.to);
          if (to == PartitionState::OfflinePartition || to == PartitionState::NonExistentPartition) out.trace_only = true;
        }
        return Body::Record;
      }
      if (c.lit("Changed state of replica ")) {  // R1
        out.kind = RecordKind::ReplicaChange;
        out.trace_only = true;
        return read(c.int32(out.replica) && c.lit(" for partition ") && parseTpDash(c, out) &&
                    parseFromTo<ReplicaState>(c, out));
      }
      if (c.lit("Changed ")) return Body::Broken;
      if (c.lit("Controller ")) {  // P5, R3
        std::int32_t id = 0;
        std::int32_t epoch = 0;
        if (!c.int32(id) || !c.lit(" epoch ") || !c.int32(epoch)) return Body::Broken;
        if (c.lit(" failed to change state for partition ")) {
          out.kind = RecordKind::PartitionFailed;
          return read(parseTpDash(c, out) && parseFromTo<PartitionState>(c, out));
        }
        if (c.lit(" initiated state change of replica ")) {
          out.kind = RecordKind::ReplicaFailed;
          return read(c.int32(out.replica) && c.lit(" for partition ") && parseTpDash(c, out) &&
                      parseFromTo<ReplicaState>(c, out) && c.lit(" failed"));
        }
        return Body::Broken;
      }
      return Body::Unknown;
    case 'P':
      if (c.lit("Partition ")) {  // R2
        Cursor probe = c;
        if (!probe.skipPast(" state changed to ")) return Body::Unknown;  // not R2
        if (!parseTpDash(c, out) || !c.lit(" state changed to ") || !parseLice(c, out.leadership)) return Body::Broken;
        std::int32_t replica = 0;
        if (!c.lit(" after removing replica ") || !c.int32(replica)) return Body::Broken;
        out.kind = RecordKind::Leadership;
        out.has_leadership = true;
        return Body::Record;
      }
      return Body::Unknown;
    case 'S':
      if (c.lit("Sending become-leader LeaderAndIsr request ") ||
          c.lit("Sending become-follower LeaderAndIsr request ")) {  // C1
        const bool parsed = parseLeaderAndIsrPartitionStateFast(c, out.leadership, ") to broker ") ||
                            parseKeyValueRendering(c, "LeaderAndIsrPartitionState", out.leadership, ") to broker ") ||
                            parseKeyValueRendering(c, "PartitionState", out.leadership, ") to broker ");
        std::int32_t broker = 0;
        if (!parsed || !c.lit(" to broker ") || !c.int32(broker) || !c.lit(" for partition ") ||
            !parseTpDash(c, out)) {
          return Body::Broken;
        }
        out.kind = RecordKind::Leadership;
        out.has_leadership = true;
        out.trace_only = true;
        return Body::Record;
      }
      if (c.lit("Sent LeaderAndIsr request ")) {  // K1
        if (!parseLice(c, out.leadership) || !c.lit(" with new replica assignment ") ||
            !c.skipPast(" for partition being reassigned ") || !parseTpDash(c, out)) {
          return Body::Broken;
        }
        out.kind = RecordKind::Leadership;
        out.has_leadership = true;
        return Body::Record;
      }
      // C2; C3 and 1.1–2.5's per-partition UpdateMetadata line; C4, C5: nothing checked.
      if (c.lit("Sending LeaderAndIsr request to broker ") || c.lit("Sending UpdateMetadata request ") ||
          c.lit("Sending StopReplica request ")) {
        return Body::Record;
      }
      return Body::Unknown;
    case 'F':
      if (c.lit("Failed to send LeaderAndIsr request")) {  // K2
        out.kind = RecordKind::Failure;
        if (c.skipPast(" for partition being reassigned ") && !parseTpDash(c, out)) return Body::Broken;
        return Body::Record;
      }
      return Body::Unknown;
    case 'R':
      if (c.lit("Received error ")) {  // K3, K4
        out.kind = RecordKind::Failure;
        return Body::Record;
      }
      if (c.lit("Received response ")) {  // C6
        out.trace_only = true;
        return Body::Record;
      }
      return Body::Unknown;
    case 'M':
      return c.lit("Mark replicas ") ? Body::Record : Body::Unknown;  // K5
    default:
      return Body::Unknown;
  }
}

// After `Controller N epoch E ` (0.8–0.11, no bracketed prefix).
bool parseOldControllerBody(Cursor c, ParsedLine& out) {
  if (c.lit("changed partition ")) {
    if (!parseTpBracket(c, out)) return false;
    c.lit(" state");
    if (!parseFromTo<PartitionState>(c, out)) return false;
    out.kind = RecordKind::PartitionChange;
    out.trace_only = true;
    return true;
  }
  if (c.lit("changed state of replica ")) {
    out.kind = RecordKind::ReplicaChange;
    out.trace_only = true;
    return c.int32(out.replica) && c.lit(" for partition ") && parseTpBracket(c, out) &&
           parseFromTo<ReplicaState>(c, out);
  }
  if (c.lit("initiated state change for partition ")) {
    out.kind = RecordKind::PartitionFailed;
    return parseTpBracket(c, out) && parseFromTo<PartitionState>(c, out) && c.lit(" failed");
  }
  if (c.lit("initiated state change of replica ")) {
    out.kind = RecordKind::ReplicaFailed;
    return c.int32(out.replica) && c.lit(" for partition ") && parseTpBracket(c, out) &&
           parseFromTo<ReplicaState>(c, out) && c.lit(" failed");
  }
  if (c.lit("encountered error while electing leader for partition ")) {
    out.kind = RecordKind::Failure;
    return parseTpBracket(c, out);
  }
  if (c.lit("failed to change state for partition ")) {  // P5 wording without the bracketed prefix
    out.kind = RecordKind::PartitionFailed;
    return parseTpDash(c, out) && parseFromTo<PartitionState>(c, out);
  }
  if (startsWith(c.rest(), "changed ") || startsWith(c.rest(), "initiated ")) return false;
  // The other 0.8–0.11 messages after this prefix, not checked: they start with one of these verbs
  // (`started leader election …`, `elected leader …`, `aborted leader election …`, `encountered
  // error during …`, `sending … request …`, `received response …`, `sent LeaderAndIsr request …`,
  // `failed to send LeaderAndIsr request …`, controller.log's `fails to send request …`). Any
  // other first word — a typo such as `chnaged` — is not a message kcspec knows: unparsed.
  const std::string_view verb = c.word();
  if (!c.lit(" ")) return false;
  for (std::string_view known : {"started", "elected", "aborted", "encountered", "sending", "received", "sent", "failed", "fails"}) {
    if (verb == known) return true;
  }
  return false;
}

// Class-logger prefixes of controller.log (§7.8, §7.7) and broker-side prefixes: records the
// checker reads nothing from.
constexpr std::string_view kOtherPrefixes[] = {
    "[Broker id=",
    "[PartitionStateMachine controllerId=",
    "[ReplicaStateMachine controllerId=",
    "[Topic Deletion Manager ",
    "[ControllerEventThread controllerId=",
    "[RequestSendThread controllerId=",
    "[Partition state machine on Controller ",
    "[Replica state machine on controller ",
    "[OfflinePartitionLeaderSelector]",
    "[ControlledShutdownLeaderSelector]",
    "[ReassignedPartitionLeaderSelector]",
    "[PreferredReplicaPartitionLeaderSelector]",
    "[NoOpLeaderSelector]",
    "[Controller-",
    "[delete-topics-thread-",
    "[ControllerEpochListener on ",
    "[AddPartitionsListener on ",
    "[DeleteTopicsListener on ",
    "[BrokerChangeListener on Controller ",
    "[TopicChangeListener on Controller ",
    "[PartitionsReassignedListener on ",
    "[ReassignedPartitionsIsrChangeListener on ",
    "[PreferredReplicaElectionListener on ",
    "[IsrChangeNotificationListener on ",
    "[SessionExpirationListener on ",
};

bool isOtherPrefix(std::string_view s) {
  if (startsWith(s, "[Controller ") && s.size() > 12 && isDigit(s[12])) return true;  // 0.8 `[Controller N]: `
  for (std::string_view prefix : kOtherPrefixes) {
    if (startsWith(s, prefix)) return true;
  }
  return false;
}

// Whether the line was written by the state-change logger: its default layout's ` (state.change.logger)`
// suffix (`message` is the rest of the line after the layout), or a custom layout's logger token
// `state.change.logger` / `state.change.logger:N`.
bool isStateChangeLogger(std::string_view layout_logger, std::string_view message) {
  constexpr std::string_view kLogger = "state.change.logger";
  if (startsWith(layout_logger, kLogger) && (layout_logger.size() == kLogger.size() || layout_logger[kLogger.size()] == ':')) {
    return true;
  }
  while (!message.empty() && (isSpace(message.back()) || message.back() == '\r')) message.remove_suffix(1);
  return message.ends_with(" (state.change.logger)");
}

// Whether `message` names a state transition, ` from <State> to <State>` with two partition or two
// replica state names (P1–P5, R1, R3 and every older change line do; no controller.log line of
// KafkaController does).
bool namesTransition(std::string_view message) {
  for (std::size_t at = message.find(" from "); at != std::string_view::npos; at = message.find(" from ", at + 1)) {
    ParsedLine scratch;
    Cursor partition(message.substr(at));
    if (parseFromTo<PartitionState>(partition, scratch)) return true;
    Cursor replica(message.substr(at));
    if (parseFromTo<ReplicaState>(replica, scratch)) return true;
  }
  return false;
}

// Where a record's message starts: `[Controller id=N epoch=E] ` / `[Controller id=N] ` (1.0+),
// `Controller N epoch E ` (0.8–0.11), or a prefix the checker reads nothing from.
enum class Anchor { None, Controller, Old, Other };

Anchor parseAnchor(Cursor& c, ParsedLine& out) {
  if (c.peek() == '[') {
    if (c.lit("[Controller id=")) {
      if (!c.int32(out.controller_id)) return Anchor::None;
      if (c.lit(" epoch=")) {
        if (!c.int32(out.controller_epoch) || !c.lit("] ")) return Anchor::None;
        out.controller_prefix = true;
        return Anchor::Controller;
      }
      return c.lit("] ") ? Anchor::Controller : Anchor::None;
    }
    return isOtherPrefix(c.rest()) ? Anchor::Other : Anchor::None;
  }
  if (c.peek() == 'C' && c.lit("Controller ")) {
    if (!c.int32(out.controller_id) || !c.lit(" epoch ") || !c.int32(out.controller_epoch) || !c.lit(" ")) {
      return Anchor::None;
    }
    out.controller_prefix = true;
    return Anchor::Old;
  }
  if (c.peek() == 'B' && c.lit("Broker ")) {  // 0.8 broker-side lines
    std::int32_t broker = 0;
    return c.int32(broker) && c.lit(" ") ? Anchor::Other : Anchor::None;
  }
  return Anchor::None;
}

LogLevel levelOf(std::string_view word) {
  // Fixed-length compares (inlined), not string_view's == (a call to memcmp on every line).
  const auto is = [&word]<std::size_t N>(const char (&name)[N]) { return std::memcmp(word.data(), name, N - 1) == 0; };
  switch (word.size()) {
    case 4:
      if (is("INFO")) return LogLevel::Info;
      if (is("WARN")) return LogLevel::Warn;
      break;
    case 5:
      if (is("TRACE")) return LogLevel::Trace;
      if (is("DEBUG")) return LogLevel::Debug;
      if (is("ERROR")) return LogLevel::Error;
      if (is("FATAL")) return LogLevel::Fatal;
      break;
    case 7:
      if (is("WARNING")) return LogLevel::Warn;
      break;
    default:
      break;
  }
  return LogLevel::Unknown;
}

// Skips ANSI colour sequences (ESC [ … letter).
inline void skipAnsi(Cursor& c) {
  if (c.done() || *c.p != '\x1b') return;  // the usual case, inline
  while (c.left() >= 2 && c.p[0] == '\x1b' && c.p[1] == '[') {
    const char* q = c.p + 2;
    while (q < c.e && !isAlpha(*q)) ++q;
    if (q == c.e) return;
    c.p = q + 1;
  }
}

// A docker-compose prefix: `service_1  | ` (`name` [A-Za-z0-9_.-]+, spaces, '|').
void skipContainerPrefix(Cursor& c) {
  skipAnsi(c);
  const char* q = c.p;
  while (q < c.e && (isTopicChar(*q))) ++q;
  if (q == c.p || q == c.e || *q != ' ') return;
  while (q < c.e && *q == ' ') ++q;
  if (q == c.e || *q != '|') return;
  c.p = q + 1;
  skipAnsi(c);
  if (c.peek() == ' ') ++c.p;
}

// A stack-trace line: `at …`, `... N more`, `Caused by: …`, `Suppressed: …` after whitespace,
// or an exception header `a.b.SomeException` / `a.b.SomeException: message`.
bool isContinuation(std::string_view s, bool after_whitespace) {
  if (after_whitespace) {
    std::size_t i = 0;
    while (i < s.size() && isSpace(s[i])) ++i;
    s = s.substr(i);
    if (startsWith(s, "at ") || startsWith(s, "...")) return true;
  }
  if (startsWith(s, "Caused by:") || startsWith(s, "Suppressed:") || startsWith(s, "... ")) return true;
  std::size_t i = 0;
  int dots = 0;
  while (true) {
    if (i >= s.size() || !(isAlpha(s[i]) || s[i] == '_' || s[i] == '$')) return false;
    while (i < s.size() && isIdent(s[i])) ++i;
    if (i < s.size() && s[i] == '.') {
      ++dots;
      ++i;
      continue;
    }
    break;
  }
  if (dots == 0) return false;
  if (i == s.size()) return true;
  return s[i] == ':' && (i + 1 == s.size() || s[i + 1] == ' ');
}

// `out = ParsedLine{}`, keeping the ISR vector's storage: member by member, which compiles to a
// few stores rather than a `rep stos` over the whole struct.
void reset(ParsedLine& out) {
  out.shape = LineShape::Unparsed;
  out.level = LogLevel::Unknown;
  out.kind = RecordKind::Other;
  out.controller_prefix = false;
  out.controller_id = -1;
  out.controller_epoch = -1;
  out.trace_only = false;
  out.topic = {};
  out.partition = -1;
  out.partition_hash = 0;
  out.topic_prefix = {};
  out.replica = -1;
  out.from = 0;
  out.to = 0;
  out.has_leadership = false;
  out.leadership.leader = -1;
  out.leadership.leader_epoch = -1;
  out.leadership.partition_epoch = -1;
  out.leadership.isr.clear();
  out.leadership.rendering = {};
  out.message = {};
}

// The checker's lookup key (ParsedLine::partition_hash, topic_prefix). The topic lies in a line
// ending at `line_end`: when 24 bytes from its start are inside the line, three word loads.
void keyTopic(ParsedLine& out, const char* line_end) {
  const std::string_view topic = out.topic;
  if (topic.empty()) return;
  const std::size_t n = topic.size();
  if (n <= 24 && line_end - topic.data() >= 24) {
    // Three scalars, not an array: written word by word and read back as a whole, an array on
    // the stack costs a store-forwarding stall.
    const auto keep = [n](std::size_t from) {  // the bytes of the word at `from` inside the topic
      const std::size_t valid = n > from ? n - from : 0;
      return valid >= 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * valid)) - 1;
    };
    std::uint64_t w0 = 0;
    std::uint64_t w1 = 0;
    std::uint64_t w2 = 0;
    std::memcpy(&w0, topic.data(), 8);
    std::memcpy(&w1, topic.data() + 8, 8);
    std::memcpy(&w2, topic.data() + 16, 8);
    w0 &= keep(0);
    w1 &= keep(8);
    w2 &= keep(16);
    out.topic_prefix[0] = w0;
    out.topic_prefix[1] = w1;
    out.topic_prefix[2] = w2;
    out.partition_hash = PartitionIndex::hashWords(w0, w1, w2, n, out.partition);
    return;
  }
  out.partition_hash = PartitionIndex::hash(topic, out.partition);
  std::memcpy(out.topic_prefix.data(), topic.data(), std::min(n, sizeof(out.topic_prefix)));
}

}  // namespace

std::string_view exceptionText(std::string_view continuation) {
  std::size_t i = 0;
  while (i < continuation.size() && isSpace(continuation[i])) ++i;
  continuation = continuation.substr(i);
  const std::size_t colon = continuation.find(": ");
  return colon == std::string_view::npos ? continuation : continuation.substr(colon + 2);
}

void parseLine(std::string_view line, ParsedLine& out) {
  reset(out);

  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  Cursor c(line);
  skipContainerPrefix(c);
  {
    const char* q = c.p;
    while (q < c.e && (isSpace(*q) || *q == '\r' || *q == '\f' || *q == '\v')) ++q;
    if (q == c.e) {
      out.shape = LineShape::Blank;
      return;
    }
  }
  if (isSpace(c.peek()) || isAlpha(c.peek()) || c.peek() == '.' || c.peek() == '_' || c.peek() == '$') {
    if (isContinuation(c.rest(), isSpace(c.peek()))) {
      out.shape = LineShape::Continuation;
      out.message = c.rest();
      return;
    }
  }

  // The layout: `[timestamp] `, bare date/time/pid tokens, level words, `[thread] `, `logger:N - `.
  bool layout = false;
  std::string_view layout_logger;  // `logger:N` of a custom layout
  while (!c.done()) {
    while (c.peek() == ' ') ++c.p;
    const char ch = c.peek();
    if (ch == '[') {
      // `[timestamp]`, and a test harness's right-aligned counters: `[  1204] [  35.118] `.
      const char* first = c.p + 1;
      while (first < c.e && *first == ' ') ++first;
      if (first < c.e && isDigit(*first)) {
        const char* close = findByte(c.p, c.e, ']');
        if (close == nullptr) break;
        c.p = close + 1;
        layout = true;
        continue;
      }
      // `[thread-name] ` (no space inside) — unless it is a known record prefix. The controller
      // prefix, the most common by far, has a space inside: it is no thread name.
      if (Cursor probe = c; probe.lit("[Controller ")) break;
      const char* q = c.p + 1;
      while (q < c.e && *q != ']' && *q != ' ') ++q;
      if (q < c.e && *q == ']' && q + 1 < c.e && q[1] == ' ' && !isOtherPrefix(c.rest())) {
        c.p = q + 1;
        layout = true;
        continue;
      }
      break;
    }
    if (isDigit(ch)) {  // date, time, ISO timestamp, process id
      c.token();
      layout = true;
      continue;
    }
    if (ch >= 'A' && ch <= 'Z') {
      Cursor probe = c;
      const LogLevel level = levelOf(probe.token());
      if (level != LogLevel::Unknown) {
        out.level = level;
        c = probe;
        layout = true;
        continue;
      }
    }
    if (ch == '-' && c.left() > 1 && c.p[1] == ' ') {
      c.p += 2;
      continue;
    }
    if (layout && (isAlpha(ch) || ch == '_')) {
      // `logger - `, `logger:123 - ` (a dotted name, or any name with its line number), or
      // `full.logger.name: ` (a timestamp, the level, the logger and a colon, then the message).
      Cursor probe = c;
      const std::string_view logger = probe.token();
      const bool dotted = logger.find('.') != std::string_view::npos;
      const std::size_t colon = logger.rfind(':');
      const bool numbered = colon != std::string_view::npos && colon + 1 < logger.size() &&
                            std::all_of(logger.begin() + static_cast<std::ptrdiff_t>(colon) + 1, logger.end(), isDigit);
      if ((dotted || numbered) && probe.lit(" - ")) {
        layout_logger = logger;
        c = probe;
        continue;
      }
      if (dotted && logger.size() > 1 && logger.back() == ':' && probe.lit(" ")) {
        layout_logger = logger.substr(0, logger.size() - 1);
        c = probe;
        continue;
      }
    }
    break;
  }

  out.message = c.rest();
  Cursor body = c;
  switch (parseAnchor(body, out)) {
    case Anchor::Controller:
      switch (parseControllerBody(body, out)) {
        case Body::Record:
          out.shape = LineShape::Head;
          break;
        case Body::Broken:
          out.shape = LineShape::Unparsed;
          break;
        case Body::Unknown:
          // A message kcspec does not know. With the epoch, or written by the state-change logger,
          // or naming a state transition, it is a state-change line kcspec cannot read: unparsed.
          // Otherwise it is one of KafkaController's own controller.log lines (same prefix, no
          // epoch): a record that carries nothing the checker uses.
          out.shape = out.controller_prefix || isStateChangeLogger(layout_logger, c.rest()) || namesTransition(body.rest())
                          ? LineShape::Unparsed
                          : LineShape::Head;
          break;
      }
      keyTopic(out, c.e);
      return;
    case Anchor::Old:
      out.shape = parseOldControllerBody(body, out) ? LineShape::Head : LineShape::Unparsed;
      keyTopic(out, c.e);
      return;
    case Anchor::Other:
      out.shape = LineShape::Head;
      // The controller's request-send thread: every ERROR line of it is a failure Kafka logged
      // (RequestSendThread's `Controller N epoch E failed to send request … Reconnecting to
      // broker.`), also without a visible level when the message says so.
      if (startsWith(out.message, "[RequestSendThread controllerId=") &&
          (out.level == LogLevel::Error || out.level == LogLevel::Fatal ||
           (out.level == LogLevel::Unknown && out.message.find(" failed to send request ") != std::string_view::npos))) {
        out.kind = RecordKind::Failure;
      }
      return;
    case Anchor::None:
      break;
  }
  // A stack-trace line behind a prepended CI timestamp or container prefix.
  if (layout && out.level == LogLevel::Unknown &&
      (isContinuation(c.rest(), true) || (startsWith(c.rest(), "at ") && c.rest().find('(') != std::string_view::npos))) {
    out.shape = LineShape::Continuation;
    return;
  }
  out.shape = LineShape::Unparsed;
}

}  // namespace kcspec::conformance
