// An Observation as text: an ordered list of (path, value) pairs, one per piece of non-default
// content, and the changes between two observations. This is what `kcspec replay` prints after
// each step, and how a conformance failure shows where two observations differ.
//
// Paths, in this order:
//   /admin/delete_topics/<t>                      exists
//   /brokers/ids/<b>                              broker_epoch=<e>
//   /brokers/topics/<t>                           partitions={0:[1,2,3],…} adding_replicas={…} removing_replicas={…}
//   /brokers/topics/<t>/partitions/<p>/state      leader=1 leader_epoch=0 isr=1,2,3 partition_epoch=0 controller_epoch=1
//   /config/topics/<t>                            unclean.leader.election.enable=<bool>
//   /controller                                   brokerid=<b>
//   /controller_epoch                             epoch=<e> version=<v>
//   zookeeper last_zxid                           <n>
//   broker <b>                                    alive|dead broker_epoch=<e> known_controller_epoch=<e>
//   broker <b> inbox[<i>]                         a control request
//   broker <b> metadata live_brokers, broker <b> metadata <t>-<p>      the metadata cache
//   broker <b> replica <t>-<p>                    leader|follower leader_epoch=… partition_epoch=… [isr=…]
//   broker <b> outbox[<i>]                        a StopReplica response on its way back
//   broker <b> controller                         active / session_lost / psm_batch_unflushed / rsm_batch_unflushed
//   broker <b> controller context epoch|live_brokers|shutting_down_broker_ids|all_topics
//   broker <b> controller context <t>-<p> assignment|leadership|state
//   broker <b> controller context <t>-<p> replica <r> state
//   broker <b> controller context partitions_being_reassigned|topics_to_be_deleted|
//                                 topics_with_deletion_started|topics_ineligible_for_deletion|
//                                 offline_partition_count
//   broker <b> events[<i>]                        a queued controller event
//
// An absent path means the default value (no znode, empty queue slot, no cache entry, …). Every
// field of Observation shows in some path, so different observations render differently. Queues
// are shown by position: taking a queue's head changes every position behind it.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <utility>
#include <vector>

#include "spec/vocabulary/config.hpp"
#include "spec/vocabulary/observation.hpp"

namespace kcspec {

using ObservationEntries = std::vector<std::pair<std::string, std::string>>;

// The non-default content of `observation`, in the order above; the configuration names topics.
ObservationEntries renderObservation(const Config& config, const Observation& observation);

// One "path: value" line per entry.
std::string renderObservationText(const Config& config, const Observation& observation);

struct Change {
  std::string path;
  std::string before;  // empty: absent
  std::string after;   // empty: absent
  friend bool operator==(const Change&, const Change&) = default;
};

// The paths whose values differ, in the order above.
std::vector<Change> diffObservations(const Config& config, const Observation& before, const Observation& after);

// One line per change: `<indent><path>: <before> -> <after>`, with `(absent)` for an absent value.
std::string renderChangesText(const std::vector<Change>& changes, std::string_view indent = "  ");

// [{"path":…,"before":…,"after":…}, …] (keys in that order) with null for an absent value.
nlohmann::ordered_json changesJson(const std::vector<Change>& changes);
std::string renderChangesJson(const std::vector<Change>& changes);

}  // namespace kcspec
