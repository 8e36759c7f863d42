// What one step of the reference controller did, read the way Kafka reports it: from the
// state-change.log it wrote (applied changes, and failed ones with the exception that says why)
// and from the state znodes it wrote. The spec reports the same through its StepObserver
// (spec/rules/cluster_state.hpp), so the two records of a step can be compared.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "impl/cluster.hpp"
#include "impl/state_change_logger.hpp"
#include "spec/rules/cluster_state.hpp"
#include "spec/rules/invariants.hpp"
#include "spec/vocabulary/action.hpp"
#include "spec/vocabulary/config.hpp"

namespace kcspec::agreement {

// What the step from `before` to `after` did, read from the state-change.log records the impl
// wrote during it (`records`: the messages with their `[Controller id=… epoch=…] ` prefix and
// the attached exceptions) and from the partition-state znodes it wrote. A "failed to change
// state …" record's exception says why it failed (failureOutcome).
spec::StepRecord implStepRecord(const Config& config, std::span<const impl::LogRecord> records,
                                const spec::ClusterState& before, const spec::ClusterState& after);

// Why Kafka logged a state change as failed, from the exception attached to the line:
// IllegalStateException is an invalid transition; StateChangeFailedException's message names the
// rest ("Failed to elect leader … under strategy S" also gives the strategy); a ZooKeeper
// exception is a ZooKeeper error. nullopt for an exception kcspec's controller does not raise.
std::optional<std::pair<spec::ChangeOutcome, spec::ElectionStrategy>> failureOutcome(const impl::Failure& failure);

// Applies `action` to `cluster` and collects the state-change.log records it writes at
// `threshold` and above (ERROR: only the failed state changes, which costs little).
void applyLogged(impl::ImplCluster& cluster, const Action& action, std::vector<impl::LogRecord>& records,
                 impl::LogLevel threshold = impl::LogLevel::TRACE);

// Calls the component action `call` on `cluster` (ImplCluster::callComponent) with the same log
// collection; `thrown` receives the exception that escaped.
void callLogged(impl::ImplCluster& cluster, const ComponentCall& call, ComponentResult& result,
                std::vector<impl::LogRecord>& records, impl::LogLevel threshold = impl::LogLevel::TRACE);

// The state changes of two versions' records of one step that differ, as text ("" when they
// agree): compared as multisets, since Kafka's order within one call is a hash set's (kafka.md
// Appendix D.12). Each is named with its outcome, a failed election with its strategy.
std::string stateChangeDisagreement(const Config& config, std::span<const spec::StateChangeRecord> spec_changes,
                                    std::span<const spec::StateChangeRecord> impl_changes);

// "controller 1: t-0 OnlinePartition -> OnlinePartition: no leader elected (ReassignPartitionLeaderElectionStrategy)"
std::string stateChangeText(const Config& config, const spec::StateChangeRecord& change);

}  // namespace kcspec::agreement
