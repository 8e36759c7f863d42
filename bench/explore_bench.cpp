// Explorer throughput: whole explorations with 1 and 2 threads (states/s), and the floor under
// them: what copying and fingerprinting states of the same size costs without the rules.
//
// BM_Explore explores a small in-code configuration (two brokers, one topic on both, one crash and
// one controller failover: about 19k states) many times; BM_ExploreTwoPerturbations explores the
// `two-perturbations` preset (the main job until session 25) unreduced once per iteration (4.63
// million states). The floor loops run over a breadth-first sample of 2,000 reachable states of
// that preset: BM_CopyAndFingerprint copies a state
// the way the explorer does (the configuration's brokers into a reused state) and fingerprints
// it (encode + xxHash64); BM_CopyAndFingerprintWhole copies the whole 53 kB value and
// fingerprints it with the full walk. BM_ExplorerCeiling explores a system with next to no rules
// shaped like that preset (proofs/explorer/grid_system.hpp): the checker's own cost per state.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "spec/rules/invariants.hpp"
#include "proofs/explorer/explorer.hpp"
#include "proofs/explorer/grid_system.hpp"
#include "proofs/explorer/spec_system.hpp"
#include "proofs/explorer/state_codec.hpp"
#include "spec/rules/step.hpp"
#include "spec/vocabulary/presets.hpp"
#include "two_brokers.hpp"  // tests/common/

namespace {

using namespace kcspec;
using namespace kcspec::explorer;

Config benchConfig() { return test::twoBrokers(Bounds{.crashes = 1, .controller_failovers = 1}); }

Config twoPerturbationsPreset() { return *preset("two-perturbations"); }

void BM_Explore(benchmark::State& state) {
  const SpecSystem system(benchConfig());
  ExploreOptions options;
  options.threads = static_cast<unsigned>(state.range(0));
  options.is_known_deviation = spec::isKnownKafkaDeviation;
  std::uint64_t states = 0;
  std::uint64_t transitions = 0;
  for (auto _ : state) {
    const auto result = explore(system, options);
    states += result.states;
    transitions += result.transitions;
    benchmark::DoNotOptimize(result.states);
  }
  state.counters["states/s"] = benchmark::Counter(static_cast<double>(states), benchmark::Counter::kIsRate);
  state.counters["transitions/s"] = benchmark::Counter(static_cast<double>(transitions), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Explore)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ExploreTwoPerturbations(benchmark::State& state) {
  const SpecSystem system(twoPerturbationsPreset());
  ExploreOptions options;
  options.threads = static_cast<unsigned>(state.range(0));
  options.is_known_deviation = spec::isKnownKafkaDeviation;
  std::uint64_t states = 0;
  std::uint64_t transitions = 0;
  double visited_bytes_per_state = 0;
  for (auto _ : state) {
    const auto result = explore(system, options);
    states += result.states;
    transitions += result.transitions;
    visited_bytes_per_state = static_cast<double>(result.visited_bytes) / static_cast<double>(result.states);
    benchmark::DoNotOptimize(result.states);
  }
  state.counters["states/s"] = benchmark::Counter(static_cast<double>(states), benchmark::Counter::kIsRate);
  state.counters["transitions/s"] = benchmark::Counter(static_cast<double>(transitions), benchmark::Counter::kIsRate);
  state.counters["visited B/state"] = visited_bytes_per_state;
}
BENCHMARK(BM_ExploreTwoPerturbations)->Arg(1)->Arg(2)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();

// The checker's ceiling: the explorer on GridSystem (proofs/explorer/grid_system.hpp), a system with
// next to no rules whose state count (4,879,681), successors per state (3.9) and encoding size
// (333 bytes, the spec's mean on `two-perturbations`) are those of the `two-perturbations` preset. No system of that
// shape explores faster than this with the same checker: the spec's rate against this one is what
// its rules, invariants and codec cost.
void BM_ExplorerCeiling(benchmark::State& state) {
  const GridSystem system(/*max_count=*/46, /*encoding_bytes=*/333);
  ExploreOptions options;
  options.threads = static_cast<unsigned>(state.range(0));
  std::uint64_t states = 0;
  std::uint64_t transitions = 0;
  for (auto _ : state) {
    const auto result = explore(system, options);
    if (result.states != system.stateCount() || result.transitions != system.transitionCount() ||
        !result.violations.empty()) {
      state.SkipWithError("the grid system's exploration is wrong: a count or a violation");
      return;
    }
    states += result.states;
    transitions += result.transitions;
  }
  state.counters["states/s"] = benchmark::Counter(static_cast<double>(states), benchmark::Counter::kIsRate);
  state.counters["transitions/s"] = benchmark::Counter(static_cast<double>(transitions), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ExplorerCeiling)->Arg(1)->Arg(2)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();

// A sample of reachable states of the two-perturbations preset: breadth first, the first 2,000.
std::vector<spec::ClusterState> sampleStates(const Config& config) {
  std::vector<spec::ClusterState> states{spec::initialState(config)};
  for (std::size_t i = 0; i < states.size() && states.size() < 2000; ++i) {
    for (const Action& action : spec::enabledActions(config, states[i])) {
      if (states.size() < 2000) states.push_back(spec::next(config, states[i], action));
    }
  }
  return states;
}

// The floor: copy a state as the explorer does (the configuration's brokers, into a reused
// state) and fingerprint the copy (encode + xxHash64) — everything per transition but the rules.
void BM_CopyAndFingerprint(benchmark::State& state) {
  const Config config = twoPerturbationsPreset();
  const SpecSystem system(config);
  const StateShape shape(config);
  const std::vector<spec::ClusterState> states = sampleStates(config);
  spec::ClusterState copy = states[0];
  std::string bytes;
  std::size_t i = 0;
  for (auto _ : state) {
    copyWorld(states[i].world, copy.world, shape);
    copy.budget = states[i].budget;
    bytes.clear();
    benchmark::DoNotOptimize(system.encodeFingerprinted(copy, bytes));
    i = (i + 1) % states.size();
  }
  state.counters["states/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_CopyAndFingerprint);

// The same with the whole 53 kB value copied and every slot walked (the first slice's way).
void BM_CopyAndFingerprintWhole(benchmark::State& state) {
  const std::vector<spec::ClusterState> states = sampleStates(twoPerturbationsPreset());
  std::size_t i = 0;
  for (auto _ : state) {
    const spec::ClusterState copy = states[i];
    benchmark::DoNotOptimize(fingerprintWorld(copy.world, copy.budget));
    i = (i + 1) % states.size();
  }
  state.counters["states/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_CopyAndFingerprintWhole);

void BM_Fingerprint(benchmark::State& state) {
  const SpecSystem system(twoPerturbationsPreset());
  const std::vector<spec::ClusterState> states = sampleStates(twoPerturbationsPreset());
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(system.fingerprint(states[i]));
    i = (i + 1) % states.size();
  }
}
BENCHMARK(BM_Fingerprint);

void BM_EncodeDecode(benchmark::State& state) {
  const SpecSystem system(twoPerturbationsPreset());
  const std::vector<spec::ClusterState> states = sampleStates(twoPerturbationsPreset());
  spec::ClusterState decoded = states[0];
  std::size_t i = 0;
  std::string bytes;
  std::uint64_t encoded = 0;
  for (auto _ : state) {
    bytes.clear();
    system.encode(states[i], bytes);
    encoded += bytes.size();
    system.decodeInto(bytes, decoded);
    benchmark::DoNotOptimize(decoded);
    i = (i + 1) % states.size();
  }
  state.counters["bytes/state"] = static_cast<double>(encoded) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_EncodeDecode);

// One successor by the rules (nextInto: the copy, the rules, the step-property check), for scale.
void BM_Successors(benchmark::State& state) {
  const SpecSystem system(twoPerturbationsPreset());
  const std::vector<spec::ClusterState> states = sampleStates(twoPerturbationsPreset());
  spec::ClusterState successor = states[0];
  std::size_t i = 0;
  std::vector<Action> actions;
  std::uint64_t successors = 0;
  for (auto _ : state) {
    actions.clear();
    system.actions(states[i], actions);
    for (const Action& action : actions) {
      PropertyMask violated = 0;
      system.nextInto(states[i], action, violated, successor);
      benchmark::DoNotOptimize(successor);
    }
    successors += actions.size();
    i = (i + 1) % states.size();
  }
  state.counters["successors/s"] = benchmark::Counter(static_cast<double>(successors), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Successors);

}  // namespace

BENCHMARK_MAIN();
