#include "proofs/explorer/both_system.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "proofs/agreement/agreement.hpp"
#include "proofs/agreement/step_record.hpp"
#include "proofs/explorer/action_path.hpp"
#include "proofs/explorer/impl_system.hpp"
#include "proofs/explorer/spec_system.hpp"
#include "proofs/explorer/state_codec.hpp"
#include "spec/rules/invariants.hpp"
#include "spec/vocabulary/assert.hpp"
#include "spec/rules/step.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/observation_text.hpp"

namespace kcspec::explorer {
namespace {

constexpr std::array<PropertyInfo, 2> kOwnProperties = {kSpecImplAgree, kSpecImplEnableTheSameActions};

}  // namespace

// One replayed step of both (decode): the spec's state, the impl, and whether the impl refused
// the last action.
struct BothSystem::Node {
  spec::ClusterState spec;
  impl::ImplCluster cluster;
  bool refused = false;
};

BothSystem::BothSystem(Config config, impl::Mutants mutants)
    : config_(std::move(config)), mutants_(mutants), catalog_(kOwnProperties), shape_(config_), id_(newSystemId()) {}

std::vector<BothSystem::State> BothSystem::initialStates() const {
  State state{spec::initialState(config_), impl::ImplCluster(config_, mutants_), {}, nullptr, nullptr, false};
  state.impl_view = disagreeingView(state.cluster, state.spec);
  std::vector<State> states;
  states.push_back(std::move(state));
  return states;
}

void BothSystem::actions(const State& state, std::vector<Action>& out) const {
  if (!state.agree()) return;  // a dead end: the disagreement is the finding
  for (const Action& action : specEnabled(state)) out.push_back(action);
}

std::optional<Action> BothSystem::persistentActionIn(const State& state) const {
  if (!state.agree()) return std::nullopt;
  return firstPersistentDelivery(config_, state.spec.world, state.spec.budget,
                                 [&](const Action& delivery) { return spec::isEnabled(config_, state.spec, delivery); });
}

// The explorer asks for a state's properties and then its actions: both need the spec's enabled
// actions, so the last state's are kept (per thread), named by the system and the state's path —
// a path reaches one state.
const std::vector<Action>& BothSystem::specEnabled(const State& state) const {
  thread_local std::uint64_t owner = 0;
  thread_local std::string path;
  thread_local std::vector<Action> enabled;
  if (owner != id_ || path != state.path) {
    enabled = spec::enabledActions(config_, state.spec);
    owner = id_;
    path = state.path;
  }
  return enabled;
}

BothSystem::State BothSystem::next(const State& state, const Action& action, PropertyMask& violated) const {
  State out = state;
  nextInto(state, action, violated, out);
  return out;
}

void BothSystem::nextInto(const State& state, const Action& action, PropertyMask& violated, State& out) const {
  copyPair(state.spec, state.cluster, out.spec, out.cluster);
  out.path = state.path;
  encodeAction(action, out.path);
  out.impl_view.reset();
  out.failed_changes.reset();
  thread_local spec::RecordingObserver observer;
  thread_local std::vector<impl::LogRecord> impl_errors;
  observer.record.clear();
  impl_errors.clear();
  out.impl_refused = !stepPair(out.spec, out.cluster, action, observer, &impl_errors);
  violated |= catalog_.violatedStep(config_, state.spec, out.spec, observer.record);
  if (out.impl_refused) return;  // C2 already failed in `state`
  if (std::shared_ptr<const spec::ClusterState> view = disagreeingView(out.cluster, out.spec)) {
    out.impl_view = std::move(view);
    violated |= catalog_.bitOf(kSpecImplAgree.id);
  }
  if (auto failed = failedChangesDisagreement(observer.record, impl_errors, state.spec, out.spec)) {
    out.failed_changes = std::move(failed);
    violated |= catalog_.bitOf(kSpecImplAgree.id);
  }
}

std::shared_ptr<const std::string> BothSystem::failedChangesDisagreement(const spec::StepRecord& spec_record,
                                                                         std::span<const impl::LogRecord> impl_errors,
                                                                         const spec::ClusterState& before,
                                                                         const spec::ClusterState& after) const {
  thread_local std::vector<spec::StateChangeRecord> in_spec;
  in_spec.clear();
  for (const spec::StateChangeRecord& c : spec_record.state_changes) {
    if (!c.applied()) in_spec.push_back(c);
  }
  // Only ERROR records were kept: the impl's failed changes.
  if (in_spec.empty() && impl_errors.empty()) return nullptr;
  const spec::StepRecord in_impl = agreement::implStepRecord(config_, impl_errors, before, after);
  std::string diff = agreement::stateChangeDisagreement(config_, in_spec, in_impl.state_changes);
  if (diff.empty()) return nullptr;
  return std::make_shared<const std::string>("failed state changes differ:\n" + std::move(diff));
}

// to = from, for the spec over the configuration's slots (to's others hold their defaults) and
// for the impl over its configured brokers.
void BothSystem::copyPair(const spec::ClusterState& from_spec, const impl::ImplCluster& from_cluster,
                          spec::ClusterState& to_spec, impl::ImplCluster& to_cluster) const {
  copyWorld(from_spec.world, to_spec.world, shape_);
  to_spec.budget = from_spec.budget;
  to_cluster.assignSameConfiguration(from_cluster);
}

// One action taken by both; false when the impl does not enable it (then only the spec moved).
bool BothSystem::stepPair(spec::ClusterState& spec_state, impl::ImplCluster& cluster, const Action& action,
                          spec::StepObserver& observer, std::vector<impl::LogRecord>* impl_errors) const {
  spec::takeStep(config_, spec_state, action, observer);
  if (!cluster.isEnabled(action)) return false;
  if (impl_errors != nullptr) {
    agreement::applyLogged(cluster, action, *impl_errors, impl::LogLevel::ERROR);
  } else {
    cluster.apply(action);
  }
  return true;
}

// The impl's view when it differs from `spec`, else null. Compared over the configuration's
// slots (state_codec.hpp's shape): the spec never sets others, and neither does the impl — its
// observation covers only configured brokers and topics, and only partitions that are in
// ZooKeeper's assignments, which the shape includes.
// The comparison observes into a value reused on this thread, whose configuration's slots are
// reset first: only those are compared, so whatever a faulty impl left outside them is never
// read, and a disagreeing view is observed afresh.
std::shared_ptr<const spec::ClusterState> BothSystem::disagreeingView(const impl::ImplCluster& cluster,
                                                                      const spec::ClusterState& spec) const {
  thread_local std::unique_ptr<Observation> scratch = std::make_unique<Observation>();
  resetWorld(*scratch, shape_);
  cluster.observeInto(*scratch);
  if (sameWorld(*scratch, spec.world, shape_) && cluster.remaining() == spec.budget) return nullptr;
  return std::make_shared<const spec::ClusterState>(spec::ClusterState{cluster.observe(), cluster.remaining()});
}

Fingerprint BothSystem::fingerprint(const State& state) const {
  // The spec's state over the configuration's slots (the spec never sets others).
  Fingerprint hash = combineFingerprints(fingerprintWorld(state.spec.world, state.spec.budget, shape_),
                                         hiddenZooKeeperFingerprint(state.cluster));
  // The impl's view, where it differs, over every slot (a faulty impl may set any).
  if (state.impl_view) hash = combineFingerprints(hash, fingerprintWorld(state.impl_view->world, state.impl_view->budget));
  if (state.impl_refused) hash = combineFingerprints(hash, 1);
  if (state.failed_changes) hash = combineFingerprints(hash, 2);
  return hash;
}

const BothSystem::Node& BothSystem::replay(std::string_view path) const {
  thread_local PathReplayCache<Node> cache;
  return cache.replay(
      id_, path, [this] { return Node{spec::initialState(config_), impl::ImplCluster(config_, mutants_), false}; },
      [this](Node& n, const Action& action) {
        KCSPEC_ASSERT(!n.refused);  // a state where the impl refused has no successors
        spec::StepObserver ignore;
        n.refused = !stepPair(n.spec, n.cluster, action, ignore);
      },
      [this](const Node& from, Node& to) {
        copyPair(from.spec, from.cluster, to.spec, to.cluster);
        to.refused = from.refused;
      });
}

// An encoding is the path, then the byte saying whether the views differed (encode()). The
// parent is replayed through the cache and the last step taken straight into `state`: the
// next state decoded is most often a sibling, which shares the parent and not the last step.
void BothSystem::decodeInto(std::string_view bytes, State& state) const {
  KCSPEC_ASSERT(!bytes.empty());
  const bool views_differ = (bytes.back() & 1) != 0;
  const bool failures_differ = (bytes.back() & 2) != 0;
  const std::string_view path = bytes.substr(0, bytes.size() - 1);
  std::size_t last_begin = 0;
  for (std::size_t position = 0; position < path.size();) {
    last_begin = position;
    (void)decodeAction(path, position);
  }
  const Node& parent = replay(path.substr(0, last_begin));
  copyPair(parent.spec, parent.cluster, state.spec, state.cluster);
  state.path.assign(path);
  state.impl_view.reset();
  state.failed_changes.reset();
  state.impl_refused = parent.refused;
  if (last_begin < path.size()) {
    KCSPEC_ASSERT(!parent.refused);
    std::size_t position = last_begin;
    const Action last = decodeAction(path, position);
    if (failures_differ) {  // read the last step's records again (rare: a dead end)
      spec::RecordingObserver observer;
      std::vector<impl::LogRecord> impl_errors;
      state.impl_refused = !stepPair(state.spec, state.cluster, last, observer, &impl_errors);
      state.failed_changes = failedChangesDisagreement(observer.record, impl_errors, parent.spec, state.spec);
      KCSPEC_ASSERT(state.failed_changes != nullptr);
    } else {
      spec::StepObserver ignore;
      state.impl_refused = !stepPair(state.spec, state.cluster, last, ignore);
    }
  }
  if (views_differ && !state.impl_refused) state.impl_view = disagreeingView(state.cluster, state.spec);
}

BothSystem::State BothSystem::decode(std::string_view bytes) const {
  State state{spec::initialState(config_), impl::ImplCluster(config_, mutants_), {}, nullptr, nullptr, false};
  decodeInto(bytes, state);
  return state;
}

PropertyMask BothSystem::violatedStateProperties(const State& state) const {
  PropertyMask violated = catalog_.violatedState(config_, state.spec);
  if (state.impl_view) violated |= catalog_.violatedState(config_, *state.impl_view);
  if (state.agree() && specEnabled(state) != state.cluster.enabledActions()) {
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
  if (state.failed_changes) out += *state.failed_changes;
  if (state.impl_view) {
    const std::vector<Change> diff = diffObservations(config_, state.spec.world, state.impl_view->world);
    if (!diff.empty()) out += "observation, spec -> impl:\n" + renderChangesText(diff);
    if (!(state.impl_view->budget == state.spec.budget)) out += "the remaining perturbation budgets differ\n";
  }
  if (state.agree()) {
    const std::vector<Action> in_spec = spec::enabledActions(config_, state.spec);
    const std::vector<Action> in_impl = state.cluster.enabledActions();
    if (std::string diff = agreement::enabledActionsDisagreement(config_, in_spec, in_impl); !diff.empty()) {
      out += "enabled actions differ:\n" + diff;
    }
  }
  return out;
}

}  // namespace kcspec::explorer
