#include "proofs/explorer/action_path.hpp"

#include "spec/vocabulary/assert.hpp"

namespace kcspec::explorer {
namespace {

enum FieldBit : std::uint8_t { kBroker = 1, kTopic = 2, kTpTopic = 4, kTpPartition = 8, kReplica = 16, kReplicas = 32 };

void putSmall(std::int32_t value, std::string& out) {
  KCSPEC_ASSERT(value >= -128 && value <= 127);
  out.push_back(static_cast<char>(static_cast<std::int8_t>(value)));
}

std::int32_t takeSmall(std::string_view bytes, std::size_t& position) {
  KCSPEC_ASSERT(position < bytes.size());
  return static_cast<std::int8_t>(bytes[position++]);
}

}  // namespace

void encodeAction(const Action& action, std::string& out) {
  const Action defaults;
  std::uint8_t mask = 0;
  if (action.broker != defaults.broker) mask |= kBroker;
  if (action.topic != defaults.topic) mask |= kTopic;
  if (action.tp.topic != defaults.tp.topic) mask |= kTpTopic;
  if (action.tp.partition != defaults.tp.partition) mask |= kTpPartition;
  if (action.replica != defaults.replica) mask |= kReplica;
  if (!action.replicas.empty()) mask |= kReplicas;
  out.push_back(static_cast<char>(static_cast<std::uint8_t>(action.kind) | (action.error ? 0x80 : 0)));
  out.push_back(static_cast<char>(mask));
  if (mask & kBroker) putSmall(action.broker, out);
  if (mask & kTopic) putSmall(action.topic, out);
  if (mask & kTpTopic) putSmall(action.tp.topic, out);
  if (mask & kTpPartition) putSmall(action.tp.partition, out);
  if (mask & kReplica) putSmall(action.replica, out);
  if (mask & kReplicas) {
    putSmall(static_cast<std::int32_t>(action.replicas.size()), out);
    for (BrokerId b : action.replicas) putSmall(b, out);
  }
}

Action decodeAction(std::string_view bytes, std::size_t& position) {
  KCSPEC_ASSERT(position + 2 <= bytes.size());
  const auto head = static_cast<std::uint8_t>(bytes[position++]);
  const auto mask = static_cast<std::uint8_t>(bytes[position++]);
  KCSPEC_ASSERT((head & 0x7f) < kActionKindCount);
  Action action;
  action.kind = static_cast<ActionKind>(head & 0x7f);
  action.error = (head & 0x80) != 0;
  if (mask & kBroker) action.broker = takeSmall(bytes, position);
  if (mask & kTopic) action.topic = takeSmall(bytes, position);
  if (mask & kTpTopic) action.tp.topic = takeSmall(bytes, position);
  if (mask & kTpPartition) action.tp.partition = takeSmall(bytes, position);
  if (mask & kReplica) action.replica = takeSmall(bytes, position);
  if (mask & kReplicas) {
    const std::int32_t size = takeSmall(bytes, position);
    KCSPEC_ASSERT(size > 0 && size <= kMaxReplicationFactor);
    for (std::int32_t i = 0; i < size; ++i) action.replicas.push_back(takeSmall(bytes, position));
  }
  return action;
}

std::vector<Action> decodeActions(std::string_view bytes) {
  std::vector<Action> actions;
  std::size_t position = 0;
  while (position < bytes.size()) actions.push_back(decodeAction(bytes, position));
  return actions;
}

std::uint64_t newSystemId() {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace kcspec::explorer
