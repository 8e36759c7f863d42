// The configuration's text form: one statement per line, `#` starts a comment, blank lines are
// ignored. The grammar (every statement on its own line, tokens separated by spaces or tabs):
//
//   name <word>                                  default "unnamed"
//   brokers <id> <id> …                          required; every broker that may ever register (ids 0…7)
//   alive-at-start <id> …                        a subset of `brokers`; none when absent
//   delete.topic.enable true|false               default true
//   auto.leader.rebalance.enable true|false      default false
//   inter.broker.protocol.version <version>      default 3.8-IV0; Kafka 3.8's spellings: `2.7-IV2`,
//                                                a release (`2.7`: its newest), `0.10.0-IV1`, …
//   topic <name>                                 [A-Za-z0-9._-]+; starts a topic block
//     partition <p> replicas <id>,<id>,…         p = 0, 1, 2, … in order; at least one per topic
//     add-partition replicas <id>,<id>,…         appended by `add-partitions`, one per use, in order
//     reassign <p> to <id>,<id>,…                a target `reassign` may move partition p to
//     unclean.leader.election.enable true|false  default false (/config/topics/<t>)
//     exists-at-start true|false                 default false
//   bound <name> <n>                             n ≥ 0; names are kBoundNames; an unlisted bound is 0
//   bound perturbations <n>                      n ≥ 0; at most n perturbations of any kind in one
//                                                history (each use of a bound above is one); absent:
//                                                only each kind's own bound
//
// Topic statements belong to the latest `topic` line (indentation is only for the reader); the
// other statements may appear anywhere, each at most once. Replica lists hold distinct brokers
// of `brokers`, at most kMaxReplicationFactor; a topic holds at most kMaxPartitionsPerTopic
// partitions counting the added ones; a configuration at most kMaxTopics topics. A line is at
// most kMaxLineBytes bytes of UTF-8 without NUL; CR LF line ends are accepted.
//
// Every violation throws TextError naming the file and line.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "spec/vocabulary/config.hpp"
#include "spec/vocabulary/text_error.hpp"

namespace kcspec {

Config parseConfig(std::string_view text, std::string_view file_name);

// The canonical text: every statement in the order of the grammar above, every flag and per-kind
// bound spelled out (`bound perturbations` only when set, `inter.broker.protocol.version` only when
// not 3.8-IV0). parseConfig(printConfig(c)) equals c field by field for every valid c.
std::string printConfig(const Config& config);

// A topic's name as the configuration spells it (`#<index>` for an index it does not have), and
// a partition as `<topic>-<partition>`.
std::string topicName(const Config& config, TopicIndex topic);
std::string partitionName(const Config& config, TopicPartition tp);

// The pieces the other text formats (actions, scenarios) share with the configuration's.
namespace text {

inline constexpr std::size_t kMaxLineBytes = 4096;

struct SourceLine {
  int number = 0;            // 1-based
  std::string_view content;  // without the line end
};

// Splits `text` into lines, checking each: at most kMaxLineBytes bytes, UTF-8, no control character
// but tabs (no NUL, no terminal escape codes; a CR before the line end is dropped).
std::vector<SourceLine> splitLines(std::string_view text, std::string_view file);

// One line (without its line end) with the checks of splitLines; `line` must outlive the result.
SourceLine checkedLine(std::string_view line, int number, std::string_view file);

// The line up to its first `#`, split at spaces and tabs.
std::vector<std::string_view> tokenize(std::string_view line);

// A decimal integer (an optional minus sign and digits, nothing else), written without leading
// zeros; `-0` is refused too.
int parseNumber(std::string_view token, std::string_view file, int line);

// A broker id: a number in 0 … kMaxBrokers-1.
BrokerId parseBrokerId(std::string_view token, std::string_view file, int line);

// `<id>,<id>,…`: at most kMaxReplicationFactor distinct broker ids.
BrokerList parseBrokerList(std::string_view token, std::string_view file, int line);

// The list as the text formats write one: `1,2,3` in order, `none` when empty.
std::string brokerListText(const BrokerList& list);

// The items of a comma-separated token (`1,2,3`, `t-0,u-1`), empty ones included.
std::vector<std::string_view> splitCommas(std::string_view token);

// A topic `config` names.
TopicIndex parseTopic(const Config& config, std::string_view name, std::string_view file, int line);

// `<topic>-<partition>`: a topic of `config` and one of its partitions (counting added ones).
TopicPartition parsePartition(const Config& config, std::string_view token, std::string_view file, int line);

// A broker id that is one of `config`'s brokers.
BrokerId parseConfiguredBroker(const Config& config, std::string_view token, std::string_view file, int line);

// The configuration statements of `lines` (a scenario's first part). A missing `brokers`
// statement is reported at `end_line`.
Config parseConfigLines(std::span<const SourceLine> lines, std::string_view file, int end_line);

}  // namespace text
}  // namespace kcspec
