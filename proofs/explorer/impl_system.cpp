#include "proofs/explorer/impl_system.hpp"

#include <cstring>
#include <utility>

#include "proofs/explorer/action_path.hpp"
#include "proofs/explorer/spec_system.hpp"
#include "proofs/explorer/state_codec.hpp"
#include "spec/vocabulary/assert.hpp"

namespace kcspec::explorer {

Fingerprint combineFingerprints(Fingerprint first, Fingerprint second) {
  char bytes[2 * sizeof(Fingerprint)];
  std::memcpy(bytes, &first, sizeof first);
  std::memcpy(bytes + sizeof first, &second, sizeof second);
  return hashBytes(std::string_view(bytes, sizeof bytes));
}

Fingerprint hiddenZooKeeperFingerprint(const impl::ImplCluster& cluster) {
  thread_local std::string bytes;  // reused: no allocation per fingerprint
  bytes.clear();
  const auto append = [](const void* data, std::size_t size) { bytes.append(static_cast<const char*>(data), size); };
  for (const auto& [path, node] : cluster.zookeeper().nodes()) {
    const std::uint32_t path_size = static_cast<std::uint32_t>(path.size());
    const std::uint32_t data_size = static_cast<std::uint32_t>(node.data.size());
    append(&path_size, sizeof path_size);
    bytes += path;
    append(&data_size, sizeof data_size);
    bytes += node.data;
    append(&node.stat.version, sizeof node.stat.version);
    append(&node.stat.czxid, sizeof node.stat.czxid);
    append(&node.stat.ephemeral_owner, sizeof node.stat.ephemeral_owner);
  }
  const std::int64_t zxid = cluster.zookeeper().lastZxid();
  append(&zxid, sizeof zxid);
  return hashEncoding(bytes);
}


ImplSystem::ImplSystem(Config config, impl::Mutants mutants)
    : config_(std::move(config)), mutants_(mutants), shape_(config_), id_(newSystemId()) {}

std::vector<ImplSystem::State> ImplSystem::initialStates() const {
  impl::ImplCluster cluster(config_, mutants_);
  spec::ClusterState view{cluster.observe(), cluster.remaining()};
  std::vector<State> states;
  states.push_back(State{std::move(cluster), std::move(view), {}});
  return states;
}

void ImplSystem::actions(const State& state, std::vector<Action>& out) const {
  for (const Action& action : state.cluster.enabledActions()) out.push_back(action);
}

std::optional<Action> ImplSystem::persistentActionIn(const State& state) const {
  return firstPersistentDelivery(config_, state.view.world, state.view.budget,
                                 [&](const Action& delivery) { return state.cluster.isEnabled(delivery); });
}

ImplSystem::State ImplSystem::next(const State& state, const Action& action, PropertyMask& violated) const {
  State out{state.cluster, {}, {}};
  judgeStep(state, action, violated, out);
  return out;
}

void ImplSystem::nextInto(const State& state, const Action& action, PropertyMask& violated, State& successor) const {
  successor.cluster.assignSameConfiguration(state.cluster);
  judgeStep(state, action, violated, successor);
}

void ImplSystem::judgeStep(const State& state, const Action& action, PropertyMask& violated, State& successor) const {
  thread_local std::vector<impl::LogRecord> lines;
  lines.clear();
  agreement::applyLogged(successor.cluster, action, lines);
  observeInto(successor);
  successor.path.assign(state.path);
  encodeAction(action, successor.path);
  violated |= catalog_.violatedStep(config_, state.view, successor.view,
                                     agreement::implStepRecord(config_, lines, state.view, successor.view));
}

void ImplSystem::observeInto(State& successor) const {
  resetWorld(successor.view.world, shape_);
  successor.cluster.observeInto(successor.view.world);
  successor.view.budget = successor.cluster.remaining();
}

Fingerprint ImplSystem::fingerprint(const State& state) const {
  return combineFingerprints(fingerprintWorld(state.view.world, state.view.budget, shape_),
                             hiddenZooKeeperFingerprint(state.cluster));
}

ImplSystem::State ImplSystem::decode(std::string_view bytes) const {
  State state{impl::ImplCluster(config_, mutants_), {}, {}};
  decodeInto(bytes, state);
  return state;
}

void ImplSystem::decodeInto(std::string_view bytes, State& state) const {
  thread_local PathReplayCache<impl::ImplCluster> cache;
  const impl::ImplCluster& cluster = cache.replay(
      id_, bytes, [this] { return impl::ImplCluster(config_, mutants_); },
      [](impl::ImplCluster& c, const Action& action) { c.apply(action); },
      [](const impl::ImplCluster& from, impl::ImplCluster& to) { to.assignSameConfiguration(from); });
  state.cluster.assignSameConfiguration(cluster);
  observeInto(state);
  state.path.assign(bytes);
}

bool ImplSystem::isRecovery(const Action& action) const { return isRecoveryAction(action); }

}  // namespace kcspec::explorer
