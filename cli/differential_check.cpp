#include "cli/differential_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <random>
#include <tuple>

#include "proofs/explorer/impl_system.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/config_text.hpp"
#include "spec/vocabulary/observation_text.hpp"
#include "spec/vocabulary/presets.hpp"
#include "spec/vocabulary/valid_previous_states.hpp"

namespace kcspec::cli {
namespace {

bool isr1(const LeaderAndIsr& lai, BrokerId b) { return lai.isr.size() == 1 && lai.isr.contains(b); }

const ControllerData* activeModule(const Observation& world) {
  for (const BrokerData& b : world.brokers) {
    if (b.alive && b.controller.active && !b.controller.session_lost) return &b.controller;
  }
  return nullptr;
}

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
  const ControllerData* active = activeModule(world);
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
    case ActionKind::ElectPreferredLeader: {
      // Likely to succeed: the preferred replica is in the ISR but does not lead.
      const TopicZnodes& topic = world.zk.topics[static_cast<std::size_t>(a.tp.topic)];
      const auto& s = topic.states[static_cast<std::size_t>(a.tp.partition)];
      if (s && a.tp.partition < static_cast<int>(topic.partitions.size())) {
        const BrokerList& replicas = topic.partitions[static_cast<std::size_t>(a.tp.partition)].replicas;
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

spec::ClusterState implState(const impl::ImplCluster& impl) { return spec::ClusterState{impl.observe(), impl.remaining()}; }

namespace {

std::string propertyLabel(std::string_view id) {
  for (const spec::Property& p : spec::invariantCatalog()) {
    if (p.id == id) return fmt::format("invariant {} {}", p.id, p.name);
  }
  return fmt::format("invariant {}", id);
}

}  // namespace

Verdict checkStep(const Config& config, const spec::ClusterState* before_impl, const spec::ClusterState& after,
                  const spec::StepRecord& spec_record, const spec::StepRecord& impl_record,
                  const impl::ImplCluster& impl) {
  const spec::ClusterState mine = implState(impl);
  // A violated invariant names the bug better than the diff it causes: check the impl's state first.
  for (std::string_view id : spec::violatedStateProperties(config, mine)) {
    if (spec::isKnownKafkaDeviation(id)) continue;  // checking them would report Kafka, not the impl
    return Verdict{false, propertyLabel(id), renderObservationText(config, mine.world)};
  }
  if (before_impl != nullptr) {
    for (std::string_view id : spec::violatedStepProperties(config, *before_impl, mine, impl_record)) {
      if (spec::isKnownKafkaDeviation(id)) continue;
      return Verdict{false, propertyLabel(id), renderObservationText(config, mine.world)};
    }
  }
  if (!(mine.world == after.world)) {
    const std::vector<Change> diff = diffObservations(config, after.world, mine.world);
    return Verdict{false, "observation " + (diff.empty() ? std::string("?") : diff.front().path),
                   "spec -> impl:\n" + renderChangesText(diff)};
  }
  if (!(mine.budget == after.budget)) return Verdict{false, "remaining budget", ""};
  if (std::string diff = explorer::stateChangeDisagreement(config, spec_record.state_changes, impl_record.state_changes);
      !diff.empty()) {
    return Verdict{false, "state changes", std::move(diff)};
  }
  const std::vector<Action> spec_enabled = spec::enabledActions(config, after);
  const std::vector<Action> impl_enabled = impl.enabledActions();
  if (spec_enabled != impl_enabled) {
    std::string detail;
    for (const Action& a : spec_enabled) {
      if (std::find(impl_enabled.begin(), impl_enabled.end(), a) == impl_enabled.end()) {
        detail += "  only spec: " + printAction(config, a) + "\n";
      }
    }
    for (const Action& a : impl_enabled) {
      if (std::find(spec_enabled.begin(), spec_enabled.end(), a) == spec_enabled.end()) {
        detail += "  only impl: " + printAction(config, a) + "\n";
      }
    }
    return Verdict{false, "enabled actions", detail};
  }
  return Verdict{};
}

void Coverage::merge(const Coverage& other) {
  for (std::size_t i = 0; i < actions.size(); ++i) actions[i] += other.actions[i];
  for (std::size_t i = 0; i < partition_transitions.size(); ++i) partition_transitions[i] += other.partition_transitions[i];
  for (std::size_t i = 0; i < replica_transitions.size(); ++i) replica_transitions[i] += other.replica_transitions[i];
  for (std::size_t k = 0; k < elections.size(); ++k) {
    for (std::size_t u = 0; u < 2; ++u) {
      for (std::size_t e = 0; e < 2; ++e) elections[k][u][e] += other.elections[k][u][e];
    }
  }
  histories += other.histories;
  steps += other.steps;
}

std::vector<std::string> Coverage::unreachedTransitions() const {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < kPartitionValidPrevious.size(); ++i) {
    if (partition_transitions[i] == 0) {
      out.push_back(fmt::format("partition {} -> {}", stateName(kPartitionValidPrevious[i].from),
                                stateName(kPartitionValidPrevious[i].to)));
    }
  }
  for (std::size_t i = 0; i < kReplicaValidPrevious.size(); ++i) {
    if (replica_transitions[i] == 0) {
      out.push_back(fmt::format("replica {} -> {}", stateName(kReplicaValidPrevious[i].from),
                                stateName(kReplicaValidPrevious[i].to)));
    }
  }
  return out;
}

std::string Coverage::report() const {
  std::string out = fmt::format("coverage: {} histories, {} steps\n", histories, steps);
  out += "actions:\n";
  for (std::size_t i = 0; i < actions.size(); ++i) out += fmt::format("  {:<32} {:>9}\n", kActionNames[i], actions[i]);
  out += "partition transitions (valid):\n";
  for (std::size_t i = 0; i < kPartitionValidPrevious.size(); ++i) {
    out += fmt::format("  {:<52} {:>9}\n",
                       fmt::format("{} -> {}", stateName(kPartitionValidPrevious[i].from), stateName(kPartitionValidPrevious[i].to)),
                       partition_transitions[i]);
  }
  out += "replica transitions (valid):\n";
  for (std::size_t i = 0; i < kReplicaValidPrevious.size(); ++i) {
    out += fmt::format("  {:<52} {:>9}\n",
                       fmt::format("{} -> {}", stateName(kReplicaValidPrevious[i].from), stateName(kReplicaValidPrevious[i].to)),
                       replica_transitions[i]);
  }
  out += "elections (elected / failed):\n";
  constexpr std::array<std::string_view, 4> kinds = {"OfflinePartition", "ReassignPartition", "PreferredReplicaPartition",
                                                     "ControlledShutdownPartition"};
  for (std::size_t k = 0; k < elections.size(); ++k) {
    for (std::size_t u = 0; u < 2; ++u) {
      if (k != 0 && u == 1) continue;  // allowUnclean only matters for the Offline strategy
      const std::string name = k == 0 ? fmt::format("{}(allowUnclean={})", kinds[k], u == 1) : std::string(kinds[k]);
      out += fmt::format("  {:<52} {:>9} / {}\n", name, elections[k][u][1], elections[k][u][0]);
    }
  }
  const std::vector<std::string> missing = unreachedTransitions();
  out += missing.empty() ? "every valid transition of both tables was taken\n" : "valid transitions never taken:\n";
  for (const std::string& m : missing) out += "  " + m + "\n";
  return out;
}

void CoverageObserver::stateChange(const spec::StateChangeRecord& change) {
  RecordingObserver::stateChange(change);
  if (coverage_ == nullptr || !change.applied()) return;
  if (change.is_replica) {
    for (std::size_t i = 0; i < kReplicaValidPrevious.size(); ++i) {
      if (static_cast<std::uint8_t>(kReplicaValidPrevious[i].from) == change.from &&
          static_cast<std::uint8_t>(kReplicaValidPrevious[i].to) == change.to) {
        ++coverage_->replica_transitions[i];
      }
    }
  } else {
    for (std::size_t i = 0; i < kPartitionValidPrevious.size(); ++i) {
      if (static_cast<std::uint8_t>(kPartitionValidPrevious[i].from) == change.from &&
          static_cast<std::uint8_t>(kPartitionValidPrevious[i].to) == change.to) {
        ++coverage_->partition_transitions[i];
      }
    }
  }
}

void CoverageObserver::electionOutcome(TopicPartition, const spec::ElectionStrategy& strategy, bool elected) {
  if (coverage_ == nullptr) return;
  const std::size_t kind = static_cast<std::size_t>(strategy.kind);
  const std::size_t unclean = strategy.kind == spec::ElectionStrategyKind::OfflinePartition && strategy.allow_unclean ? 1 : 0;
  ++coverage_->elections[kind][unclean][elected ? 1 : 0];
}

StepOutcome stepBoth(const Config& config, const spec::ClusterState& before, impl::ImplCluster& impl,
                     const Action& action, Coverage* coverage) {
  // The impl's state before the step equals `before`: the previous step's check compared them.
  CoverageObserver observer(coverage);
  StepOutcome out{spec::next(config, before, action, observer), Verdict{}};
  thread_local std::vector<impl::LogRecord> log;
  log.clear();
  explorer::applyLogged(impl, action, log);
  if (coverage != nullptr) {
    ++coverage->actions[static_cast<std::size_t>(action.kind)];
    ++coverage->steps;
  }
  const spec::StepRecord impl_record = explorer::implStepRecord(config, log, before, implState(impl));
  out.verdict = checkStep(config, &before, out.after, observer.record, impl_record, impl);
  return out;
}


std::optional<Counterexample> replayBoth(const Config& config, impl::Mutants mutants, const std::vector<Action>& steps) {
  spec::ClusterState state = spec::initialState(config);
  impl::ImplCluster impl(config, mutants);
  Verdict initial = checkStep(config, nullptr, state, spec::StepRecord{}, spec::StepRecord{}, impl);
  if (!initial.ok) return Counterexample{{}, initial};
  for (std::size_t i = 0; i < steps.size(); ++i) {
    if (!spec::isEnabled(config, state, steps[i])) return std::nullopt;
    if (!impl.isEnabled(steps[i])) return Counterexample{{steps.begin(), steps.begin() + static_cast<std::ptrdiff_t>(i) + 1},
                                                         Verdict{false, "enabled actions", "not enabled in impl"}};
    StepOutcome step = stepBoth(config, state, impl, steps[i], nullptr);
    if (!step.verdict.ok) {
      return Counterexample{{steps.begin(), steps.begin() + static_cast<std::ptrdiff_t>(i) + 1}, step.verdict};
    }
    state = std::move(step.after);
  }
  return std::nullopt;
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
    StepOutcome step = stepBoth(config, state, impl, action, coverage);
    if (!step.verdict.ok) return Counterexample{steps, step.verdict};
    state = std::move(step.after);
  }
  return std::nullopt;
}

Counterexample shrink(const Config& config, impl::Mutants mutants, Counterexample failure) {
  bool progress = true;
  while (progress) {
    progress = false;
    for (std::size_t chunk = std::max<std::size_t>(failure.steps.size() / 2, 1); chunk >= 1; chunk /= 2) {
      for (std::size_t i = 0; i + chunk <= failure.steps.size();) {
        std::vector<Action> candidate = failure.steps;
        candidate.erase(candidate.begin() + static_cast<std::ptrdiff_t>(i),
                        candidate.begin() + static_cast<std::ptrdiff_t>(i + chunk));
        if (std::optional<Counterexample> smaller = replayBoth(config, mutants, candidate)) {
          failure = std::move(*smaller);
          progress = true;
        } else {
          ++i;
        }
      }
      if (chunk == 1) break;
    }
  }
  return failure;
}

}  // namespace kcspec::cli
