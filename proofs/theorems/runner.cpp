#include "proofs/theorems/runner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <stdexcept>
#include <thread>
#include <tuple>

#include "proofs/agreement/random_histories.hpp"
#include "proofs/explorer/both_system.hpp"
#include "proofs/explorer/explorer.hpp"
#include "proofs/explorer/spec_system.hpp"
#include "spec/rules/invariants.hpp"
#include "spec/rules/step.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/capacity.hpp"
#include "spec/vocabulary/number_text.hpp"
#include "spec/vocabulary/scenario_text.hpp"

namespace kcspec::proofs {

using agreement::Counterexample;
using agreement::Coverage;
using agreement::chooseAction;
using agreement::randomHistory;
using agreement::shrink;


std::string_view outcomeName(Outcome outcome) {
  switch (outcome) {
    case Outcome::Proven: return "proven";
    case Outcome::Holds: return "holds";
    case Outcome::Violated: return "violated";
    case Outcome::DeviationConfirmed: return "Kafka deviation confirmed";
    case Outcome::DeviationNotReproduced: return "deviation not reproduced";
    case Outcome::Incomplete: return "incomplete";
  }
  return "?";
}

bool outcomeIsSuccess(Outcome outcome) {
  return outcome == Outcome::Proven || outcome == Outcome::Holds || outcome == Outcome::DeviationConfirmed;
}

bool ProveReport::success() const {
  return std::all_of(results.begin(), results.end(), [](const TheoremResult& r) { return outcomeIsSuccess(r.outcome); });
}

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

}  // namespace


namespace {

// The key of a run: theorems with equal keys share it.
using RunKey = std::tuple<std::string, Method, Subject, std::string, int, int, std::uint64_t>;

RunKey keyOf(const Theorem& t) {
  return {t.scope, t.method, t.subject, t.impl_mutants, t.random.histories, t.random.max_steps, t.random.seed};
}

std::string scenarioOf(const Config& config, const std::vector<Action>& steps, const std::string& about) {
  Scenario scenario;
  scenario.config = config;
  scenario.steps = steps;
  return printScenario(scenario, about);
}

TheoremCounterexample counterexampleOf(const Config& config, const std::vector<Action>& steps,
                                       const std::vector<Action>& recovery, const std::string& about) {
  TheoremCounterexample c;
  for (const Action& a : steps) c.steps.push_back(printAction(config, a));
  for (const Action& a : recovery) c.recovery.push_back(printAction(config, a));
  std::string comments = about;
  if (!recovery.empty()) {
    comments += "# from the last step, recovery actions alone never reach the goal, for example:\n";
    for (const std::string& a : c.recovery) comments += "#   " + a + "\n";
  }
  c.scenario = scenarioOf(config, steps, comments);
  return c;
}

impl::Mutants mutantsOf(std::string_view names) {
  impl::Mutants mutants;
  std::size_t start = 0;
  while (start <= names.size() && !names.empty()) {
    const std::size_t comma = std::min(names.find(',', start), names.size());
    const std::string_view name = names.substr(start, comma - start);
    const std::optional<impl::Mutant> m = impl::mutantNamed(name);
    if (!m) throw std::invalid_argument(fmt::format("no impl mutant called {}", name));
    mutants.enable(*m);
    start = comma + 1;
  }
  return mutants;
}

struct RunOutput {
  RunSummary summary;
  std::map<std::string, TheoremCounterexample, std::less<>> violations;  // property id → shortest counterexample
};

// ---- exhaustive exploration: the spec, or spec and impl in lockstep (BothSystem)

template <class S>
explorer::ExploreResult<S> exploreScope(const S& system, const ProveOptions& options, bool stop_at_violation,
                                        bool check_liveness, explorer::Reduction reduction = explorer::Reduction::None) {
  explorer::ExploreOptions run;
  run.reduction = reduction;
  run.threads = options.threads;
  run.max_memory_bytes = options.max_memory_bytes;
  run.is_known_deviation = [](std::string_view id) { return spec::isKnownKafkaDeviation(id); };
  run.stop_at_violation = stop_at_violation;
  run.check_liveness = check_liveness;
  run.cancel = options.cancel;
  if (options.tick) {
    run.progress_interval = std::chrono::milliseconds(500);
    run.on_progress = [&options](const explorer::Progress& p) {
      if (p.liveness_sweep > 0) {
        options.tick(fmt::format("{} states; liveness sweep {}, {:.0f} s", grouped(p.states), p.liveness_sweep, p.seconds));
      } else {
        options.tick(fmt::format("{} states, depth {}, {:.0f} s", grouped(p.states), p.depth, p.seconds));
      }
    };
  }
  return explorer::explore(system, run);
}

bool cancelled(const ProveOptions& options) { return options.cancel != nullptr && options.cancel->load(); }

// Random runs: a tick at most twice a second.
class Ticker {
 public:
  explicit Ticker(const ProveOptions& options) : options_(options) {}
  void operator()(std::uint64_t histories, int budget, Clock::time_point start) {
    if (!options_.tick) return;
    const auto now = Clock::now();
    if (now - last_ < std::chrono::milliseconds(500)) return;
    last_ = now;
    options_.tick(fmt::format("{} of {} histories, {:.0f} s", grouped(histories), budget, secondsSince(start)));
  }

 private:
  const ProveOptions& options_;
  Clock::time_point last_ = Clock::now();
};

template <class S>
void summarize(const explorer::ExploreResult<S>& result, RunSummary& summary) {
  summary.states = result.states;
  summary.transitions = result.transitions;
  summary.max_depth = result.max_depth;
  summary.seconds = result.seconds;
  summary.complete = result.complete();
  summary.stop = std::string(explorer::stopReasonName(result.stop));
}

template <class S>
TheoremCounterexample describeViolation(const Config& config, const std::string& scope,
                                        const explorer::Violation<S>& v, std::string_view what, bool reduced = false) {
  const std::string about = fmt::format(
      "# found by `kcspec prove`: {} {} in scope {} ({}), {}: the {} steps below\n", v.property, v.name, scope,
      v.known_deviation ? "known Kafka deviation" : what,
      reduced ? "a counterexample of the reduced search" : "shortest counterexample", v.path.size());
  TheoremCounterexample c = counterexampleOf(config, v.path, v.recovery, about);
  c.occurrences = v.occurrences;
  c.occurrence_unit = v.kind == explorer::PropertyKind::StepSafety ? "transitions" : "states";
  return c;
}

// Every property of the invariant catalog (and GOOD) on the spec; every property keeps going
// after a violation, so each gets its verdict. Then POR: the same scope with `--reduction full`
// (partial-order reduction, and symmetry reduction where the scope has one) must report the same violated properties (a property only one search reports is
// POR's counterexample: the full search's path when the reduced one missed it, else the reduced one's).
RunOutput runExhaustiveSpec(const Config& config, const std::string& scope, const ProveOptions& options,
                            bool reduced_only) {
  RunOutput out;
  if (reduced_only) {  // too large unreduced: the reduced search is the method (Scope::reduced_only)
    const explorer::SpecSystem symmetric(config, explorer::SpecSystem::Symmetry::Reduced);
    const auto reduced = exploreScope(symmetric, options, /*stop_at_violation=*/false, /*check_liveness=*/true,
                                      explorer::Reduction::Por);
    summarize(reduced, out.summary);
    out.summary.reduced_only = true;
    out.summary.symmetry_reduced_by = symmetric.symmetryPermutations();
    for (const auto& v : reduced.violations) {
      out.violations.emplace(v.property, describeViolation(config, scope, v, "violation", /*reduced=*/true));
    }
    return out;
  }
  const explorer::SpecSystem system(config);
  const auto result = exploreScope(system, options, /*stop_at_violation=*/false, /*check_liveness=*/true);
  summarize(result, out.summary);
  for (const auto& v : result.violations) out.violations.emplace(v.property, describeViolation(config, scope, v, "violation"));
  if (!result.complete() || cancelled(options)) return out;
  // `--reduction full`: partial-order reduction, and symmetry reduction where the scope has a symmetry.
  const explorer::SpecSystem symmetric(config, explorer::SpecSystem::Symmetry::Reduced);
  const auto reduced = exploreScope(symmetric, options, /*stop_at_violation=*/false, /*check_liveness=*/true,
                                    explorer::Reduction::Por);
  out.summary.symmetry_reduced_by = symmetric.symmetryPermutations();
  out.summary.reduced_states = reduced.states;
  out.summary.reduced_seconds = reduced.seconds;
  if (!reduced.complete()) {
    out.summary.complete = false;
    out.summary.stop = "the reduced search stopped: " + std::string(explorer::stopReasonName(reduced.stop));
    return out;
  }
  const auto differs = [&](const auto& in, const auto& other, std::string_view how) {
    for (const auto& v : in.violations) {
      const bool shared = std::any_of(other.violations.begin(), other.violations.end(),
                                      [&](const auto& w) { return w.property == v.property; });
      if (shared || out.violations.contains(kReductionProperty)) continue;
      TheoremCounterexample c = describeViolation(config, scope, v, "violation");
      c.detail = fmt::format("{} {}: {}", v.property, v.name, how);
      out.violations.emplace(std::string(kReductionProperty), std::move(c));
    }
  };
  differs(result, reduced, "the full search reports it, the reduced search does not");
  differs(reduced, result, "the reduced search reports it, the full search does not");
  return out;
}

// AGREE: spec and impl take every edge together (C1: equal observations after every step, C2:
// the same enabled actions). Stops after the level of the first violation; no liveness.
RunOutput runExhaustiveAgreement(const Config& config, const std::string& scope, const ProveOptions& options,
                                 impl::Mutants mutants, const std::string& mutant_names) {
  RunOutput out;
  const explorer::BothSystem system(config, mutants);
  const auto result = exploreScope(system, options, /*stop_at_violation=*/true, /*check_liveness=*/false);
  summarize(result, out.summary);
  for (const auto& v : result.violations) {
    const bool agreement = v.property == explorer::kSpecImplAgree.id || v.property == explorer::kSpecImplEnableTheSameActions.id;
    TheoremCounterexample c = describeViolation(
        config, scope, v, mutant_names.empty() ? "spec and impl disagree" : "spec and impl with " + mutant_names + " disagree");
    if (agreement) {
      explorer::BothSystem::State state = system.initialStates().at(v.initial_state);
      for (const Action& a : v.path) {
        explorer::PropertyMask ignored = 0;
        state = system.next(state, a, ignored);
      }
      c.detail = fmt::format("{} {}\n{}", v.property, v.name, system.disagreement(state));
      const auto found = out.violations.find(kAgreementProperty);
      if (found == out.violations.end() || c.steps.size() < found->second.steps.size()) {
        out.violations.insert_or_assign(std::string(kAgreementProperty), std::move(c));
      }
    } else {
      out.violations.emplace(v.property, std::move(c));
    }
  }
  // A run stopped by another property's violation has not decided AGREE.
  if (result.stop == explorer::StopReason::Violation && !out.violations.contains(kAgreementProperty)) {
    out.summary.complete = false;
  }
  return out;
}

// ---- random histories of the spec, safety checked after every step

RunOutput runRandomSpec(const Config& config, const std::string& scope, RandomBudget budget,
                        const ProveOptions& options) {
  RunOutput out;
  const auto start = Clock::now();
  Ticker tick(options);
  struct First {
    std::vector<Action> steps;
    std::uint64_t histories = 0;
  };
  std::map<std::string, First, std::less<>> first;  // property id → the shortest violating prefix
  for (int h = 0; h < budget.histories; ++h) {
    if (cancelled(options)) {
      out.summary.complete = false;
      out.summary.stop = "cancelled";
      break;
    }
    tick(out.summary.histories, budget.histories, start);
    std::mt19937_64 random(budget.seed * 1000003u + static_cast<std::uint64_t>(h));
    spec::ClusterState state = spec::initialState(config);
    std::vector<Action> steps;
    std::set<std::string, std::less<>> seen_here;
    const auto note = [&](std::string_view id) {
      if (!seen_here.insert(std::string(id)).second) return;
      First& f = first[std::string(id)];
      if (f.histories++ == 0 || steps.size() < f.steps.size()) f.steps = steps;
    };
    for (std::string_view id : spec::violatedStateProperties(config, state)) note(id);
    for (int i = 0; i < budget.max_steps; ++i) {
      const std::vector<Action> enabled = spec::enabledActions(config, state);
      if (enabled.empty()) break;
      const Action action = chooseAction(config, state, enabled, random());
      spec::RecordingObserver observer;
      std::optional<spec::ClusterState> stepped;
      try {
        stepped.emplace(spec::next(config, state, action, observer));
      } catch (const CapacityExceeded&) {  // the history goes beyond the model: it ends here
        ++out.summary.histories_at_capacity;
        break;
      }
      spec::ClusterState& after = *stepped;
      steps.push_back(action);
      ++out.summary.states;
      for (std::string_view id : spec::violatedStepProperties(config, state, after, observer.record)) note(id);
      for (std::string_view id : spec::violatedStateProperties(config, after)) note(id);
      state = std::move(after);
    }
    ++out.summary.histories;
  }
  for (auto& [id, f] : first) {
    const std::string about =
        fmt::format("# found by `kcspec prove`: {} violated on a random history of scope {} (seed {}), {} steps\n", id,
                    scope, budget.seed, f.steps.size());
    TheoremCounterexample c = counterexampleOf(config, f.steps, {}, about);
    c.occurrences = f.histories;
    c.occurrence_unit = "histories";
    out.violations.emplace(id, std::move(c));
  }
  out.summary.seconds = secondsSince(start);
  return out;
}

// ---- random histories of spec and impl side by side (proofs/agreement/)

RunOutput runRandomAgreement(const Config& config, const std::string& scope, RandomBudget budget,
                             const std::string& mutant_names, const ProveOptions& options) {
  RunOutput out;
  const auto start = Clock::now();
  Ticker tick(options);
  const impl::Mutants mutants = mutantsOf(mutant_names);
  Coverage coverage;
  std::optional<Counterexample> failure;
  for (int h = 0; h < budget.histories && !failure; ++h) {
    if (cancelled(options)) {
      out.summary.complete = false;
      out.summary.stop = "cancelled";
      break;
    }
    tick(out.summary.histories, budget.histories, start);
    failure = randomHistory(config, mutants, budget.seed * 1000003u + static_cast<std::uint64_t>(h), budget.max_steps,
                            &coverage);
    ++out.summary.histories;
  }
  out.summary.states = coverage.steps;
  out.summary.histories_at_capacity = coverage.histories_at_capacity;
  if (failure) {
    const Counterexample small = shrink(config, mutants, std::move(*failure));
    const std::string about = fmt::format(
        "# found by `kcspec prove`: spec and impl{} disagree on a random history of scope {} (seed {}, history {}), "
        "shrunk to {} steps: {}\n",
        mutant_names.empty() ? "" : " (mutants " + mutant_names + ")", scope, budget.seed, out.summary.histories,
        small.steps.size(), small.verdict.by);
    TheoremCounterexample c = counterexampleOf(config, small.steps, {}, about);
    c.detail = small.verdict.by + (small.verdict.detail.empty() ? "" : "\n" + small.verdict.detail);
    c.occurrences = 1;
    c.occurrence_unit = "history (the run stops at the first)";
    out.violations.emplace(std::string(kAgreementProperty), std::move(c));
  }
  out.summary.seconds = secondsSince(start);
  return out;
}

Outcome outcomeOf(const Theorem& t, const RunOutput& run, bool found) {
  if (t.expectation == Expectation::KafkaDeviation) {
    if (found) return Outcome::DeviationConfirmed;
    return run.summary.complete ? Outcome::DeviationNotReproduced : Outcome::Incomplete;
  }
  if (found) return Outcome::Violated;
  return run.summary.complete ? Outcome::Holds : Outcome::Incomplete;
}

}  // namespace

std::string runTitle(const RunSummary& run) {
  if (run.method == Method::Exhaustive) {
    return fmt::format("exhaustive exploration of {} ({})", run.scope, subjectName(run.subject));
  }
  return fmt::format("{} random histories of {} ({}{}, seed {})", run.random.histories, run.scope,
                     subjectName(run.subject), run.impl_mutants.empty() ? "" : ", impl mutants " + run.impl_mutants,
                     run.random.seed);
}

std::string runFigures(const RunSummary& run) {
  // What `--reduction full` reduced the run by.
  const std::string reduced_by =
      run.symmetry_reduced_by > 0
          ? fmt::format("partial-order reduction and {} broker permutation{} besides the identity",
                        run.symmetry_reduced_by, run.symmetry_reduced_by == 1 ? "" : "s")
          : "partial-order reduction; no symmetry";
  if (run.method == Method::Exhaustive && run.reduced_only) {
    return fmt::format("{} states, {} transitions, depth {}, {:.1f} s with `--reduction full` ({}); not explored "
                       "unreduced (too large here){}",
                       grouped(run.states), grouped(run.transitions), run.max_depth, run.seconds, reduced_by,
                       run.complete ? "" : ", incomplete: " + run.stop);
  }
  if (run.method == Method::Exhaustive) {
    return fmt::format("{} states, {} transitions, depth {}, {:.1f} s{}{}", grouped(run.states), grouped(run.transitions),
                       run.max_depth, run.seconds,
                       run.reduced_states > 0
                           ? fmt::format("; with `--reduction full` {} states, {:.1f} s ({})", grouped(run.reduced_states),
                                         run.reduced_seconds, reduced_by)
                           : "",
                       run.complete ? "" : ", incomplete: " + run.stop);
  }
  return fmt::format("{} histories, {} steps, {:.1f} s{}", grouped(run.histories), grouped(run.states), run.seconds,
                     run.histories_at_capacity == 0
                         ? ""
                         : fmt::format("; {} ended where a step outgrew the modeled world (docs/spec/rules.md)",
                                       grouped(run.histories_at_capacity)));
}

ProveReport prove(const Catalog& catalog, const std::vector<const Theorem*>& selection,
                  const ProveOptions& options) {
  const auto start = Clock::now();
  ProveReport report;
  report.threads = options.threads != 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  const auto say = [&](const std::string& line) {
    if (options.progress) options.progress(line);
  };

  std::set<const Theorem*> chosen(selection.begin(), selection.end());
  std::vector<const Theorem*> ordered;
  for (const Theorem& t : catalog.theorems) {
    if (chosen.contains(&t)) ordered.push_back(&t);
  }
  if (ordered.size() != chosen.size()) throw std::invalid_argument("a selected theorem is not in the catalog");

  std::map<RunKey, std::size_t> run_of;  // key → index in report.runs
  std::vector<RunOutput> outputs;
  std::size_t done = 0;
  for (const Theorem* t : ordered) {
    ++done;
    TheoremResult result;
    result.theorem = t;
    if (t->method == Method::CompileTime) {
      result.outcome = Outcome::Proven;
      say(fmt::format("[{}/{}] {}: proven (at compile time)", done, ordered.size(), t->id));
      report.results.push_back(std::move(result));
      continue;
    }
    const RunKey key = keyOf(*t);
    auto found = run_of.find(key);
    if (found == run_of.end()) {
      const Scope* scope = catalog.scope(t->scope);
      if (scope == nullptr) throw std::invalid_argument(fmt::format("theorem {}: no scope {}", t->id, t->scope));
      const Config config = scopeConfig(*scope);
      RunSummary header;
      header.scope = t->scope;
      header.method = t->method;
      header.subject = t->subject;
      header.impl_mutants = t->impl_mutants;
      header.random = t->random;
      header.max_perturbations = maxPerturbationsPerHistory(config.bounds);
      say(fmt::format("running {} …", runTitle(header)));
      RunOutput output;
      if (t->method == Method::Exhaustive && t->subject == Subject::Spec) {
        output = runExhaustiveSpec(config, t->scope, options, scope->reduced_only);
      } else if (t->method == Method::Exhaustive) {
        output = runExhaustiveAgreement(config, t->scope, options, mutantsOf(t->impl_mutants), t->impl_mutants);
      } else if (t->subject == Subject::Spec) {
        output = runRandomSpec(config, t->scope, t->random, options);
      } else {
        output = runRandomAgreement(config, t->scope, t->random, t->impl_mutants, options);
      }
      if (cancelled(options)) {  // Ctrl-C: this run decides nothing, and no other starts
        report.interrupted = true;
        break;
      }
      const RunSummary figures = output.summary;
      output.summary = header;
      output.summary.states = figures.states;
      output.summary.transitions = figures.transitions;
      output.summary.max_depth = figures.max_depth;
      output.summary.histories = figures.histories;
      output.summary.histories_at_capacity = figures.histories_at_capacity;
      output.summary.seconds = figures.seconds;
      output.summary.complete = figures.complete;
      output.summary.stop = figures.stop;
      output.summary.reduced_states = figures.reduced_states;
      output.summary.reduced_seconds = figures.reduced_seconds;
      output.summary.symmetry_reduced_by = figures.symmetry_reduced_by;
      output.summary.reduced_only = figures.reduced_only;
      say(fmt::format("  {}", runFigures(output.summary)));
      found = run_of.emplace(key, outputs.size()).first;
      outputs.push_back(std::move(output));
    }
    const RunOutput& run = outputs[found->second];
    const auto violation = run.violations.find(t->property);
    result.run = found->second;
    result.outcome = outcomeOf(*t, run, violation != run.violations.end());
    if (violation != run.violations.end()) result.counterexample = violation->second;
    say(fmt::format("[{}/{}] {}: {}{}", done, ordered.size(), t->id, outcomeName(result.outcome),
                    result.counterexample ? fmt::format(" ({} steps)", result.counterexample->steps.size()) : ""));
    report.results.push_back(std::move(result));
  }

  // Known deviations a run reached that none of its theorems expects: noted on the page.
  for (std::size_t r = 0; r < outputs.size(); ++r) {
    RunOutput& run = outputs[r];
    for (const auto& [id, c] : run.violations) {
      if (!spec::isKnownKafkaDeviation(id)) continue;
      const bool expected = std::any_of(report.results.begin(), report.results.end(), [r, &id = id](const TheoremResult& res) {
        return res.run == r && res.theorem->property == id;
      });
      if (!expected) run.summary.other_deviations.emplace_back(id, c.steps.size());
    }
    report.runs.push_back(run.summary);
  }
  report.seconds = secondsSince(start);
  return report;
}

}  // namespace kcspec::proofs
