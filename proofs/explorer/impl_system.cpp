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
    : config_(std::move(config)), mutants_(mutants), id_(newSystemId()) {}

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

ImplSystem::State ImplSystem::next(const State& state, const Action& action, PropertyMask& violated) const {
  thread_local std::vector<impl::LogRecord> lines;
  lines.clear();
  State out{state.cluster, {}, state.path};
  agreement::applyLogged(out.cluster, action, lines);
  out.view = spec::ClusterState{out.cluster.observe(), out.cluster.remaining()};
  encodeAction(action, out.path);
  violated |= catalog_.violatedStep(config_, state.view, out.view,
                                     agreement::implStepRecord(config_, lines, state.view, out.view));
  return out;
}

Fingerprint ImplSystem::fingerprint(const State& state) const {
  return combineFingerprints(fingerprintWorld(state.view.world, state.view.budget),
                             hiddenZooKeeperFingerprint(state.cluster));
}

ImplSystem::State ImplSystem::decode(std::string_view bytes) const {
  thread_local PathReplayCache<impl::ImplCluster> cache;
  const impl::ImplCluster& cluster = cache.replay(
      id_, bytes, [this] { return impl::ImplCluster(config_, mutants_); },
      [](impl::ImplCluster& c, const Action& action) { c.apply(action); },
      [](const impl::ImplCluster& from, impl::ImplCluster& to) { to.assignSameConfiguration(from); });
  return State{cluster, spec::ClusterState{cluster.observe(), cluster.remaining()}, std::string(bytes)};
}

bool ImplSystem::isRecovery(const Action& action) const { return isRecoveryAction(action); }

}  // namespace kcspec::explorer
