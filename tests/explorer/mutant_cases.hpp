// Each mutant of the reference implementation (impl/mutants.hpp) with a small configuration that
// shows it: explorer_mutants_test.cpp finds each within twelve actions, reduction_test.cpp checks
// that the reduced search finds what the full one finds.
#pragma once

#include <ostream>
#include <string_view>

namespace kcspec::explorer::mutant_cases {

// The configurations (config_text.hpp's format).

// 2 brokers, topic t on both, one crash: a crash, a bounce (restart before BrokerChange), the
// offline election.
constexpr std::string_view kCrash = R"(name crash
brokers 1 2
alive-at-start 1 2
topic t
  partition 0 replicas 1,2
  exists-at-start true
bound crashes 1
)";

// One broker, topics t and u with two partitions each, one deletion: deletion of a topic whose
// partitions interleave with another topic's in the context's maps.
constexpr std::string_view kDeleteTwoTopics = R"(name delete-two-topics
brokers 1
alive-at-start 1
topic t
  partition 0 replicas 1
  partition 1 replicas 1
  exists-at-start true
topic u
  partition 0 replicas 1
  partition 1 replicas 1
  exists-at-start true
bound topic-deletions 1
)";

// delete.topic.enable=false, a deletion request and a controller failover.
constexpr std::string_view kNoDeleteFailover = R"(name no-delete-failover
brokers 1 2
alive-at-start 1 2
delete.topic.enable false
topic t
  partition 0 replicas 1
  exists-at-start true
bound controller-failovers 1
bound topic-deletions 1
)";

// A preferred election and a deletion.
constexpr std::string_view kPreferredDelete = R"(name preferred-delete
brokers 1 2
alive-at-start 1 2
topic t
  partition 0 replicas 1,2
  exists-at-start true
bound preferred-elections 1
bound topic-deletions 1
)";

// A controlled shutdown and a deletion.
constexpr std::string_view kShutdownDelete = R"(name shutdown-delete
brokers 1 2
alive-at-start 1 2
topic t
  partition 0 replicas 1,2
  exists-at-start true
bound controlled-shutdowns 1
bound topic-deletions 1
)";

// A crash and a deletion.
constexpr std::string_view kDeleteCrash = R"(name delete-crash
brokers 1 2
alive-at-start 1 2
topic t
  partition 0 replicas 1,2
  exists-at-start true
bound crashes 1
bound topic-deletions 1
)";

// An ISR shrink and a crash: the leader left alone in the ISR dies.
constexpr std::string_view kShrinkCrash = R"(name shrink-crash
brokers 1 2
alive-at-start 1 2
topic t
  partition 0 replicas 1,2
  exists-at-start true
bound crashes 1
bound isr-shrinks 1
)";

// A crash and a controller failover (a stale controller keeps writing).
constexpr std::string_view kFailover = R"(name failover
brokers 1 2
alive-at-start 1 2
topic t
  partition 0 replicas 1,2
  exists-at-start true
bound crashes 1
bound controller-failovers 1
)";

// No topics; two crashes and a controlled shutdown: a ControlledShutdown request from an earlier
// incarnation of the broker, processed after the controller learned the new broker epoch.
constexpr std::string_view kShutdownBounce = R"(name cs-bounce
brokers 1 2
alive-at-start 1 2
bound crashes 2
bound controlled-shutdowns 1
)";

// One reassignment from 1,2 to 2,3.
constexpr std::string_view kReassign = R"(name reassign
brokers 1 2 3
alive-at-start 1 2 3
topic t
  partition 0 replicas 1,2
  reassign 0 to 2,3
  exists-at-start true
bound reassignments 1
)";

// One controlled shutdown of one of two brokers hosting t-0.
constexpr std::string_view kShutdown = R"(name shutdown
brokers 1 2
alive-at-start 1 2
topic t
  partition 0 replicas 1,2
  exists-at-start true
bound controlled-shutdowns 1
)";

// One broker hosting the single-replica t-0 asks for a controlled shutdown.
constexpr std::string_view kShutdownSingleReplica = R"(name shutdown-single-replica
brokers 1 2
alive-at-start 1 2
topic t
  partition 0 replicas 1
  exists-at-start true
bound controlled-shutdowns 1
)";

// 2 brokers, topic t on both: a log directory fails under the leader or the follower (the
// controller probes and learns of it through LeaderAndIsr answers), with a deletion of t or a
// crash (a restart heals the directory). No mutant's case: the independence relation's
// (fail-log-dir and deliver-leader-and-isr-response against deliveries).
constexpr std::string_view kLogDirFailure = R"(name log-dir-failure-small
brokers 1 2
alive-at-start 1 2
topic t
  partition 0 replicas 1,2
  exists-at-start true
bound log-dir-failures 1
bound topic-deletions 1
bound crashes 1
bound perturbations 2
)";

// 2 brokers, t-0 on both and u-0 on 2, created: a ZooKeeper connection loss (the next write applied
// to a state znode loses its response) meets u-0's creation (NODEEXISTS: known deviation L9), an
// election or ISR removal after the crash (BADVERSION, made again), or the leader's AlterPartition
// (INVALID_UPDATE_VERSION, the cache behind: L10). No mutant's case: the independence relation's
// (zk-connection-loss against deliveries) and the reduced search's with the new excuses.
constexpr std::string_view kZkConnectionLoss = R"(name zk-connection-loss-small
brokers 1 2
alive-at-start 1 2
topic t
  partition 0 replicas 1,2
  exists-at-start true
topic u
  partition 0 replicas 2
bound zk-connection-losses 1
bound topic-creations 1
bound crashes 1
bound isr-shrinks 1
bound perturbations 2
)";

// 2 brokers, t-0 on both: a controller's session expires just before its next write of t-0's state
// (after the crash, its election; or at a failover's), the rest of that event meets SESSIONEXPIRED,
// Expire and RegisterBrokerAndReelect follow. No mutant's case: the independence relation's (the
// event that meets the expiry, and the deliveries to the broker whose session it was). A delivery
// is persistent only once no session can be lost and its broker is registered again
// (independence.hpp deliveryIsPersistent; before session 42, in no state here).
constexpr std::string_view kZkSessionExpiry = R"(name zk-session-expiry-small
brokers 1 2
alive-at-start 1 2
topic t
  partition 0 replicas 1,2
  exists-at-start true
bound zk-session-expiries 1
bound crashes 1
bound perturbations 2
)";

// 2 brokers, t-0 on both: a broker's session expires (its registration goes while it runs on;
// Expire and RegisterBrokerAndReelect give it a new broker epoch). No mutant's case: the
// independence relation's (RegisterBrokerAndReelect against deliveries to its broker; the leader
// proposing the unregistered follower back, refused, against an UpdateMetadata naming it live).
// Broker 1 starts after the first election (a recovery step), so that t-0's ISR is 2 alone and
// broker 1 a follower at the same leader epoch. 20,572 states, every state's pairs checked: a
// delivery is persistent only once the session loss is spent and the broker registered again.
constexpr std::string_view kBrokerSessionLoss = R"(name broker-session-loss-small
brokers 1 2
alive-at-start 2
topic t
  partition 0 replicas 1,2
  exists-at-start true
bound broker-session-losses 1
bound perturbations 1
)";

// 2 brokers on inter.broker.protocol.version 2.4: leaders write their ISR changes to ZooKeeper
// (the state znode's watch and /isr_change_notification queue events, no controller needed), a
// reassignment to 2 alone is watched through the state znode, a crash. No mutant's case: the
// independence relation's (a leader's ZooKeeper write against deliveries to it and to others).
constexpr std::string_view kOldProtocol = R"(name old-protocol-small
brokers 1 2
alive-at-start 1 2
inter.broker.protocol.version 2.4
topic t
  partition 0 replicas 1,2
  reassign 0 to 2
  exists-at-start true
bound reassignments 1
bound crashes 1
bound isr-shrinks 1
bound perturbations 2
)";

// A rolling upgrade on two brokers (docs/world.md convention 14): a broker stopped, upgraded from
// 2.4 to 3.8 and started again runs beside one still on 2.4, as leader or controller.
constexpr std::string_view kRollingUpgrade = R"(name rolling-upgrade-small
brokers 1 2
alive-at-start 1 2
inter.broker.protocol.version 2.4
upgrade inter.broker.protocol.version 3.8
topic t
  partition 0 replicas 1,2
  exists-at-start true
bound crashes 1
bound ibp-upgrades 1
bound perturbations 2
)";

// 2 brokers, t-0 on both (2 leads): broker 1 is moved off it, t is deleted — with 1's StopReplica
// still queued — and created again, and its leader shrinks the ISR. No mutant's case: the
// independence relation's. A delivery that drops the last holder of a topic id and the
// create-topic that draws the least free one commute up to a renaming of ids only; a new
// incarnation's leader epochs start again, so a follower's stale replica is read by expand-isr
// unless re-creation is ruled out (independence.hpp, deliveryIsPersistent).
constexpr std::string_view kRecreate = R"(name recreate-small
brokers 1 2
alive-at-start 1 2
topic t
  partition 0 replicas 2,1
  reassign 0 to 2
  exists-at-start true
bound reassignments 1
bound topic-deletions 1
bound topic-creations 1
bound isr-shrinks 1
)";

// 2 brokers, t-0 on both: a controlled shutdown and a controller failover. No mutant's case: the
// independence relation's. A leader's proposal to add back a follower that is shutting down is
// answered INELIGIBLE_REPLICA, which an UpdateMetadata that changes the leader's view undoes.
constexpr std::string_view kShutdownFailover = R"(name shutdown-failover-small
brokers 1 2
alive-at-start 1 2
topic t
  partition 0 replicas 1,2
  exists-at-start true
bound controlled-shutdowns 1
bound controller-failovers 1
)";

struct MutantCase {
  std::string_view mutant;
  std::string_view config;
};

inline void PrintTo(const MutantCase& c, std::ostream* out) { *out << c.mutant; }

constexpr MutantCase kCases[] = {
    {"M1", kDeleteTwoTopics},  {"M2", kDeleteTwoTopics}, {"M3", kNoDeleteFailover}, {"M4", kPreferredDelete},
    {"M5", kDeleteTwoTopics},  {"M6", kShutdownDelete},  {"M7", kDeleteCrash},      {"M8", kCrash},
    {"M9", kShrinkCrash},      {"M10", kDeleteTwoTopics}, {"M11", kCrash},          {"M12", kFailover},
    {"M13", kShutdownBounce},  {"M14", kReassign},       {"M15", kShutdown},        {"M16", kDeleteTwoTopics},
    {"M17", kShutdownSingleReplica},
};

}  // namespace kcspec::explorer::mutant_cases
