// Explorer throughput: a whole exploration of a fixed configuration with 1 and 2 threads
// (states/s), and the floor under it: what copying, fingerprinting, encoding and decoding
// states of the same size cost without computing any successor.
//
// The configuration is built in code: two brokers, one topic on both, one crash and one
// controller failover (about 19k states). The embedded presets do not finish yet (see
// docs/performance.md).
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "proofs/explorer/explorer.hpp"
#include "proofs/explorer/known_deviations.hpp"
#include "proofs/explorer/spec_system.hpp"
#include "spec/rules/step.hpp"

namespace {

using namespace kcspec;
using namespace kcspec::explorer;

Config benchConfig() {
  Config config;
  config.name = "bench";
  config.brokers = BrokerSet{1, 2};
  config.brokers_alive_at_start = BrokerSet{1, 2};
  TopicConfig topic;
  topic.name = "t";
  topic.assignment = {BrokerList{1, 2}};
  topic.exists_at_start = true;
  config.topics.push_back(topic);
  config.bounds = Bounds{.crashes = 1, .controller_failovers = 1};
  return config;
}

void BM_Explore(benchmark::State& state) {
  const SpecSystem system(benchConfig());
  ExploreOptions options;
  options.threads = static_cast<unsigned>(state.range(0));
  options.is_known_deviation = isKnownKafkaDeviation;
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

// A sample of reachable states: breadth first, the first 2,000.
std::vector<spec::ClusterState> sampleStates() {
  const Config config = benchConfig();
  std::vector<spec::ClusterState> states{spec::initialState(config)};
  for (std::size_t i = 0; i < states.size() && states.size() < 2000; ++i) {
    for (const Action& action : spec::enabledActions(config, states[i])) {
      if (states.size() < 2000) states.push_back(spec::next(config, states[i], action));
    }
  }
  return states;
}

// The floor of one transition without the rules: copy a state and fingerprint the copy.
void BM_CopyAndFingerprint(benchmark::State& state) {
  const SpecSystem system(benchConfig());
  const std::vector<spec::ClusterState> states = sampleStates();
  std::size_t i = 0;
  for (auto _ : state) {
    const spec::ClusterState copy = states[i];
    benchmark::DoNotOptimize(system.fingerprint(copy));
    i = (i + 1) % states.size();
  }
  state.counters["states/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_CopyAndFingerprint);

void BM_Fingerprint(benchmark::State& state) {
  const SpecSystem system(benchConfig());
  const std::vector<spec::ClusterState> states = sampleStates();
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(system.fingerprint(states[i]));
    i = (i + 1) % states.size();
  }
}
BENCHMARK(BM_Fingerprint);

void BM_EncodeDecode(benchmark::State& state) {
  const SpecSystem system(benchConfig());
  const std::vector<spec::ClusterState> states = sampleStates();
  std::size_t i = 0;
  std::string bytes;
  std::uint64_t encoded = 0;
  for (auto _ : state) {
    bytes.clear();
    system.encode(states[i], bytes);
    encoded += bytes.size();
    benchmark::DoNotOptimize(system.decode(bytes));
    i = (i + 1) % states.size();
  }
  state.counters["bytes/state"] = static_cast<double>(encoded) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_EncodeDecode);

// One successor by the rules (copy inside spec::next) plus the step-property check, for scale.
void BM_Successors(benchmark::State& state) {
  const SpecSystem system(benchConfig());
  const std::vector<spec::ClusterState> states = sampleStates();
  std::size_t i = 0;
  std::vector<Action> actions;
  std::uint64_t successors = 0;
  for (auto _ : state) {
    actions.clear();
    system.actions(states[i], actions);
    for (const Action& action : actions) {
      PropertyMask violated = 0;
      benchmark::DoNotOptimize(system.next(states[i], action, violated));
    }
    successors += actions.size();
    i = (i + 1) % states.size();
  }
  state.counters["successors/s"] = benchmark::Counter(static_cast<double>(successors), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Successors);

}  // namespace

BENCHMARK_MAIN();
