#include "proofs/explorer/both_system.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "proofs/explorer/action_path.hpp"
#include "proofs/explorer/impl_system.hpp"
#include "proofs/explorer/spec_system.hpp"
#include "proofs/explorer/state_codec.hpp"
#include "spec/rules/invariants.hpp"
#include "spec/rules/step.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/observation_text.hpp"

namespace kcspec::explorer {
namespace {

constexpr std::array<PropertyInfo, 2> kOwnProperties = {kSpecImplAgree, kSpecImplEnableTheSameActions};

spec::ClusterState viewOf(const impl::ImplCluster& cluster) {
  return spec::ClusterState{cluster.observe(), cluster.remaining()};
}

}  // namespace

// One replayed step of both (decode): the spec's state, the impl, and whether the impl refused
// the last action.
struct BothSystem::Node {
  spec::ClusterState spec;
  impl::ImplCluster cluster;
  bool refused = false;
};

BothSystem::BothSystem(Config config, impl::Mutants mutants)
    : config_(std::move(config)), mutants_(mutants), catalog_(kOwnProperties), id_(newSystemId()) {}

std::vector<BothSystem::State> BothSystem::initialStates() const {
  State state{spec::initialState(config_), impl::ImplCluster(config_, mutants_), {}, nullptr, false};
  spec::ClusterState view = viewOf(state.cluster);
  if (!(view == state.spec)) state.impl_view = std::make_shared<const spec::ClusterState>(std::move(view));
  std::vector<State> states;
  states.push_back(std::move(state));
  return states;
}

void BothSystem::actions(const State& state, std::vector<Action>& out) const {
  if (!state.agree()) return;  // a dead end: the disagreement is the finding
  for (const Action& action : spec::enabledActions(config_, state.spec)) out.push_back(action);
}

BothSystem::State BothSystem::next(const State& state, const Action& action, PropertyMask& violated) const {
  spec::RecordingObserver observer;
  State out{spec::next(config_, state.spec, action, observer), state.cluster, state.path, nullptr, false};
  encodeAction(action, out.path);
  violated |= catalog_.violatedStep(config_, state.spec, out.spec, observer.record);
  if (!out.cluster.isEnabled(action)) {
    out.impl_refused = true;  // C2 already failed in `state`
    return out;
  }
  out.cluster.apply(action);
  spec::ClusterState view = viewOf(out.cluster);
  if (!(view == out.spec)) {
    out.impl_view = std::make_shared<const spec::ClusterState>(std::move(view));
    violated |= catalog_.bitOf(kSpecImplAgree.id);
  }
  return out;
}

Fingerprint BothSystem::fingerprint(const State& state) const {
  Fingerprint hash = combineFingerprints(fingerprintWorld(state.spec.world, state.spec.budget),
                                         hiddenZooKeeperFingerprint(state.cluster));
  if (state.impl_view) hash = combineFingerprints(hash, fingerprintWorld(state.impl_view->world, state.impl_view->budget));
  if (state.impl_refused) hash = combineFingerprints(hash, 1);
  return hash;
}

BothSystem::State BothSystem::fromNode(const Node& node, std::string_view path) const {
  State state{node.spec, node.cluster, std::string(path), nullptr, node.refused};
  if (!node.refused) {
    spec::ClusterState view = viewOf(node.cluster);
    if (!(view == node.spec)) state.impl_view = std::make_shared<const spec::ClusterState>(std::move(view));
  }
  return state;
}

BothSystem::State BothSystem::decode(std::string_view bytes) const {
  thread_local PathReplayCache<Node> cache;
  const Node& node = cache.replay(
      id_, bytes, [this] { return Node{spec::initialState(config_), impl::ImplCluster(config_, mutants_), false}; },
      [this](Node& n, const Action& action) {
        n.spec = spec::next(config_, n.spec, action);
        n.refused = !n.cluster.isEnabled(action);
        if (!n.refused) n.cluster.apply(action);
      });
  return fromNode(node, bytes);
}

PropertyMask BothSystem::violatedStateProperties(const State& state) const {
  PropertyMask violated = catalog_.violatedState(config_, state.spec);
  if (state.impl_view) violated |= catalog_.violatedState(config_, *state.impl_view);
  if (state.agree() && spec::enabledActions(config_, state.spec) != state.cluster.enabledActions()) {
    violated |= catalog_.bitOf(kSpecImplEnableTheSameActions.id);
  }
  return violated;
}

PropertyMask BothSystem::goalsReached(const State& state) const {
  if (!state.agree()) {  // a dead end: not a liveness finding
    PropertyMask all = 0;
    const auto properties = catalog_.all();
    for (std::size_t i = 0; i < properties.size(); ++i) {
      if (properties[i].kind == PropertyKind::Liveness) all |= propertyBit(i);
    }
    return all;
  }
  return catalog_.goalsReached(config_, state.spec);
}

bool BothSystem::isRecovery(const Action& action) const { return isRecoveryAction(action); }

std::string BothSystem::disagreement(const State& state) const {
  std::string out;
  if (state.impl_refused) out += "the impl does not enable the last action\n";
  if (state.impl_view) {
    const std::vector<Change> diff = diffObservations(config_, state.spec.world, state.impl_view->world);
    if (!diff.empty()) out += "observation, spec -> impl:\n" + renderChangesText(diff);
    if (!(state.impl_view->budget == state.spec.budget)) out += "the remaining perturbation budgets differ\n";
  }
  if (state.agree()) {
    const std::vector<Action> in_spec = spec::enabledActions(config_, state.spec);
    const std::vector<Action> in_impl = state.cluster.enabledActions();
    if (in_spec != in_impl) {
      out += "enabled actions differ:\n";
      for (const Action& a : in_spec) {
        if (std::find(in_impl.begin(), in_impl.end(), a) == in_impl.end()) out += "  only spec: " + printAction(config_, a) + "\n";
      }
      for (const Action& a : in_impl) {
        if (std::find(in_spec.begin(), in_spec.end(), a) == in_spec.end()) out += "  only impl: " + printAction(config_, a) + "\n";
      }
      if (out.ends_with("differ:\n")) out += "  the same actions in a different order\n";
    }
  }
  return out;
}

}  // namespace kcspec::explorer
