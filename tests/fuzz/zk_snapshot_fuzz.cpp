// Fuzz target: `kcspec check-zk`'s znode readers (proofs/zk_check/zk_snapshot.hpp) and the
// findings over what they read (zk_findings.hpp). The input is a ZooKeeper tree as text, one znode
// a line: `<path> <data>` (the data is the rest of the line, possibly empty); a znode's stat is its
// line number (czxid) and that number modulo 5 (version). Payloads Kafka would not write — wrong
// types, integers past Kafka's 32-bit Int, broken JSON — must be malformed-znode findings naming
// one of the tree's znodes, never an exception (std::invalid_argument only for a tree that is no
// Kafka cluster or is over the snapshot's limits); every integer the snapshot holds was written
// as that integer in the input; the findings and both report forms are built without failing.
#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <string>

#include "fuzz_support.hpp"
#include "proofs/zk_check/zk_findings.hpp"
#include "proofs/zk_check/zk_snapshot.hpp"

namespace kcspec::fuzz {

// The seeds are files: tests/zk/snapshots/*.zk (a healthy cluster, and payloads with integers past
// Kafka's Int).
std::vector<std::pair<std::string, std::string>> builtinSeeds() { return {}; }

}  // namespace kcspec::fuzz

namespace {

using kcspec::impl::zk::Znode;

// The input's tree: path → znode. A line without a leading '/' or with an empty segment is no
// znode (skipped, as a ZooKeeper server would never hold it).
std::map<std::string, Znode, std::less<>> treeOf(std::string_view text) {
  std::map<std::string, Znode, std::less<>> tree;
  std::int64_t line = 0;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view content = text.substr(start, end - start);
    start = end + 1;
    ++line;
    const std::size_t space = content.find(' ');
    const std::string path(content.substr(0, space));
    if (path.size() < 2 || path[0] != '/' || path.back() == '/' || path.find("//") != std::string::npos) continue;
    Znode node;
    node.data = space == std::string_view::npos ? std::string() : std::string(content.substr(space + 1));
    node.stat.czxid = line;
    node.stat.version = static_cast<std::int32_t>(line % 5);
    tree[path] = std::move(node);
  }
  return tree;
}

std::vector<std::string> childrenOf(const std::map<std::string, Znode, std::less<>>& tree, std::string_view path) {
  std::vector<std::string> out;
  const std::string prefix = std::string(path) + "/";
  for (auto it = tree.lower_bound(prefix); it != tree.end() && it->first.starts_with(prefix); ++it) {
    const std::string rest = it->first.substr(prefix.size());
    if (rest.find('/') == std::string::npos) out.push_back(rest);
  }
  return out;
}

// Every decimal integer written in the input (with a sign), as the text says it.
std::set<long long> integersIn(std::string_view text) {
  std::set<long long> out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (!(text[i] >= '0' && text[i] <= '9')) continue;
    std::size_t j = i;
    long long value = 0;
    bool fits = true;
    while (j < text.size() && text[j] >= '0' && text[j] <= '9') {
      if (value > 1'000'000'000'000LL) fits = false;  // past every Int: not kept, and no overflow
      if (fits) value = value * 10 + (text[j] - '0');
      ++j;
    }
    if (fits) {
      out.insert(value);
      if (i > 0 && text[i - 1] == '-') out.insert(-value);
    }
    i = j;
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kcspec;
  const std::string_view text = fuzz::asText(data, size);
  const auto tree = treeOf(text);
  const zkcheck::ZnodeReader reader{
      [&tree](std::string_view path) -> const Znode* {
        const auto it = tree.find(path);
        return it == tree.end() ? nullptr : &it->second;
      },
      [&tree](std::string_view path) {
        return tree.contains(path) ? childrenOf(tree, path) : std::vector<std::string>{};
      }};
  zkcheck::ZkSnapshot snapshot;
  try {
    snapshot = zkcheck::readSnapshot(reader, zkcheck::SnapshotLimits{.max_topics = 64, .max_partitions_per_topic = 64,
                                                                      .max_brokers = 64});
  } catch (const std::invalid_argument&) {
    return 0;  // no /brokers, or over the limits: check-zk's bad input
  }
  for (const zkcheck::MalformedZnode& m : snapshot.malformed) {
    if (!tree.contains(m.path)) fuzz::fail("a malformed-znode finding names no znode of the tree", text, m.path);
  }
  // A number the snapshot holds was in the input as that number: nothing wrapped or invented
  // (-1 and 0 are the readers' defaults for an absent field).
  const std::set<long long> written = integersIn(text);
  const auto check = [&](long long value, std::string_view what) {
    if (value != -1 && value != 0 && !written.contains(value)) {
      fuzz::fail("the snapshot holds a number the input does not have", text, std::string(what) + " " + std::to_string(value));
    }
  };
  if (snapshot.controller) check(*snapshot.controller, "controller");
  if (snapshot.controller_epoch) check(*snapshot.controller_epoch, "controller_epoch");
  for (const auto& [name, topic] : snapshot.topics) {
    for (const auto& [p, partition] : topic.partitions) {
      check(p, "partition");
      for (int r : partition.replicas) check(r, "replica");
      for (int r : partition.adding) check(r, "adding replica");
      for (int r : partition.removing) check(r, "removing replica");
      if (partition.state) {
        check(partition.state->leader, "leader");
        check(partition.state->leader_epoch, "leader_epoch");
        check(partition.state->controller_epoch, "controller_epoch");
        for (int r : partition.state->isr) check(r, "isr member");
      }
    }
  }
  const std::vector<zkcheck::ZkFinding> findings = zkcheck::findViolations(snapshot);
  (void)zkcheck::renderText(snapshot, findings);
  (void)zkcheck::renderJson(snapshot, findings).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  (void)zkcheck::reportLines(snapshot, findings);
  return 0;
}
