#include "proofs/agreement/random_histories.hpp"

#include <optional>
#include <random>

#include "proofs/agreement/shrink.hpp"
#include "spec/rules/step.hpp"
#include "spec/vocabulary/assert.hpp"
#include "spec/vocabulary/presets.hpp"

namespace kcspec::agreement {
namespace {

bool isr1(const LeaderAndIsr& lai, BrokerId b) { return lai.isr.size() == 1 && lai.isr.contains(b); }

}  // namespace

const std::vector<CheckConfig>& checkConfigs() {
  static const std::vector<CheckConfig> configs = [] {
    std::vector<CheckConfig> out;
    // This order seeds `kcspec mutants`' histories, so it stays fixed.
    for (std::string_view name : kCheckPresetNames) out.push_back({name, *preset(name)});
    return out;
  }();
  return configs;
}

const Config& checkConfig(std::string_view name) {
  for (const CheckConfig& c : checkConfigs()) {
    if (c.name == name) return c.config;
  }
  KCSPEC_ASSERT(false);
  return checkConfigs().front().config;
}

int actionWeight(const Config& config, const spec::ClusterState& state, const Action& a) {
  (void)config;
  const Observation& world = state.world;
  const ControllerData* active = activeControllerModule(world);
  const bool deleting = active && !active->context.topics_to_be_deleted.empty();
  const bool reassigning = active && !active->context.partitions_being_reassigned.empty();
  bool broker_down = false;
  for (BrokerId b = 0; b < kMaxBrokers; ++b) {
    if (config.brokers.contains(b) && !world.brokers[static_cast<std::size_t>(b)].alive) broker_down = true;
  }
  switch (a.kind) {
    case ActionKind::ProcessEvent: return 12;
    case ActionKind::DeliverRequest: return 6;
    case ActionKind::DeliverStopReplicaResponse: return a.error ? 6 : 10;
    case ActionKind::DeliverLeaderAndIsrResponse: return 10;
    case ActionKind::FailLogDir: return deleting || reassigning ? 6 : 3;
    case ActionKind::LoseZkConnection: return 3;
    case ActionKind::ExpireZkSession: return 3;
    case ActionKind::LoseBrokerSession: return deleting || reassigning ? 6 : 2;
    case ActionKind::PropagateIsrChanges: return 8;
    case ActionKind::UpgradeIbp: return 8;
    case ActionKind::LoseZkConnectionOnFeature: return 2;  // a stopped broker: start it again on the new version soon
    case ActionKind::ElectController: return 10;
    case ActionKind::AutoRebalanceTimer: return 4;
    case ActionKind::NoticeSessionExpiry: return 4;
    case ActionKind::DeleteTopic: return broker_down || reassigning ? 8 : 3;
    case ActionKind::CrashBroker: return deleting || reassigning ? 6 : 3;
    case ActionKind::StartBroker: {
      // A quick bounce: the controller still counts the broker as live (BrokerChange not processed).
      if (active && active->context.live_broker_epochs[static_cast<std::size_t>(a.broker)] != -1) return 30;
      return 3;
    }
    case ActionKind::LoseControllerSession: return deleting || reassigning ? 8 : 2;
    case ActionKind::ControlledShutdown: {
      for (const TopicZnodes& topic : world.zk.topics) {
        for (const auto& s : topic.states) {
          if (s && isr1(s->leader_and_isr, a.broker)) return 10;  // the last ISR member
        }
      }
      return 3;
    }
    case ActionKind::ElectUncleanLeader: {
      const auto& s = world.zk.topics[static_cast<std::size_t>(a.tp.topic)].states[static_cast<std::size_t>(a.tp.partition)];
      return s && s->leader_and_isr.leader == kNoLeader ? 10 : 2;
    }
    case ActionKind::EnableTopicUnclean: return 3;
    case ActionKind::ShrinkIsr:
    case ActionKind::ExpandIsr: return 4;
    case ActionKind::ReassignPartition:
    case ActionKind::CancelReassignment: return deleting ? 6 : 3;
    // The legacy admin paths: a dead target (which the API refuses) or a reassignment already
    // under way (which the znode supplants) are the interesting cases.
    case ActionKind::ZkReassign: return broker_down || reassigning ? 6 : 3;
    case ActionKind::ZkReassignInvalid: return 2;
    case ActionKind::ZkElectPreferred: return 3;
    case ActionKind::ElectPreferredLeader: {
      // Likely to succeed: the preferred replica is in the ISR but does not lead.
      const TopicZnodes& topic = world.zk.topics[static_cast<std::size_t>(a.tp.topic)];
      const auto& s = topic.states[static_cast<std::size_t>(a.tp.partition)];
      if (s && topic.lists(a.tp.partition)) {
        const BrokerList& replicas = topic.partitions[static_cast<std::size_t>(a.tp.partition)]->replicas;
        if (!replicas.empty() && s->leader_and_isr.leader != replicas.front() && s->leader_and_isr.isr.contains(replicas.front())) {
          return 12;
        }
      }
      return 2;
    }
    case ActionKind::CreateTopic:
    case ActionKind::AddPartitions: return 3;
  }
  return 1;
}

const Action& chooseAction(const Config& config, const spec::ClusterState& state, const std::vector<Action>& enabled,
                           std::uint64_t random) {
  KCSPEC_ASSERT(!enabled.empty());
  std::vector<int> weights;
  weights.reserve(enabled.size());
  std::uint64_t total = 0;
  for (const Action& a : enabled) {
    weights.push_back(actionWeight(config, state, a));
    total += static_cast<std::uint64_t>(weights.back());
  }
  std::uint64_t pick = random % total;
  for (std::size_t i = 0; i < enabled.size(); ++i) {
    if (pick < static_cast<std::uint64_t>(weights[i])) return enabled[i];
    pick -= static_cast<std::uint64_t>(weights[i]);
  }
  return enabled.back();
}

std::optional<Counterexample> randomHistory(const Config& config, impl::Mutants mutants, std::uint64_t seed,
                                            int max_steps, Coverage* coverage) {
  std::mt19937_64 random(seed);
  spec::ClusterState state = spec::initialState(config);
  impl::ImplCluster impl(config, mutants);
  if (coverage != nullptr) ++coverage->histories;
  Verdict initial = checkStep(config, nullptr, state, spec::StepRecord{}, spec::StepRecord{}, impl);
  if (!initial.ok) return Counterexample{{}, initial};
  std::vector<Action> steps;
  for (int i = 0; i < max_steps; ++i) {
    const std::vector<Action> enabled = spec::enabledActions(config, state);
    if (enabled.empty()) break;
    const Action action = chooseAction(config, state, enabled, random());
    steps.push_back(action);
    std::optional<StepOutcome> stepped = stepBothWithinModel(config, state, impl, action, coverage);
    if (!stepped) {  // the history goes beyond the model: it ends here
      if (coverage != nullptr) ++coverage->histories_at_capacity;
      break;
    }
    StepOutcome& step = *stepped;
    if (!step.verdict.ok) return Counterexample{steps, step.verdict};
    state = std::move(step.after);
  }
  return std::nullopt;
}

Counterexample shrink(const Config& config, impl::Mutants mutants, Counterexample failure) {
  // A candidate that fails is replaced by its failing prefix; the last one accepted is the result.
  Counterexample best = std::move(failure);
  const auto still_fails = [&](const std::vector<Action>& candidate) {
    std::optional<Counterexample> smaller = replayBoth(config, mutants, candidate);
    if (smaller) best = std::move(*smaller);
    return smaller.has_value();
  };
  shrinkHistory(best.steps, still_fails, kMaxShrinkReplays);
  return best;
}

}  // namespace kcspec::agreement
