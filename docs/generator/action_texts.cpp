// The spec's prose, keyed by ActionKind and ControllerEventKind. Sources: docs/world.md (the
// world's conventions and the enabledness table) and docs/kafka.md (Kafka's behaviour,
// cited by section). The worked examples run on docs_examples.cpp's configuration:
// brokers 1 2 3; topic t (t-0 on 1,2, reassignable to 2,3) exists at start; topic u (u-0 on 2,3,
// one more partition on 3,1) is created by the admin. Controller examples run it on broker 3.
#include "docs/generator/action_texts.hpp"

#include <array>

namespace kcspec::docs {
namespace {

using K = ActionKind;
using E = ControllerEventKind;

constexpr std::array<ActionDoc, kActionKindCount> kActionDocs = {{
    {K::CreateTopic,
     "The admin tool writes `/brokers/topics/<t>` with the configured replica assignment of every partition (and, "
     "from `inter.broker.protocol.version` 2.8-IV0, a new topic id: the least that nothing in the world holds for `t`, "
     "so a topic created again is told apart from anything left of the earlier one), and "
     "`/config/topics/<t>` with the topic's `unclean.leader.election.enable`. Nothing else happens at once: the "
     "child watch on `/brokers/topics` queues **TopicChange** at the active controller, whose handler creates the "
     "partitions (NonExistent → New → Online), writes each partition's first state znode (leader = first live "
     "replica, ISR = the live replicas, leader epoch 0) and sends LeaderAndIsr and UpdateMetadata.",
     "`t` has no znode and is not in `/admin/delete_topics` (a topic being deleted cannot be re-created before its "
     "deletion completes); a `topic-creations` budget remains.",
     "ZooKeeper: `/brokers/topics/<t>` (all partitions' assignments, its `topic_id`) and `/config/topics/<t>`.",
     "The event **TopicChange** at the active controller (when there is none, the next controller finds the topic "
     "during failover). No request.",
     "The admin side of topic creation (`AdminZkClient.createTopic`); the controller side is "
     "`KafkaController.processTopicChange` → `onNewPartitionCreation` (kafka.md §5.10.1, §5.10.3, §6.1, §6.2).",
     "`createTopic` and `fireWatch` (`spec/rules/actions.cpp`, `spec/rules/zookeeper.cpp`)",
     "elect-controller 3\nsettle\ncreate-topic u"},
    {K::DeleteTopic,
     "The admin tool (or the DeleteTopics API) creates `/admin/delete_topics/<t>`. The child watch on "
     "`/admin/delete_topics` queues **TopicDeletion**; its handler queues the topic for deletion and, when the topic "
     "is eligible, starts it: the partitions go Offline → NonExistent, every broker is told leader −2 "
     "(LeaderDuringDelete), the replicas go Offline (StopReplica without delete) and then ReplicaDeletionStarted "
     "(StopReplica with delete). The deletion completes when every replica's StopReplica response came back without "
     "error: the controller then deletes the topic's znodes.",
     "`t` exists and is not already in `/admin/delete_topics`; a `topic-deletions` budget remains.",
     "ZooKeeper: `/admin/delete_topics/<t>`.",
     "The event **TopicDeletion** at the active controller. No request.",
     "The admin side of topic deletion (`AdminZkClient.deleteTopic`); the controller side is "
     "`KafkaController.processTopicDeletion` and the TopicDeletionManager (kafka.md §5.6.2, §4).",
     "its section of `spec/rules/actions.cpp`; `processTopicDeletion` in `spec/rules/topic_events.cpp`",
     "elect-controller 3\nsettle\ndelete-topic t"},
    {K::AddPartitions,
     "The admin tool rewrites `/brokers/topics/<t>` with one more partition (the next `add-partition` of the "
     "configuration). The data watch on `/brokers/topics/<t>` queues **PartitionModifications(t)**; its handler "
     "creates the added partitions as topic creation does (`onNewPartitionCreation`). Changes to the replica lists "
     "of existing partitions are ignored by that handler; for a topic queued for deletion the controller restores "
     "the znode instead.",
     "`t` exists and is not in `/admin/delete_topics`, an unused `add-partition` is configured for it, and the topic "
     "has room for one more partition; a `partition-additions` budget remains.",
     "ZooKeeper: `/brokers/topics/<t>` (one more partition).",
     "The event **PartitionModifications(t)** at the active controller. No request.",
     "`AdminZkClient.addPartitions`; the controller side is `KafkaController.processPartitionModifications` "
     "(kafka.md §5.10.2, §5.10.3).",
     "its section of `spec/rules/actions.cpp`; `processPartitionModifications` in `spec/rules/topic_events.cpp`",
     "elect-controller 3\nsettle\ncreate-topic u\nsettle\nadd-partitions u"},
    {K::ReassignPartition,
     "An admin client sends AlterPartitionReassignments for one partition with a target replica list (TRS); the "
     "request is queued as **ApiPartitionReassignment(tp → TRS)**. Its handler validates the target (adding "
     "replicas must be live), writes the union of the origin and target replicas to the topic znode with "
     "`adding_replicas`/`removing_replicas` (phase U), bumps the leader epoch and sends LeaderAndIsr to the origin "
     "and new replicas (phase A). The reassignment completes (phase B: leader moved into TRS if needed, removed "
     "replicas stopped and deleted, the znode rewritten to TRS) once every target replica is in the ISR — in kcspec "
     "new replicas join the ISR through `expand-isr`.",
     "The partition exists in ZooKeeper; an active controller whose event queue has room; a `reassignments` budget "
     "remains (shared with `cancel-reassignment`).",
     "The active controller's event queue.",
     "The event **ApiPartitionReassignment** (not queued again if an equal one is queued).",
     "`KafkaController.processApiPartitionReassignment` → `onPartitionReassignment` (kafka.md §5.7.1–§5.7.7).",
     "`sendToActiveController` in `spec/rules/actions.cpp`; `spec/rules/reassignment.cpp`",
     "elect-controller 3\nsettle\nreassign t-0 2,3"},
    {K::CancelReassignment,
     "An admin client sends AlterPartitionReassignments for one partition with no target. Queued as "
     "**ApiPartitionReassignment(tp → none)**: when the partition is being reassigned, its handler reassigns it back "
     "to its origin replicas (which completes at once when they are all in the ISR, stopping and deleting the "
     "replicas the reassignment had added); when it is not, the request fails with NO_REASSIGNMENT_IN_PROGRESS and "
     "changes nothing.",
     "The partition exists in ZooKeeper; an active controller whose event queue has room; a `reassignments` budget "
     "remains.",
     "The active controller's event queue.",
     "The event **ApiPartitionReassignment** with `cancel`.",
     "`KafkaController.processApiPartitionReassignment` with a `None` target (kafka.md §5.7.7 step 2).",
     "`sendToActiveController` in `spec/rules/actions.cpp`; `processApiPartitionReassignment` in "
     "`spec/rules/reassignment.cpp`",
     "elect-controller 3\nsettle\nreassign t-0 2,3\nsettle\ncancel-reassignment t-0"},
    {K::ElectPreferredLeader,
     "An admin client sends ElectLeaders(PREFERRED) for one partition, queued as **ReplicaLeaderElection**. When the "
     "partition's cached leader is not the head of its assignment, the handler elects with the "
     "PreferredReplicaPartitionLeaderElectionStrategy: the head becomes leader if it is live and in the ISR "
     "(leader epoch + 1, ISR unchanged, LeaderAndIsr to every assigned replica); otherwise the election fails and "
     "nothing changes. See [the election tables](../elections.md).",
     "The partition exists in ZooKeeper; an active controller whose event queue has room; a `preferred-elections` "
     "budget remains.",
     "The active controller's event queue.",
     "The event **ReplicaLeaderElection(PREFERRED)**.",
     "`KafkaController.processReplicaLeaderElection` → `onReplicaElection` (kafka.md §5.8.1, §5.8.2, §2.8).",
     "`sendToActiveController` in `spec/rules/actions.cpp`; `processReplicaLeaderElection` in "
     "`spec/rules/admin_elections.cpp`",
     "elect-controller 3\nsettle\ncrash 1\nsettle\nstart 1\nsettle\nexpand-isr t-0 leader 2 add 1\nsettle\n"
     "elect-preferred t-0"},
    {K::ElectUncleanLeader,
     "An admin client sends ElectLeaders(UNCLEAN) for one partition, queued as **ReplicaLeaderElection(UNCLEAN)**. "
     "When the partition has no live leader, the handler elects with the OfflinePartitionLeaderElectionStrategy "
     "with unclean election allowed: the first live ISR member if there is one, else the first live assigned "
     "replica, which becomes leader with ISR = [leader] and recovery state RECOVERING.",
     "The partition exists in ZooKeeper; an active controller whose event queue has room; an `unclean-elections` "
     "budget remains (shared with `enable-unclean`).",
     "The active controller's event queue.",
     "The event **ReplicaLeaderElection(UNCLEAN)**.",
     "`KafkaController.processReplicaLeaderElection` → `onReplicaElection` with "
     "`OfflinePartitionLeaderElectionStrategy(allowUnclean = true)` (kafka.md §5.8.1, §5.8.2, §2.7, §2.8).",
     "`sendToActiveController` in `spec/rules/actions.cpp`; `processReplicaLeaderElection` in "
     "`spec/rules/admin_elections.cpp`",
     "elect-controller 3\nsettle\nshrink-isr t-0 leader 1 remove 2\nsettle\ncrash 1\nsettle\nelect-unclean t-0"},
    {K::EnableTopicUnclean,
     "The admin sets `unclean.leader.election.enable=true` in `/config/topics/<t>`; the config change reaches the "
     "active controller as **TopicUncleanLeaderElectionEnable(t)**, whose handler runs "
     "`triggerOnlinePartitionStateChange` for the topic: its New and Offline partitions are elected with the "
     "Offline strategy, which now reads the topic's flag and may pick a live replica outside the ISR.",
     "`t` exists and its flag is off; an active controller whose event queue has room; an `unclean-elections` budget "
     "remains.",
     "ZooKeeper: `/config/topics/<t>`; the active controller's event queue.",
     "The event **TopicUncleanLeaderElectionEnable(t)**.",
     "`AdminZkClient.changeTopicConfig` and the topic config handler; the controller side is "
     "`KafkaController.processTopicUncleanLeaderElectionEnable` (kafka.md §5.6 event 26, §2.7).",
     "its section of `spec/rules/actions.cpp`; `processTopicUncleanLeaderElectionEnable` in `spec/rules/topic_events.cpp`",
     "elect-controller 3\nsettle\nshrink-isr t-0 leader 1 remove 2\nsettle\ncrash 1\nsettle\nenable-unclean t"},
    {K::ZkReassign,
     "A legacy admin tool (or `zkCli`) creates `/admin/reassign_partitions` with one entry, the partition and its "
     "target replicas. The controller's creation watch queues **ZkPartitionReassignment**, whose handler builds "
     "`current.reassignTo(target)` and runs `onPartitionReassignment` as the API path does — but nothing validates "
     "the target: a dead broker is accepted as an adding replica, and the reassignment waits until it starts and "
     "joins the ISR. The controller removes the entry when the reassignment completes (`maybeRemoveFromZkReassignment`"
     ": the znode is deleted when it lists nothing more, and the controller queues ZkPartitionReassignment for itself "
     "to re-arm the watch), when it fails to start, or when an API reassignment of the partition supersedes it. A "
     "znode present at failover is processed in step 12.",
     "`/admin/reassign_partitions` does not exist (the tool's create fails with NODEEXISTS otherwise); a "
     "`zk-reassignments` budget remains (shared with `zk-reassign-invalid`). The explorer offers the configured "
     "targets of the partitions the topic znodes list; nothing else is checked — an entry for a partition that does "
     "not exist fails when the controller reads it and is removed.",
     "ZooKeeper: `/admin/reassign_partitions`.",
     "The event **ZkPartitionReassignment** at the active controller (not queued again if one is queued).",
     "`ReassignPartitionsZNode`, `PartitionReassignmentHandler.handleCreation`; the controller side is "
     "`KafkaController.processZkPartitionReassignment` (kafka.md §5.7.5, §5.7.6, §6.1).",
     "`zkReassignApply` in `spec/rules/actions.cpp`; `processZkPartitionReassignment` in `spec/rules/reassignment.cpp`",
     "elect-controller 3\nsettle\nzk-reassign t-0 2,3"},
    {K::ZkReassignInvalid,
     "A legacy admin tool creates `/admin/reassign_partitions` with data that is not its JSON. The controller's "
     "creation watch queues **ZkPartitionReassignment**; reading the znode WARNs \"Ignoring partition reassignment "
     "due to invalid json\" and finds no entries, so nothing is reassigned and the znode stays — blocking the next "
     "`zk-reassign` — until the controller next rewrites it: an API reassignment request or the completion of a "
     "reassignment finds no entries left and deletes it.",
     "`/admin/reassign_partitions` does not exist; a `zk-reassignments` budget remains.",
     "ZooKeeper: `/admin/reassign_partitions` (invalid JSON).",
     "The event **ZkPartitionReassignment** at the active controller (not queued again if one is queued).",
     "`KafkaZkClient.getPartitionReassignment` (invalid JSON is read as empty), "
     "`KafkaController.processZkPartitionReassignment` (kafka.md §5.7.6, §6.1).",
     "`zkReassignApply` in `spec/rules/actions.cpp`; `partitionReassignmentEntries` in `spec/rules/zookeeper.cpp`",
     "elect-controller 3\nsettle\nzk-reassign-invalid"},
    {K::ZkElectPreferred,
     "A legacy admin tool creates `/admin/preferred_replica_election` naming one partition. The controller's "
     "creation watch queues **ReplicaLeaderElection(None, PREFERRED, ZkTriggered)**, whose handler reads the "
     "znode's partitions and elects as ElectLeaders(PREFERRED) would, then deletes the znode and queues the same "
     "event for itself to re-arm the watch. A znode present at failover is processed in step 14.",
     "`/admin/preferred_replica_election` does not exist (the tool's create fails with NODEEXISTS otherwise); a "
     "`zk-preferred-elections` budget remains. The explorer offers the partitions the topic znodes list; the "
     "controller skips one it does not know.",
     "ZooKeeper: `/admin/preferred_replica_election`.",
     "The event **ReplicaLeaderElection(ZkTriggered)** at the active controller (not queued again if one is queued).",
     "`PreferredReplicaElectionZNode`, `PreferredReplicaElectionHandler.handleCreation`; the controller side is "
     "`KafkaController.processReplicaLeaderElection` and `onReplicaElection` (kafka.md §5.8.1, §5.8.2, §6.1).",
     "`zkElectPreferredApply` in `spec/rules/actions.cpp`; `processZkTriggeredReplicaLeaderElection` in "
     "`spec/rules/admin_elections.cpp`",
     "elect-controller 3\nsettle\ncrash 1\nsettle\nstart 1\nsettle\nexpand-isr t-0 leader 2 add 1\nsettle\n"
     "zk-elect-preferred t-0"},
    {K::CrashBroker,
     "The broker process dies (a hard failure, `kill -9`). Its ZooKeeper session ends, so its ephemeral "
     "`/brokers/ids/<b>` disappears — and `/controller` too if it was the controller. All of the broker's state is "
     "reset: request queue, metadata cache, hosted replicas, StopReplica responses on their way, and its controller "
     "module. The child watch on `/brokers/ids` queues **BrokerChange**; its handler (`onBrokerFailure`) moves the "
     "leadership of the partitions the broker led (Offline election), removes it from ISRs (OfflineReplica) and "
     "tells the other brokers.",
     "`b` is alive; a `crashes` budget remains.",
     "ZooKeeper: `/brokers/ids/<b>` (and `/controller` if `b` held it); broker `b`'s whole state.",
     "The event **BrokerChange** at the active controller, if there is one still alive.",
     "The failure of a broker's ZooKeeper session; the controller side is `KafkaController.processBrokerChange` → "
     "`onBrokerFailure` → `onReplicasBecomeOffline` (kafka.md §5.5.1, §5.5.3, §5.5.4).",
     "`crashBroker` in `spec/rules/brokers.cpp`",
     "elect-controller 3\nsettle\ncrash 1"},
    {K::StartBroker,
     "The broker starts and creates its ephemeral `/brokers/ids/<b>`; the znode's creation order (`last_zxid + 1`) "
     "is its new broker epoch. The child watch on `/brokers/ids` queues **BrokerChange**; its handler "
     "(`onBrokerStartup`) sends the broker the metadata and a LeaderAndIsr for every replica it hosts, elects "
     "leaders for partitions that were offline, resumes reassignments and deletions that waited for it. A broker "
     "restarted before the controller noticed its crash is a *bounced* broker (its epoch is higher): it is handled "
     "as a failure followed by a startup.",
     "`b` is configured and not alive. Never bounded: a recovery action.",
     "ZooKeeper: `/brokers/ids/<b>` and `last_zxid`; broker `b` is alive with the new epoch.",
     "The event **BrokerChange** at the active controller.",
     "`KafkaZkClient.registerBroker`; the controller side is `KafkaController.processBrokerChange` → "
     "`onBrokerStartup` (kafka.md §5.5.1, §5.5.2, §6.3.6).",
     "`startBroker` in `spec/rules/brokers.cpp`",
     "elect-controller 3\nsettle\ncrash 1\nsettle\nstart 1"},
    {K::ControlledShutdown,
     "The broker (stopped with `kill -15`) sends a ControlledShutdown request with its broker epoch, queued as "
     "**ControlledShutdown(b)**. The handler adds `b` to the shutting-down brokers, elects a new leader for every "
     "partition `b` leads (ControlledShutdownPartitionLeaderElectionStrategy: the first ISR member not shutting "
     "down; the ISR loses every shutting-down broker), and moves `b`'s follower replicas to OfflineReplica "
     "(StopReplica, removal from the ISR). Partitions with one replica are left alone. kcspec's broker does not "
     "stop afterwards by itself: `crash b` models the actual stop.",
     "`b` is alive; an active controller whose event queue has room; a `controlled-shutdowns` budget remains.",
     "The active controller's event queue.",
     "The event **ControlledShutdown(b, broker epoch)**.",
     "`KafkaController.doControlledShutdown` (kafka.md §5.9, §2.8, §2.9).",
     "`sendToActiveController` in `spec/rules/actions.cpp`; `processControlledShutdown` in "
     "`spec/rules/admin_elections.cpp`",
     "elect-controller 3\nsettle\ncontrolled-shutdown 1"},
    {K::ShrinkIsr,
     "The leader `L` of a partition decides follower `F` has fallen behind and sends an AlterPartition request "
     "proposing its own view minus `F`: leader `L`, its leader epoch, its ISR without `F`, its partition epoch, "
     "RECOVERED. Queued as **AlterPartitionReceived**; the controller checks the broker epoch and the epochs, writes "
     "the new ISR conditionally on the partition epoch (which it bumps), answers the leader and sends "
     "UpdateMetadata. That is the way from `inter.broker.protocol.version` 2.7-IV2 on; below it the leader writes "
     "the proposal to the state znode itself (conditionally on its partition epoch) and records it in "
     "`/isr_change_notification` (docs/world.md convention 12).",
     "`L` is alive and hosts the partition as leader with no proposal pending; `F` ≠ `L` is in that leader's ISR, "
     "which has at least two members, and removing `F` was not refused (INELIGIBLE_REPLICA) since the leader last "
     "heard of a change in the controller's view of the brokers (docs/world.md §7); an active controller whose event "
     "queue has room (below 2.7-IV2: no active controller, or one with room for two events); an `isr-shrinks` "
     "budget remains.",
     "The active controller's event queue (below 2.7-IV2: the state znode, `/isr_change_notification`, the "
     "leader's hosted replica).",
     "The event **AlterPartitionReceived(L, broker epoch, tp, proposed LeaderAndIsr)** (below 2.7-IV2: "
     "**PartitionReassignmentIsrChange** if the controller watches the state znode, then **IsrChangeNotification**).",
     "The broker side (`Partition.maybeShrinkIsr`) is outside kafka.md; the controller side is "
     "`KafkaController.processAlterPartition` (kafka.md §5.12).",
     "its section of `spec/rules/actions.cpp`; `processAlterPartition` in `spec/rules/admin_elections.cpp`",
     "elect-controller 3\nsettle\nshrink-isr t-0 leader 1 remove 2"},
    {K::ExpandIsr,
     "A follower `F` has caught up with leader `L`, which sends an AlterPartition request proposing its ISR plus "
     "`F`. Queued as **AlterPartitionReceived** and handled like a shrink; when the partition is being reassigned "
     "and the ISR now holds every target replica, the handler completes the reassignment "
     "(`maybeCompleteReassignment`). Below `inter.broker.protocol.version` 2.7-IV2 the leader writes ZooKeeper "
     "itself, as for a shrink, and the watches' events complete the reassignment.",
     "`L` is alive and hosts the partition as leader with no proposal pending; `F` is not in its ISR, is alive and "
     "hosts the partition as a follower at the same leader epoch, and adding `F` was not refused (INELIGIBLE_REPLICA) "
     "since the leader last heard of a change in the controller's view of the brokers (docs/world.md §7); an active "
     "controller whose event queue has room. Never bounded: a recovery action.",
     "The active controller's event queue.",
     "The event **AlterPartitionReceived(L, broker epoch, tp, proposed LeaderAndIsr)**.",
     "The broker side (`Partition.maybeExpandIsr`) is outside kafka.md; the controller side is "
     "`KafkaController.processAlterPartition` (kafka.md §5.12, §5.7.4).",
     "its section of `spec/rules/actions.cpp`; `processAlterPartition` in `spec/rules/admin_elections.cpp`",
     "elect-controller 3\nsettle\nshrink-isr t-0 leader 1 remove 2\nsettle\nexpand-isr t-0 leader 1 add 2"},
    {K::FailLogDir,
     "The log directory holding broker `b`'s replica of partition `p` fails (`ReplicaManager.handleLogDirFailure`): "
     "the replica stops leading or following and becomes `HostedPartition.Offline`, so that every later LeaderAndIsr "
     "or StopReplica naming it is answered KAFKA_STORAGE_ERROR, until the broker restarts (with its directories "
     "healthy again). The broker tells the controller by writing `/log_dir_event_notification/log_dir_event_<seq>`, "
     "whose child watch queues **LogDirEventNotification**. kcspec gives each replica its own directory and the "
     "broker enough others that it never halts for having none left.",
     "`b` is alive and holds a log of `p` (it hosts the replica, or stopped it with StopReplica(delete=false)) that "
     "is not on a failed directory already; a `log-dir-failures` budget remains.",
     "Broker `b`'s hosted replica of `p` (gone) and its offline replicas; `/log_dir_event_notification`.",
     "The event **LogDirEventNotification**, when a controller is active and has none queued.",
     "The broker side (`ReplicaManager.handleLogDirFailure`, `propagateLogDirEvent`) is outside kafka.md; the "
     "znode is kafka.md §6.1, the controller side §5.5.6 and §5.6.1.",
     "its section of `spec/rules/actions.cpp`; `failLogDir` in `spec/rules/brokers.cpp`",
     "elect-controller 3\nsettle\nfail-log-dir t-0 1"},
    {K::ProcessEvent,
     "The controller module of broker `b` takes the event at the head of its queue and runs its handler to the end, "
     "as Kafka's single controller-event thread does: nothing else happens in between, so the controller's reads "
     "and conditional writes never conflict. A `ControllerMovedException` (a write fenced by a newer "
     "`/controller_epoch`) makes it run `maybeResign`; any other exception abandons the event with the effects it "
     "had so far. Each event kind has its own page (see the [index](../index.md#controller-events)).",
     "`b` is alive and its controller module's event queue is not empty. Never bounded: a recovery action.",
     "Whatever the handler changes: ZooKeeper (conditional, fenced writes), the controller's context and queue, "
     "requests to brokers.",
     "Requests (LeaderAndIsr, UpdateMetadata, StopReplica) flushed to brokers' queues in the order of world.md "
     "convention 4; events queued by the watches the controller's own writes fire.",
     "`ControllerEventManager`'s thread and `KafkaController.process` (kafka.md §5.6, §5.11).",
     "`processNextEvent` in `spec/rules/controller_events.cpp`",
     "elect-controller 3\nsettle\ncrash 1\nprocess-event 3"},
    {K::LoseControllerSession,
     "The active controller's ZooKeeper session expires. `/controller` disappears (so another broker may win the "
     "election), but the old controller module does not know yet: it keeps processing its queued events with its "
     "old epoch until its ZooKeeper client queues Expire (`notice-session-expiry`). Every write it attempts "
     "meanwhile is fenced by the `/controller_epoch` version check once a new controller has incremented the epoch "
     "— the window that epoch fencing exists for. kcspec keeps the broker's registration here; "
     "`lose-broker-session` is the expiry of the whole session.",
     "`b` is alive, its module is active and not session-lost, and `/controller` names `b`; a "
     "`controller-failovers` budget remains.",
     "ZooKeeper: `/controller`; `b`'s module becomes session-lost.",
     "Nothing.",
     "ZooKeeper session expiry and the ephemeral `/controller` (kafka.md §5.4, §6.3 points 1, 2, 7).",
     "its section of `spec/rules/actions.cpp`",
     "elect-controller 3\nsettle\nlose-controller-session 3"},
    {K::NoticeSessionExpiry,
     "The ZooKeeper client of a session-lost controller queues **Expire** with `clearAndPut`: every event still "
     "queued is preempted (dropped), then Expire is appended. Processing Expire resigns the controller.",
     "`b` is alive, its module is session-lost, and no Expire is queued. Never bounded: a recovery action.",
     "`b`'s controller event queue (cleared, then Expire).",
     "The event **Expire**.",
     "`ControllerEventManager.clearAndPut` called by the ZooKeeper client before a new session (kafka.md §5.11, "
     "§5.6 event 5).",
     "its section of `spec/rules/actions.cpp`",
     "elect-controller 3\nsettle\nlose-controller-session 3\nnotice-session-expiry 3"},
    {K::ElectController,
     "`/controller` is absent and broker `b` wins the election: in one ZooKeeper multi-operation it creates "
     "`/controller` and increments `/controller_epoch` (conditionally on its version); the new epoch fences every "
     "older controller. It then runs `onControllerFailover` atomically: reads the brokers, topics, assignments and "
     "partition states into its context (and the topic ids: from 2.8-IV0 a topic without one gets one, a fenced "
     "write of its znode that queues PartitionModifications), initializes the topic deletion manager, sends UpdateMetadata to every "
     "live broker, starts the replica state machine (replicas Online, or Ineligible → Offline) and the partition "
     "state machine (New/Offline partitions elected), starts what `/admin/reassign_partitions` lists and resumes the "
     "other reassignments, resumes deletions, and runs the preferred elections `/admin/preferred_replica_election` "
     "still asks for — then deletes that znode and queues ReplicaLeaderElection(ZkTriggered) for itself, even "
     "when there was none.",
     "`/controller` is absent, `b` is alive and its module is neither active nor session-lost. Never bounded: a "
     "recovery action.",
     "ZooKeeper: `/controller`, `/controller_epoch`, partition-state znodes of partitions it initializes or elects; "
     "`b`'s controller context.",
     "UpdateMetadata to every live broker, LeaderAndIsr for every partition with a leader, and what the state "
     "machines' startup sends; the event ReplicaLeaderElection(ZkTriggered) in its own queue.",
     "`KafkaController.elect` → `onControllerFailover` (kafka.md §5.4, §3.1, §2.1, §6.3).",
     "`elect` in `spec/rules/controller_failover.cpp`",
     "elect-controller 3\nsettle\ncrash 1\nlose-controller-session 3\nelect-controller 2"},
    {K::AutoRebalanceTimer,
     "With `auto.leader.rebalance.enable`, a controller schedules the rebalance task 5 seconds after it becomes "
     "active and again after each run, until it resigns. kcspec does not model time: the task may fire whenever "
     "the controller is active, at most once per queued event. The task only queues "
     "**AutoPreferredReplicaLeaderElection**; its handler moves leadership back to preferred replicas when a "
     "broker's share of partitions led by someone else exceeds 10%.",
     "`auto.leader.rebalance.enable true`; `b` is alive and its module is active; no "
     "AutoPreferredReplicaLeaderElection is already queued at `b` and its queue has room; an `auto-rebalances` "
     "budget remains.",
     "`b`'s event queue.",
     "The event **AutoPreferredReplicaLeaderElection** at `b`. No request.",
     "`KafkaController.scheduleAutoLeaderRebalanceTask` (the controller scheduler's task; kafka.md §5.4 step 15, "
     "§5.8.3).",
     "its section of `spec/rules/actions.cpp`",
     "elect-controller 3\nsettle\ncrash 1\nsettle\nstart 1\nsettle\nexpand-isr t-0 leader 2 add 1\nsettle\n"
     "auto-rebalance-timer 3"},
    {K::DeliverRequest,
     "Broker `b` takes the request at the head of its queue. A request from an older controller epoch than the "
     "highest the broker has seen, or carrying an older broker epoch, is ignored. LeaderAndIsr makes the broker "
     "host each partition as leader or follower (when the leader epoch is newer); UpdateMetadata replaces the "
     "metadata cache entries (leader −2 removes one) and the live-broker list; StopReplica removes hosted "
     "replicas and, for partitions to be deleted, puts a StopReplica response in the broker's outbox.",
     "`b` is alive and its request queue is not empty. Never bounded: a recovery action.",
     "Broker `b`: request queue, highest controller epoch seen, metadata cache, hosted replicas, outbox.",
     "A StopReplica response (when the request deletes partitions).",
     "The broker side of the control requests, outside kafka.md; kcspec's rules are [world.md](../../world.md) "
     "convention 5 (kafka.md Appendix A for the requests' contents).",
     "`processNextRequest` in `spec/rules/brokers.cpp`",
     "elect-controller 3\ndeliver-request 1"},
    {K::DeliverStopReplicaResponse,
     "The StopReplica response at the head of broker `b`'s outbox reaches the controller that sent it — only if that "
     "controller module is still active with the same epoch (its channel manager still exists). The callback "
     "forwards the partitions whose topic is in that controller's `topicsWithDeletionStarted` as one "
     "**TopicDeletionStopReplicaResponseReceived** event; with `error`, every partition carries an error (which "
     "halts the topic's deletion).",
     "`b`'s outbox is not empty. Without `error` never bounded (a recovery action); with `error` a "
     "`stop-replica-errors` budget remains.",
     "Broker `b`'s outbox; the sending controller's event queue.",
     "The event **TopicDeletionStopReplicaResponseReceived(b, partitions, errors)**, or nothing when the response "
     "is dropped.",
     "The StopReplica response callback of `ControllerChannelManager` (kafka.md Appendix A.5, §5.6.3).",
     "`deliverStopReplicaResponseApply` in `spec/rules/actions.cpp`",
     "elect-controller 3\nsettle\ndelete-topic t\nsettle-requests\ndeliver-stop-replica-response 1"},
    {K::DeliverLeaderAndIsrResponse,
     "The LeaderAndIsr response at the head of broker `b`'s queue of such responses reaches the controller that "
     "sent the request — only if that controller module is still active with the same epoch. Only responses that "
     "answer some partition with KAFKA_STORAGE_ERROR are kept: handling one whose partitions are all NONE would "
     "remove them from `replicasOnOfflineDirs`, which never holds them (docs/world.md §5). The callback queues "
     "**LeaderAndIsrResponseReceived** with the response's partitions and those in error.",
     "`b`'s LeaderAndIsr responses are not empty. Never bounded: a recovery action.",
     "Broker `b`'s LeaderAndIsr responses; the sending controller's event queue.",
     "The event **LeaderAndIsrResponseReceived(b, partitions, storage errors)**, or nothing when the response is "
     "dropped.",
     "The LeaderAndIsr response callback of `ControllerChannelManager` (kafka.md Appendix A.1, §5.6 event 20).",
     "`deliverLeaderAndIsrResponseApply` in `spec/rules/actions.cpp`",
     "elect-controller 3\nsettle\nfail-log-dir t-0 1\nprocess-event 3\ndeliver-request 1\n"
     "deliver-leader-and-isr-response 1"},
    {K::LoseZkConnection,
     "The controller's ZooKeeper connection will drop right after ZooKeeper applies the next write to partition "
     "`p`'s state znode. `KafkaZkClient.retryRequestsUntilConnected` sends the write again once connected, and the "
     "controller sees the resend's answer: NODEEXISTS for the creation of the znode (New→Online fails and the "
     "partition stays NewPartition until a failover reads the znode), BADVERSION for a setData (an election, an ISR "
     "removal or `updateLeaderEpoch` reads the znode again and makes its change a second time; AlterPartition "
     "answers INVALID_UPDATE_VERSION and leaves its cache behind ZooKeeper). The change the first send made stays. "
     "A delete's resend answers NONODE, which changes nothing. The action arms the loss; the write that meets it "
     "comes with whatever event writes `p`'s state next, by any controller.",
     "`p` is listed by its topic's znode and has no loss armed already; a `zk-connection-losses` budget remains.",
     "The partitions whose next applied state-znode write loses its response (`lost_write_responses`; not a "
     "znode).",
     "Nothing at once.",
     "kafka.md §6.3.8 (`KafkaZkClient.retryRequestsUntilConnected`, `ZooKeeperClient.waitUntilConnected`).",
     "its section of `spec/rules/actions.cpp`; `appliedWriteAnswer` in `spec/rules/zookeeper.cpp`",
     "elect-controller 3\nsettle\ncrash 1\nzk-connection-loss t-0"},
    {K::LoseBrokerSession,
     "Broker `b`'s ZooKeeper session expires while the broker runs on. Its ephemeral `/brokers/ids/<b>` goes — and "
     "`/controller` when `b` holds it, the same client's session — so the active controller's BrokerChange treats "
     "`b` as failed (`onBrokerFailure`), while `b` keeps its replicas, caches and requests and may still believe "
     "it leads. Its controller module is session-lost until its client notices (`notice-session-expiry b` queues "
     "Expire); with the new session it queues **RegisterBrokerAndReelect**, which registers `b` again with a new "
     "broker epoch, so the controller sees a broker start (or, if it missed the gap, a bounced broker).",
     "`b` is alive and registered and its module is not session-lost; a `broker-session-losses` budget remains.",
     "ZooKeeper: `/brokers/ids/<b>` (and `/controller` if it names `b`); `b`'s module becomes session-lost.",
     "The event **BrokerChange**, when a controller is active (the child watch on `/brokers/ids`).",
     "ZooKeeper session expiry (kafka.md §6.3.7), `ZooKeeperClient`'s `beforeInitializingSession` and "
     "`afterInitializingSession` handlers (§5.6 events 4 and 5).",
     "its section of `spec/rules/actions.cpp`; `loseBrokerSession` in `spec/rules/brokers.cpp`",
     "elect-controller 3\nsettle\nlose-broker-session 1"},
    {K::PropagateIsrChanges,
     "Below `inter.broker.protocol.version` 2.7-IV2 a leader writes its ISR changes to the state znode itself and "
     "remembers the partition (`ZkAlterPartitionManager.isrChangeSet`). Broker `b`'s scheduled propagation task "
     "writes every partition it remembers as one `/isr_change_notification/isr_change_<seq>` and forgets them. "
     "Kafka runs the task every 2.5 s and writes once no change came for 5 s (or 60 s passed since its last "
     "write); kcspec lets it run at any moment after a change, so several changes may share one notification, and "
     "a broker that dies first takes its changes with it — the controller's cache then keeps the old ISR until "
     "something else reloads it.",
     "`b` is alive, its ZooKeeper session valid (its module is not session-lost), and it remembers some change; the "
     "active controller, if any, has room for one event.",
     "ZooKeeper: `/isr_change_notification` names the partitions; `b` forgets them (`pending_isr_changes`).",
     "The event **IsrChangeNotification**, when a controller is active (the child watch on "
     "`/isr_change_notification`).",
     "kafka.md Appendix A.6 (\"Before AlterPartition\"), §5.6.4; `ZkAlterPartitionManager.maybePropagateIsrChanges`, "
     "`KafkaZkClient.propagateIsrChanges`.",
     "its section of `spec/rules/actions.cpp`; `propagateIsrChanges` in `spec/rules/brokers.cpp`",
     "protocol 2.4\nelect-controller 3\nsettle\nshrink-isr t-0 leader 1 remove 2\npropagate-isr-changes 1"},
    {K::UpgradeIbp,
     "One step of a rolling upgrade: stopped broker `b` gets the configuration's `upgrade "
     "inter.broker.protocol.version` in its `server.properties` (a setting of the broker, not of its process: it "
     "survives later crashes). From its next `start` the broker runs with it: as a leader it sends AlterPartition "
     "(from 2.7-IV2) by topic id (from 2.8-IV0) instead of writing its ISR to ZooKeeper; as the controller it "
     "sends requests at the versions of its own value, gives topics ids (2.8-IV0), keeps leaders RECOVERING after "
     "an unclean election (3.2-IV0) and sets `/feature` Enabled (2.7-IV0) at failover; the admin's CreateTopics, "
     "handled by the broker `/controller` names, writes an id when that broker's value uses them. Brokers on the "
     "two values run side by side until every one is upgraded; a downgrade is not modeled.",
     "The configuration names an `upgrade inter.broker.protocol.version`; `b` is dead and not upgraded yet; an "
     "`ibp-upgrades` budget remains.",
     "`b`'s `ibp_upgraded`.",
     "Nothing at once.",
     "Kafka's rolling upgrade procedure (docs/kafka.md Appendix A.6, \"Rolling upgrades\"); "
     "`KafkaConfig.interBrokerProtocolVersion`, `KafkaController.maybeSetupFeatureVersioning`.",
     "its section of `spec/rules/actions.cpp`; `Controller::interBrokerProtocolVersion` in `spec/rules/controller.hpp`",
     "protocol 2.4 upgrade 3.8\nelect-controller 3\nsettle\ncrash 1\nsettle\nupgrade-ibp 1"},
    {K::LoseZkConnectionOnFeature,
     "The controller's ZooKeeper connection drops right after ZooKeeper applies the next write to `/feature`: "
     "KafkaZkClient sends the write again on reconnection and the caller sees the resend's answer. Only "
     "controllers write `/feature`, at failover (`maybeSetupFeatureVersioning`): a creation's resend answers "
     "NODEEXISTS, which `createFeatureZNode` throws, so the failover fails — \"Error while electing or becoming "
     "controller\" — and the controller moves (`triggerControllerMove`); the next controller finds the znode and "
     "writes nothing more. A setData's resend (at any version) succeeds again and changes nothing. The action arms "
     "the loss; the write that meets it comes with the next failover that writes `/feature`.",
     "`/feature`'s next write has no loss armed already; a `zk-connection-losses` budget remains.",
     "The connection's `lost_feature_write_response` (not a znode).",
     "Nothing at once.",
     "kafka.md §6.3.8 (`KafkaZkClient.retryRequestsUntilConnected`), §5.4 step 1 "
     "(`KafkaController.maybeSetupFeatureVersioning`, `KafkaZkClient.createFeatureZNode`).",
     "its section of `spec/rules/actions.cpp`; `maybeSetupFeatureVersioning` in `spec/rules/controller_failover.cpp`",
     "elect-controller 3\nsettle\nzk-connection-loss-feature"},
    {K::ExpireZkSession,
     "The ZooKeeper session of the controller that next writes partition `p`'s state znode expires just before that "
     "call — `KafkaZkClient.updateLeaderAndIsr` (an election, an ISR removal, `updateLeaderEpoch`, AlterPartition) "
     "or `createTopicPartitionStatesRaw` (New→Online), whose writes are pipelined: none of the call's writes is "
     "applied. The expiry is the broker's whole session, as with `lose-broker-session`: `/brokers/ids/<b>` and the "
     "`/controller` it holds go, and its client's expiry handler queues **Expire** with `clearAndPut` at once. The "
     "event runs on, and every later ZooKeeper request of it answers SESSIONEXPIRED: a fenced write throws "
     "`KeeperException$SessionExpiredException` (the multi has no results), and so does a read whose caller throws "
     "the response's exception. Kafka's own catches decide what happens next: the partition and replica state "
     "machines swallow it (\"Error while moving some partitions to … state\"; a batch not yet flushed stays), "
     "the elections' and ISR removal's raw reads fail each partition, New→Online logs each partition it was "
     "creating as failed (with the target NewPartition), a reassignment answers UNKNOWN_SERVER_ERROR and goes on "
     "with the next partition, AlterPartition answers UNKNOWN_SERVER_ERROR, and anything else ends the event "
     "(\"Error processing event\"; during a failover, `triggerControllerMove`'s read of `/controller` fails too). "
     "Expire then resigns and RegisterBrokerAndReelect registers the broker again. The action arms the expiry; it "
     "is met by whichever controller writes `p`'s state next, unless that controller's session is already lost.",
     "`p` is listed by its topic's znode and has no expiry armed already; a `zk-session-expiries` budget remains.",
     "The sessions' `session_expiring_writes` (not a znode).",
     "Nothing at once.",
     "docs/world.md convention 15: `KafkaZkClient.retryRequestsUntilConnected` and "
     "`unwrapResponseWithControllerEpochCheck`, `ZooKeeperClient.reinitialize` and the controller's "
     "`beforeInitializingSession` (`clearAndPut(Expire)`), the catches of `ZkPartitionStateMachine.handleStateChanges`, "
     "`ZkReplicaStateMachine.handleStateChanges` and `KafkaController.process` (kafka.md §6.3.9).",
     "its section of `spec/rules/actions.cpp`; `maybeExpireSession` in `spec/rules/zookeeper.cpp`",
     "elect-controller 3\nsettle\nzk-session-expiry t-0"},
}};

constexpr std::array<EventDoc, std::size(kControllerEventNames)> kEventDocs = {{
    {E::Expire, "The controller's ZooKeeper session expired: it resigns.",
     "`notice-session-expiry b` (with `clearAndPut`: the events queued before it are dropped), and the session "
     "expiry a controller meets in the middle of an event (`zk-session-expiry`), at once, as the event goes on.",
     "`activeControllerId` becomes −1 and `onControllerResignation` runs: the controller's context is reset, its "
     "queued requests are dropped with its channel manager, and the module is neither active nor session-lost any "
     "more — it may win a later election.",
     "The module's context (reset), `active` and `session_lost`.", "Nothing.",
     "`KafkaController.processExpire` → `onControllerResignation` (kafka.md §5.4, §5.6 event 5).",
     "`processNextEvent` → `onControllerResignation` in `spec/rules/controller_failover.cpp`",
     "elect-controller 3\nsettle\nlose-controller-session 3\nnotice-session-expiry 3\nprocess-event 3", ""},
    {E::BrokerChange, "The children of `/brokers/ids` changed: brokers started, died or bounced.",
     "`crash b` and `start b` (the child watch on `/brokers/ids`).",
     "Only when active. The handler compares the registrations in ZooKeeper with the live brokers it knows: new "
     "brokers get `onBrokerStartup` (metadata, LeaderAndIsr for their replicas, elections for offline partitions, "
     "resumed reassignments and deletions); dead brokers get `onBrokerFailure` (their partitions go Offline and are "
     "re-elected with the Offline strategy, their replicas go OfflineReplica, which removes them from ISRs); "
     "bounced brokers (registered again with a higher epoch) get both, failure first.",
     "The controller's live brokers and epochs, shutting-down brokers, partition and replica states, leadership; "
     "partition-state znodes.",
     "UpdateMetadata, LeaderAndIsr, StopReplica(delete=false) as the callbacks require.",
     "`KafkaController.processBrokerChange`, `onBrokerStartup`, `onBrokerFailure`, `onReplicasBecomeOffline` "
     "(kafka.md §5.5.1–§5.5.4).",
     "`processBrokerChange` in `spec/rules/broker_membership.cpp`",
     "elect-controller 3\nsettle\ncrash 1\nprocess-event 3", ""},
    {E::TopicChange, "The children of `/brokers/topics` changed: topics created (or deleted by the controller).",
     "`create-topic t`, and the controller's own deletion of `/brokers/topics/<t>` when a deletion completes.",
     "Only when active. Topics gone from ZooKeeper are removed from the context (with their topic ids); a new topic "
     "without a topic id gets one (from 2.8-IV0: a fenced write of its znode, whose data watch queues "
     "PartitionModifications), and every new topic's id goes into the context. "
     "New topics' assignments are read into the context and `onNewPartitionCreation` runs: "
     "partitions NonExistent → New, replicas → NewReplica, partitions → Online with their first leader and ISR "
     "written to new state znodes (leader = first live replica, ISR = live replicas, epochs 0), replicas → "
     "OnlineReplica.",
     "Partition-state znodes (created); the context's topics, assignments, states and leadership.",
     "LeaderAndIsr(isNew) to the ISR members, UpdateMetadata to every live broker.",
     "`KafkaController.processTopicChange`, `onNewPartitionCreation` (kafka.md §5.10.1, §5.10.3, §2.5).",
     "`processTopicChange` in `spec/rules/topic_events.cpp`",
     "elect-controller 3\nsettle\ncreate-topic u\nprocess-event 3", ""},
    {E::PartitionModifications, "A topic's znode changed: partitions were added (or the controller rewrote it).",
     "`add-partitions t`, and the controller's own rewrites of `/brokers/topics/<t>` (reassignment, restore).",
     "Only when active. Partitions of the znode without an assignment in the context are new: they are created as "
     "in TopicChange. If the topic is queued for deletion, the new partitions are not created and the znode is "
     "restored to the partitions the controller knows.",
     "As TopicChange for the added partitions.", "LeaderAndIsr(isNew) and UpdateMetadata for the added partitions.",
     "`KafkaController.processPartitionModifications` (kafka.md §5.10.2).",
     "`processPartitionModifications` in `spec/rules/topic_events.cpp`",
     "elect-controller 3\nsettle\ncreate-topic u\nsettle\nadd-partitions u\nprocess-event 3", ""},
    {E::TopicDeletion, "The children of `/admin/delete_topics` changed: topics are to be deleted.",
     "`delete-topic t`, and the controller's own deletion of `/admin/delete_topics/<t>`.",
     "Requests for topics that do not exist are deleted. With `delete.topic.enable`, topics with a partition being "
     "reassigned are marked ineligible (which, as in Kafka, only affects topics already queued) and the topics are "
     "queued for deletion; `resumeDeletions` starts the eligible ones (`onTopicDeletion`: partitions → Offline → "
     "NonExistent, UpdateMetadata with leader −2, replicas → OfflineReplica → ReplicaDeletionStarted). Without "
     "`delete.topic.enable` the requests are deleted.",
     "`topicsToBeDeleted`, `topicsWithDeletionStarted`, partition and replica states; `/admin/delete_topics`.",
     "UpdateMetadata (leader −2), StopReplica(delete=false) then StopReplica(delete=true) to the replicas.",
     "`KafkaController.processTopicDeletion`, `TopicDeletionManager.enqueueTopicsForDeletion`, `resumeDeletions`, "
     "`onTopicDeletion` (kafka.md §5.6.2, §4.1).",
     "`processTopicDeletion` in `spec/rules/topic_events.cpp`; `spec/rules/topic_deletion_manager.cpp`",
     "elect-controller 3\nsettle\ndelete-topic t\nprocess-event 3", ""},
    {E::TopicDeletionStopReplicaResponseReceived,
     "A StopReplica(delete=true) response came back for partitions of topics being deleted.",
     "`deliver-stop-replica-response b [error]`, when the response reaches the controller that sent it.",
     "Replicas answered with an error fail their deletion (`failReplicaDeletion`: → ReplicaDeletionIneligible, the "
     "topic is marked ineligible); the others complete it (`completeReplicaDeletion`: → ReplicaDeletionSuccessful). "
     "`resumeDeletions` then completes every topic whose replicas are all deleted: the replicas become "
     "NonExistent, the topic's znodes (`/brokers/topics/<t>`, `/config/topics/<t>`, `/admin/delete_topics/<t>`) are "
     "deleted and the topic leaves the context.",
     "Replica states; on completion the topic's znodes and context entries.",
     "Nothing but the watches its deletions fire (TopicChange, TopicDeletion).",
     "`KafkaController.processTopicDeletionStopReplicaResponseReceived`, `TopicDeletionManager."
     "completeReplicaDeletion`, `failReplicaDeletion`, `completeDeleteTopic` (kafka.md §5.6.3, §4.1).",
     "`processTopicDeletionStopReplicaResponseReceived` in `spec/rules/topic_events.cpp`",
     "elect-controller 3\nsettle\ndelete-topic t\nsettle-until TopicDeletionStopReplicaResponseReceived\n"
     "process-event 3",
     ""},
    {E::ApiPartitionReassignment, "An AlterPartitionReassignments request for one partition (a target, or a cancel).",
     "`reassign t-p R` and `cancel-reassignment t-p`.",
     "Validates the target, builds the new assignment (origin ∪ target while moving; a cancel reverts to the "
     "origin replicas) and runs `onPartitionReassignment`: phase U writes the assignment with adding and removing "
     "replicas to ZooKeeper and the context; phase A (not complete yet) bumps the leader epoch and sends "
     "LeaderAndIsr to the origin and new replicas, new replicas → NewReplica; phase B (every target replica in the "
     "ISR) moves the leader into the target if needed, stops and deletes the removed replicas and writes the final "
     "assignment.",
     "The topic znode, the partition-state znode (leader epoch), the context's assignment, "
     "`partitionsBeingReassigned`, replica states.",
     "LeaderAndIsr to the origin and adding replicas; in phase B StopReplica to removed replicas and UpdateMetadata.",
     "`KafkaController.processApiPartitionReassignment`, `onPartitionReassignment` (kafka.md §5.7).",
     "`processApiPartitionReassignment` in `spec/rules/reassignment.cpp`",
     "elect-controller 3\nsettle\nreassign t-0 2,3\nprocess-event 3", ""},
    {E::AlterPartitionReceived, "A partition leader proposes a new ISR.",
     "`shrink-isr` and `expand-isr` (the leader's AlterPartition request).",
     "Only when active. Rejected when the broker is unknown or its epoch is not the cached one. A request that names "
     "the topic by an id the controller does not know (version 2+, the leader's log id) is UNKNOWN_TOPIC_ID: nothing "
     "is written and the UpdateMetadata names no partition. Otherwise, per partition, "
     "the proposal is checked against the cached leadership (leader and partition epochs, recovery state, every ISR "
     "member live) and, when accepted, written conditionally on the proposed partition epoch, which becomes one "
     "higher; the leader gets the new state in the response. An ISR naming a broker that is not live or is "
     "shutting down is answered INELIGIBLE_REPLICA: the leader's proposal ends and it remembers the refused change; "
     "other rejections leave the proposal pending. UpdateMetadata goes to every live broker; a "
     "partition being reassigned may then complete (`maybeCompleteReassignment`).",
     "The partition-state znode (ISR, partition epoch), the context's leadership, the leader's hosted replica (the "
     "response: the new state, or the end of a refused proposal).",
     "UpdateMetadata to every live broker; possibly the requests of a completing reassignment.",
     "`KafkaController.processAlterPartition` (kafka.md §5.12, §5.7.4).",
     "`processAlterPartition` in `spec/rules/admin_elections.cpp`",
     "elect-controller 3\nsettle\nshrink-isr t-0 leader 1 remove 2\nprocess-event 3", ""},
    {E::ControlledShutdown, "A broker asks to shut down.", "`controlled-shutdown b`.",
     "Checks the broker epoch, adds the broker to `shuttingDownBrokerIds`, elects new leaders for the partitions "
     "it leads (ControlledShutdown strategy: first ISR member not shutting down; the ISR loses the shutting-down "
     "brokers) and moves its follower replicas to OfflineReplica (StopReplica, ISR removal). Partitions with a "
     "single replica are skipped.",
     "`shuttingDownBrokerIds`, partition-state znodes, leadership, replica states.",
     "LeaderAndIsr to the partitions' replicas, StopReplica(delete=false) to the broker, UpdateMetadata.",
     "`KafkaController.processControlledShutdown` → `doControlledShutdown` (kafka.md §5.9, §2.9).",
     "`processControlledShutdown` in `spec/rules/admin_elections.cpp`",
     "elect-controller 3\nsettle\ncontrolled-shutdown 1\nprocess-event 3", ""},
    {E::ReplicaLeaderElection,
     "An ElectLeaders request (PREFERRED or UNCLEAN) for some partitions, or (ZkTriggered) the partitions "
     "`/admin/preferred_replica_election` names.",
     "`elect-preferred t-p` and `elect-unclean t-p`; `zk-elect-preferred t-p` (the znode's creation watch); the "
     "controller itself after deleting that znode, and at the end of every failover (ZkTriggered, to re-arm the "
     "watch).",
     "Only when active; a ZkTriggered one only when the znode exists, and its partitions are the znode's. Unknown "
     "partitions and partitions of topics being deleted are skipped; a partition is electable for "
     "PREFERRED when its leader is not the head of its assignment, for UNCLEAN when it has no live leader. The "
     "electable partitions go Online → Online with the PreferredReplica strategy, or the Offline strategy with "
     "unclean election allowed. A ZkTriggered election then deletes the znode and queues "
     "ReplicaLeaderElection(ZkTriggered) for the controller itself.",
     "Partition-state znodes (leader, epochs, ISR for unclean), leadership.",
     "LeaderAndIsr to the strategy's recipients, UpdateMetadata to every live broker.",
     "`KafkaController.processReplicaLeaderElection`, `onReplicaElection` (kafka.md §5.8.1, §5.8.2, §2.8).",
     "`processReplicaLeaderElection` in `spec/rules/admin_elections.cpp`",
     "elect-controller 3\nsettle\ncrash 1\nsettle\nstart 1\nsettle\nexpand-isr t-0 leader 2 add 1\nsettle\n"
     "elect-preferred t-0\nprocess-event 3",
     ""},
    {E::AutoPreferredReplicaLeaderElection, "The leader-rebalance scheduler fired.",
     "`auto-rebalance-timer b` (the active controller's scheduler task).",
     "Only when active (`checkAndTriggerAutoLeaderRebalance`). The partitions of topics not queued for deletion "
     "are grouped by preferred replica (the head of the assignment). For each broker `B`, in ascending id order: "
     "the partitions with cached leadership whose leader is not `B` are \"not preferred\"; when they are more than "
     "10% (`leader.imbalance.per.broker.percentage`) of `B`'s partitions, those whose preferred replica is online "
     "and in the cached ISR go Online → Online with the PreferredReplica strategy (one batch per broker). "
     "Partitions being reassigned are not excluded. The scheduler is re-armed: the timer action may fire again.",
     "Partition-state znodes (leader, leader epoch), leadership.",
     "LeaderAndIsr to the partitions' replicas, UpdateMetadata to every live broker.",
     "`KafkaController.processAutoPreferredReplicaLeaderElection` → `checkAndTriggerAutoLeaderRebalance`, "
     "`onReplicaElection(…, PREFERRED, AutoTriggered)` (kafka.md §5.8.3, §5.8.2).",
     "`processAutoPreferredReplicaLeaderElection` in `spec/rules/admin_elections.cpp`",
     "elect-controller 3\nsettle\ncrash 1\nsettle\nstart 1\nsettle\nexpand-isr t-0 leader 2 add 1\nsettle\n"
     "auto-rebalance-timer 3\nprocess-event 3",
     ""},
    {E::TopicUncleanLeaderElectionEnable, "A topic's `unclean.leader.election.enable` was turned on.",
     "`enable-unclean t`.",
     "Only when active. Runs `triggerOnlinePartitionStateChange` for the topic: its New and Offline partitions are "
     "elected with the Offline strategy, which reads the topic's flag: a partition without a live ISR member elects "
     "the first live assigned replica, with ISR = [leader] and recovery state RECOVERING.",
     "Partition-state znodes, partition states and leadership of the topic's partitions.",
     "LeaderAndIsr to the live replicas, UpdateMetadata to every live broker.",
     "`KafkaController.processTopicUncleanLeaderElectionEnable` (kafka.md §5.6 event 26, §2.2, §2.7).",
     "`processTopicUncleanLeaderElectionEnable` in `spec/rules/topic_events.cpp`",
     "elect-controller 3\nsettle\nshrink-isr t-0 leader 1 remove 2\nsettle\ncrash 1\nsettle\nenable-unclean t\n"
     "process-event 3",
     ""},
    {E::ZkPartitionReassignment, "`/admin/reassign_partitions` was created (or the controller re-arms its watch).",
     "`zk-reassign t-p R` and `zk-reassign-invalid` (the znode's creation watch); the controller itself after "
     "deleting that znode.",
     "Only when active and the znode exists. Every entry (none when the data is not valid JSON) becomes "
     "`current.reassignTo(target)` without validation and goes through `maybeTriggerPartitionReassignment` as in "
     "ApiPartitionReassignment; entries that fail (topic being deleted, unknown partition, an error) are removed "
     "from the znode, which is deleted when nothing remains (the controller then queues ZkPartitionReassignment for "
     "itself).",
     "As ApiPartitionReassignment; `/admin/reassign_partitions` (trimmed or deleted).",
     "As ApiPartitionReassignment; ZkPartitionReassignment for itself when it deletes the znode.",
     "`KafkaController.processZkPartitionReassignment`, `maybeRemoveFromZkReassignment` (kafka.md §5.7.5, §5.7.6).",
     "`processZkPartitionReassignment` in `spec/rules/reassignment.cpp`",
     "elect-controller 3\nsettle\nzk-reassign t-0 2,3\nprocess-event 3", ""},
    {E::LogDirEventNotification,
     "The children of `/log_dir_event_notification` changed: a broker's log directory failed.",
     "`fail-log-dir p b` (the child watch); the controller itself when it deletes notifications (reading them "
     "re-armed the watch), in this handler and at failover.",
     "Only when active. The brokers the notifications name get `onBrokerLogDirFailure`: every replica they hold "
     "goes OnlineReplica → OnlineReplica, which sends each a LeaderAndIsr for the partitions with a leader, to learn "
     "which replicas are offline (their answers are LeaderAndIsrResponseReceived). Then, in a finally-block, the "
     "notifications read are deleted (fenced), which queues LogDirEventNotification once more (its handling then "
     "finds none).",
     "`/log_dir_event_notification`; replica states (unchanged: Online → Online).",
     "LeaderAndIsr and UpdateMetadata for the brokers' partitions; LogDirEventNotification for itself.",
     "`KafkaController.processLogDirEventNotification`, `onBrokerLogDirFailure` (kafka.md §5.5.6).",
     "`processLogDirEventNotification` in `spec/rules/broker_membership.cpp`",
     "elect-controller 3\nsettle\nfail-log-dir t-0 1\nprocess-event 3", ""},
    {E::LeaderAndIsrResponseReceived,
     "A LeaderAndIsr response naming replicas on a failed log directory came back.",
     "`deliver-leader-and-isr-response b`, when the response reaches the controller that sent it.",
     "Only when active. From version 5 (inter.broker.protocol.version 2.8-IV1) the response names topics by the "
     "request's topic ids, and partitions of an id the context does not know (none, or a deleted topic's) are "
     "dropped; an older one is read by name. Those answered KAFKA_STORAGE_ERROR join `replicasOnOfflineDirs` of the broker, those answered NONE leave "
     "it; the newly offline replicas (\"Mark replicas … on broker b as offline\") go through "
     "`onReplicasBecomeOffline`: partitions they led go Offline and are re-elected among the online replicas, the "
     "replicas go OfflineReplica (out of the ISR), a topic being deleted fails their deletion. From then on "
     "`isReplicaOnline(b, p)` is false, so UpdateMetadata lists the replica as offline, until the broker restarts "
     "or fails (`onBrokerStartup`, `onBrokerFailure` forget its entry) or the controller changes.",
     "`replicasOnOfflineDirs`; partition-state znodes, partition and replica states, leadership.",
     "LeaderAndIsr to the partitions' online replicas, StopReplica(delete=false) to the broker, UpdateMetadata.",
     "`KafkaController.processLeaderAndIsrResponseReceived`, `onReplicasBecomeOffline` (kafka.md §5.6.1, §5.5.4).",
     "`processLeaderAndIsrResponseReceived` in `spec/rules/broker_membership.cpp`",
     "elect-controller 3\nsettle\nfail-log-dir t-0 1\nsettle-until LeaderAndIsrResponseReceived\nprocess-event 3",
     ""},
    {E::RegisterBrokerAndReelect,
     "The broker's ZooKeeper client has a new session after an expiry: register the broker again.",
     "Processing **Expire** on a broker whose registration went with the expired session (`lose-broker-session b`).",
     "Creates `/brokers/ids/<b>` again; its creation order is the broker's new epoch, by which the broker refuses "
     "requests sent to its old registration. The registration fires BrokerChange at the active controller. Then as "
     "Reelect: `maybeResign`; the election itself is `elect-controller`, which any live registered broker may take "
     "while `/controller` is absent.",
     "ZooKeeper: `/brokers/ids/<b>`, the last creation order; the broker's epoch.",
     "The event **BrokerChange** at the active controller.",
     "`KafkaController.processRegisterBrokerAndReelect` (kafka.md §5.6 event 4).",
     "`processNextEvent` → `registerBrokerAgain` in `spec/rules/brokers.cpp`",
     "elect-controller 3\nsettle\nlose-broker-session 1\nnotice-session-expiry 1\nprocess-event 1\nprocess-event 1",
     ""},
    {E::IsrChangeNotification,
     "The children of `/isr_change_notification` changed: a leader wrote an ISR change to ZooKeeper itself "
     "(`inter.broker.protocol.version` below 2.7-IV2, before AlterPartition).",
     "`propagate-isr-changes b` on such a protocol, after a leader's writes to state znodes (the child watch); the "
     "controller itself when it deletes notifications, in this handler and at failover.",
     "Only when active. The partitions the notifications name are reloaded from their state znodes into the cache "
     "(`updateLeaderAndIsrCache`) and sent to every live-or-shutting-down broker in an UpdateMetadata; a "
     "reassigning one whose target replicas are all in the ISR now completes (`maybeCompleteReassignment`). Then, "
     "in a finally-block, the notifications read are deleted (fenced), which queues IsrChangeNotification once "
     "more (its handling then finds none).",
     "`/isr_change_notification`; the partitions' leadership in the context; a reassignment's completion.",
     "UpdateMetadata to every live-or-shutting-down broker; IsrChangeNotification for itself.",
     "`KafkaController.processIsrChangeNotification` (kafka.md §5.6.4).",
     "`processIsrChangeNotification` in `spec/rules/isr_change_notifications.cpp`",
     "protocol 2.4\nelect-controller 3\nsettle\nshrink-isr t-0 leader 1 remove 2\npropagate-isr-changes 1\n"
     "process-event 3",
     ""},
    {E::PartitionReassignmentIsrChange,
     "The state znode of a reassigning partition changed (`inter.broker.protocol.version` below 2.7-IV2).",
     "Any write of the state znode of a partition the active controller watches (`reassignment_isr_watches`: "
     "registered when a reassignment starts on such a protocol, dropped when it completes or the controller "
     "resigns) — a leader's ISR change, an election, a leader-epoch bump.",
     "Only when active, and only for a partition still being reassigned: `maybeCompleteReassignment` — the "
     "reassignment completes if its target replicas are all in the ISR that ZooKeeper holds now.",
     "As ApiPartitionReassignment's completion.",
     "As ApiPartitionReassignment's completion.",
     "`KafkaController.processPartitionReassignmentIsrChange` (kafka.md §5.6 event 15, §5.7.2 step 2).",
     "`processPartitionReassignmentIsrChange` in `spec/rules/isr_change_notifications.cpp`",
     "protocol 2.4\nelect-controller 3\nsettle\nreassign t-0 2,3\nsettle\nexpand-isr t-0 leader 1 add 3\n"
     "process-event 3",
     ""},
}};

constexpr bool inEnumOrder() {
  for (std::size_t i = 0; i < kActionDocs.size(); ++i) {
    if (static_cast<std::size_t>(kActionDocs[i].kind) != i) return false;
  }
  for (std::size_t i = 0; i < kEventDocs.size(); ++i) {
    if (static_cast<std::size_t>(kEventDocs[i].kind) != i) return false;
  }
  return true;
}
static_assert(inEnumOrder(), "one ActionDoc per ActionKind and one EventDoc per ControllerEventKind, in order");

}  // namespace

std::span<const ActionDoc> actionDocs() { return kActionDocs; }
std::span<const EventDoc> eventDocs() { return kEventDocs; }
const ActionDoc& actionDoc(ActionKind kind) { return kActionDocs[static_cast<std::size_t>(kind)]; }
const EventDoc& eventDoc(ControllerEventKind kind) { return kEventDocs[static_cast<std::size_t>(kind)]; }

}  // namespace kcspec::docs
