// An Observation as JSON: the form the live driver's protocol (docs/driver-protocol.md) and the
// trace format carry. It does not need the configuration: brokers are ids, topics are indexes
// (the position of their `topic` statement in the configuration, from 0), a partition is
// "<topic index>-<partition>", e.g. "0-1".
//
//   {"zookeeper": {"brokers": {"<id>": {"registered", "broker_epoch"}},
//                  "topics": {"<t>": {"exists", "partitions": [{"replicas", "adding_replicas",
//                                     "removing_replicas"}, …], "states": {"<p>": LEADERSHIP},
//                                     "unclean_leader_election_enable"}},
//                  "controller", "controller_epoch", "controller_epoch_zk_version",
//                  "delete_topics": [t, …], "last_zxid"},
//    "brokers": {"<id>": {"alive", "broker_epoch", "known_controller_epoch",
//                         "inbox": [REQUEST, …], "metadata_cache": {"<t>-<p>": UPDATE_METADATA},
//                         "metadata_live_brokers": [id, …], "replicas": {"<t>-<p>": HOSTED},
//                         "outbox": [{"controller_id", "controller_epoch", "partitions"}, …],
//                         "controller": {"active", "session_lost", "psm_batch_unflushed",
//                                        "rsm_batch_unflushed", "context": CONTEXT,
//                                        "events": [EVENT, …]}}}}
//
// docs/driver-protocol.md lists every member, its type and its default. Sets are ascending
// arrays; lists (ISRs, assignments, queues) keep their order; states and kinds are Kafka's names.
//
// Any member may be left out when it holds its default, and a map ("brokers", "topics",
// "states", "replicas", …) leaves out every entry that holds its default (for an optional
// value: that is absent). observationJson writes this compact form; with include_defaults it
// writes every member and every map entry (absent optionals as null), so that a partial
// observation's paths can be looked up in it. observationFromJson reads either form and any
// mix, and rejects everything else (unknown members, wrong types, out-of-range ids, numbers or
// list lengths) with ObservationJsonError naming the JSON pointer of the offending value.
#pragma once

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>
#include <utility>

#include "spec/vocabulary/config.hpp"
#include "spec/vocabulary/observation.hpp"

namespace kcspec {

struct ObservationJsonOptions {
  bool include_defaults = false;
  // With include_defaults: every member and map entry of the configuration's brokers, its topics
  // and their partitions, and of other ids only what is not default (they hold their defaults in
  // every state of this configuration's histories). A history's full observation then grows with
  // its configuration, not with the vocabulary's capacity (8 brokers, 4 topics of 4 partitions).
  // Null: every id the vocabulary allows.
  const Config* scope = nullptr;
};

nlohmann::ordered_json observationJson(const Observation& observation, ObservationJsonOptions options = {});

// Malformed input: what() is "<JSON pointer>: <message>", e.g.
// "/brokers/1/inbox/0/kind: expected one of LeaderAndIsr, UpdateMetadata, StopReplica".
struct ObservationJsonError : std::runtime_error {
  ObservationJsonError(std::string pointer_, std::string message_)
      : std::runtime_error((pointer_.empty() ? std::string("(root)") : pointer_) + ": " + message_),
        pointer(std::move(pointer_)),
        message(std::move(message_)) {}
  std::string pointer;  // "" is the whole document
  std::string message;
};

// A member name as a JSON pointer token (RFC 6901: "~" → "~0", "/" → "~1"): how every pointer
// kcspec prints into an observation or a trace line is built.
std::string jsonPointerToken(std::string_view key);

struct ObservationJsonReadOptions {
  // A trace's partial observations may give an array as an object keyed by decimal index
  // ({"0": …, "3": …}: those elements alone; docs/trace-format.md). The Observation read from
  // such a document holds the given elements in index order, packed: it serves as a check only.
  bool arrays_keyed_by_index = false;
};

Observation observationFromJson(const nlohmann::json& json, ObservationJsonReadOptions options = {});
Observation observationFromJson(const nlohmann::ordered_json& json, ObservationJsonReadOptions options = {});

}  // namespace kcspec
