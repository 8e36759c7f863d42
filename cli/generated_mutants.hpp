// `kcspec mutants --generated`: the mutation score of the checks over the generated mutants of
// impl/controller (impl/generated_mutants.hpp, docs/testing.md "Generated mutants"). Only
// `kcspec-schemata` has them; `kcspec` says so and exits 2.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kcspec::cli {

struct GeneratedMutantsOptions {
  bool json = false;
  int budget = 20;                 // random histories per check configuration
  std::uint64_t seed = 1;
  int max_steps = 100;
  int explore_depth = 6;           // explore --system both to this depth, for survivors of the histories (0: none)
  std::vector<std::string> explore_configs;  // what explore runs on: presets, catalog scopes or configuration files; empty: `default`
  int max_seconds_per_mutant = 60; // a mutant still running then is killed and counted as killed by "timeout"
  unsigned jobs = 0;               // mutants run at once (one process each); 0: the hardware's cores
  int sample = 0;                  // > 0: only this many, spread evenly over the table
  std::vector<int> only;           // ids; empty: all (or the sample)
  double fail_under = 0;           // exit 1 when the score (killed / run, in %) is below
  std::string out;                 // folder for generated-mutants.json and G<id>.scenario of each killed mutant
  bool shrink = false;             // shrink those scenarios first
  std::string equivalent;          // the triaged equivalent mutants (tests/mutate/equivalent.txt's format)
  bool list = false;               // print the table instead of running it
  std::vector<std::string> scenarios;  // scenario files or folders of them, replayed through both versions first
};

int runGeneratedMutants(const GeneratedMutantsOptions& options);

}  // namespace kcspec::cli
