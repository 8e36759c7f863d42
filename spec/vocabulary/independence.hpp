// The independence relation between actions that the explorer's partial-order reduction relies on
// (docs/proofs.md, "Partial-order reduction"), stated over the vocabulary's world: one statement
// for the spec and the reference implementation alike, which tests/explorer/reduction_test.cpp
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
//   - when the request is an UpdateMetadata that changes b's view of the brokers (from a newer
//     controller, or naming other live brokers), process-event of an AlterPartition from b whose ISR
//     names a broker the controller does not count as live (not registered, or shutting down): an
//     INELIGIBLE_REPLICA answer marks the change refused on b's replica, and an UpdateMetadata
//     that changes b's view clears the marks (found with broker session losses: a follower that
//     runs on unregistered can be proposed; and with a controlled shutdown and a failover: a
//     follower shutting down can be proposed).
//     Such a delivery is persistent only while b can make no such proposal.
//   - create-topic t (and a controller giving t an id it lacks), when the request holds the last
//     copy of an id of t or b's replica the delivery drops does: a new id is the least one nothing
//     holds (topic_ids.hpp), so the two orders give t different ids. They commute up to a renaming of topic ids,
//     which no rule or property can tell apart (withTopicIdsRenumbered); the independence test
//     compares the spec's states up to it.
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
  bool metadata_cache = false;  // UpdateMetadata: b's metadata cache and live-broker list
  // An UpdateMetadata from a newer controller than b knows, or naming other live brokers than b's
  // list: it clears the ISR changes b's replicas were refused.
  bool clears_refusals = false;
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

// What the perturbations a state has left let happen that a delivery's persistence must rule out.
struct PersistenceScope {
  bool log_dirs_may_fail = false;           // fail-log-dir has a use left
  bool broker_sessions_may_expire = false;  // lose-broker-session or zk-session-expiry has a use left
  bool topics_may_be_created = true;        // create-topic has a use left
  bool topics_may_be_deleted = true;        // delete-topic has a use left
  bool isr_shrinks_may_happen = true;       // shrink-isr has a use left
  bool reassignments_may_start = true;      // reassign, cancel-reassignment or zk-reassign has a use left
};

// `left`: the perturbations the state has left (its budget). Every bound the scope names is read
// from it: a spent bound stays spent on every path (what a session lost earlier leaves behind,
// deliveryIsPersistent reads in the world; a replica on a failed directory stays there until its
// broker restarts, and only fail-log-dir puts one there).
constexpr PersistenceScope persistenceScope(const Bounds& left) {
  // A controller's session expiring in the middle of an event (zk-session-expiry) is a broker's
  // session lost as lose-broker-session's is.
  return PersistenceScope{hasUseLeft(left, &Bounds::log_dir_failures),
                          hasUseLeft(left, &Bounds::broker_session_losses) || hasUseLeft(left, &Bounds::zk_session_expiries),
                          hasUseLeft(left, &Bounds::topic_creations),
                          hasUseLeft(left, &Bounds::topic_deletions),
                          hasUseLeft(left, &Bounds::isr_shrinks),
                          hasUseLeft(left, &Bounds::reassignments) || hasUseLeft(left, &Bounds::zk_reassignments)};
}

// Whether deliver-request <b> is persistent in `world`: on every path from `world` that does not
// take it, each action is independent of it or absorbs it. Sufficient, and what is checked, for
// every replica the head request changes (shrink-isr and expand-isr read it):
//   - b does not host it (only a delivery to b creates it), or
//   - b leads it and can propose no ISR change for it before the delivery (shrink-isr and
//     expand-isr with leader b): its proposal is pending with none queued to answer it, or no
//     shrink-isr is left (or b is alone in its ISR) and no broker outside b's ISR follows at b's
//     leader epoch or can come to — none has a LeaderAndIsr at that epoch naming it queued, no
//     context and not ZooKeeper holds that epoch with it among the replicas, no reassignment can
//     add it, and the topic cannot be created again; or
//   - b follows it at a leader epoch E that no other broker can come to lead at before the
//     delivery (expand-isr <p> leader L add b needs L to lead at b's epoch; b's epoch changes by
//     a delivery to b only): no other broker leads p at E now, no LeaderAndIsr queued for a
//     broker L names L leader of p at E, no controller's context holds E with a leader other
//     than b (a context sends its leadership as it holds it, to a restarted leader too), and
//     ZooKeeper's leader epoch of p is above E — a context reads its epochs from ZooKeeper or
//     writes the next one there, conditionally on holding the znode's version, so neither gives
//     E again (docs/proofs.md, "Partial-order reduction"). A topic deleted and created again
//     starts its epochs anew, so this needs the topic's re-creation ruled out: no create-topic
//     left (then a topic gone stays gone), or the topic not queued for deletion anywhere and no
//     delete-topic left;
// no controller has an AlterPartition from b on it queued; when the request is an UpdateMetadata
// that clears refused ISR changes, b can propose no ISR change for any partition it leads (as
// above: only a leader's pending proposal is marked refused, and b's replicas change by
// deliveries to b only); and — when log directories
// may fail — b holds no log of a partition the request names that is not on a failed directory
// yet (fail-log-dir needs one, and only a delivery to b creates one). While b may still go by a
// new broker epoch (refusing the request), no delivery to b is persistent: while a broker session
// can be lost (lose-broker-session or zk-session-expiry has a use left, or a write is armed to
// expire a controller's session: session_expiring_writes), and while b's registration is gone
// (lose-broker-session b and Expire came, RegisterBrokerAndReelect is to come). Once b is
// registered again and no session can be lost, only a crash changes b's epoch, and it absorbs the
// delivery.
bool deliveryIsPersistent(const Observation& world, BrokerId b, const PersistenceScope& scope);

}  // namespace kcspec
