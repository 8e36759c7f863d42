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

struct Controller {
  const Config& config;
  Observation& world;
  BrokerId id;  // the broker hosting this controller
  StepObserver& observer;

  ControllerData& module() { return world.brokers[static_cast<std::size_t>(id)].controller; }
  ControllerContextData& context() { return module().context; }
  ZooKeeperData& zk() { return world.zk; }
  std::int32_t epoch() { return context().epoch; }
  // KafkaConfig.interBrokerProtocolVersion of the broker hosting this controller.
  MetadataVersion interBrokerProtocolVersion() const { return kcspec::interBrokerProtocolVersion(config, world, id); }
  // eventManager.put: the controller queues an event for itself (no watch, so no de-duplication).
  void put(const ControllerEvent& event) { module().events.push_back(event); }
};

}  // namespace kcspec::spec
