// The action vocabulary (DESIGN.md "Steps"): every step a history can take. The explorer chooses
// among the enabled ones; scenario files and counterexamples are sequences of them, one per line
// in the text form of action_text.hpp.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "spec/vocabulary/config.hpp"
#include "spec/vocabulary/ids.hpp"

namespace kcspec {

enum class ActionKind : std::uint8_t {
  // admin (perturbations)
  CreateTopic,            // admin tool writes /brokers/topics/<t> (+ /config/topics/<t>)
  DeleteTopic,            // admin creates /admin/delete_topics/<t>
  AddPartitions,          // admin rewrites /brokers/topics/<t> with one more partition
  ReassignPartition,      // AlterPartitionReassignments(tp → target)
  CancelReassignment,     // AlterPartitionReassignments(tp → none)
  ElectPreferredLeader,   // ElectLeaders(PREFERRED, {tp})
  ElectUncleanLeader,     // ElectLeaders(UNCLEAN, {tp})
  EnableTopicUnclean,     // admin sets unclean.leader.election.enable=true on a topic
  ZkReassign,             // legacy admin tool creates /admin/reassign_partitions (tp → target)
  ZkReassignInvalid,      // … creates it with data that does not parse as its JSON
  ZkElectPreferred,       // legacy admin tool creates /admin/preferred_replica_election ({tp})
  // broker
  CrashBroker,            // perturbation: the broker dies; its ephemeral znode disappears
  StartBroker,            // recovery: the broker registers again with a new broker epoch
  ControlledShutdown,     // perturbation: the broker asks the controller to move its leaders
  ShrinkIsr,              // perturbation: a leader proposes removing a follower (AlterPartition)
  ExpandIsr,              // recovery: a caught-up follower is proposed back into the ISR
  FailLogDir,             // perturbation: the log directory holding one replica fails
  // controller
  ProcessEvent,           // recovery: the controller on `broker` processes its next event
  LoseControllerSession,  // perturbation: /controller disappears; the old controller runs on
  NoticeSessionExpiry,    // recovery: the old controller's ZK client queues Expire (clearAndPut)
  ElectController,        // recovery: `broker` wins /controller and runs onControllerFailover
  AutoRebalanceTimer,     // perturbation: the active controller on `broker`'s leader-rebalance scheduler fires
  // delivery
  DeliverRequest,         // recovery: `broker` processes the head of its request queue
  DeliverStopReplicaResponse,  // recovery (perturbation when `error`): a response reaches the controller
  DeliverLeaderAndIsrResponse, // recovery: a LeaderAndIsr response with KAFKA_STORAGE_ERROR reaches the controller
  // ZooKeeper
  LoseZkConnection,       // perturbation: the connection drops after the next write to a state znode is applied
  LoseBrokerSession,      // perturbation: a broker's session expires; its registration vanishes, the broker runs on
  // broker (below inter.broker.protocol.version 2.7-IV2)
  PropagateIsrChanges,    // recovery: a broker's propagation task writes its ISR changes as one /isr_change_notification child
  // rolling upgrade
  UpgradeIbp,             // perturbation: a stopped broker is given the upgrade inter.broker.protocol.version
  // ZooKeeper
  LoseZkConnectionOnFeature,  // perturbation: the connection drops after the next write to /feature is applied
  ExpireZkSession,        // perturbation: a controller's session expires just before its next write of a state znode
};

inline constexpr std::size_t kActionKindCount = 31;

// The arguments an action names besides its kind (its text form and its candidates follow).
enum class ActionArgs : std::uint8_t {
  Topic,            // <topic>: one candidate per configured topic
  Partition,        // <topic>-<partition>: one per partition in ZooKeeper
  PartitionTarget,  // <topic>-<partition> <broker>,…: one per configured reassignment target
  LeaderFollower,   // <topic>-<partition> leader <broker> <word> <broker>: one per (leader, follower) pair
  Broker,           // <broker>: one per configured broker
  BrokerError,      // <broker> [error]: one per broker without the error, one with it
  PartitionReplica, // <topic>-<partition> <broker>: one per partition in ZooKeeper and configured broker
  None,             // no argument: one candidate
};

// Whether taking the action spends a bound (a perturbation) or is the cluster recovering.
enum class Perturbs : std::uint8_t { Never, Always, WhenError };

// One action kind, defined once: everything about it that is not a rule. The spec's guard and
// effect are the section of the same name in spec/rules/actions.cpp, the impl's in
// impl/cluster.cpp; the prose of its page in docs/generator/action_texts.cpp. Candidates are
// enumerated from `args` (spec/vocabulary/action_candidates.hpp), by spec and impl alike.
struct ActionDefinition {
  ActionKind kind;
  std::string_view name;      // the first word of its text form
  ActionArgs args;
  std::string_view word;      // LeaderFollower: the word before the follower ("remove", "add")
  Perturbs perturbs;
  int Bounds::*bound;         // the per-kind bound it spends when it perturbs (nullptr: none)
  std::string_view usage;     // its text form, for error messages and the docs
  std::string_view category;  // admin, broker, controller, delivery
  std::string_view summary;   // one line for people (Markdown)
};

namespace action_table {
using K = ActionKind;
using A = ActionArgs;
using P = Perturbs;

inline constexpr std::array<ActionDefinition, kActionKindCount> kDefinitions = {{
    {K::CreateTopic, "create-topic", A::Topic, "", P::Always, &Bounds::topic_creations, "create-topic <topic>", "admin",
     "The admin creates a topic's znode; the controller's TopicChange handler brings its partitions online."},
    {K::DeleteTopic, "delete-topic", A::Topic, "", P::Always, &Bounds::topic_deletions, "delete-topic <topic>", "admin",
     "The admin asks for a topic's deletion by creating `/admin/delete_topics/<t>`."},
    {K::AddPartitions, "add-partitions", A::Topic, "", P::Always, &Bounds::partition_additions, "add-partitions <topic>",
     "admin", "The admin appends the next configured partition to a topic's znode; PartitionModifications creates it."},
    {K::ReassignPartition, "reassign", A::PartitionTarget, "", P::Always, &Bounds::reassignments,
     "reassign <topic>-<partition> <broker>,<broker>,…", "admin",
     "An AlterPartitionReassignments request moves one partition to a configured target replica list."},
    {K::CancelReassignment, "cancel-reassignment", A::Partition, "", P::Always, &Bounds::reassignments,
     "cancel-reassignment <topic>-<partition>", "admin",
     "An AlterPartitionReassignments request with no target cancels a partition's reassignment."},
    {K::ElectPreferredLeader, "elect-preferred", A::Partition, "", P::Always, &Bounds::preferred_elections,
     "elect-preferred <topic>-<partition>", "admin",
     "An ElectLeaders(PREFERRED) request moves a partition's leadership back to its preferred replica."},
    {K::ElectUncleanLeader, "elect-unclean", A::Partition, "", P::Always, &Bounds::unclean_elections,
     "elect-unclean <topic>-<partition>", "admin",
     "An ElectLeaders(UNCLEAN) request elects a leader outside the ISR for a leaderless partition."},
    {K::EnableTopicUnclean, "enable-unclean", A::Topic, "", P::Always, &Bounds::unclean_elections, "enable-unclean <topic>",
     "admin", "The admin turns a topic's `unclean.leader.election.enable` on; leaderless partitions may elect uncleanly."},
    {K::ZkReassign, "zk-reassign", A::PartitionTarget, "", P::Always, &Bounds::zk_reassignments,
     "zk-reassign <topic>-<partition> <broker>,<broker>,…", "admin",
     "A legacy admin tool creates `/admin/reassign_partitions` moving one partition to a configured target; "
     "unlike the API, nothing checks that the target brokers are alive."},
    {K::ZkReassignInvalid, "zk-reassign-invalid", A::None, "", P::Always, &Bounds::zk_reassignments,
     "zk-reassign-invalid", "admin",
     "A legacy admin tool creates `/admin/reassign_partitions` with data that is not its JSON; the controller reads it "
     "as empty."},
    {K::ZkElectPreferred, "zk-elect-preferred", A::Partition, "", P::Always, &Bounds::zk_preferred_elections,
     "zk-elect-preferred <topic>-<partition>", "admin",
     "A legacy admin tool creates `/admin/preferred_replica_election` naming one partition."},
    {K::CrashBroker, "crash", A::Broker, "", P::Always, &Bounds::crashes, "crash <broker>", "broker",
     "A broker dies: its registration disappears and everything it held is lost."},
    {K::StartBroker, "start", A::Broker, "", P::Never, nullptr, "start <broker>", "broker",
     "A dead broker starts and registers again with a new broker epoch."},
    {K::ControlledShutdown, "controlled-shutdown", A::Broker, "", P::Always, &Bounds::controlled_shutdowns,
     "controlled-shutdown <broker>", "broker", "A broker asks the controller to move its leaderships away before it stops."},
    {K::ShrinkIsr, "shrink-isr", A::LeaderFollower, "remove", P::Always, &Bounds::isr_shrinks,
     "shrink-isr <topic>-<partition> leader <broker> remove <broker>", "broker",
     "A partition's leader proposes removing a follower from the ISR (AlterPartition)."},
    {K::ExpandIsr, "expand-isr", A::LeaderFollower, "add", P::Never, nullptr,
     "expand-isr <topic>-<partition> leader <broker> add <broker>", "broker",
     "A partition's leader proposes adding a caught-up follower back to the ISR (AlterPartition)."},
    {K::FailLogDir, "fail-log-dir", A::PartitionReplica, "", P::Always, &Bounds::log_dir_failures,
     "fail-log-dir <topic>-<partition> <broker>", "broker",
     "The log directory holding a broker's replica of a partition fails; the broker tells the controller through "
     "`/log_dir_event_notification`."},
    {K::ProcessEvent, "process-event", A::Broker, "", P::Never, nullptr, "process-event <broker>", "controller",
     "The controller module on a broker processes the next event of its queue, atomically."},
    {K::LoseControllerSession, "lose-controller-session", A::Broker, "", P::Always, &Bounds::controller_failovers,
     "lose-controller-session <broker>", "controller",
     "The active controller's ZooKeeper session expires: `/controller` disappears, the old controller runs on."},
    {K::NoticeSessionExpiry, "notice-session-expiry", A::Broker, "", P::Never, nullptr, "notice-session-expiry <broker>",
     "controller",
     "The old controller's ZooKeeper client notices the expiry and queues Expire, dropping every queued event."},
    {K::ElectController, "elect-controller", A::Broker, "", P::Never, nullptr, "elect-controller <broker>", "controller",
     "A broker wins the controller election and runs onControllerFailover."},
    {K::AutoRebalanceTimer, "auto-rebalance-timer", A::Broker, "", P::Always, &Bounds::auto_rebalances,
     "auto-rebalance-timer <broker>", "controller",
     "The active controller's leader-rebalance scheduler fires and queues AutoPreferredReplicaLeaderElection."},
    {K::DeliverRequest, "deliver-request", A::Broker, "", P::Never, nullptr, "deliver-request <broker>", "delivery",
     "A broker processes the next control request of its queue."},
    {K::DeliverStopReplicaResponse, "deliver-stop-replica-response", A::BrokerError, "", P::WhenError,
     &Bounds::stop_replica_errors, "deliver-stop-replica-response <broker> [error]", "delivery",
     "A broker's StopReplica(delete) response reaches the controller, with or without an error."},
    {K::DeliverLeaderAndIsrResponse, "deliver-leader-and-isr-response", A::Broker, "", P::Never, nullptr,
     "deliver-leader-and-isr-response <broker>", "delivery",
     "A broker's LeaderAndIsr response naming replicas on a failed log directory reaches the controller."},
    {K::LoseZkConnection, "zk-connection-loss", A::Partition, "", P::Always, &Bounds::zk_connection_losses,
     "zk-connection-loss <topic>-<partition>", "controller",
     "The controller's ZooKeeper connection drops right after ZooKeeper applies the next write to a partition's state "
     "znode; the client resends the write and the controller sees the resend's answer (NODEEXISTS or BADVERSION)."},
    {K::LoseBrokerSession, "lose-broker-session", A::Broker, "", P::Always, &Bounds::broker_session_losses,
     "lose-broker-session <broker>", "broker",
     "A running broker's ZooKeeper session expires: its registration (and `/controller`, if it holds it) vanishes "
     "while the broker runs on, until its client notices and registers it again with a new broker epoch."},
    {K::PropagateIsrChanges, "propagate-isr-changes", A::Broker, "", P::Never, nullptr,
     "propagate-isr-changes <broker>", "broker",
     "Below `inter.broker.protocol.version` 2.7-IV2: a broker's ISR-change propagation task writes the partitions "
     "whose ISR it wrote to ZooKeeper since its last run as one `/isr_change_notification/isr_change_<seq>`."},
    {K::UpgradeIbp, "upgrade-ibp", A::Broker, "", P::Always, &Bounds::ibp_upgrades, "upgrade-ibp <broker>", "broker",
     "A rolling upgrade's step: a stopped broker is given the configuration's `upgrade inter.broker.protocol.version`; "
     "it runs with that value from its next start."},
    {K::LoseZkConnectionOnFeature, "zk-connection-loss-feature", A::None, "", P::Always, &Bounds::zk_connection_losses,
     "zk-connection-loss-feature", "controller",
     "The controller's ZooKeeper connection drops right after ZooKeeper applies the next write to `/feature`; the "
     "client resends it, and a creation's resend answers NODEEXISTS, which fails the controller's failover."},
    {K::ExpireZkSession, "zk-session-expiry", A::Partition, "", P::Always, &Bounds::zk_session_expiries,
     "zk-session-expiry <topic>-<partition>", "controller",
     "The ZooKeeper session of the controller that next writes a partition's state znode expires just before that "
     "write: the write and every later ZooKeeper request of the event fail with SESSIONEXPIRED, the broker's "
     "registration and `/controller` vanish, and Expire is queued ahead of every other event."},
}};
}  // namespace action_table

inline constexpr const std::array<ActionDefinition, kActionKindCount>& kActionDefinitions = action_table::kDefinitions;

// The table is indexed by kind.
static_assert([] {
  for (std::size_t i = 0; i < kActionKindCount; ++i) {
    if (static_cast<std::size_t>(kActionDefinitions[i].kind) != i) return false;
    if ((kActionDefinitions[i].perturbs == Perturbs::Never) != (kActionDefinitions[i].bound == nullptr)) return false;
  }
  return true;
}());

constexpr const ActionDefinition& definitionOf(ActionKind kind) { return kActionDefinitions[static_cast<std::size_t>(kind)]; }
constexpr std::string_view actionName(ActionKind kind) { return definitionOf(kind).name; }

inline constexpr std::array<std::string_view, kActionKindCount> kActionNames = [] {
  std::array<std::string_view, kActionKindCount> names{};
  for (std::size_t i = 0; i < kActionKindCount; ++i) names[i] = kActionDefinitions[i].name;
  return names;
}();

struct Action {
  ActionKind kind = ActionKind::ProcessEvent;
  BrokerId broker = kNoLeader;  // the broker acting (or hosting the controller acting)
  TopicIndex topic = -1;        // topic actions
  TopicPartition tp;            // partition actions
  BrokerId replica = kNoLeader; // ShrinkIsr/ExpandIsr: the follower
  BrokerList replicas;          // ReassignPartition: the target replicas
  bool error = false;           // DeliverStopReplicaResponse: answered with an error
  friend constexpr bool operator==(const Action&, const Action&) = default;
};

}  // namespace kcspec

namespace kcspec {

// A perturbation: a step of the environment that spends a bound (the admin, a crash, a lost
// session, an ISR shrink, an error response); every other step is the cluster recovering.
constexpr bool isPerturbation(const Action& a) {
  const Perturbs perturbs = definitionOf(a.kind).perturbs;
  return perturbs == Perturbs::Always || (perturbs == Perturbs::WhenError && a.error);
}

// The per-kind bound the action spends (nullptr when it spends none).
constexpr int Bounds::*boundSpentBy(const Action& a) { return isPerturbation(a) ? definitionOf(a.kind).bound : nullptr; }

}  // namespace kcspec
