// findViolations and the renderings (zk_findings.hpp).
#include "proofs/zk_check/zk_findings.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>
#include <vector>

#include "spec/rules/invariants.hpp"
#include "spec/vocabulary/text_error.hpp"

namespace kcspec::zkcheck {
namespace {

std::string catalogName(std::string_view id) {
  for (const spec::Property& p : spec::invariantCatalog()) {
    if (p.id == id) return std::string(p.name);
  }
  return {};
}

bool contains(const std::vector<int>& list, int x) { return std::find(list.begin(), list.end(), x) != list.end(); }

std::string list(const std::vector<int>& ids) { return fmt::format("[{}]", fmt::join(ids, ",")); }

class Collector {
 public:
  explicit Collector(const ZkSnapshot& snapshot) : snapshot_(snapshot) {}
  void add(std::string_view kind, std::string_view property, std::string topic, std::string path, std::string message) {
    out.push_back(ZkFinding{std::string(kind), std::string(property), catalogName(property), std::move(topic), std::move(path),
                            std::move(message)});
  }
  bool registered(int broker) const { return snapshot_.brokers.contains(broker); }
  std::vector<ZkFinding> out;

 private:
  const ZkSnapshot& snapshot_;
};

std::string statePath(const std::string& topic, int p) { return fmt::format("/brokers/topics/{}/partitions/{}/state", topic, p); }

void checkPartition(Collector& c, const ZkSnapshot& s, const std::string& topic, int p, const PartitionSnapshot& partition) {
  const std::string tp = fmt::format("{}-{}", topic, p);
  if (!partition.state) return;
  const PartitionStateSnapshot& st = *partition.state;
  const std::string path = statePath(topic, p);
  if (s.controller_epoch && st.controller_epoch > *s.controller_epoch) {
    c.add("controller-epoch-behind", "T1", topic, path,
          fmt::format("{} was written by controller epoch {}, newer than /controller_epoch {}", tp, st.controller_epoch,
                      *s.controller_epoch));
  }
  if (st.leader >= 0 && !contains(st.isr, st.leader)) {
    c.add("leader-not-in-isr", "S1", topic, path, fmt::format("{} leader {} is not in its ISR {}", tp, st.leader, list(st.isr)));
  }
  if (partition.in_assignment) {
    std::vector<int> outside;
    for (int r : st.isr) {
      if (!contains(partition.replicas, r)) outside.push_back(r);
    }
    if (!outside.empty()) {
      c.add("isr-outside-assignment", "S2", topic, path,
            fmt::format("{} ISR {} has {} outside its replicas {}", tp, list(st.isr), list(outside), list(partition.replicas)));
    }
  }
  if (st.isr.empty()) c.add("empty-isr", "S3", topic, path, fmt::format("{} has an empty ISR", tp));
  if (st.leader >= 0 && !c.registered(st.leader)) {
    c.add("leader-not-registered", "", topic, path,
          fmt::format("{} leader {} is not a registered broker (/brokers/ids/{} is absent)", tp, st.leader, st.leader));
  }
  if (st.leader == -1) {
    std::vector<int> live;
    for (int r : st.isr) {
      if (c.registered(r)) live.push_back(r);
    }
    if (!live.empty()) {
      c.add("leaderless-with-live-isr", "L2", topic, path,
            fmt::format("{} has no leader although ISR members {} are registered", tp, list(live)));
    }
  }
}

}  // namespace

std::vector<ZkFinding> findViolations(const ZkSnapshot& s) {
  Collector c(s);
  for (const MalformedZnode& m : s.malformed) c.add("malformed-znode", "", "", m.path, fmt::format("{}: {}", m.path, m.message));
  if (s.controller && !s.controller_epoch) {
    c.add("controller-epoch-behind", "T1", "", "/controller_epoch",
          fmt::format("/controller names broker {} but /controller_epoch is absent", *s.controller));
  }
  for (const auto& [name, topic] : s.topics) {
    for (const auto& [p, partition] : topic.partitions) checkPartition(c, s, name, p, partition);
    if (topic.queued_for_deletion) {
      std::set<int> missing;
      for (const auto& [p, partition] : topic.partitions) {
        for (int r : partition.replicas) {
          if (!c.registered(r)) missing.insert(r);
        }
      }
      // An assignment the controller restored during the deletion lists only the partitions that
      // had a partition znode (kafka.md §5.10.2): an id missing below the highest listed one is a
      // partition the controller may still be deleting, whose replicas ZooKeeper no longer names.
      std::vector<int> unlisted;
      int next_id = 0;
      for (const auto& [p, partition] : topic.partitions) {
        if (!partition.in_assignment) continue;
        for (; next_id < p; ++next_id) unlisted.push_back(next_id);
        next_id = p + 1;
      }
      const std::string why =
          !topic.znode ? "the topic znode is already gone"
          : !missing.empty()
              ? fmt::format("brokers {} of its replicas are not registered", fmt::join(missing, ","))
          : !unlisted.empty()
              ? fmt::format("the brokers of the replicas its topic znode lists are registered, but the znode does not list "
                            "partition(s) {} (an assignment restored during the deletion, kafka.md §5.10.2): the "
                            "controller may be waiting for their replicas, which ZooKeeper no longer names",
                            fmt::join(unlisted, ","))
              : "all its replicas' brokers are registered, so the controller should complete it";
      c.add("deletion-pending", "L1", name, "/admin/delete_topics/" + name,
            fmt::format("topic {} is queued for deletion: {}", name, why));
    }
    if (!topic.znode) {
      if (topic.config) {
        c.add("leftover-of-deleted-topic", "S5", name, "/config/topics/" + name,
              fmt::format("/config/topics/{} exists but topic {} does not", name, name));
      }
    } else {
      for (const auto& [p, partition] : topic.partitions) {
        if (!partition.in_assignment && partition.has_znode) {
          c.add("leftover-of-deleted-topic", "S5", name, fmt::format("/brokers/topics/{}/partitions/{}", name, p),
                fmt::format("{}-{} has partition znodes but is not in the topic's assignment", name, p));
        }
      }
    }
    for (const auto& [p, partition] : topic.partitions) {
      if (!partition.adding.empty() || !partition.removing.empty()) {
        const std::string what = fmt::format("{}-{} is being reassigned: replicas {} adding {} removing {}", name, p,
                                             list(partition.replicas), list(partition.adding), list(partition.removing));
        // A state znode as New->Online wrote it (data version 0) whose ISR holds every replica: the
        // reassignment began before the partition had a state and is complete, but nothing but a
        // controller failover will notice (L11, a known Kafka deviation; docs/spec/rules.md).
        // A named reference, not the structured binding: clang 14 cannot capture a binding in a lambda.
        const auto& replicas = partition.replicas;
        const auto& state = partition.state;
        const bool complete_at_creation =
            state && state->partition_epoch == 0 && std::all_of(replicas.begin(), replicas.end(), [&state](int r) {
              return std::find(state->isr.begin(), state->isr.end(), r) != state->isr.end();
            });
        if (complete_at_creation) {
          c.add("reassignment-pending", "L11", name, "/brokers/topics/" + name,
                what + fmt::format("; its first ISR {} already holds every replica (the reassignment began before the "
                                   "partition had a state), so only a controller failover completes it",
                                   list(partition.state->isr)));
        } else {
          c.add("reassignment-pending", "L5", name, "/brokers/topics/" + name, what);
        }
      }
    }
  }
  if (s.reassign_partitions) {
    for (const AdminPartition& a : *s.reassign_partitions) {
      c.add("reassignment-pending", "L5", a.topic, "/admin/reassign_partitions",
            fmt::format("{}-{} has a legacy reassignment request to {}", a.topic, a.partition, list(a.replicas)));
    }
  }
  if (s.preferred_replica_election) {
    for (const AdminPartition& a : *s.preferred_replica_election) {
      c.add("preferred-election-pending", "", a.topic, "/admin/preferred_replica_election",
            fmt::format("{}-{} has a pending preferred-replica election request", a.topic, a.partition));
    }
  }
  // Report order: kind order within the overall (topic, path) order.
  const auto rank = [](const std::string& kind) {
    return std::find(std::begin(kFindingKinds), std::end(kFindingKinds), kind) - std::begin(kFindingKinds);
  };
  std::stable_sort(c.out.begin(), c.out.end(), [&](const ZkFinding& a, const ZkFinding& b) {
    return std::tie(a.topic, a.path) < std::tie(b.topic, b.path) ||
           (std::tie(a.topic, a.path) == std::tie(b.topic, b.path) && rank(a.kind) < rank(b.kind));
  });
  return c.out;
}

namespace {

std::string partitionLine(const std::string& topic, int p, const PartitionSnapshot& partition) {
  std::string line = fmt::format("{}-{} replicas {}", topic, p, list(partition.replicas));
  if (!partition.adding.empty()) line += fmt::format(" adding {}", list(partition.adding));
  if (!partition.removing.empty()) line += fmt::format(" removing {}", list(partition.removing));
  if (!partition.state) return line + " (no state znode)";
  const PartitionStateSnapshot& st = *partition.state;
  return line + fmt::format(" leader {} leader_epoch {} isr {} partition_epoch {} controller_epoch {}{}", st.leader, st.leader_epoch,
                            list(st.isr), st.partition_epoch, st.controller_epoch, st.recovering ? " RECOVERING" : "");
}

struct TopicCounts {
  int partitions = 0, offline = 0, under_replicated = 0, reassigning = 0;
};

TopicCounts countsOf(const ZkSnapshot& s, const TopicSnapshot& topic) {
  TopicCounts n;
  for (const auto& [p, partition] : topic.partitions) {
    if (!partition.in_assignment) continue;
    ++n.partitions;
    if (!partition.state || partition.state->leader < 0 || !s.brokers.contains(partition.state->leader)) ++n.offline;
    const std::size_t wanted = partition.replicas.size() - std::min(partition.replicas.size(), partition.adding.size());
    if (partition.state && partition.state->isr.size() < wanted) ++n.under_replicated;
    if (!partition.adding.empty() || !partition.removing.empty()) ++n.reassigning;
  }
  return n;
}

std::string controllerLine(const ZkSnapshot& s) {
  return fmt::format("controller: {} epoch {} (zk version {})", s.controller ? fmt::format("broker {}", *s.controller) : "none",
                     s.controller_epoch ? std::to_string(*s.controller_epoch) : "absent", s.controller_epoch_zk_version);
}

std::string brokersLine(const ZkSnapshot& s) {
  std::vector<int> ids;
  for (const auto& [id, epoch] : s.brokers) ids.push_back(id);
  return fmt::format("brokers: {}", ids.empty() ? "none" : fmt::format("{}", fmt::join(ids, " ")));
}

std::string topicLine(const ZkSnapshot& s, const std::string& name, const TopicSnapshot& topic) {
  const TopicCounts n = countsOf(s, topic);
  return fmt::format("topic {}: {} partitions, {} offline, {} under-replicated, {} reassigning{}{}{}", name, n.partitions, n.offline,
                     n.under_replicated, n.reassigning, topic.queued_for_deletion ? ", queued for deletion" : "",
                     topic.unclean_leader_election_enable ? ", unclean.leader.election.enable" : "",
                     topic.znode ? "" : ", no topic znode");
}

std::string findingLine(const ZkFinding& f) {
  return fmt::format("{}{}: {}", f.kind, f.property_id.empty() ? "" : fmt::format(" ({} {})", f.property_id, f.property_name),
                     f.message);
}

}  // namespace

// Every line is escaped (escapedControls): topic names and znode values come from the cluster's
// ZooKeeper and may hold anything, escape codes included.
std::vector<std::string> reportLines(const ZkSnapshot& s, const std::vector<ZkFinding>& findings) {
  std::vector<std::string> lines{escapedControls(controllerLine(s)), escapedControls(brokersLine(s))};
  for (const auto& [name, topic] : s.topics) {
    lines.push_back(escapedControls(topicLine(s, name, topic)));
    for (const auto& [p, partition] : topic.partitions) lines.push_back(escapedControls("  " + partitionLine(name, p, partition)));
  }
  for (const ZkFinding& f : findings) lines.push_back(escapedControls("finding " + findingLine(f)));
  return lines;
}

std::string renderText(const ZkSnapshot& s, const std::vector<ZkFinding>& findings) {
  std::string out = escapedControls(controllerLine(s)) + "\n" + escapedControls(brokersLine(s)) + "\n";
  for (const auto& [name, topic] : s.topics) {
    out += escapedControls(topicLine(s, name, topic)) + "\n";
    for (const auto& [p, partition] : topic.partitions) out += escapedControls("  " + partitionLine(name, p, partition)) + "\n";
  }
  out += fmt::format("{} finding{} ({} ZooKeeper requests)\n", findings.size(), findings.size() == 1 ? "" : "s", s.requests);
  for (const ZkFinding& f : findings) out += escapedControls("  " + findingLine(f)) + "\n";
  return out;
}

nlohmann::json renderJson(const ZkSnapshot& s, const std::vector<ZkFinding>& findings) {
  using nlohmann::json;
  json brokers = json::array();
  for (const auto& [id, epoch] : s.brokers) brokers.push_back({{"id", id}, {"epoch", epoch}});
  json topics = json::array();
  for (const auto& [name, topic] : s.topics) {
    const TopicCounts n = countsOf(s, topic);
    json partitions = json::array();
    for (const auto& [p, partition] : topic.partitions) {
      json jp = {{"partition", p}, {"replicas", partition.replicas}, {"adding_replicas", partition.adding},
                 {"removing_replicas", partition.removing}, {"in_assignment", partition.in_assignment}, {"state", nullptr}};
      if (partition.state) {
        const PartitionStateSnapshot& st = *partition.state;
        jp["state"] = {{"leader", st.leader},         {"leader_epoch", st.leader_epoch},   {"isr", st.isr},
                       {"partition_epoch", st.partition_epoch}, {"controller_epoch", st.controller_epoch},
                       {"leader_recovery_state", st.recovering ? 1 : 0}};
      }
      partitions.push_back(jp);
    }
    topics.push_back({{"topic", name}, {"exists", topic.znode}, {"queued_for_deletion", topic.queued_for_deletion},
                      {"unclean_leader_election_enable", topic.unclean_leader_election_enable},
                      {"partition_count", n.partitions}, {"offline", n.offline}, {"under_replicated", n.under_replicated},
                      {"reassigning", n.reassigning}, {"partitions", partitions}});
  }
  json jf = json::array();
  for (const ZkFinding& f : findings) {
    jf.push_back({{"kind", f.kind}, {"property", f.property_id.empty() ? json(nullptr) : json(f.property_id)},
                  {"property_name", f.property_name.empty() ? json(nullptr) : json(f.property_name)},
                  {"topic", f.topic.empty() ? json(nullptr) : json(f.topic)}, {"path", f.path}, {"message", f.message}});
  }
  return json{{"controller", s.controller ? json(*s.controller) : json(nullptr)},
              {"controller_epoch", s.controller_epoch ? json(*s.controller_epoch) : json(nullptr)},
              {"controller_epoch_zk_version", s.controller_epoch_zk_version},
              {"brokers", brokers},
              {"topics", topics},
              {"findings", jf},
              {"requests", s.requests}};
}

}  // namespace kcspec::zkcheck
