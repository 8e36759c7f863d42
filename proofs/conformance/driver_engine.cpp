// The live driver's two modes (driver_engine.hpp).
#include "proofs/conformance/driver_engine.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <deque>
#include <stdexcept>
#include <unordered_map>

#include "proofs/agreement/shrink.hpp"
#include "proofs/explorer/state_codec.hpp"
#include "spec/vocabulary/capacity.hpp"
#include "spec/rules/step.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/observation_text.hpp"

namespace kcspec::conformance {
namespace {

using Clock = std::chrono::steady_clock;

std::uint64_t splitmix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// The spec's enabled actions the SUT implements (and its protocol has).
std::vector<Action> candidates(const Config& config, const spec::ClusterState& state, const SutSession& sut) {
  std::vector<Action> enabled = spec::enabledActions(config, state);
  std::erase_if(enabled, [&](const Action& a) { return !sut.speaks(a.kind); });
  if (const auto& implemented = sut.implementedActions()) {
    std::erase_if(enabled, [&](const Action& a) {
      return std::find(implemented->begin(), implemented->end(), a.kind) == implemented->end();
    });
  }
  return enabled;
}

// The SUT's observation against the spec's; a Mismatch failure with the diff when they differ.
std::optional<SutFailure> compare(const Config& config, const SutSession& sut, const Observation& spec_world,
                                  const Observation& sut_view, const std::string& when) {
  const Observation spec_view = sut.comparable(spec_world);
  if (spec_view == sut_view) return std::nullopt;
  const std::vector<Change> changes = diffObservations(config, spec_view, sut_view);
  return SutFailure{FindingKind::Mismatch,
                    fmt::format("{}, the SUT's observation differs from the spec's in {} place{}", when, changes.size(),
                                changes.size() == 1 ? "" : "s"),
                    "path: spec -> SUT\n" + renderChangesText(changes)};
}

// Where every history starts: the session's given world, or the configuration's initial state.
spec::ClusterState startingState(const Config& config, const SutSession& sut) {
  return sut.given() ? spec::givenState(config, *sut.given()) : spec::initialState(config);
}

// The comparison's words for the starting observation.
const char* startingWhen(const SutSession& sut) { return sut.given() ? "after given" : "after init (or reset)"; }

bool cancelled(const DriveOptions& options) { return options.cancel != nullptr && options.cancel->load(); }

// Throttles progress reports to about one a second (now(): a report at once, for a new phase).
class ProgressClock {
 public:
  explicit ProgressClock(const DriveOptions& options) : options_(options) {}
  void tick(const DriveProgress& progress) {
    if (Clock::now() - last_ < std::chrono::seconds(1)) return;
    now(progress);
  }
  void now(const DriveProgress& progress) {
    if (!options_.progress) return;
    last_ = Clock::now();
    options_.progress(progress);
  }

 private:
  const DriveOptions& options_;
  Clock::time_point last_ = Clock::now();
};

// Shrinks a failing random history (keeping the failure's kind) and fills in the finding.
Finding shrunkFinding(const Config& config, SutSession& sut, const DriveOptions& options, std::vector<Action> history,
                      SutFailure failure, DriveProgress& totals, ProgressClock& clock) {
  Finding finding;
  finding.unshrunk_length = history.size();
  totals.shrinking = true;
  totals.found_length = history.size();
  totals.shortest_failing = history.size();
  clock.now(totals);
  const FindingKind kind = failure.kind;
  const SutFailure failure_as_found = failure;
  SutFailure last_failure = std::move(failure);
  std::size_t last_failing_step = history.size();
  int timeouts = 0;
  const auto still_fails = [&](const std::vector<Action>& candidate) {
    if (timeouts >= options.max_shrink_timeouts) return false;  // each costs a whole timeout
    if (cancelled(options)) {  // Ctrl-C: keep what is shrunk so far
      finding.shrink_interrupted = true;
      return false;
    }
    const ReplayOutcome outcome = replayHistory(config, sut, candidate, &totals.sut_steps, /*fresh=*/true);
    ++totals.shrink_replays;
    if (outcome.kind == ReplayOutcome::Kind::Failed && outcome.failure->kind == FindingKind::Timeout) ++timeouts;
    const bool fails_alike = outcome.kind == ReplayOutcome::Kind::Failed && outcome.failure->kind == kind;
    if (fails_alike) {
      last_failure = *outcome.failure;
      last_failing_step = outcome.failing_step;
      totals.shortest_failing = std::min(totals.shortest_failing, std::min(candidate.size(), outcome.failing_step));
    }
    clock.tick(totals);
    return fails_alike;
  };
  // A failure that needs the histories before it (a SUT whose reset leaves something behind) is
  // reported as found, unshrunk.
  if (!still_fails(history)) {
    finding.failure = std::move(failure_as_found);
    finding.history = std::move(history);
    finding.reproduces_alone = finding.shrink_interrupted;  // not known when Ctrl-C came first
    finding.shrink_replays = finding.shrink_interrupted ? 0 : 1;
    return finding;
  }
  agreement::ShrinkResult shrunk = agreement::shrinkHistory(std::move(history), still_fails, options.max_shrink_replays);
  // The last accepted candidate is the result; it failed at its last_failing_step-th action.
  shrunk.history.resize(std::min(shrunk.history.size(), last_failing_step));
  finding.failure = std::move(last_failure);
  finding.history = std::move(shrunk.history);
  finding.shrink_replays = shrunk.replays + 1;
  return finding;
}

DriveReport driveRandom(const Config& config, SutSession& sut, const DriveOptions& options) {
  DriveReport report;
  ProgressClock clock(options);
  const spec::ClusterState initial = startingState(config, sut);
  for (int h = 0; h < options.histories; ++h) {
    if (cancelled(options)) {
      report.interrupted = true;
      return report;
    }
    const std::uint64_t seed = historySeed(options.seed, h);
    std::uint64_t random = seed;
    std::vector<Action> history;
    std::optional<SutFailure> failure;

    SutResult start = sut.begin();
    if (auto* f = std::get_if<SutFailure>(&start)) {
      failure = *f;
    } else {
      failure = compare(config, sut, initial.world, std::get<Observation>(start), startingWhen(sut));
    }
    spec::ClusterState state = initial;
    for (int step = 0; step < options.max_steps && !failure; ++step) {
      if (cancelled(options)) {  // the history is cut short: not counted
        report.interrupted = true;
        return report;
      }
      const std::vector<Action> enabled = candidates(config, state, sut);
      if (enabled.empty()) break;
      random = splitmix(random);
      const std::size_t pick = options.choose ? options.choose(state, enabled, random) : random % enabled.size();
      const Action& action = enabled[pick];
      try {
        state = spec::next(config, state, action);
      } catch (const CapacityExceeded&) {  // the history goes beyond the model: it ends here, unsent
        ++report.totals.histories_at_capacity;
        break;
      }
      history.push_back(action);
      ++report.totals.sut_steps;
      SutResult got = sut.step(action);
      if (auto* f = std::get_if<SutFailure>(&got)) {
        failure = *f;
      } else {
        failure = compare(config, sut, state.world, std::get<Observation>(got),
                          fmt::format("after step {} ({})", history.size(), printAction(config, action)));
      }
    }
    ++report.totals.histories;
    clock.tick(report.totals);
    if (failure) {
      Finding finding = shrunkFinding(config, sut, options, std::move(history), std::move(*failure), report.totals, clock);
      finding.history_seed = seed;
      finding.history_index = h;
      report.finding = std::move(finding);
      return report;
    }
  }
  report.complete = true;
  return report;
}

// The spec's state graph, breadth first, within the bounds: per state its BFS parent (for the
// shortest path to it) and its out-edges. States themselves are not kept (an Observation is
// tens of kilobytes): the walk recomputes them along the way.
struct Graph {
  struct Edge {
    Action action;
    std::int64_t target = -1;  // -1: a state beyond the bounds (its edge is checked, not its successors)
    bool checked = false;
  };
  struct Node {
    std::int64_t parent = -1;
    Action via;  // the action from the parent
    int depth = 0;
    std::vector<Edge> edges;
    std::size_t unchecked = 0;
  };
  std::vector<Node> nodes;
  bool truncated = false;

  std::vector<Action> pathTo(std::int64_t index) const {
    std::vector<Action> path;
    for (std::int64_t i = index; nodes[static_cast<std::size_t>(i)].parent >= 0; i = nodes[static_cast<std::size_t>(i)].parent) {
      path.push_back(nodes[static_cast<std::size_t>(i)].via);
    }
    return {path.rbegin(), path.rend()};
  }
};

Graph specGraph(const Config& config, const SutSession& sut, const DriveOptions& options, DriveReport& report,
                ProgressClock& clock) {
  Graph graph;
  const spec::ClusterState initial = startingState(config, sut);
  std::unordered_map<std::uint64_t, std::int64_t> index{{explorer::fingerprintWorld(initial.world, initial.budget), 0}};
  graph.nodes.push_back(Graph::Node{});
  // Levels are kept encoded (explorer/state_codec.hpp: a few hundred bytes a state).
  const auto encode = [](const spec::ClusterState& state) {
    std::string bytes;
    explorer::encodeWorld(state.world, state.budget, bytes);
    return bytes;
  };
  std::vector<std::pair<std::int64_t, std::string>> level{{0, encode(initial)}};
  for (int depth = 0; !level.empty(); ++depth) {
    report.totals.depth = depth;
    std::vector<std::pair<std::int64_t, std::string>> next_level;
    for (auto& [i, bytes] : level) {
      if (cancelled(options)) return graph;
      spec::ClusterState state;
      explorer::decodeWorld(bytes, state.world, state.budget);
      bytes.clear();
      bytes.shrink_to_fit();
      const std::vector<Action> enabled = candidates(config, state, sut);
      if (depth >= options.max_steps) {
        graph.truncated = graph.truncated || !enabled.empty();
        continue;
      }
      for (const Action& action : enabled) {
        spec::ClusterState successor;
        try {
          successor = spec::next(config, state, action);
        } catch (const CapacityExceeded& e) {  // beyond the model: the run stops with the history
          std::vector<Action> history = graph.pathTo(i);
          history.push_back(action);
          report.capacity = CapacityStop{e.what(), std::move(history)};
          return graph;
        }
        const std::uint64_t fingerprint = explorer::fingerprintWorld(successor.world, successor.budget);
        std::int64_t target = -1;
        if (const auto it = index.find(fingerprint); it != index.end()) {
          target = it->second;
        } else if (graph.nodes.size() < options.max_states) {
          target = static_cast<std::int64_t>(graph.nodes.size());
          index.emplace(fingerprint, target);
          graph.nodes.push_back(Graph::Node{i, action, depth + 1, {}, 0});
          next_level.emplace_back(target, encode(successor));
        } else {
          graph.truncated = true;
        }
        Graph::Node& node = graph.nodes[static_cast<std::size_t>(i)];
        node.edges.push_back(Graph::Edge{action, target, false});
        ++node.unchecked;
      }
      report.totals.states = graph.nodes.size();
      clock.tick(report.totals);
    }
    level = std::move(next_level);
  }
  return graph;
}

// Checks every edge of the graph with as few resets as it can: from the state the SUT is in, it
// takes an unchecked edge (preferring one whose target has unchecked edges of its own), and
// only when none is left there resets the SUT and replays the BFS path to the next state with
// unchecked edges. A failure is reported on a shortest path (the BFS path to the edge's source
// plus the edge) when that path fails too, else on the walk that failed.
DriveReport driveExhaustive(const Config& config, SutSession& sut, const DriveOptions& options) {
  DriveReport report;
  ProgressClock clock(options);
  // The SUT's own initial state first: a SUT that cannot init fails here, before the graph.
  const ReplayOutcome first = replayHistory(config, sut, {}, &report.totals.sut_steps);
  if (first.kind == ReplayOutcome::Kind::Failed) {
    report.finding = Finding{*first.failure, {}, 0, -1, 0, 0, true};
    return report;
  }
  Graph graph = specGraph(config, sut, options, report, clock);
  if (report.capacity) return report;

  std::size_t next_source = 0;  // nodes before it have no unchecked edges
  while (true) {
    if (cancelled(options)) {
      report.interrupted = true;
      return report;
    }
    while (next_source < graph.nodes.size() && graph.nodes[next_source].unchecked == 0) ++next_source;
    if (next_source == graph.nodes.size()) break;
    // Reset and replay the BFS path to next_source (its edges were checked before).
    std::int64_t at = static_cast<std::int64_t>(next_source);
    std::vector<Action> walk = graph.pathTo(at);
    const ReplayOutcome reached = replayHistory(config, sut, walk, &report.totals.sut_steps);
    spec::ClusterState state = startingState(config, sut);
    for (const Action& action : walk) state = spec::next(config, state, action);
    std::optional<SutFailure> failure;
    if (reached.kind == ReplayOutcome::Kind::Failed) {
      failure = reached.failure;
      walk.resize(reached.failing_step);
    }
    while (!failure && at >= 0 && !cancelled(options)) {
      Graph::Node& node = graph.nodes[static_cast<std::size_t>(at)];
      Graph::Edge* edge = nullptr;
      for (Graph::Edge& e : node.edges) {
        if (e.checked) continue;
        if (edge == nullptr) edge = &e;
        if (e.target >= 0 && graph.nodes[static_cast<std::size_t>(e.target)].unchecked > 0) {
          edge = &e;
          break;
        }
      }
      if (edge == nullptr) break;  // a dead end: reset
      edge->checked = true;
      --node.unchecked;
      ++report.totals.transitions;
      walk.push_back(edge->action);
      state = spec::next(config, state, edge->action);
      ++report.totals.sut_steps;
      SutResult got = sut.step(edge->action);
      if (auto* f = std::get_if<SutFailure>(&got)) {
        failure = *f;
      } else {
        failure = compare(config, sut, state.world, std::get<Observation>(got),
                          fmt::format("after step {} ({})", walk.size(), printAction(config, edge->action)));
      }
      if (failure) {
        // A shortest path to the same edge, in a fresh process.
        std::vector<Action> shortest = graph.pathTo(at);
        shortest.push_back(edge->action);
        const ReplayOutcome again = replayHistory(config, sut, shortest, &report.totals.sut_steps, /*fresh=*/true);
        if (again.kind == ReplayOutcome::Kind::Failed) {
          failure = again.failure;
          shortest.resize(again.failing_step);
          walk = std::move(shortest);
        }
        break;
      }
      at = edge->target;
      clock.tick(report.totals);
    }
    if (failure) {
      report.finding = Finding{std::move(*failure), std::move(walk), 0, -1, 0, 0, true};
      return report;
    }
  }
  report.complete = !graph.truncated;
  return report;
}

}  // namespace

std::uint64_t historySeed(std::uint64_t seed, int history) {
  return splitmix(seed * 1000003u + static_cast<std::uint64_t>(history));
}

ReplayOutcome replayHistory(const Config& config, SutSession& sut, const std::vector<Action>& history,
                            std::uint64_t* sut_steps, bool fresh) {
  // The spec first: a history it does not enable is not the SUT's fault.
  std::vector<spec::ClusterState> states{startingState(config, sut)};
  for (const Action& action : history) {
    if (!spec::isEnabled(config, states.back(), action)) return ReplayOutcome{ReplayOutcome::Kind::NotApplicable, {}, 0};
    try {
      states.push_back(spec::next(config, states.back(), action));
    } catch (const CapacityExceeded&) {  // beyond the model (a shrinking candidate may get there)
      return ReplayOutcome{ReplayOutcome::Kind::NotApplicable, {}, 0};
    }
  }
  SutResult start = sut.begin(fresh);
  if (auto* f = std::get_if<SutFailure>(&start)) return ReplayOutcome{ReplayOutcome::Kind::Failed, *f, 0};
  if (auto f = compare(config, sut, states[0].world, std::get<Observation>(start), startingWhen(sut))) {
    return ReplayOutcome{ReplayOutcome::Kind::Failed, std::move(f), 0};
  }
  for (std::size_t i = 0; i < history.size(); ++i) {
    if (sut_steps != nullptr) ++*sut_steps;
    SutResult got = sut.step(history[i]);
    if (auto* f = std::get_if<SutFailure>(&got)) return ReplayOutcome{ReplayOutcome::Kind::Failed, *f, i + 1};
    if (auto f = compare(config, sut, states[i + 1].world, std::get<Observation>(got),
                         fmt::format("after step {} ({})", i + 1, printAction(config, history[i])))) {
      return ReplayOutcome{ReplayOutcome::Kind::Failed, std::move(f), i + 1};
    }
  }
  return ReplayOutcome{ReplayOutcome::Kind::Passed, std::nullopt, 0};
}

DriveReport driveHistory(const Config& config, SutSession& sut, const std::vector<Action>& history) {
  DriveReport report;
  const ReplayOutcome outcome = replayHistory(config, sut, history, &report.totals.sut_steps);
  if (outcome.kind == ReplayOutcome::Kind::NotApplicable) {
    throw std::invalid_argument("a step of the history is not enabled in the spec");
  }
  report.totals.histories = 1;
  report.complete = true;
  if (outcome.kind == ReplayOutcome::Kind::Failed) {
    std::vector<Action> failing(history.begin(), history.begin() + static_cast<std::ptrdiff_t>(outcome.failing_step));
    report.finding = Finding{*outcome.failure, std::move(failing), 0, -1, 0, 0, true};
  }
  return report;
}

DriveReport drive(const Config& config, SutSession& sut, const DriveOptions& options) {
  return options.exhaustive ? driveExhaustive(config, sut, options) : driveRandom(config, sut, options);
}

}  // namespace kcspec::conformance
