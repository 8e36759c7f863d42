// `Controller`: the KafkaController module of one broker while it handles one event — a window
// onto the world it reads and writes (its context, ZooKeeper, the brokers' request queues).
// Every rule of the controller is a function of a Controller&.
#pragma once

#include "spec/rules/cluster_state.hpp"
#include "spec/vocabulary/broker_ibp.hpp"
#include "spec/vocabulary/config.hpp"
#include "spec/vocabulary/observation.hpp"

namespace kcspec::spec {

// Thrown by a fenced ZooKeeper write when /controller_epoch's version is no longer the one the
// controller holds (kafka.md §6.3.1); the event is abandoned and the controller calls maybeResign.
struct ControllerMovedException {};

// Any other exception Kafka lets escape from a controller method (IllegalStateException,
// StateChangeFailedException, NoSuchElementException, …). An event handler it escapes from is
// abandoned with the steps already taken kept ("Uncaught error processing event"); during
// failover it makes the controller move (triggerControllerMove, kafka.md §5.4).
struct KafkaException {
  const char* what;
};

// KeeperException$SessionExpiredException: the controller's ZooKeeper session expired during the
// event (`zk-session-expiry`, docs/world.md convention 15). From then until its Expire, every request of
// the controller's client is answered SESSIONEXPIRED: a fenced write throws this
// (KafkaZkClient.unwrapResponseWithControllerEpochCheck: a multi without results), and so do the
// reads whose callers throw `resultException` — most of them; the callers that read raw
// responses turn it into per-partition failures, as Kafka's do.
struct SessionExpiredException : KafkaException {
  SessionExpiredException() : KafkaException{"SessionExpiredException: KeeperErrorCode = Session expired"} {}
};

struct Controller {
  const Config& config;
  Observation& world;
  BrokerId id;  // the broker hosting this controller
  StepObserver& observer;

  ControllerData& module() { return world.brokers[static_cast<std::size_t>(id)].controller; }
  ControllerContextData& context() { return module().context; }
  // Whether this controller's session expired during the event (zookeeper.cpp maybeExpireSession).
  bool session_expired = false;

  // ZooKeeper, as this controller's client reaches it: every read and write goes through here, so
  // after its session expired each one fails with SESSIONEXPIRED.
  ZooKeeperData& zk() {
    if (session_expired) throw SessionExpiredException{};
    return world.zk;
  }
  std::int32_t epoch() { return context().epoch; }
  // KafkaConfig.interBrokerProtocolVersion of the broker hosting this controller.
  MetadataVersion interBrokerProtocolVersion() const { return kcspec::interBrokerProtocolVersion(config, world, id); }
  // eventManager.put: the controller queues an event for itself (no watch, so no de-duplication).
  void put(const ControllerEvent& event) { module().events.push_back(event); }
};

}  // namespace kcspec::spec
