// The independence relation between actions that the explorer's partial-order reduction relies on
// (docs/proofs.md, "Partial-order reduction"), stated over the vocabulary's world: one statement
// for the spec and the reference implementation alike, which tests/explorer/independence_test.cpp
// checks against both, pair by pair, in every state of small configurations.
//
// The relation covers the action that makes up most of every graph (three transitions in four on
// `crash-isr`): deliver-request <b>. It pops the head of broker b's request queue and changes
// broker b's own data only — its queue, the controller epoch it knows, its metadata cache and
// live-broker list (UpdateMetadata), the hosted replicas the request names (LeaderAndIsr,
// StopReplica) and the tail of its response queue — reading besides only b's broker epoch and
// whether b is alive. No other action reads or writes those, except:
//   - crash <b>, which resets all of b's data (it absorbs the delivery: crash after delivery is
//     the same state as crash alone, see absorbsDelivery);
//   - shrink-isr with leader b, and expand-isr naming b as leader or follower, on a partition the
//     request names (they read b's replica of it; a proposal marks the leader's replica pending);
//   - process-event of an AlterPartition from b on such a partition (its response updates b's replica);
//   - fail-log-dir <p> <b> on a partition the request names (the delivery reads whether b's replica
//     of it is on a failed directory, and the failure resets the replica the delivery may change);
//   - process-event b of RegisterBrokerAndReelect (a new session after lose-broker-session b): b
//     goes by a new broker epoch, which decides whether b refuses the request;
//   - when the request is an UpdateMetadata, process-event of an AlterPartition from b whose ISR
//     names a broker the controller does not count as live: an INELIGIBLE_REPLICA answer marks the
//     change refused on b's replica, and an UpdateMetadata that changes b's view clears the marks
//     (found with broker session losses: a follower that runs on unregistered can be proposed).
//     Such a delivery is persistent only while no such AlterPartition from b is queued.
// Everything else commutes with it: controllers append to b's queue's tail (the delivery takes
// its head), deliver-stop-replica-response <b> takes the head of the response queue the delivery
// appends to (as deliver-leader-and-isr-response <b> does of its LeaderAndIsr responses), and no
// other step looks at a broker's requests, replicas or cache.
#pragma once

#include <optional>

#include "spec/vocabulary/action.hpp"
#include "spec/vocabulary/config.hpp"
#include "spec/vocabulary/observation.hpp"
#include "spec/vocabulary/sets.hpp"

namespace kcspec {

// What deliver-request <b> may change besides b's queue, response queue and known epoch.
// The entries b refuses are left out: a whole request from an older controller epoch or for an
// earlier incarnation of b, a LeaderAndIsr entry whose leader epoch is not higher than the one b
// holds (or that does not name b), a StopReplica entry with a lower one. What decides a refusal —
// b's known controller epoch, broker epoch and held leader epochs — changes only by a delivery to
// b (the head first) or a crash of b, so a refused entry stays refused until the delivery.
struct DeliveryFootprint {
  PartitionSet replicas;        // b's hosted replicas the head request changes (LeaderAndIsr, StopReplica)
  bool metadata_cache = false;  // UpdateMetadata: b's metadata cache, live-broker list and refused ISR changes
  // Every partition the head request names (LeaderAndIsr, StopReplica), refused or not: whether
  // b's replica of it is on a failed log directory decides its answer.
  PartitionSet named;
};

// Defined when deliver-request <b> is enabled in `world` (b alive with a request queued).
std::optional<DeliveryFootprint> deliveryFootprint(const Observation& world, BrokerId b);

// Whether `other` and deliver-request <b>, both enabled in `world`, are independent there: each
// leaves the other enabled, and taken in either order they reach the same state.
bool independentOfDelivery(const Observation& world, BrokerId b, const Action& other);

// Whether `other`, taken after deliver-request <b>, reaches the state it reaches alone (crash <b>).
constexpr bool absorbsDelivery(BrokerId b, const Action& other) {
  return other.kind == ActionKind::CrashBroker && other.broker == b;
}

// What a configuration lets happen that a delivery's persistence must rule out.
struct PersistenceScope {
  bool log_dirs_may_fail = false;           // fail-log-dir can be enabled (log-dir-failures > 0)
  bool broker_sessions_may_expire = false;  // lose-broker-session or zk-session-expiry can be enabled
};

constexpr PersistenceScope persistenceScope(const Config& config) {
  const bool perturbs = config.bounds.perturbations != 0;
  // A controller's session expiring in the middle of an event (zk-session-expiry) is a broker's
  // session lost as lose-broker-session's is.
  return PersistenceScope{config.bounds.log_dir_failures > 0 && perturbs,
                          (config.bounds.broker_session_losses > 0 || config.bounds.zk_session_expiries > 0) && perturbs};
}

// Whether deliver-request <b> is persistent in `world`: on every path from `world` that does not
// take it, each action is independent of it or absorbs it. Sufficient, and what is checked: every
// replica the head request changes is absent on b (so no shrink-isr or expand-isr can name b on it
// before the delivery, as both need b's replica there, which only a delivery to b creates), no
// controller has an AlterPartition from b on it queued, and — when log directories may fail — b
// holds no log of a partition the request names that is not on a failed directory yet (fail-log-dir
// needs one, and only a delivery to b creates one). When broker sessions may expire, no delivery
// is persistent: lose-broker-session b, Expire and RegisterBrokerAndReelect, which gives b a new
// broker epoch (refusing the request), may all come first.
bool deliveryIsPersistent(const Observation& world, BrokerId b, const PersistenceScope& scope);

}  // namespace kcspec
