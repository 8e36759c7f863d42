// A scenario's `given` section (issue 28): the world a scenario starts from, stated instead of
// built by a history. It sits between the configuration and `steps`:
//
//   given [unchecked]                          starts the section; `unchecked`: see "Rules" below
//   controller <b> [epoch <e>]                 broker b's controller module is active; /controller = b,
//                                              /controller_epoch = e (default 1, data version e)
//   broker <b> alive|shutting-down [epoch <e>] registered with broker epoch e; shutting-down: also in
//                                              the controller's shutting-down set. A broker no statement
//                                              names is dead (not registered)
//   topic <t> [to-be-deleted] [deletion-started] [ineligible-for-deletion]
//                                              /brokers/topics/<t> exists; the flags put it in the
//                                              controller's deletion sets (to-be-deleted also writes
//                                              /admin/delete_topics/<t>)
//   partition <t>-<p> [replicas L] [adding L] [removing L] [leader <b>|none] [isr L]
//                     [leader-epoch N] [partition-epoch N] [state <PartitionState>]
//   replica <b> <t>-<p> <ReplicaState>         the controller's replica state of b for t-p
//   reassign-partitions <t>-<p> L [<t>-<p> L …] | invalid-json
//                                              /admin/reassign_partitions exists with these targets
//                                              (or data that is not its JSON); nothing checks them
//   preferred-replica-election <t>-<p> [<t>-<p> …]
//                                              /admin/preferred_replica_election exists naming these
//
// or, for a world no statement above can say (requests in flight, metadata caches, queued
// events), the whole Observation as JSON:
//
//   given json [unchecked]
//   { … }                                      observation_json.hpp's form, over as many lines as it
//                                              takes, up to `steps`; no derivation: what it leaves out
//                                              holds its default
//
// States are spelled as Kafka spells them (OnlinePartition, ReplicaDeletionIneligible, …), lists
// as the configuration's (`1,2,3`). Each statement names one thing at most once.
//
// Derivation (what the statements leave out; docs/scenarios.md "The given section" says it as
// prose): a topic named by a `partition` or `replica` statement exists as if stated; an existing
// topic holds the configuration's partitions (and its added ones up to the highest one named);
// a partition's replicas are the configuration's; its state znode holds the stated leader and
// ISR, else the first live replica and the live replicas (all replicas when none is live),
// leader and partition epoch 0, the controller's epoch — and there is none when the statement says
// `state NewPartition` or `state NonExistentPartition` with no leader or ISR. The controller's
// context holds every existing topic, the znodes' assignments and leaderships, each partition's
// stated state or: NewPartition without a znode, OnlinePartition with a live leader,
// OfflinePartition otherwise; each replica's stated state or OnlineReplica on a live broker,
// OfflineReplica otherwise; a partition with adding or removing replicas is being reassigned;
// offline_partition_count counts the OfflinePartition partitions of topics whose deletion has not
// started. Every live broker has received the controller's requests: it knows the controller's
// epoch, caches every partition that has a state znode (its topic's deletion not started) and
// the live brokers, and hosts each of its replicas of a partition with a state znode, as the
// partition's leader (with the ISR) or follower at the znode's epochs. No request, response or
// event is in flight. /brokers/ids/<b>'s epoch is the stated one, or the next unused one from 1 in
// broker order; last_zxid is the highest broker epoch. From inter.broker.protocol.version 2.8-IV0
// every existing topic has topic id 1 (its znode, the ids given, the context), and from 2.8-IV1
// the hosted replicas and metadata cache entries carry it too (docs/world.md convention 13). With
// a controller stated, /feature is what its failover wrote: Enabled from 2.7-IV0 (Disabled
// before), format 2 from 3.3-IV0 (1 before; world.md 14).
//
// Rules: a given that no Kafka controller could hold is rejected with the rule it breaks (G1–G9,
// kGivenRules), at the line of the statement that breaks it — unless the section says
// `given unchecked`, for Kafka's unit tests that start from such states: then the broken rules
// are kept in Given::breaks and the run goes on. Syntax errors are always errors.
#pragma once

#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "spec/vocabulary/config.hpp"
#include "spec/vocabulary/config_text.hpp"
#include "spec/vocabulary/observation.hpp"

namespace kcspec {

struct GivenRule {
  std::string_view id;
  std::string_view statement;
};

// The consistency rules of a stated world (docs/scenarios.md "Rules").
inline constexpr std::array<GivenRule, 9> kGivenRules = {{
    {"G1", "a partition's leader is one of its replicas"},
    {"G2", "a partition's ISR holds only its replicas"},
    {"G3", "a partition's leader is in its ISR"},
    {"G4", "a replica state belongs to one of the partition's replicas"},
    {"G5", "an OnlinePartition has a live leader whose replica is OnlineReplica"},
    {"G6", "an OnlineReplica is on a live broker"},
    {"G7", "a replica is in a ReplicaDeletion state only while its topic is to be deleted"},
    {"G8", "a topic whose deletion started, or that is ineligible for deletion, is to be deleted"},
    {"G9", "the controller is a live broker, and live brokers have distinct epochs"},
}};

struct GivenBreak {
  std::string_view rule;  // "G1" …
  int line = 0;           // the statement that breaks it
  std::string message;    // what breaks it
};

struct Given {
  bool unchecked = false;
  bool json = false;                  // `given json`: the world as JSON, nothing derived
  int line = 0;                       // the `given` line
  std::vector<std::string> lines;     // the section's lines after `given`, as written (printScenario)
  Observation world;                  // what the section states, with the rest derived
  std::vector<GivenBreak> breaks;     // with `unchecked`: the rules the world breaks
};

// The section of `lines` (the lines after the `given` line, up to `steps`), for `config`.
// `given_line` is the line of `given`, whose arguments are `given_arguments` (`json`, `unchecked`).
// Throws TextError for a syntax error, an unknown name, and (without `unchecked`) a broken rule.
Given parseGiven(const Config& config, std::span<const text::SourceLine> lines,
                 std::span<const std::string_view> given_arguments, std::string_view file, int given_line);

// The `given` line and the section's lines, as printScenario writes them.
std::string printGiven(const Given& given);

}  // namespace kcspec
