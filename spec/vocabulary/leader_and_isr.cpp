// Kafka 3.8's renderings of LeaderAndIsr and LeaderIsrAndControllerEpoch (kafka.md §7.6).
#include "spec/vocabulary/leader_and_isr.hpp"

#include <fmt/format.h>

namespace kcspec {
namespace {

// Since 3.5 the ISR is a list of (brokerId, brokerEpoch) pairs. The ZK controller never knows a
// broker epoch for an ISR member and always writes -1, so kcspec stores only the ids.
constexpr std::int32_t kControllerBrokerEpoch = -1;

std::string isrWithBrokerEpoch(const BrokerList& isr) {
  std::string out = "List(";
  for (std::size_t i = 0; i < isr.size(); ++i) {
    if (i > 0) out += ", ";
    out += fmt::format("BrokerState(brokerId={}, brokerEpoch={})", isr[i], kControllerBrokerEpoch);
  }
  return out + ")";
}

}  // namespace

std::string joinIds(const BrokerList& ids, std::string_view separator) {
  return fmt::format("{}", fmt::join(ids, separator));
}

std::string toKafkaString(const LeaderAndIsr& leader_and_isr) {
  return fmt::format(
      "LeaderAndIsr(leader={}, leaderEpoch={}, isrWithBrokerEpoch={}, leaderRecoveryState={}, "
      "partitionEpoch={})",
      leader_and_isr.leader, leader_and_isr.leader_epoch, isrWithBrokerEpoch(leader_and_isr.isr),
      toKafkaString(leader_and_isr.recovery_state), leader_and_isr.partition_epoch);
}

std::string toKafkaString(const LeaderIsrAndControllerEpoch& leader_isr_and_controller_epoch) {
  const LeaderAndIsr& lai = leader_isr_and_controller_epoch.leader_and_isr;
  // Kafka kept the label "ZkVersion" when the field became partitionEpoch (3.3).
  return fmt::format(
      "(Leader:{},ISR:{},LeaderRecoveryState:{},LeaderEpoch:{},ZkVersion:{},ControllerEpoch:{})",
      lai.leader, joinIds(lai.isr, ","), toKafkaString(lai.recovery_state), lai.leader_epoch,
      lai.partition_epoch, leader_isr_and_controller_epoch.controller_epoch);
}

}  // namespace kcspec
