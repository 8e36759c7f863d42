// The configuration's text form (grammar in config_text.hpp).
#include "spec/vocabulary/config_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <optional>
#include <tuple>

#include "spec/vocabulary/leader_and_isr.hpp"  // joinIds

namespace kcspec {
namespace text {
namespace {

// Well-formed UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF.
bool isUtf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const unsigned lead = static_cast<unsigned char>(s[i]);
    if (lead < 0x80u) {
      ++i;
      continue;
    }
    std::size_t extra = 0;
    unsigned code = 0;
    unsigned minimum = 0;
    if ((lead & 0xE0u) == 0xC0u) {
      extra = 1, code = lead & 0x1Fu, minimum = 0x80u;
    } else if ((lead & 0xF0u) == 0xE0u) {
      extra = 2, code = lead & 0x0Fu, minimum = 0x800u;
    } else if ((lead & 0xF8u) == 0xF0u) {
      extra = 3, code = lead & 0x07u, minimum = 0x10000u;
    } else {
      return false;
    }
    if (s.size() - i <= extra) return false;
    for (std::size_t k = 1; k <= extra; ++k) {
      const unsigned next = static_cast<unsigned char>(s[i + k]);
      if ((next & 0xC0u) != 0x80u) return false;
      code = (code << 6) | (next & 0x3Fu);
    }
    if (code < minimum || code > 0x10FFFFu || (code >= 0xD800u && code <= 0xDFFFu)) return false;
    i += extra + 1;
  }
  return true;
}

}  // namespace

SourceLine checkedLine(std::string_view line, int number, std::string_view file) {
  if (line.size() > kMaxLineBytes) {
    throw TextError(file, number, fmt::format("line is {} bytes long; the limit is {}", line.size(), kMaxLineBytes));
  }
  if (line.find('\0') != std::string_view::npos) throw TextError(file, number, "NUL byte in line");
  if (!isUtf8(line)) throw TextError(file, number, "line is not valid UTF-8");
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  // No control character (an ESC would reach a terminal through every name and message that
  // echoes the line): tabs only, and C1 controls (U+0080–U+009F) neither.
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (const std::size_t control = controlCharacterAt(line, i); control != 0) {
      throw TextError(file, number,
                      fmt::format("control character {} in line (column {}): only printable text and tabs are allowed",
                                  control == 2 ? fmt::format("U+{:04X}", static_cast<unsigned char>(line[i + 1]))
                                               : fmt::format("\\x{:02x}", static_cast<unsigned char>(line[i])),
                                  i + 1));
    }
  }
  return SourceLine{number, line};
}

std::vector<SourceLine> splitLines(std::string_view text, std::string_view file) {
  std::vector<SourceLine> lines;
  int number = 0;
  std::size_t start = 0;
  while (start < text.size()) {  // a final line end does not start another line
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back(checkedLine(text.substr(start, end - start), ++number, file));
    start = end + 1;
  }
  return lines;
}

std::vector<std::string_view> tokenize(std::string_view line) {
  line = line.substr(0, line.find('#'));
  std::vector<std::string_view> tokens;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > start) tokens.push_back(line.substr(start, i - start));
  }
  return tokens;
}

int parseNumber(std::string_view token, std::string_view file, int line) {
  int value = 0;
  const char* const end = token.data() + token.size();
  const auto [ptr, error] = std::from_chars(token.data(), end, value);
  if (token.empty() || ptr != end || error != std::errc{}) {
    throw TextError(file, line, fmt::format("bad number `{}`", token));
  }
  // One spelling per number, so that `01` or `-0` cannot name broker 1 or 0 in disguise.
  const std::string_view digits = token.front() == '-' ? token.substr(1) : token;
  if (digits.size() > 1 && digits.front() == '0') {
    throw TextError(file, line, fmt::format("bad number `{}`: no leading zeros", token));
  }
  if (token == "-0") throw TextError(file, line, "bad number `-0`: write 0");
  return value;
}

BrokerId parseBrokerId(std::string_view token, std::string_view file, int line) {
  const int id = parseNumber(token, file, line);
  if (!isBrokerId(id)) {
    throw TextError(file, line, fmt::format("broker id {} is outside 0..{}", id, kMaxBrokers - 1));
  }
  return id;
}

TopicIndex parseTopic(const Config& config, std::string_view name, std::string_view file, int line) {
  const TopicIndex t = config.topicNamed(name);
  if (t < 0) throw TextError(file, line, fmt::format("unknown topic `{}`", name));
  return t;
}

TopicPartition parsePartition(const Config& config, std::string_view token, std::string_view file, int line) {
  const std::size_t dash = token.rfind('-');
  const std::string_view number = dash == std::string_view::npos ? std::string_view{} : token.substr(dash + 1);
  if (dash == std::string_view::npos || dash == 0 || number.empty() ||
      !std::all_of(number.begin(), number.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    throw TextError(file, line, fmt::format("bad partition `{}`: expected <topic>-<partition>", token));
  }
  const TopicIndex t = parseTopic(config, token.substr(0, dash), file, line);
  const int p = parseNumber(number, file, line);
  const TopicConfig& topic = config.topics[static_cast<std::size_t>(t)];
  const std::size_t count = topic.partitionCount();
  if (static_cast<std::size_t>(p) >= count) {
    throw TextError(file, line,
                    fmt::format("topic `{}` has no partition {} (it has {}, counting added ones)", topic.name, p, count));
  }
  return TopicPartition{t, p};
}

BrokerId parseConfiguredBroker(const Config& config, std::string_view token, std::string_view file, int line) {
  const BrokerId id = parseBrokerId(token, file, line);
  if (!config.brokers.contains(id)) {
    throw TextError(file, line, fmt::format("broker {} is not one of the configuration's brokers", id));
  }
  return id;
}

std::string brokerListText(const BrokerList& list) {
  std::string out;
  for (BrokerId b : list) out += (out.empty() ? "" : ",") + std::to_string(b);
  return out.empty() ? "none" : out;
}

std::vector<std::string_view> splitCommas(std::string_view token) {
  std::vector<std::string_view> items;
  std::size_t start = 0;
  for (;;) {  // bounded by the token's commas
    const std::size_t comma = token.find(',', start);
    items.push_back(token.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (comma == std::string_view::npos) return items;
    start = comma + 1;
  }
}

BrokerList parseBrokerList(std::string_view token, std::string_view file, int line) {
  const std::vector<std::string_view> items = splitCommas(token);
  if (items.size() > static_cast<std::size_t>(kMaxReplicationFactor)) {
    throw TextError(file, line,
                    fmt::format("replication factor {} is over the maximum {}", items.size(), kMaxReplicationFactor));
  }
  BrokerList list;
  for (std::string_view item : items) {
    const BrokerId id = parseBrokerId(item, file, line);
    if (list.contains(id)) {
      throw TextError(file, line, fmt::format("broker {} appears twice in the replica list `{}`", id, token));
    }
    list.push_back(id);
  }
  return list;
}

namespace {

constexpr std::string_view kTopicStatements[] = {"partition", "add-partition", "reassign",
                                                 "unclean.leader.election.enable", "exists-at-start"};

// Kafka's rule for topic names (Topic.validate), which kcspec's formats rely on: no spaces, no `#`.
std::optional<std::string> topicNameProblem(std::string_view name) {
  constexpr std::size_t kMaxTopicNameLength = 249;
  if (name == "." || name == "..") return fmt::format("topic name `{}` is not allowed", name);
  if (name.size() > kMaxTopicNameLength) {
    return fmt::format("topic name is {} characters long; the limit is {}", name.size(), kMaxTopicNameLength);
  }
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                    c == '_' || c == '-';
    if (!ok) return fmt::format("bad topic name `{}`: only A-Z a-z 0-9 . _ - are allowed", name);
  }
  return std::nullopt;
}

class ConfigParser {
 public:
  explicit ConfigParser(std::string_view file) : file_(file) {}

  void statement(int line, const std::vector<std::string_view>& tokens) {
    const std::string_view keyword = tokens[0];
    const std::span<const std::string_view> args(tokens.data() + 1, tokens.size() - 1);
    if (std::find(std::begin(kTopicStatements), std::end(kTopicStatements), keyword) != std::end(kTopicStatements)) {
      if (config_.topics.empty()) {
        fail(line, fmt::format("`{}` belongs to a topic: it must follow a `topic` line", keyword));
      }
      topicStatement(line, keyword, args);
      return;
    }
    if (keyword == "name") {
      once(name_line_, line, keyword);
      arity(line, args, 1, "name <word>");
      config_.name = std::string(args[0]);
    } else if (keyword == "brokers" || keyword == "alive-at-start") {
      const bool all = keyword == "brokers";
      once(all ? brokers_line_ : alive_line_, line, keyword);
      if (args.empty()) fail(line, fmt::format("wrong number of arguments: expected `{} <id> <id> …`", keyword));
      BrokerSet& set = all ? config_.brokers : config_.brokers_alive_at_start;
      for (std::string_view arg : args) {
        const BrokerId id = parseBrokerId(arg, file_, line);
        if (set.contains(id)) fail(line, fmt::format("broker {} is listed twice", id));
        set.insert(id);
      }
    } else if (keyword == "delete.topic.enable") {
      once(delete_line_, line, keyword);
      arity(line, args, 1, "delete.topic.enable true|false");
      config_.delete_topic_enable = parseBool(line, args[0]);
    } else if (keyword == "auto.leader.rebalance.enable") {
      once(rebalance_line_, line, keyword);
      arity(line, args, 1, "auto.leader.rebalance.enable true|false");
      config_.auto_leader_rebalance_enable = parseBool(line, args[0]);
    } else if (keyword == "inter.broker.protocol.version") {
      once(ibp_line_, line, keyword);
      arity(line, args, 1, "inter.broker.protocol.version <version>");
      config_.inter_broker_protocol_version = parseVersion(line, "inter.broker.protocol.version", args[0]);
    } else if (keyword == "upgrade") {
      once(upgrade_line_, line, keyword);
      if (args.size() != 2 || args[0] != "inter.broker.protocol.version") {
        fail(line, "wrong number of arguments: expected `upgrade inter.broker.protocol.version <version>`");
      }
      config_.upgrade_inter_broker_protocol_version = parseVersion(line, "upgrade inter.broker.protocol.version", args[1]);
    } else if (keyword == "topic") {
      arity(line, args, 1, "topic <name>");
      if (const auto problem = topicNameProblem(args[0])) fail(line, *problem);
      const TopicIndex existing = config_.topicNamed(args[0]);
      if (existing >= 0) {
        fail(line, fmt::format("topic `{}` is defined twice (first at line {})", args[0],
                               topics_[static_cast<std::size_t>(existing)].line));
      }
      if (config_.topicCount() >= kMaxTopics) fail(line, fmt::format("more than {} topics", kMaxTopics));
      config_.topics.push_back(TopicConfig{.name = std::string(args[0])});
      topics_.push_back(TopicLines{.line = line});
    } else if (keyword == "bound" && args.size() == 2 && args[0] == kOverallBoundName) {
      once(overall_bound_line_, line, fmt::format("bound {}", args[0]));
      const int value = parseNumber(args[1], file_, line);
      if (value < 0) fail(line, fmt::format("bound {} is negative ({})", args[0], value));
      config_.bounds.perturbations = value;
    } else if (keyword == "bound") {
      arity(line, args, 2, "bound <name> <n>");
      const auto* found = std::find(kBoundNames.begin(), kBoundNames.end(), args[0]);
      if (found == kBoundNames.end()) {
        fail(line, fmt::format("unknown bound `{}` (the bounds are {} and {})", args[0], fmt::join(kBoundNames, ", "),
                               kOverallBoundName));
      }
      const auto index = static_cast<std::size_t>(found - kBoundNames.begin());
      once(bound_lines_[index], line, fmt::format("bound {}", args[0]));
      const int value = parseNumber(args[1], file_, line);
      if (value < 0) fail(line, fmt::format("bound {} is negative ({})", args[0], value));
      *boundField(config_.bounds, index) = value;
    } else if (keyword == "steps") {
      fail(line, "`steps` belongs to a scenario, not to a configuration");
    } else {
      fail(line, fmt::format("unknown statement `{}`", keyword));
    }
  }

  Config finish(int end_line) {
    if (!brokers_line_) {
      fail(end_line, "no `brokers` statement: a configuration lists every broker that may register");
    }
    if (alive_line_) {
      config_.brokers_alive_at_start.forEach([&](BrokerId id) {
        if (!config_.brokers.contains(id)) {
          fail(*alive_line_, fmt::format("alive-at-start broker {} is not listed in `brokers` (line {})", id,
                                         *brokers_line_));
        }
      });
    }
    const auto rebalance_bound = static_cast<std::size_t>(
        std::find(kBoundNames.begin(), kBoundNames.end(), "auto-rebalances") - kBoundNames.begin());
    if (config_.bounds.auto_rebalances > 0 && !config_.auto_leader_rebalance_enable) {
      fail(*bound_lines_[rebalance_bound],
           "bound auto-rebalances needs `auto.leader.rebalance.enable true` (without it the scheduler never runs)");
    }
    if (upgrade_line_ && *config_.upgrade_inter_broker_protocol_version <= config_.inter_broker_protocol_version) {
      fail(*upgrade_line_, fmt::format("upgrade inter.broker.protocol.version {} is not newer than "
                                       "inter.broker.protocol.version {}: a rolling upgrade raises it",
                                       metadataVersionName(*config_.upgrade_inter_broker_protocol_version),
                                       metadataVersionName(config_.inter_broker_protocol_version)));
    }
    const auto upgrade_bound = static_cast<std::size_t>(
        std::find(kBoundNames.begin(), kBoundNames.end(), "ibp-upgrades") - kBoundNames.begin());
    if (config_.bounds.ibp_upgrades > 0 && !upgrade_line_) {
      fail(*bound_lines_[upgrade_bound],
           "bound ibp-upgrades needs `upgrade inter.broker.protocol.version <version>` (the version brokers move to)");
    }
    for (const auto& [line, id] : replica_uses_) {
      if (!config_.brokers.contains(id)) {
        fail(line, fmt::format("broker {} is not listed in `brokers` (line {})", id, *brokers_line_));
      }
    }
    for (std::size_t t = 0; t < config_.topics.size(); ++t) {
      const TopicConfig& topic = config_.topics[t];
      if (topic.assignment.empty()) {
        fail(topics_[t].line, fmt::format("topic `{}` has no `partition` statement", topic.name));
      }
    }
    for (const auto& [line, t, partition] : reassign_uses_) {
      const TopicConfig& topic = config_.topics[t];
      const std::size_t count = topic.partitionCount();
      if (static_cast<std::size_t>(partition) >= count) {
        fail(line, fmt::format("topic `{}` has no partition {} (it has {}, counting added ones)", topic.name,
                               partition, count));
      }
    }
    return config_;
  }

 private:
  struct TopicLines {
    int line = 0;
    std::optional<int> unclean_line;
    std::optional<int> exists_line;
  };

  [[noreturn]] void fail(int line, std::string message) const { throw TextError(file_, line, std::move(message)); }
  // A MetadataVersion in Kafka's spelling, for the statement `what`.
  MetadataVersion parseVersion(int line, std::string_view what, std::string_view text) const {
    const std::optional<MetadataVersion> version = parseMetadataVersion(text);
    if (!version) {
      fail(line, fmt::format("{} `{}` is not a valid version (Kafka 3.8 knows {} … {}, spelled as `2.7-IV2` or as a "
                             "release, `2.7`)",
                             what, text, metadataVersionName(MetadataVersion::IBP_0_8_0),
                             metadataVersionName(kLatestProductionMetadataVersion)));
    }
    return *version;
  }

  void once(std::optional<int>& seen, int line, std::string_view what) {
    if (seen) fail(line, fmt::format("`{}` is given twice (first at line {})", what, *seen));
    seen = line;
  }

  void arity(int line, std::span<const std::string_view> args, std::size_t expected, std::string_view usage) const {
    if (args.size() != expected) fail(line, fmt::format("wrong number of arguments: expected `{}`", usage));
  }

  bool parseBool(int line, std::string_view token) const {
    if (token == "true") return true;
    if (token == "false") return false;
    fail(line, fmt::format("expected true or false, found `{}`", token));
  }

  int parsePartition(int line, std::string_view token) const {
    const int p = parseNumber(token, file_, line);
    if (p < 0) fail(line, fmt::format("bad partition number {}", p));
    return p;
  }

  // A replica list argument; `args` holds the arguments after the keyword, `at` the list's position.
  BrokerList replicaList(int line, std::span<const std::string_view> args, std::size_t at, std::string_view usage) {
    if (args.size() == at && args.size() > 0) fail(line, fmt::format("empty replica list: expected `{}`", usage));
    arity(line, args, at + 1, usage);
    BrokerList list = parseBrokerList(args[at], file_, line);
    for (BrokerId id : list) replica_uses_.emplace_back(line, id);
    return list;
  }

  void addPartition(int line, TopicConfig& topic) const {
    if (topic.partitionCount() >= static_cast<std::size_t>(kMaxPartitionsPerTopic)) {
      fail(line, fmt::format("topic `{}` has more than {} partitions (counting added ones)", topic.name,
                             kMaxPartitionsPerTopic));
    }
  }

  void topicStatement(int line, std::string_view keyword, std::span<const std::string_view> args) {
    TopicConfig& topic = config_.topics.back();
    TopicLines& lines = topics_.back();
    if (keyword == "partition") {
      constexpr std::string_view usage = "partition <p> replicas <id>,<id>,…";
      if (args.size() < 2 || args[1] != "replicas") fail(line, fmt::format("wrong number of arguments: expected `{}`", usage));
      const int p = parsePartition(line, args[0]);
      if (static_cast<std::size_t>(p) != topic.assignment.size()) {
        fail(line, fmt::format("partition {} is out of order: topic `{}` expects partition {} next", p, topic.name,
                               topic.assignment.size()));
      }
      BrokerList replicas = replicaList(line, args, 2, usage);
      addPartition(line, topic);
      topic.assignment.push_back(replicas);
    } else if (keyword == "add-partition") {
      constexpr std::string_view usage = "add-partition replicas <id>,<id>,…";
      if (args.empty() || args[0] != "replicas") fail(line, fmt::format("wrong number of arguments: expected `{}`", usage));
      BrokerList replicas = replicaList(line, args, 1, usage);
      addPartition(line, topic);
      topic.added_partitions.push_back(replicas);
    } else if (keyword == "reassign") {
      constexpr std::string_view usage = "reassign <p> to <id>,<id>,…";
      if (args.size() < 2 || args[1] != "to") fail(line, fmt::format("wrong number of arguments: expected `{}`", usage));
      const int p = parsePartition(line, args[0]);
      BrokerList target = replicaList(line, args, 2, usage);
      const std::pair<int, BrokerList> entry{p, target};
      if (std::find(topic.reassignment_targets.begin(), topic.reassignment_targets.end(), entry) !=
          topic.reassignment_targets.end()) {
        fail(line, fmt::format("reassignment target {} of partition {} is listed twice", joinIds(target, ","), p));
      }
      topic.reassignment_targets.push_back(entry);
      reassign_uses_.emplace_back(line, config_.topics.size() - 1, p);
    } else if (keyword == "unclean.leader.election.enable") {
      once(lines.unclean_line, line, keyword);
      arity(line, args, 1, "unclean.leader.election.enable true|false");
      topic.unclean_leader_election_enable = parseBool(line, args[0]);
    } else {  // exists-at-start
      once(lines.exists_line, line, keyword);
      arity(line, args, 1, "exists-at-start true|false");
      topic.exists_at_start = parseBool(line, args[0]);
    }
  }

  std::string file_;
  Config config_;
  std::optional<int> name_line_, brokers_line_, alive_line_, delete_line_, rebalance_line_, ibp_line_, upgrade_line_;
  std::array<std::optional<int>, kBoundNames.size()> bound_lines_;
  std::optional<int> overall_bound_line_;
  std::vector<TopicLines> topics_;
  std::vector<std::pair<int, BrokerId>> replica_uses_;                // every replica must be in `brokers`
  std::vector<std::tuple<int, std::size_t, int>> reassign_uses_;      // line, topic, partition
};

}  // namespace

Config parseConfigLines(std::span<const SourceLine> lines, std::string_view file, int end_line) {
  ConfigParser parser(file);
  for (const SourceLine& line : lines) {
    const std::vector<std::string_view> tokens = tokenize(line.content);
    if (!tokens.empty()) parser.statement(line.number, tokens);
  }
  return parser.finish(end_line);
}

}  // namespace text

Config parseConfig(std::string_view text, std::string_view file_name) {
  const std::vector<text::SourceLine> lines = text::splitLines(text, file_name);
  return text::parseConfigLines(lines, file_name, lines.empty() ? 1 : lines.back().number);
}

namespace {

std::string_view boolText(bool value) { return value ? "true" : "false"; }

std::string brokerSetText(BrokerSet set) {
  std::string out;
  set.forEach([&](BrokerId id) { out += fmt::format(" {}", id); });
  return out;
}

}  // namespace

std::string printConfig(const Config& config) {
  std::string out = fmt::format("name {}\n", config.name);
  if (!config.brokers.empty()) out += fmt::format("brokers{}\n", brokerSetText(config.brokers));
  if (!config.brokers_alive_at_start.empty()) {
    out += fmt::format("alive-at-start{}\n", brokerSetText(config.brokers_alive_at_start));
  }
  out += fmt::format("delete.topic.enable {}\n", boolText(config.delete_topic_enable));
  out += fmt::format("auto.leader.rebalance.enable {}\n", boolText(config.auto_leader_rebalance_enable));
  // Only when not the default: configurations, traces and driver sessions from before the
  // statement existed read exactly as they did (a SUT that models 3.8 alone need not know it).
  if (config.inter_broker_protocol_version != kLatestProductionMetadataVersion) {
    out += fmt::format("inter.broker.protocol.version {}\n", metadataVersionName(config.inter_broker_protocol_version));
  }
  if (config.upgrade_inter_broker_protocol_version) {
    out += fmt::format("upgrade inter.broker.protocol.version {}\n",
                       metadataVersionName(*config.upgrade_inter_broker_protocol_version));
  }
  for (const TopicConfig& topic : config.topics) {
    out += fmt::format("topic {}\n", topic.name);
    for (std::size_t p = 0; p < topic.assignment.size(); ++p) {
      out += fmt::format("  partition {} replicas {}\n", p, joinIds(topic.assignment[p], ","));
    }
    for (const BrokerList& replicas : topic.added_partitions) {
      out += fmt::format("  add-partition replicas {}\n", joinIds(replicas, ","));
    }
    for (const auto& [p, target] : topic.reassignment_targets) {
      out += fmt::format("  reassign {} to {}\n", p, joinIds(target, ","));
    }
    out += fmt::format("  unclean.leader.election.enable {}\n", boolText(topic.unclean_leader_election_enable));
    out += fmt::format("  exists-at-start {}\n", boolText(topic.exists_at_start));
  }
  Bounds bounds = config.bounds;
  for (std::size_t i = 0; i < kBoundNames.size(); ++i) {
    // ibp-upgrades only when set, like the statements above: older texts read as they did.
    if (boundField(bounds, i) == &bounds.ibp_upgrades && bounds.ibp_upgrades == 0) continue;
    if (boundField(bounds, i) == &bounds.zk_session_expiries && bounds.zk_session_expiries == 0) continue;
    out += fmt::format("bound {} {}\n", kBoundNames[i], *boundField(bounds, i));
  }
  if (bounds.perturbations != kAnyNumberOfPerturbations) {
    out += fmt::format("bound {} {}\n", kOverallBoundName, bounds.perturbations);
  }
  return out;
}

std::string topicName(const Config& config, TopicIndex topic) {
  if (topic >= 0 && topic < config.topicCount()) return config.topics[static_cast<std::size_t>(topic)].name;
  return fmt::format("#{}", topic);
}

std::string partitionName(const Config& config, TopicPartition tp) {
  return fmt::format("{}-{}", topicName(config, tp.topic), tp.partition);
}

}  // namespace kcspec
