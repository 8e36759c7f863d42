// The reductions side by side (docs/performance.md "Partial-order reduction", "Session 22"): each
// preset explored with `--reduction none`, `por` and `full` in one run, states, time and the ratios
// of none to full, and whether the three report the same violated properties. With --mutants, every mutant of the
// reference implementation explored with --system impl both ways, stopping at the first
// violating level: whether each search finds it, the property and the counterexample's length; with
// --keep-going, both searches run to the end and the whole sets of violated properties are compared
// (issue 27 item 4). --only M8,M9,… takes those mutants alone.
//
//   build/bench/kcspec_reduction_bench [--presets NAME,NAME,…] [--threads N] [--max-seconds N] [--no-liveness]
//   build/bench/kcspec_reduction_bench --mutants [--presets NAME] [--threads N] [--max-seconds N] [--keep-going]
//                                      [--only NAME,…]
//
// A run that does not complete within --max-seconds (default 600) is marked "incomplete".
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "impl/mutants.hpp"
#include "proofs/explorer/explorer.hpp"
#include "proofs/explorer/impl_system.hpp"
#include "proofs/explorer/spec_system.hpp"
#include "spec/rules/invariants.hpp"
#include "spec/vocabulary/presets.hpp"

namespace {

using namespace kcspec;
using namespace kcspec::explorer;

struct Options {
  std::vector<std::string> presets;
  unsigned threads = 0;
  int max_seconds = 600;
  bool liveness = true;
  bool mutants = false;
  bool keep_going = false;           // --mutants: run both searches to the end, compare the whole sets
  std::vector<std::string> only;     // --mutants: these mutants alone (names as impl::kMutants spells them)
};

std::vector<std::string> splitCommas(std::string_view text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    if (comma > start) out.emplace_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

template <class S>
ExploreResult<S> run(const S& system, Reduction reduction, const Options& options, bool keep_going) {
  ExploreOptions explore_options;
  explore_options.threads = options.threads;
  explore_options.reduction = reduction;
  explore_options.check_liveness = options.liveness;
  explore_options.stop_at_violation = !keep_going;
  explore_options.is_known_deviation = spec::isKnownKafkaDeviation;
  explore_options.max_time = std::chrono::seconds(options.max_seconds);
  return explore(system, explore_options);
}

template <class S>
std::string violatedIds(const ExploreResult<S>& result) {
  std::set<std::string> ids;
  for (const auto& v : result.violations) ids.insert(v.property);
  std::string text;
  for (const std::string& id : ids) text += (text.empty() ? "" : " ") + id;
  return text.empty() ? "none" : text;
}

std::string grouped(std::uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

template <class S>
std::string figures(const ExploreResult<S>& result) {
  const bool stopped = !result.complete() && result.stop != StopReason::Violation;  // a limit, not a finding
  return fmt::format("{} | {:.1f}{}", grouped(result.states), result.seconds, stopped ? " (incomplete)" : "");
}

void presetsTable(const Options& options) {
  fmt::print("| preset | none: states | none: s | por: states | por: s | full: states | full: s | states ratio (none/full) "
             "| time ratio (none/full) | violated (none) | same verdicts |\n");
  fmt::print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|\n");
  for (const std::string& name : options.presets) {
    const std::optional<Config> config = preset(name);
    if (!config) {
      fmt::print(stderr, "reduction_bench: no preset {}\n", name);
      std::exit(2);
    }
    const SpecSystem system(*config);
    const SpecSystem symmetric(*config, SpecSystem::Symmetry::Reduced);  // --reduction full
    const auto full = run(system, Reduction::None, options, /*keep_going=*/true);
    const auto por = run(system, Reduction::Por, options, /*keep_going=*/true);
    const auto reduced = run(symmetric, Reduction::Por, options, /*keep_going=*/true);
    const bool all_complete = full.complete() && por.complete() && reduced.complete();
    std::string same = "yes";
    if (violatedIds(por) != violatedIds(full)) same = "NO: por " + violatedIds(por);
    if (violatedIds(reduced) != violatedIds(full)) same = "NO: full " + violatedIds(reduced);
    fmt::print("| {} | {} | {} | {} | {:.2f}× | {:.2f}× | {} | {} |\n", name, figures(full), figures(por), figures(reduced),
               static_cast<double>(full.states) / static_cast<double>(std::max<std::uint64_t>(1, reduced.states)),
               full.seconds / std::max(1e-9, reduced.seconds), violatedIds(full),
               !all_complete ? "not compared (incomplete)" : same);
    std::fflush(stdout);
  }
}

void mutantsTable(const Options& options) {
  const std::string name = options.presets.empty() ? "two-perturbations" : options.presets.front();
  const std::optional<Config> config = preset(name);
  if (!config) {
    fmt::print(stderr, "reduction_bench: no preset {}\n", name);
    std::exit(2);
  }
  for (const std::string& wanted : options.only) {
    bool known = false;
    for (const impl::MutantInfo& info : impl::kMutants) known = known || info.name == wanted;
    if (!known) {
      fmt::print(stderr, "reduction_bench: no mutant {}\n", wanted);
      std::exit(2);
    }
  }
  if (options.keep_going) {
    fmt::print("Mutants on `{}`, --system impl, both searches to the end:\n\n", name);
    fmt::print("| mutant | none: violated | none: states | none: s | por: violated | por: states | por: s | same set |\n");
    fmt::print("|---|---|---:|---:|---|---:|---:|---|\n");
  } else {
    fmt::print("Mutants on `{}`, --system impl, stopping after the first violating level:\n\n", name);
    fmt::print("| mutant | none: first violation (steps) | none: states | none: s | por: first violation (steps) | por: states | por: s |\n");
    fmt::print("|---|---|---:|---:|---|---:|---:|\n");
  }
  const auto first = [](const auto& result) {
    for (const auto& v : result.violations) {
      if (!v.known_deviation) return fmt::format("{} ({})", v.property, v.path.size());
    }
    return std::string(result.complete() ? "none" : "none (incomplete)");
  };
  for (const impl::MutantInfo& info : impl::kMutants) {
    if (!options.only.empty() &&
        std::find(options.only.begin(), options.only.end(), std::string(info.name)) == options.only.end()) {
      continue;
    }
    const ImplSystem system(*config, impl::Mutants::of({info.id}));
    const auto full = run(system, Reduction::None, options, options.keep_going);
    const auto reduced = run(system, Reduction::Por, options, options.keep_going);
    if (options.keep_going) {
      const bool compared = full.complete() && reduced.complete();
      const bool same = violatedIds(full) == violatedIds(reduced);
      fmt::print("| {} | {} | {} | {} | {} | {} |\n", info.name, violatedIds(full), figures(full), violatedIds(reduced),
                 figures(reduced), !compared ? "not compared (incomplete)" : same ? "yes" : "NO");
    } else {
      fmt::print("| {} | {} | {} | {} | {} |\n", info.name, first(full), figures(full), first(reduced),
                 figures(reduced));
    }
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  // The presets that complete unreduced (spec/vocabulary/presets.cpp presetStateCount), but `large` (50 minutes).
  options.presets = {"crash-isr", "crash-deletion", "cancel-during-shutdown", "spare-brokers", "two-perturbations", "medium"};
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--presets" && has_value) {
      options.presets = splitCommas(argv[++i]);
    } else if (arg == "--threads" && has_value) {
      options.threads = static_cast<unsigned>(std::stoul(argv[++i]));
    } else if (arg == "--max-seconds" && has_value) {
      options.max_seconds = std::stoi(argv[++i]);
    } else if (arg == "--no-liveness") {
      options.liveness = false;
    } else if (arg == "--mutants") {
      options.mutants = true;
    } else if (arg == "--keep-going") {
      options.keep_going = true;
    } else if (arg == "--only" && has_value) {
      options.only = splitCommas(argv[++i]);
    } else {
      fmt::print(stderr,
                 "usage: kcspec_reduction_bench [--presets NAME,…] [--threads N] [--max-seconds N] [--no-liveness] "
                 "[--mutants [--keep-going] [--only NAME,…]]\n");
      return 2;
    }
  }
  if (options.mutants) {
    mutantsTable(options);
  } else {
    presetsTable(options);
  }
  return 0;
}
