#include "proofs/theorems/catalog.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <stdexcept>
#include <string>

#include "proofs/compile_time/theorems.hpp"
#include "spec/rules/invariants.hpp"
#include "spec/vocabulary/config_text.hpp"
#include "spec/vocabulary/presets.hpp"

namespace kcspec::proofs {

std::string_view methodName(Method method) {
  switch (method) {
    case Method::CompileTime: return "compile-time";
    case Method::Exhaustive: return "exhaustive";
    case Method::RandomHistories: return "random histories";
  }
  return "?";
}

std::string_view subjectName(Subject subject) {
  switch (subject) {
    case Subject::Spec: return "spec";
    case Subject::SpecAndImpl: return "spec and impl";
  }
  return "?";
}

const Scope* Catalog::scope(std::string_view name) const {
  const auto it = std::find_if(scopes.begin(), scopes.end(), [&](const Scope& s) { return s.name == name; });
  return it == scopes.end() ? nullptr : &*it;
}

const Theorem* Catalog::theorem(std::string_view id) const {
  const auto it = std::find_if(theorems.begin(), theorems.end(), [&](const Theorem& t) { return t.id == id; });
  return it == theorems.end() ? nullptr : &*it;
}

Config scopeConfig(const Scope& scope) {
  if (!scope.preset.empty()) {
    std::optional<Config> config = preset(scope.preset);
    if (!config) throw std::invalid_argument("scope " + scope.name + ": no preset named " + scope.preset);
    return *config;
  }
  if (scope.config_text.empty()) throw std::invalid_argument("scope " + scope.name + " has no configuration");
  return parseConfig(scope.config_text, "scope " + scope.name);
}

std::string scopeConfigText(const Scope& scope) { return printConfig(scopeConfig(scope)); }

namespace {

constexpr std::string_view kGoodStatement =
    "From every reachable state from which recovery actions alone can reach each liveness goal, they reach one "
    "state where every goal holds at once.";

constexpr std::string_view kAgreementStatement =
    "The reference controller (impl/) and the spec enable the same actions, and after every step their observations "
    "and remaining budgets are equal and every safety property that is not a known Kafka deviation holds on the "
    "impl's state.";

constexpr std::string_view kReductionStatement =
    "The reduced search (`kcspec explore --reduction full`: partial-order reduction, and symmetry reduction where the "
    "configuration has a symmetry) reports exactly the properties the full search reports violated (known Kafka "
    "deviations included), every liveness goal included: none missed, none added.";

void addScopeOnce(Catalog& catalog, Scope scope) {
  if (catalog.scope(scope.name) == nullptr) catalog.scopes.push_back(std::move(scope));
}

Theorem fromProperty(const spec::Property& p, std::string_view scope, Method method, Subject subject) {
  Theorem t;
  t.id = std::string(p.id) + "@" + std::string(scope);
  t.property = std::string(p.id);
  t.name = std::string(p.name);
  t.statement = std::string(p.statement);
  t.scope = std::string(scope);
  t.method = method;
  t.subject = subject;
  return t;
}

// ---- the scopes of the catalog. Each of these explores in seconds on 2 cores; with the `default`
// preset (about 40 s) and the random histories the whole catalog takes one to three minutes
// (docs/testing.md "kcspec prove").

// Two brokers, one partition on both: a crash and a controller failover in every interleaving.
constexpr std::string_view kCrashFailover = R"(name crash-failover
brokers 1 2
alive-at-start 1 2
topic t
  partition 0 replicas 1,2
  exists-at-start true
bound crashes 1
bound controller-failovers 1
)";

// Three brokers, a partition on two of them: a controlled shutdown and an ISR shrink.
constexpr std::string_view kControlledShutdown = R"(name controlled-shutdown
brokers 1 2 3
alive-at-start 1 2 3
topic t
  partition 0 replicas 1,2
  exists-at-start true
bound controlled-shutdowns 1
bound isr-shrinks 1
)";

// Two brokers: a crash, an ISR shrink, a preferred and an unclean election (or enabling the flag).
constexpr std::string_view kElections = R"(name elections
brokers 1 2
alive-at-start 1 2
topic t
  partition 0 replicas 1,2
  exists-at-start true
bound crashes 1
bound preferred-elections 1
bound unclean-elections 1
bound isr-shrinks 1
)";

// Two brokers: the admin creates a topic and adds a partition; a broker crashes.
constexpr std::string_view kCreateExpand = R"(name create-expand
brokers 1 2
alive-at-start 1 2
topic t
  partition 0 replicas 1,2
  add-partition replicas 2,1
bound crashes 1
bound topic-creations 1
bound partition-additions 1
)";

// Two brokers: a deletion, a StopReplica error and a crash (deviation L6).
constexpr std::string_view kDeletionErrors = R"(name deletion-errors
brokers 1 2
alive-at-start 1 2
topic t
  partition 0 replicas 1,2
  exists-at-start true
bound crashes 1
bound topic-deletions 1
bound stop-replica-errors 1
)";

// Two brokers: a deletion and a controller failover (deviation T3).
constexpr std::string_view kFailoverDelete = R"(name failover-delete
brokers 1 2
alive-at-start 1 2
topic t
  partition 0 replicas 1,2
  exists-at-start true
bound controller-failovers 1
bound topic-deletions 1
)";

// Three brokers: a reassignment and a deletion of the same topic (deviations S7 and S8).
constexpr std::string_view kReassignDelete = R"(name reassign-delete
brokers 1 2 3
alive-at-start 1 2 3
topic t
  partition 0 replicas 1,2
  reassign 0 to 2,3
  exists-at-start true
bound reassignments 1
bound topic-deletions 1
)";

// Three brokers: a crash, a controller failover and a deletion — a broker restarted while the
// old controller had lost its session keeps the deleted topic (deviation L7). Replication factor 1
// keeps it to 9.8 million states unreduced (53.9 million at 2).
constexpr std::string_view kZombieMetadata = R"(name zombie-metadata
brokers 1 2 3
alive-at-start 1 2 3
topic t
  partition 0 replicas 1
  exists-at-start true
bound crashes 1
bound controller-failovers 1
bound topic-deletions 1
)";

// Two brokers: a crash, a controlled shutdown and a controller failover — a controller re-elected
// with its replica state machine's batch left unflushed (deviation L8, KAFKA-12315).
constexpr std::string_view kStuckController = R"(name stuck-controller
brokers 1 2
alive-at-start 1 2
topic t
  partition 0 replicas 1,2
  exists-at-start true
bound crashes 1
bound controlled-shutdowns 1
bound controller-failovers 1
)";

// Two brokers: a log directory failing under the leader or the follower (the controller learns of
// it from the LeaderAndIsr answers), with a deletion, a crash (a restart heals the directory) or a
// controller failover (the next controller learns it again).
constexpr std::string_view kLogDirFailures = R"(name log-dir-failures
brokers 1 2
alive-at-start 1 2
topic t
  partition 0 replicas 1,2
  exists-at-start true
bound log-dir-failures 1
bound topic-deletions 1
bound crashes 1
bound controller-failovers 1
bound perturbations 2
)";

// Two brokers: the controller's ZooKeeper connection dropping right after a state-znode write was
// applied (kafka.md §6.3.8) — u-0's creation (NODEEXISTS), an election or ISR removal after a
// crash, a leader's AlterPartition (BADVERSION) — with a topic creation, a crash, an ISR shrink
// or a controller failover.
constexpr std::string_view kZkConnectionLosses = R"(name zk-connection-losses
brokers 1 2
alive-at-start 1 2
topic t
  partition 0 replicas 1,2
  exists-at-start true
topic u
  partition 0 replicas 2
bound zk-connection-losses 1
bound topic-creations 1
bound crashes 1
bound isr-shrinks 1
bound controller-failovers 1
bound perturbations 2
)";

// Two brokers: a running broker's ZooKeeper session expiring (its registration goes while it runs
// on, and /controller with the controller's broker), with a crash, an ISR shrink or a controller
// failover.
constexpr std::string_view kBrokerSessionLosses = R"(name broker-session-losses
brokers 1 2
alive-at-start 1 2
topic t
  partition 0 replicas 1,2
  exists-at-start true
bound broker-session-losses 1
bound crashes 1
bound isr-shrinks 1
bound controller-failovers 1
bound perturbations 2
)";

// L11's scope: broker 1, the partition's only replica, may crash before the first controller is
// elected and the partition be reassigned to broker 2 before it has a state znode.
constexpr std::string_view kReassignedBeforeCreation = R"(name reassigned-before-creation
brokers 1 2
alive-at-start 1 2
topic t
  partition 0 replicas 1
  reassign 0 to 2
  exists-at-start true
bound crashes 1
bound reassignments 1
)";

Catalog buildCatalog() {
  Catalog catalog;
  addCompileTimeTheorems(catalog);

  const auto embedded = [&](std::string_view name, std::string_view summary, std::string_view text) {
    catalog.scopes.push_back(Scope{std::string(name), std::string(summary), "", std::string(text)});
  };
  embedded("crash-failover", "2 brokers, 1 partition at RF 2; a crash and a controller failover", kCrashFailover);
  embedded("controlled-shutdown", "3 brokers, 1 partition at RF 2; a controlled shutdown and an ISR shrink",
           kControlledShutdown);
  embedded("elections", "2 brokers, 1 partition at RF 2; a crash, an ISR shrink, a preferred and an unclean election",
           kElections);
  embedded("create-expand", "2 brokers; a topic created by the admin, a partition added, a crash", kCreateExpand);
  embedded("deletion-errors", "2 brokers, 1 partition at RF 2; a deletion, a StopReplica error and a crash",
           kDeletionErrors);
  embedded("failover-delete", "2 brokers, 1 partition at RF 2; a deletion and a controller failover", kFailoverDelete);
  embedded("reassign-delete", "3 brokers, 1 partition at RF 2; a reassignment to 2,3 and a deletion", kReassignDelete);
  embedded("zombie-metadata", "3 brokers, 1 partition at RF 1; a crash, a controller failover and a deletion",
           kZombieMetadata);
  embedded("stuck-controller",
           "2 brokers, 1 partition at RF 2; a crash, a controlled shutdown and a controller failover", kStuckController);
  embedded("log-dir-failures",
           "2 brokers, 1 partition at RF 2; a log directory failure, a deletion, a crash and a controller failover",
           kLogDirFailures);
  embedded("zk-connection-losses",
           "2 brokers, 2 partitions; a ZooKeeper connection loss, a topic creation, a crash, an ISR shrink and a "
           "controller failover",
           kZkConnectionLosses);
  embedded("broker-session-losses",
           "2 brokers, 1 partition at RF 2; a broker's session expiry, a crash, an ISR shrink and a controller failover",
           kBrokerSessionLosses);
  embedded("reassigned-before-creation",
           "2 brokers, 1 partition at RF 1 reassignable to the other broker; a crash and a reassignment",
           kReassignedBeforeCreation);

  constexpr std::array<std::string_view, 0> none{};
  constexpr std::array<std::string_view, 1> l6{"L6"};
  constexpr std::array<std::string_view, 1> t3{"T3"};
  constexpr std::array<std::string_view, 2> s7_s8{"S7", "S8"};
  addExhaustiveTheorems(catalog, "crash-failover", none);
  addExhaustiveTheorems(catalog, "controlled-shutdown", none);
  addExhaustiveTheorems(catalog, "elections", none);
  addExhaustiveTheorems(catalog, "create-expand", none);
  addExhaustiveTheorems(catalog, "deletion-errors", l6);
  addExhaustiveTheorems(catalog, "failover-delete", t3);
  addExhaustiveTheorems(catalog, "reassign-delete", s7_s8);
  constexpr std::array<std::string_view, 2> t3_l7{"T3", "L7"};
  addExhaustiveTheorems(catalog, "zombie-metadata", t3_l7);
  constexpr std::array<std::string_view, 1> l8{"L8"};
  addExhaustiveTheorems(catalog, "stuck-controller", l8);
  addExhaustiveTheorems(catalog, "log-dir-failures", t3);
  constexpr std::array<std::string_view, 2> l9_l10{"L9", "L10"};
  addExhaustiveTheorems(catalog, "zk-connection-losses", l9_l10);
  addExhaustiveTheorems(catalog, "broker-session-losses", none);
  constexpr std::array<std::string_view, 2> t3_l11{"T3", "L11"};
  addExhaustiveTheorems(catalog, "reassigned-before-creation", t3_l11);

  // The README's main job until session 25, `default` with two perturbations per history: every
  // perturbation kind is enabled, so it reaches all four known deviations the smaller scopes show
  // one by one, and it is small enough to explore unreduced too (the POR theorem's comparison).
  constexpr std::array<std::string_view, 4> every_deviation{"S7", "S8", "T3", "L6"};
  catalog.scopes.push_back(Scope{"two-perturbations",
                                 "the preset `two-perturbations` (spec/vocabulary/presets.cpp), the README's main job "
                                 "until session 25: every perturbation kind, at most two per history",
                                 "two-perturbations", ""});
  addExhaustiveTheorems(catalog, "two-perturbations", every_deviation);

  // The README's main job: `default`, every perturbation kind with three per history. Unreduced it
  // is far too large to explore here, so its theorems rest on the reduced search (whose theorem,
  // POR, the scopes above check); it reaches every known deviation the smaller scopes show, L7 and
  // L8 included.
  constexpr std::array<std::string_view, 6> default_deviations{"S7", "S8", "T3", "L6", "L7", "L8"};
  catalog.scopes.push_back(Scope{"default",
                                 "the preset `default` (spec/vocabulary/presets.cpp), the README's main job: every "
                                 "perturbation kind, at most three per history",
                                 "default", "", /*reduced_only=*/true});
  addExhaustiveTheorems(catalog, "default", default_deviations);

  // Four perturbations: a reassignment cancelled while the leader is in controlled shutdown, then
  // a failover — the smallest scope of the S2 deviation (docs/spec/rules.md "Findings").
  catalog.scopes.push_back(Scope{"cancel-during-shutdown",
                                 "the preset `cancel-during-shutdown`: 2 brokers, 1 partition at RF 1; a reassignment "
                                 "to the other broker and its cancellation, a controlled shutdown and a controller "
                                 "failover",
                                 "cancel-during-shutdown", ""});
  constexpr std::array<std::string_view, 2> s2_t3{"S2", "T3"};
  addExhaustiveTheorems(catalog, "cancel-during-shutdown", s2_t3);

  // The preset with a symmetry (brokers 2 and 3 host nothing): its POR theorem is where the
  // reduced search merges states up to the exchange of those brokers, as well as reducing orders.
  catalog.scopes.push_back(Scope{"spare-brokers",
                                 "the preset `spare-brokers`: 3 brokers, every topic on broker 1 (brokers 2 and 3 "
                                 "interchangeable); every perturbation kind a single-replica layout allows, at most "
                                 "two per history",
                                 "spare-brokers", ""});
  constexpr std::array<std::string_view, 2> t3_l6{"T3", "L6"};
  addExhaustiveTheorems(catalog, "spare-brokers", t3_l6);

  // Spec and impl in lockstep over every state of the scopes where that takes seconds (the
  // explorer's BothSystem replays each state's path through the impl: about 1,000 states/s).
  for (std::string_view scope : {"crash-failover", "controlled-shutdown", "create-expand", "deletion-errors"}) {
    addExhaustiveAgreementTheorem(catalog, scope);
  }

  // Random histories reach the larger configurations, which no exhaustive run here covers: the
  // random-history presets and the differential checks' own (kCheckPresetNames but `default`).
  // Their histories hold 9 to 23 perturbations. 20,000 histories per scope (about 20 s each) find
  // the S2 deviation on `reassignment` and `rebalance` (3 and 2 histories of them with seed 1),
  // which 1,000 did not and no exhaustive scope of two perturbations reaches.
  for (std::string_view name : kCheckPresetNames) {
    if (name == "default") continue;
    catalog.scopes.push_back(Scope{std::string(name), "the preset `" + std::string(name) + "` (spec/vocabulary/presets.cpp)",
                                   std::string(name), ""});
  }
  const RandomBudget spec_budget{20000, 100, 1};
  const RandomBudget agreement_budget{200, 100, 1};
  constexpr std::array<std::string_view, 1> s2{"S2"};
  for (std::string_view scope : kCheckPresetNames) {
    if (scope == "default") continue;
    const bool shows_s2 = scope == "reassignment" || scope == "rebalance";
    addRandomSafetyTheorems(catalog, scope, spec_budget,
                            shows_s2 ? std::span<const std::string_view>(s2) : std::span<const std::string_view>());
  }
  for (std::string_view scope : kRandomHistoryPresetNames) {
    addAgreementTheorem(catalog, scope, agreement_budget);
  }
  return catalog;
}

// FNV-1a, 64 bits.
struct Hasher {
  std::uint64_t value = 14695981039346656037ull;
  void add(std::string_view text) {
    for (char c : text) {
      value ^= static_cast<unsigned char>(c);
      value *= 1099511628211ull;
    }
    value ^= 0xff;  // a separator no text contains
    value *= 1099511628211ull;
  }
};

}  // namespace

void addCompileTimeTheorems(Catalog& catalog) {
  addScopeOnce(catalog, Scope{"partition-lifecycle", "the partition MSM of model/ (4 states, 8 Rows)", "", ""});
  addScopeOnce(catalog, Scope{"replica-lifecycle", "the replica MSM of model/ (7 states, 14 Rows)", "", ""});
  for (const CompileTimeTheorem& c : compileTimeTheorems()) {
    Theorem t;
    t.id = std::string(c.id);
    t.property = std::string(c.id);
    t.statement = std::string(c.statement);
    t.scope = c.id.starts_with("MSM-P") ? "partition-lifecycle" : "replica-lifecycle";
    t.method = Method::CompileTime;
    catalog.theorems.push_back(std::move(t));
  }
}

namespace {

// An exhaustive theorem on the spec about the explorer itself (GOOD, POR), not a catalog property.
Theorem explorerTheorem(std::string_view property, std::string_view name, std::string_view statement,
                        std::string_view scope) {
  Theorem t;
  t.id = std::string(property) + "@" + std::string(scope);
  t.property = std::string(property);
  t.name = std::string(name);
  t.statement = std::string(statement);
  t.scope = std::string(scope);
  t.method = Method::Exhaustive;
  return t;
}

}  // namespace

void addExhaustiveTheorems(Catalog& catalog, std::string_view scope, std::span<const std::string_view> deviations_shown) {
  const Scope* in = catalog.scope(scope);
  const bool reduced_only = in != nullptr && in->reduced_only;
  for (const spec::Property& p : spec::invariantCatalog()) {
    if (spec::isKnownKafkaDeviation(p.id)) continue;
    catalog.theorems.push_back(fromProperty(p, scope, Method::Exhaustive, Subject::Spec));
  }
  catalog.theorems.push_back(explorerTheorem(kGoodProperty, "RecoveryReachesGoodState", kGoodStatement, scope));
  if (!reduced_only) {  // the reduced search against the full one
    catalog.theorems.push_back(
        explorerTheorem(kReductionProperty, "ReducedSearchFindsTheSameViolations", kReductionStatement, scope));
  }
  for (std::string_view id : deviations_shown) {
    const spec::Property* p = spec::catalogProperty(id);
    if (p == nullptr) throw std::invalid_argument("no catalog property " + std::string(id));
    Theorem t = fromProperty(*p, scope, Method::Exhaustive, Subject::Spec);
    t.expectation = Expectation::KafkaDeviation;
    catalog.theorems.push_back(std::move(t));
  }
}

void addRandomSafetyTheorems(Catalog& catalog, std::string_view scope, RandomBudget budget,
                             std::span<const std::string_view> deviations_shown) {
  for (const spec::Property& p : spec::invariantCatalog()) {
    if (p.kind == spec::PropertyKind::Liveness || spec::isKnownKafkaDeviation(p.id)) continue;
    Theorem t = fromProperty(p, scope, Method::RandomHistories, Subject::Spec);
    t.random = budget;
    catalog.theorems.push_back(std::move(t));
  }
  for (std::string_view id : deviations_shown) {
    const spec::Property* p = spec::catalogProperty(id);
    if (p == nullptr || p->kind == spec::PropertyKind::Liveness) {
      throw std::invalid_argument("no catalog safety property " + std::string(id));
    }
    Theorem t = fromProperty(*p, scope, Method::RandomHistories, Subject::Spec);
    t.random = budget;
    t.expectation = Expectation::KafkaDeviation;
    catalog.theorems.push_back(std::move(t));
  }
}

void addAgreementTheorem(Catalog& catalog, std::string_view scope, RandomBudget budget, std::string_view impl_mutants) {
  Theorem t;
  t.id = std::string(kAgreementProperty) + "@" + std::string(scope);
  if (!impl_mutants.empty()) t.id += "+" + std::string(impl_mutants);
  t.property = std::string(kAgreementProperty);
  t.name = "SpecAndImplAgree";
  t.statement = std::string(kAgreementStatement);
  t.scope = std::string(scope);
  t.method = Method::RandomHistories;
  t.subject = Subject::SpecAndImpl;
  t.random = budget;
  t.impl_mutants = std::string(impl_mutants);
  catalog.theorems.push_back(std::move(t));
}

void addExhaustiveAgreementTheorem(Catalog& catalog, std::string_view scope, std::string_view impl_mutants) {
  addAgreementTheorem(catalog, scope, RandomBudget{}, impl_mutants);
  catalog.theorems.back().method = Method::Exhaustive;
}

const Catalog& theoremCatalog() {
  static const Catalog catalog = buildCatalog();
  return catalog;
}

std::uint64_t catalogFingerprint(const Catalog& catalog) {
  Hasher h;
  for (const Scope& scope : catalog.scopes) {
    h.add(scope.name);
    // The configuration as written (a preset's text), so that only a change of the configuration
    // itself, not of how configurations print, changes the fingerprint.
    h.add(scope.preset);
    h.add(scope.preset.empty() ? std::string_view(scope.config_text) : presetText(scope.preset).value_or("?"));
  }
  for (const Theorem& t : catalog.theorems) {
    for (std::string_view field : {std::string_view(t.id), std::string_view(t.property), std::string_view(t.statement),
                                   std::string_view(t.scope), methodName(t.method), subjectName(t.subject),
                                   std::string_view(t.impl_mutants)}) {
      h.add(field);
    }
    h.add(t.expectation == Expectation::Holds ? "holds" : "deviation");
    h.add(std::to_string(t.random.histories) + "/" + std::to_string(t.random.max_steps) + "/" +
          std::to_string(t.random.seed));
  }
  return h.value;
}

}  // namespace kcspec::proofs
