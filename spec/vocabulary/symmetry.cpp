// configSymmetry (symmetry.hpp): every permutation of the configuration's brokers is tried, and
// kept when the configuration's topics, relabelled by it, are the configuration's topics again.
#include "spec/vocabulary/symmetry.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <utility>
#include <map>

#include "spec/vocabulary/assert.hpp"

namespace kcspec {
namespace {

std::string listText(const BrokerList& list, const BrokerPermutation& sigma) {
  std::string out;
  for (BrokerId b : list) out += fmt::format("{},", sigma(b));
  return out;
}

// A topic as the rules see it, relabelled by `sigma`, without its name or partition numbers:
// its flags, its partitions (each its replicas and reassignment targets) as a sorted multiset,
// and the partitions add-partitions appends, in order.
std::string topicShape(const TopicConfig& topic, const BrokerPermutation& sigma) {
  std::vector<std::string> partitions;
  for (std::size_t p = 0; p < topic.assignment.size(); ++p) {
    std::vector<std::string> targets;
    for (const auto& [partition, target] : topic.reassignment_targets) {
      if (partition == static_cast<int>(p)) targets.push_back(listText(target, sigma));
    }
    std::sort(targets.begin(), targets.end());
    std::string shape = "[" + listText(topic.assignment[p], sigma) + "]->";
    for (const std::string& t : targets) shape += "(" + t + ")";
    partitions.push_back(std::move(shape));
  }
  std::sort(partitions.begin(), partitions.end());
  std::string out = fmt::format("unclean={} exists={} |", topic.unclean_leader_election_enable, topic.exists_at_start);
  for (const std::string& p : partitions) out += p + " ";
  out += "| added ";
  for (const BrokerList& added : topic.added_partitions) out += "[" + listText(added, sigma) + "]";
  // Targets for partitions past the initial ones (added partitions) keep their index.
  for (const auto& [partition, target] : topic.reassignment_targets) {
    if (partition >= static_cast<int>(topic.assignment.size())) out += fmt::format(" {}:({})", partition, listText(target, sigma));
  }
  return out;
}

std::vector<std::string> configShape(const Config& config, const BrokerPermutation& sigma) {
  std::vector<std::string> topics;
  for (const TopicConfig& topic : config.topics) topics.push_back(topicShape(topic, sigma));
  std::sort(topics.begin(), topics.end());
  return topics;
}

}  // namespace

bool BrokerPermutation::isIdentity() const {
  for (BrokerId b = 0; b < kMaxBrokers; ++b) {
    if (to[static_cast<std::size_t>(b)] != b) return false;
  }
  return true;
}

ConfigSymmetry configSymmetry(const Config& config) {
  std::vector<BrokerId> brokers;
  config.brokers.forEach([&](BrokerId b) { brokers.push_back(b); });
  BrokerPermutation identity;
  for (BrokerId b = 0; b < kMaxBrokers; ++b) identity.to[static_cast<std::size_t>(b)] = b;
  const std::vector<std::string> shape = configShape(config, identity);
  ConfigSymmetry out;
  std::vector<BrokerId> image = brokers;  // ascending: the first permutation is the identity
  do {  // at most 8! = 40,320 permutations
    BrokerPermutation sigma = identity;
    for (std::size_t i = 0; i < brokers.size(); ++i) sigma.to[static_cast<std::size_t>(brokers[i])] = image[i];
    bool keeps_alive = true;
    config.brokers_alive_at_start.forEach([&](BrokerId b) { keeps_alive = keeps_alive && config.brokers_alive_at_start.contains(sigma(b)); });
    if (keeps_alive && configShape(config, sigma) == shape) out.permutations.push_back(sigma);
  } while (std::next_permutation(image.begin(), image.end()));
  // Orbits: the brokers each broker is sent to by some permutation of the group.
  std::map<BrokerId, std::vector<BrokerId>> orbit_of;
  for (BrokerId b : brokers) {
    std::vector<BrokerId> orbit;
    for (const BrokerPermutation& sigma : out.permutations) orbit.push_back(sigma(b));
    std::sort(orbit.begin(), orbit.end());
    orbit.erase(std::unique(orbit.begin(), orbit.end()), orbit.end());
    if (orbit.size() > 1 && orbit.front() == b) out.orbits.push_back(orbit);
  }
  return out;
}

namespace {

void relabel(BrokerId& id, const BrokerPermutation& sigma) { id = sigma(id); }

void relabel(BrokerList& list, const BrokerPermutation& sigma) {
  for (BrokerId& id : list) id = sigma(id);
}

void relabel(BrokerSet& set, const BrokerPermutation& sigma) {
  BrokerSet out;
  set.forEach([&](BrokerId b) { out.insert(sigma(b)); });
  set = out;
}

void relabel(ReplicaAssignment& a, const BrokerPermutation& sigma) {
  relabel(a.replicas, sigma);
  relabel(a.adding_replicas, sigma);
  relabel(a.removing_replicas, sigma);
}

void relabel(LeaderAndIsr& lai, const BrokerPermutation& sigma) {
  relabel(lai.leader, sigma);
  relabel(lai.isr, sigma);
}

// An array with one slot per broker: the slot of b moves to sigma(b). In place, cycle by cycle
// (a cycle b₀ → b₁ → … → b₍ₖ₋₁₎ is k − 1 swaps with b₀'s slot), so that a broker's 6 kB of data
// is not copied once per slot of the array.
template <class T>
void relabelSlots(std::array<T, kMaxBrokers>& slots, const BrokerPermutation& sigma) {
  std::array<bool, kMaxBrokers> moved{};
  for (BrokerId first = 0; first < kMaxBrokers; ++first) {
    if (moved[static_cast<std::size_t>(first)]) continue;
    moved[static_cast<std::size_t>(first)] = true;
    for (BrokerId b = sigma(first); b != first; b = sigma(b)) {  // at most kMaxBrokers steps: sigma is a permutation
      KCSPEC_ASSERT(!moved[static_cast<std::size_t>(b)]);
      moved[static_cast<std::size_t>(b)] = true;
      std::swap(slots[static_cast<std::size_t>(first)], slots[static_cast<std::size_t>(b)]);
    }
  }
}

void relabel(UpdateMetadataPartitionState& s, const BrokerPermutation& sigma) {
  relabel(s.leader, sigma);
  relabel(s.isr, sigma);
  relabel(s.replicas, sigma);
  relabel(s.offline_replicas, sigma);
}

void relabel(ControlRequest& r, const BrokerPermutation& sigma) {
  relabel(r.controller_id, sigma);
  for (LeaderAndIsrPartitionState& s : r.leader_and_isr) {
    relabel(s.leadership.leader_and_isr, sigma);
    relabel(s.assignment, sigma);
  }
  for (UpdateMetadataPartitionState& s : r.update_metadata) relabel(s, sigma);
  relabel(r.live_brokers, sigma);
}

void relabel(ControllerData& c, const BrokerPermutation& sigma) {
  ControllerContextData& ctx = c.context;
  relabelSlots(ctx.live_broker_epochs, sigma);
  relabel(ctx.shutting_down_broker_ids, sigma);
  relabelSlots(ctx.replicas_on_offline_dirs, sigma);
  for (PartitionContext& pc : ctx.partitions) {
    if (pc.assignment) relabel(*pc.assignment, sigma);
    if (pc.leadership) relabel(pc.leadership->leader_and_isr, sigma);
    relabelSlots(pc.replica_states, sigma);
  }
  for (ControllerEvent& e : c.events) {
    relabel(e.broker, sigma);
    relabel(e.target_replicas, sigma);
    relabel(e.proposed, sigma);
  }
}

}  // namespace

Observation relabelled(const Observation& world, const BrokerPermutation& sigma) {
  Observation out = world;
  relabel(out, sigma);
  return out;
}

void relabel(Observation& out, const BrokerPermutation& sigma) {
  relabelSlots(out.zk.brokers, sigma);
  for (TopicZnodes& topic : out.zk.topics) {
    for (std::optional<ReplicaAssignment>& a : topic.partitions) {
      if (a) relabel(*a, sigma);
    }
    for (std::optional<PartitionStateZnode>& state : topic.states) {
      if (state) relabel(state->leader_and_isr, sigma);
    }
  }
  relabel(out.zk.controller, sigma);
  for (BrokerList& target : out.zk.reassign_partitions.targets) relabel(target, sigma);
  relabel(out.zk.log_dir_event_notifications, sigma);
  relabelSlots(out.brokers, sigma);
  for (BrokerData& broker : out.brokers) {
    for (ControlRequest& r : broker.inbox) relabel(r, sigma);
    for (std::optional<UpdateMetadataPartitionState>& entry : broker.metadata_cache) {
      if (entry) relabel(*entry, sigma);
    }
    relabel(broker.metadata_live_brokers, sigma);
    for (HostedReplica& r : broker.replicas) {
      relabel(r.isr, sigma);
      relabel(r.refused_expansions, sigma);
      relabel(r.refused_shrinks, sigma);
    }
    for (StopReplicaResponse& r : broker.outbox) relabel(r.controller_id, sigma);
    for (LeaderAndIsrResponse& r : broker.leader_and_isr_responses) relabel(r.controller_id, sigma);
    relabel(broker.controller, sigma);
  }
}

Action relabelled(const Action& action, const BrokerPermutation& sigma) {
  Action out = action;
  relabel(out.broker, sigma);
  relabel(out.replica, sigma);
  relabel(out.replicas, sigma);
  return out;
}

namespace {

// Calls f(owner, epoch) for every broker epoch the world holds, with the broker it belongs to:
// its registration znode's czxid, the epoch the broker knows itself by, each controller's
// cached epoch of it, the epoch the requests queued to it carry (the recipient's), and the epoch
// of the events it sent a controller (ControlledShutdown, AlterPartition; −1 on other events).
template <class F>
void forEachBrokerEpoch(Observation& world, F&& f) {
  for (BrokerId b = 0; b < kMaxBrokers; ++b) {
    const auto slot = static_cast<std::size_t>(b);
    f(b, world.zk.brokers[slot].broker_epoch);
    BrokerData& broker = world.brokers[slot];
    f(b, broker.broker_epoch);
    for (ControlRequest& request : broker.inbox) f(b, request.broker_epoch);
    for (BrokerId owner = 0; owner < kMaxBrokers; ++owner) {
      f(owner, broker.controller.context.live_broker_epochs[static_cast<std::size_t>(owner)]);
    }
    for (ControllerEvent& event : broker.controller.events) {
      if (isBrokerId(event.broker)) f(event.broker, event.broker_epoch);
    }
  }
}

}  // namespace

bool renumberBrokerEpochs(Observation& world) {
  constexpr std::int64_t kMostEpochs = 64;  // one bit each in a broker's mask
  std::array<std::uint64_t, kMaxBrokers> held{};  // bit e − 1: epoch e is held for the broker
  bool in_range = world.zk.last_zxid <= kMostEpochs;
  forEachBrokerEpoch(world, [&](BrokerId owner, std::int64_t& epoch) {
    if (epoch < 0) return;  // −1: none
    if (epoch == 0 || epoch > kMostEpochs || epoch > world.zk.last_zxid) {
      in_range = false;
      return;
    }
    held[static_cast<std::size_t>(owner)] |= std::uint64_t{1} << (epoch - 1);
  });
  if (!in_range) return false;
  forEachBrokerEpoch(world, [&](BrokerId owner, std::int64_t& epoch) {
    if (epoch <= 0) return;
    const std::uint64_t below = (std::uint64_t{1} << (epoch - 1)) - 1;
    epoch = std::popcount(held[static_cast<std::size_t>(owner)] & below) + 1;
  });
  int most = 0;
  for (std::uint64_t mask : held) most = std::max(most, std::popcount(mask));
  world.zk.last_zxid = most;
  return true;
}

bool keepsTopicsAndPartitions(const Config& config, const BrokerPermutation& sigma) {
  for (const TopicConfig& topic : config.topics) {
    for (const BrokerList& list : topic.assignment) {
      BrokerList mapped = list;
      relabel(mapped, sigma);
      if (!(mapped == list)) return false;
    }
    for (const BrokerList& list : topic.added_partitions) {
      BrokerList mapped = list;
      relabel(mapped, sigma);
      if (!(mapped == list)) return false;
    }
  }
  return true;
}

std::string symmetryText(const ConfigSymmetry& symmetry) {
  if (symmetry.permutations.size() <= 1) return "none";
  std::string out = "brokers";
  for (const std::vector<BrokerId>& orbit : symmetry.orbits) out += fmt::format(" {{{}}}", fmt::join(orbit, ","));
  return out + fmt::format(" ({} permutations)", symmetry.permutations.size());
}

}  // namespace kcspec
