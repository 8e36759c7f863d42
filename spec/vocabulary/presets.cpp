// The presets' texts. The sizes and bounds are a first guess: whoever builds the explorer tunes
// them against measured state counts and run times (`default` must stay well under a minute).
#include "spec/vocabulary/presets.hpp"

#include <string>

#include "spec/vocabulary/config_text.hpp"

namespace kcspec {
namespace {

// What `kcspec explore` (the README's main command) completes in under a minute on a 2-core
// machine today: three brokers, one partition at replication factor 2, and one crash, one
// deletion, one StopReplica error and one ISR shrink — about 2 million states. The issue's
// target for `default` is `every-perturbation` below; it becomes the default once the explorer
// is fast enough (docs/performance.md).
constexpr std::string_view kDefault = R"(# kcspec preset: default
name default
brokers 1 2 3
alive-at-start 1 2 3
delete.topic.enable true
auto.leader.rebalance.enable false
topic t
  partition 0 replicas 1,2
  exists-at-start true
bound crashes 1
bound topic-deletions 1
bound stop-replica-errors 1
bound isr-shrinks 1
)";

// Three brokers, two topics (one created before the controller starts, one by the admin), three
// partitions in all at replication factor 2, one add-partition and one reassignment target, and
// every perturbation allowed exactly once.
constexpr std::string_view kEveryPerturbation = R"(# kcspec preset: every-perturbation
name every-perturbation
brokers 1 2 3
alive-at-start 1 2 3
delete.topic.enable true
auto.leader.rebalance.enable true
topic t
  partition 0 replicas 1,2
  partition 1 replicas 2,3
  reassign 0 to 2,3
  exists-at-start true
topic u
  partition 0 replicas 3,1
  add-partition replicas 1,2
bound crashes 1
bound controlled-shutdowns 1
bound controller-failovers 1
bound topic-creations 1
bound topic-deletions 1
bound partition-additions 1
bound reassignments 1
bound preferred-elections 1
bound unclean-elections 1
bound isr-shrinks 1
bound stop-replica-errors 1
bound auto-rebalances 1
)";

constexpr std::string_view kMedium = R"(# kcspec preset: medium
name medium
brokers 1 2 3 4
alive-at-start 1 2 3
delete.topic.enable true
auto.leader.rebalance.enable false
topic t
  partition 0 replicas 1,2,3
  partition 1 replicas 2,3,1
  reassign 0 to 2,3,4
  reassign 1 to 4,1,2
  exists-at-start true
topic u
  partition 0 replicas 3,1
  add-partition replicas 4,2
bound crashes 2
bound controlled-shutdowns 1
bound controller-failovers 2
bound topic-creations 1
bound topic-deletions 1
bound partition-additions 1
bound reassignments 2
bound preferred-elections 1
bound unclean-elections 1
bound isr-shrinks 2
bound stop-replica-errors 1
)";

constexpr std::string_view kLarge = R"(# kcspec preset: large
name large
brokers 1 2 3 4 5
alive-at-start 1 2 3 4
delete.topic.enable true
auto.leader.rebalance.enable false
topic t
  partition 0 replicas 1,2,3
  partition 1 replicas 2,3,4
  reassign 0 to 3,4,5
  reassign 1 to 5,1,2
  exists-at-start true
topic u
  partition 0 replicas 3,4,1
  partition 1 replicas 4,1,2
  add-partition replicas 5,2,3
  reassign 0 to 1,5
topic v
  partition 0 replicas 2,5
  unclean.leader.election.enable true
bound crashes 3
bound controlled-shutdowns 2
bound controller-failovers 2
bound topic-creations 2
bound topic-deletions 2
bound partition-additions 1
bound reassignments 2
bound preferred-elections 2
bound unclean-elections 2
bound isr-shrinks 3
bound stop-replica-errors 2
)";

}  // namespace

std::optional<std::string_view> presetText(std::string_view name) {
  if (name == "default") return kDefault;
  if (name == "every-perturbation") return kEveryPerturbation;
  if (name == "medium") return kMedium;
  if (name == "large") return kLarge;
  return std::nullopt;
}

std::optional<Config> preset(std::string_view name) {
  const std::optional<std::string_view> text = presetText(name);
  if (!text) return std::nullopt;
  return parseConfig(*text, "preset " + std::string(name));
}

}  // namespace kcspec
