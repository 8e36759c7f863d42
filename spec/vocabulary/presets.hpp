// The embedded configurations: `default` (every perturbation kind, at most three per history:
// explored exhaustively in about a minute with the default reduction, DESIGN.md), `medium` and
// `large` (sized for about ten minutes and an hour unreduced; docs/performance.md has today's
// times),
// `every-perturbation` (every kind once, without the overall bound: far too large to complete),
// `crash-isr` (the previous default),
// `crash-deletion` (the first slice's default), `stress-4` and `stress-5` for random
// histories, `cancel-during-shutdown` (the smallest scope of Kafka's S2 deviation), the five
// configurations of the differential checks (kCheckPresetNames), `spare-brokers` (the one
// preset with a symmetry: two brokers that host nothing, for `--reduction full`) and
// `four-brokers` (`default`'s kinds on four brokers, two per history), `legacy-admin` (the legacy
// ZooKeeper admin paths with a dead reassignment target and a failover), `log-dir-failure` (log
// directories failing under a leader and a follower, with a deletion, a crash and a failover),
// `zk-connection-loss` (the controller's ZooKeeper connection dropping after a state-znode write
// was applied, kafka.md §6.3.8), `broker-session-loss` (a running broker's ZooKeeper session
// expiring, kafka.md §6.3.7), `old-protocol` (inter.broker.protocol.version 2.4: ISR changes
// written by leaders, StopReplica without leader epochs), `two-perturbations`
// (`default` with two perturbations per history: the main job until session 25, and the scope of
// the runs that also go unreduced), `rolling-upgrade` (brokers moving from 2.4 to 3.8 one by one),
// `zk-session-expiry` (a controller's session expiring in the middle of an event, docs/world.md
// convention 15). Each is written in the configuration's text form and parsed,
// so it is valid by construction.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "spec/vocabulary/config.hpp"

namespace kcspec {

inline constexpr std::array<std::string_view, 24> kPresetNames = {
    "default",   "medium",  "large",     "two-perturbations", "every-perturbation", "crash-isr",    "crash-deletion",
    "stress-4",  "stress-5",  "cancel-during-shutdown", "deletion", "unclean", "no-delete", "reassignment", "rebalance",
    "spare-brokers", "four-brokers", "legacy-admin", "log-dir-failure", "zk-connection-loss",
    "broker-session-loss", "old-protocol", "rolling-upgrade", "zk-session-expiry"};

// The presets too large to explore that random histories (`kcspec mutants`, `kcspec prove`, the
// property tests) draw their variety from; the order is part of the histories' seeds.
inline constexpr std::array<std::string_view, 3> kRandomHistoryPresetNames = {"every-perturbation", "stress-4", "stress-5"};

// The configurations of the differential checks (`kcspec mutants`, the property tests), in the
// order that seeds `kcspec mutants`' histories: `default`, the random-history presets, then five
// made to reach particular corners — deletion with brokers down and StopReplica errors, unclean
// topics and shrinking ISRs, delete.topic.enable=false, reassignments with failovers, and the
// automatic leader rebalance — then (session 34) `old-protocol`: inter.broker.protocol.version
// 2.4, whose leaders write their ISR changes to ZooKeeper themselves, and, last (session 36),
// `rolling-upgrade`: brokers moving from 2.4 to 3.8 one by one.
inline constexpr std::array<std::string_view, 11> kCheckPresetNames = {
    "default",   "every-perturbation", "stress-4",     "stress-5",  "deletion",        "unclean",
    "no-delete", "reassignment",       "rebalance",    "old-protocol", "rolling-upgrade"};

// kPresetNames from the `first`, as a list for a message ("a, b or c").
std::string presetNameList(std::size_t first = 0);

// The preset called `name`, or nullopt when there is none.
std::optional<Config> preset(std::string_view name);

// How many states an exhaustive exploration of the preset visits (its published count,
// docs/performance.md), for presets explored to completion; nullopt for the others. The explorer
// takes it as a sizing hint (ExploreOptions::expected_states): a wrong count costs memory only.
std::optional<std::uint64_t> presetStateCount(std::string_view name);

// The preset's text, as `kcspec` could print it for a user to start from (nullopt: no such preset).
std::optional<std::string_view> presetText(std::string_view name);

}  // namespace kcspec
