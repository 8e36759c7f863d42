// The theorem catalog that `kcspec prove` runs (issue 6 item 6): each theorem is a property, a
// scope (a named configuration) and a method. Properties are the compile-time theorems about
// model/'s lifecycles (proofs/compile_time/theorems.hpp), the invariant catalog
// (spec/rules/invariants.hpp), the explorer's own "GOOD" goal and the agreement of the spec and
// the reference controller. Methods are the compiler (static_assert), exhaustive exploration
// with the explorer, and random histories from a seed. A property that Kafka 3.8 itself violates
// (a non-empty kafka_deviation in spec/rules/invariants.cpp) appears as a theorem whose expectation is a known Kafka
// deviation, in a scope where the explorer reaches it; its verdict is "Kafka deviation confirmed"
// with the shortest counterexample.
//
// The catalog is data only; proofs/theorems/runner.hpp runs it and docs/generator/proofs_page.hpp renders the
// results as docs/proofs.md.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "spec/vocabulary/config.hpp"

namespace kcspec::proofs {

enum class Method : std::uint8_t {
  CompileTime,      // a static_assert: kcspec does not build when it fails
  Exhaustive,       // the explorer visits every state of the scope (breadth first)
  RandomHistories,  // N random histories of at most M steps from a seed
};

enum class Subject : std::uint8_t {
  Spec,         // the executable spec (spec/rules/)
  SpecAndImpl,  // the spec and the reference controller (impl/) side by side (AGREE)
};

enum class Expectation : std::uint8_t {
  Holds,           // the property holds in the scope
  KafkaDeviation,  // Kafka 3.8 violates it, and the scope shows how (a counterexample is expected)
};

std::string_view methodName(Method method);    // "compile-time", "exhaustive", "random histories"
std::string_view subjectName(Subject subject);  // "spec", "spec and impl"

struct Scope {
  std::string name;         // unique: [a-z0-9-]+
  std::string summary;      // one line for the page
  std::string preset;       // an embedded preset (spec/vocabulary/presets.hpp) …
  std::string config_text;  // … or a configuration in config_text.hpp's format; both empty: no configuration
  // Exhaustive theorems explore it with `--reduction full` only: unreduced it is too large to
  // explore here, so it has no POR theorem (the reduced search is the theorem's method).
  bool reduced_only = false;
};

struct RandomBudget {
  int histories = 0;
  int max_steps = 0;
  std::uint64_t seed = 0;
  friend bool operator==(const RandomBudget&, const RandomBudget&) = default;
};

struct Theorem {
  std::string id;         // unique, "<property>@<scope>" (compile-time theorems: their own id)
  std::string property;   // "S1", "MSM-P1", "GOOD", "AGREE"
  std::string name;       // "LeaderInIsr"
  std::string statement;  // the property, in English
  std::string scope;      // a Scope's name
  Method method = Method::Exhaustive;
  Subject subject = Subject::Spec;
  Expectation expectation = Expectation::Holds;
  RandomBudget random;       // RandomHistories only
  std::string impl_mutants;  // SpecAndImpl only: impl/mutants.hpp names, comma separated (tests)
};

struct Catalog {
  std::vector<Scope> scopes;
  std::vector<Theorem> theorems;

  const Scope* scope(std::string_view name) const;      // nullptr when there is none
  const Theorem* theorem(std::string_view id) const;    // nullptr when there is none
};

// The catalog `kcspec prove` runs. Its scopes are small enough that the whole catalog finishes in
// a few minutes on a 2-core machine (docs/testing.md "kcspec prove").
const Catalog& theoremCatalog();

// The scope's configuration (its preset, or its text parsed). Throws std::invalid_argument for a
// scope without one or with an unknown preset; TextError for a bad text.
Config scopeConfig(const Scope& scope);

// The scope's configuration as text (config_text.hpp's canonical form).
std::string scopeConfigText(const Scope& scope);

// Builders (the catalog uses them; so can a test's own catalog).
//
// The compile-time theorems of proofs/compile_time/theorems.hpp, in scopes "partition-lifecycle"
// (MSM-P*) and "replica-lifecycle" (MSM-R*), which this adds.
void addCompileTimeTheorems(Catalog& catalog);
// One exhaustive theorem on the spec per property of the invariant catalog that is not a known
// Kafka deviation, plus GOOD and POR; and one KafkaDeviation theorem per id in `deviations_shown`.
void addExhaustiveTheorems(Catalog& catalog, std::string_view scope, std::span<const std::string_view> deviations_shown);
// One random-history theorem on the spec per safety property that is not a known Kafka deviation;
// and one KafkaDeviation theorem per id in `deviations_shown`.
void addRandomSafetyTheorems(Catalog& catalog, std::string_view scope, RandomBudget budget,
                             std::span<const std::string_view> deviations_shown = {});
// The agreement of spec and impl (AGREE) on random histories; `impl_mutants` switches mutants on.
void addAgreementTheorem(Catalog& catalog, std::string_view scope, RandomBudget budget,
                         std::string_view impl_mutants = {});
// AGREE by exhaustive exploration of spec and impl in lockstep (the explorer's BothSystem).
void addExhaustiveAgreementTheorem(Catalog& catalog, std::string_view scope, std::string_view impl_mutants = {});

// The explorer's own liveness property (proofs/explorer/explorer.hpp kAllGoalsProperty).
inline constexpr std::string_view kGoodProperty = "GOOD";
// The agreement property.
inline constexpr std::string_view kAgreementProperty = "AGREE";
// The partial-order reduction's soundness on a scope: the reduced search reports what the full one does.
inline constexpr std::string_view kReductionProperty = "POR";

// A 64-bit fingerprint of what the catalog asks (theorem ids, statements, scopes' configurations,
// methods and budgets), not of the results: docs/proofs.md records the one it was written for, and
// `kcspec docs --check` compares it with the current catalog's.
std::uint64_t catalogFingerprint(const Catalog& catalog);

}  // namespace kcspec::proofs
