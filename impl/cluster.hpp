// ImplCluster: the reference implementation's world as a transition system, with the same shape
// as the spec's (docs/world.md): an initial state from a Config, the enabled actions among the
// candidates both versions take from the action definitions (spec/vocabulary/action_candidates.hpp),
// apply, and the Observation both versions produce.
//
// A value: copying an ImplCluster copies the whole world (ZooKeeper, brokers, controller
// modules). The configuration is shared read-only; the log target (sink and clock) is the
// caller's and is shared by copies.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "impl/broker/simulated_broker.hpp"
#include "impl/mutants.hpp"
#include "impl/state_change_logger.hpp"
#include "impl/uuid.hpp"
#include "impl/zookeeper/store.hpp"
#include "impl/zookeeper/zk_store.hpp"
#include "spec/vocabulary/action.hpp"
#include "spec/vocabulary/component_call.hpp"
#include "spec/vocabulary/config.hpp"
#include "spec/vocabulary/observation.hpp"

namespace kcspec::impl {

class KafkaController;

class ImplCluster {
 public:
  explicit ImplCluster(const Config& config, Mutants mutants = {}, LogTarget log = {});
  // On a real ZooKeeper (the real-ZooKeeper path only, docs/zookeeper.md): the world's znodes live
  // there, and copies of this cluster share that server.
  ImplCluster(const Config& config, zk::RealZkStore& real_zookeeper, Mutants mutants = {}, LogTarget log = {});
  // A cluster whose world is `given` (issue 28's `given` section): ZooKeeper's znodes with their
  // versions and creation order, every broker, its controller module and queues, as observe()
  // would show them; the active controller's ZooKeeper watches registered as its failover and
  // topic handling register them. For a world this configuration reaches, observe() gives
  // `given` back and every step goes as from the cluster that reached it (with that cluster's
  // remaining budget as `config.bounds`: the given world spends nothing). In-memory ZooKeeper
  // only. `given` holds defaults outside the configuration's brokers and topics.
  //
  // What `given` does not show, and how it is put back (given_world.cpp):
  // - never read by anyone, so restored as a default: the czxid of every znode but a broker
  //   registration (the creation counter when it was created), the data version of every znode
  //   but /controller_epoch and the partition states (their writers match any version), and what
  //   an unflushed state-machine batch holds (never sent: ControllerBrokerRequestBatch::
  //   restoreUnflushed); the text of an /admin/reassign_partitions that does not parse (every
  //   such text reads as no entry: restored as `not json`); how many children the notification
  //   znodes have and their sequence numbers (the controller reads them all together: one
  //   log_dir_event_<seq> per broker named, one isr_change_<seq> naming every partition, numbered
  //   from 0);
  // - the watches of a module other than the active one (they reach nobody and are removed
  //   before it can be elected again: KafkaController::restoreHandlers);
  // - derived from the world: /config/topics/<t> exists for every existing topic (written before
  //   the topic znode, deleted with it), /brokers/topics/<t>/partitions/<p> for every partition
  //   state, and each ephemeral node's owning session (a broker's registration or controller
  //   session, zk::registrationSession, zk::controllerSession), which closeSession removes.
  // A topic znode whose partition ids have a gap (processPartitionModifications restores only the
  // partitions with a /brokers/topics/<t>/partitions/<p> znode, kafka.md §5.10.2, e.g. {1: [2]})
  // is observed and restored with its ids.
  ImplCluster(const Config& config, const Observation& given, Mutants mutants = {}, LogTarget log = {});

  // *this = other, for a cluster of the same configuration (same brokers): copies only the
  // configured brokers — the others are never started, so they hold their initial value in
  // every cluster of a configuration (the explorer copies a cluster per transition).
  void assignSameConfiguration(const ImplCluster& other);

  bool isEnabled(const Action& action) const;
  std::vector<Action> enabledActions() const;
  // Takes an enabled action (an action that is not enabled is a caller bug: it stops the program).
  void apply(const Action& action);
  // A component action (spec/vocabulary/component_call.hpp) on the active controller, then the
  // ZooKeeper watches it fired routed as after any step. Needs an active controller
  // (activeController()); returns the exception that escaped the method (impl/component_calls.cpp).
  ComponentResult callComponent(const ComponentCall& call);
  // Whether `call` can be made: an active controller, unless it needs none (needsActiveController).
  bool callComponentPossible(const ComponentCall& call) const {
    return !needsActiveController(call) || activeController().has_value();
  }
  // The world as the spec's vocabulary sees it; brokers outside the configuration (never
  // started) keep their default observation.
  Observation observe() const;
  // observe() into `out`, which must hold defaults in the configuration's brokers, topics and
  // partitions and in every field that is not per broker, topic or partition: it writes nothing
  // else (the explorer resets only those in a value it reuses).
  void observeInto(Observation& out) const;

  const Bounds& remaining() const { return remaining_; }  // the perturbation budget left
  const Config& config() const { return *config_; }
  Mutants mutants() const { return mutants_; }
  void setLogTarget(LogTarget log) { log_ = log; }

  // The broker whose controller module is active and has its session (events go there).
  std::optional<BrokerId> activeController() const;
  const SimulatedBroker& broker(BrokerId id) const { return brokers_[static_cast<std::size_t>(id)]; }
  const zk::Store& zookeeper() const { return zk_; }
  // Real path: the server expired broker b's controller session; b notices (queues Expire).
  void controllerSessionExpired(BrokerId b);
  // Real path: turns watch notifications caused by other ZooKeeper clients into events (apply()
  // does this after every step; a caller waiting between steps calls it).
  void routeZooKeeperWatches() { routeWatchEvents(); }

 private:
  ImplCluster(const Config& config, Mutants mutants, LogTarget log, zk::Store store);
  bool controllerHasRoom() const;
  bool controllerHasRoomForIsrChange(BrokerId leader) const;
  MetadataVersion interBrokerProtocolVersion(BrokerId b) const;
  bool controllerHasRoomForWatchEvent() const;
  bool partitionExistsInZk(TopicPartition tp) const;
  std::string statePath(TopicPartition tp) const;  // /brokers/topics/<t>/partitions/<p>/state
  bool topicExistsInZk(TopicIndex topic) const;
  bool deletionRequested(TopicIndex topic) const;
  bool uncleanFlag(TopicIndex topic) const;  // /config/topics/<t> unclean.leader.election.enable
  std::optional<int> nextAddedPartition(TopicIndex topic) const;  // index into added_partitions
  bool isrChangeEnabled(const Action& action) const;
  bool hasBudget(int Bounds::*kind) const;  // a perturbation of this kind is allowed
  void spend(int Bounds::*kind);              // one perturbation of this kind happened

  void queueRequest(const ControllerEvent& event);  // admin/broker requests (docs/world.md §3)
  void routeWatchEvents();                          // ZooKeeper watches → events (§2)
  std::optional<Uuid> adminTopicId(TopicIndex t);    // the id an admin's CreateTopics writes
  Uuid randomTopicUuid(TopicIndex t) const;          // Uuid.randomUuid() for a topic id (impl/uuid.hpp)
  void processEvent(BrokerId b);
  void electController(BrokerId b);
  // lose-broker-session's effects: b's client loses its session, and with it b's registration and
  // the /controller it holds (the store's watches fire; apply() routes them).
  void expireBrokerSession(BrokerId b);
  // zk-session-expiry: whether controller b's session expires just before its call writing
  // `state_paths` — when one is armed and b's session is still its own; then it expires and b's
  // client queues Expire with clearAndPut (docs/world.md convention 15).
  bool maybeExpireSessionBeforeWrites(BrokerId b, const std::vector<std::string>& state_paths);
  void deliverStopReplicaResponse(BrokerId b, bool error);
  void deliverLeaderAndIsrResponse(BrokerId b);
  template <class Run>
  void withController(BrokerId b, Run run);
  void runOnController(BrokerId b, const std::function<void(KafkaController&)>& run);  // withController, out of line

  std::shared_ptr<const Config> config_;
  Mutants mutants_;
  LogTarget log_;
  Bounds remaining_;
  zk::Store zk_;  // the in-memory store; on the real path, a pointer to the server
  std::array<SimulatedBroker, kMaxBrokers> brokers_{};
};

}  // namespace kcspec::impl
