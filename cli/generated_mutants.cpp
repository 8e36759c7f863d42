// `kcspec mutants --generated` (generated_mutants.hpp). Each mutant runs in a child process of
// its own (fork), so that a mutant that crashes the controller or loops is contained and bounded
// in time; up to --jobs children run at once. A child sets impl::generated::active, runs the
// random histories of every check configuration (the property tests' comparison of spec and
// impl, proofs/agreement), then, if nothing failed, `explore --system both` on `default` to a
// fixed depth; it reports one line through a pipe. A mutant is killed by a failed check, a crash
// (an assertion of the controller or a signal) or the time limit; else it survives.
#include "cli/starting_state.hpp"
#include "cli/generated_mutants.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "cli/command.hpp"
#include "cli/files.hpp"
#include "cli/interrupt_guard.hpp"
#include "cli/terminal_line.hpp"
#include "impl/generated_mutants.hpp"
#include "spec/vocabulary/assert.hpp"
#include "proofs/agreement/agreement.hpp"
#include "proofs/agreement/random_histories.hpp"
#include "proofs/explorer/both_system.hpp"
#include "proofs/explorer/explorer.hpp"
#include "proofs/theorems/catalog.hpp"
#include "spec/vocabulary/config_text.hpp"
#include "spec/vocabulary/presets.hpp"
#include "spec/vocabulary/scenario_text.hpp"
#include "spec/rules/invariants.hpp"

namespace kcspec::cli {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int kBaseline = -1;  // the run without a mutant

struct Outcome {
  int id = kBaseline;
  bool killed = false;
  std::string by;      // "invariant S2 …", "disagreement …", "crash (signal 6)", "timeout (60 s)"
  std::string where;   // "reassignment, history 3, 17 steps" or "explore default, depth 4"
  double seconds = 0;
};

struct NamedScenario {
  std::string file;
  Scenario scenario;
};

struct NamedConfig {
  std::string name;  // as given: a preset, a catalog scope or a file
  Config config;
};

// `--explore-config`: a preset (spec/vocabulary/presets.hpp), a scope of the theorem catalog
// (its small configurations, which explore exhaustively in seconds) or a configuration file.
NamedConfig resolveExploreConfig(const std::string& given) {
  if (std::optional<Config> config = preset(given)) return {given, *config};
  const proofs::Catalog& catalog = proofs::theoremCatalog();
  if (const proofs::Scope* scope = catalog.scope(given); scope != nullptr && !scope->config_text.empty()) {
    return {given, proofs::scopeConfig(*scope)};
  }
  if (!std::filesystem::is_regular_file(given)) {
    std::string names;
    for (std::string_view known : kPresetNames) names += (names.empty() ? "" : ", ") + std::string(known);
    for (const proofs::Scope& scope : catalog.scopes) {
      if (!scope.config_text.empty()) names += ", " + scope.name;
    }
    throw UserError("--explore-config",
                    fmt::format("'{}' is no preset, no scope of the theorem catalog and no file (there are: {})", given, names));
  }
  return {given, parseConfig(readUserFile(given, "a configuration file"), given)};  // TextError: file:line: message
}

// What every child runs besides the random histories, read once in the parent.
struct Inputs {
  std::vector<NamedScenario> scenarios;
  std::vector<NamedConfig> explore_configs;
};

// DIR/G<id>.scenario: the history that killed mutant `id`, replayable, with `why` ("<check> on
// <configuration>") and the replay commands in its header comment. Returns the path.
std::string writeKilledHistory(const std::string& dir, int id, const Config& config, const std::vector<Action>& steps,
                               const std::string& why) {
  const std::string path = (std::filesystem::path(dir) / fmt::format("G{}.scenario", id)).string();
  Scenario scenario;
  scenario.config = config;
  scenario.steps = steps;
  const std::string text =
      printScenario(scenario, fmt::format("# kcspec-schemata mutants --generated: G{} killed by {}\n"
                                          "# replay: kcspec-schemata replay --impl --generated {} {} (the mutant's "
                                          "state-change.log); kcspec replay {} (the spec's)\n",
                                          id, why, id, path, path));
  writeFileAtomically(path, text);
  return path;
}

// In the child: the checks with mutant `id` on; the first failure, or nothing. First the given
// scenarios (directed histories that reach rare paths), then the random histories, then explore.
Outcome runChecks(const GeneratedMutantsOptions& o, const Inputs& in, int id) {
  impl::generated::active = id;
  Outcome out;
  out.id = id;
  for (const NamedScenario& s : in.scenarios) {
    const std::optional<agreement::Counterexample> failure = agreement::replayBoth(
        s.scenario.config, impl::Mutants{}, s.scenario.steps, s.scenario.given ? &s.scenario.given->world : nullptr);
    if (!failure) continue;
    out.killed = true;
    out.by = failure->verdict.by;
    out.where = fmt::format("{}, step {}", s.file, failure->steps.size());
    return out;
  }
  const auto& configs = agreement::checkConfigs();
  for (std::size_t c = 0; c < configs.size(); ++c) {
    for (int i = 0; i < o.budget; ++i) {
      const std::uint64_t seed = agreement::historySeed(o.seed, c, i);
      std::optional<agreement::Counterexample> failure =
          agreement::randomHistory(configs[c].config, impl::Mutants{}, seed, o.max_steps);
      if (!failure) continue;
      out.killed = true;
      out.by = failure->verdict.by;
      out.where = fmt::format("{}, history {} (seed {}), {} steps", configs[c].name, i, seed, failure->steps.size());
      if (!o.out.empty()) {
        // Replayable from a file: the history as a scenario, shrunk with --shrink (hundreds of
        // replays each: minutes over a whole table).
        const agreement::Counterexample small =
            o.shrink ? agreement::shrink(configs[c].config, impl::Mutants{}, std::move(*failure)) : std::move(*failure);
        const std::string path = writeKilledHistory(o.out, id, configs[c].config, small.steps,
                                                    fmt::format("{} on {}", small.verdict.by, configs[c].name));
        out.where = fmt::format("{}, {} steps{}: {}", configs[c].name, small.steps.size(), o.shrink ? " after shrinking" : "", path);
      }
      return out;
    }
  }
  if (o.explore_depth <= 0) return out;
  for (const NamedConfig& named : in.explore_configs) {
    explorer::ExploreOptions run;
    run.threads = 1;
    run.max_depth = o.explore_depth;  // beyond the configuration's diameter: all of it
    run.check_liveness = false;
    run.is_known_deviation = [](std::string_view p) { return spec::isKnownKafkaDeviation(p); };
    const auto result = explorer::explore(explorer::BothSystem(named.config, impl::Mutants{}), run);
    for (const auto& v : result.violations) {
      if (v.known_deviation) continue;
      out.killed = true;
      out.by = fmt::format("{} {}", v.property, v.name);
      out.where = fmt::format("explore --system both on {}, {} steps", named.name, v.path.size());
      if (!o.out.empty()) {
        const std::string path = writeKilledHistory(
            o.out, id, named.config, v.path, fmt::format("{} (explore --system both on {}, a shortest history)", out.by, named.name));
        out.where += ": " + path;
      }
      return out;
    }
  }
  return out;
}

// The child's stderr goes into the pipe too (a failed assertion names itself there); its report
// is the line after this marker.
constexpr std::string_view kResultMarker = "@@kcspec-result\t";

// One line: marker, killed<TAB>by<TAB>where (tabs and newlines in the texts become spaces).
std::string encode(const Outcome& o) {
  auto clean = [](std::string s) {
    std::replace_if(s.begin(), s.end(), [](char c) { return c == '\t' || c == '\n'; }, ' ');
    return s;
  };
  return fmt::format("{}{}\t{}\t{}\n", kResultMarker, o.killed ? 1 : 0, clean(o.by), clean(o.where));
}

struct Child {
  int id = kBaseline;
  pid_t pid = -1;
  int pipe_fd = -1;
  std::string output;
  Clock::time_point started;
};

Child start(const GeneratedMutantsOptions& o, const Inputs& in, int id) {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("mutants: pipe failed");
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("mutants: fork failed");
  if (pid == 0) {
    close(fds[0]);
    dup2(fds[1], STDERR_FILENO);
    // The parent decides: when interrupted it kills its children, which would otherwise be counted
    // as crashed by a signal meant for the whole process group.
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) signal(sig, SIG_IGN);
    std::string line;
    try {
      line = encode(runChecks(o, in, id));
    } catch (const std::exception& e) {
      line = encode({id, true, fmt::format("exception: {}", e.what()), "", 0});
    }
    const char* p = line.data();
    std::size_t left = line.size();
    while (left > 0) {
      const ssize_t n = write(fds[1], p, left);
      if (n <= 0) break;
      p += n;
      left -= static_cast<std::size_t>(n);
    }
    _exit(0);
  }
  close(fds[1]);
  fcntl(fds[0], F_SETFL, O_NONBLOCK);
  return {id, pid, fds[0], "", Clock::now()};
}

void drain(Child& c) {
  char buffer[4096];
  for (;;) {
    const ssize_t n = read(c.pipe_fd, buffer, sizeof buffer);
    if (n <= 0) return;
    c.output.append(buffer, static_cast<std::size_t>(n));
    constexpr std::size_t kMaxKeptBytes = 64 * 1024;  // a mutant that floods stderr: keep its last words
    if (c.output.size() > 4 * kMaxKeptBytes) c.output.erase(0, c.output.size() - kMaxKeptBytes);
  }
}

Outcome finish(Child& c, int status, bool timed_out, int max_seconds) {
  drain(c);
  close(c.pipe_fd);
  Outcome out;
  out.id = c.id;
  out.seconds = std::chrono::duration<double>(Clock::now() - c.started).count();
  if (timed_out) {
    out.killed = true;
    out.by = fmt::format("timeout ({} s)", max_seconds);
    return out;
  }
  const std::size_t marker = c.output.rfind(kResultMarker);
  if (WIFSIGNALED(status) || marker == std::string::npos) {
    // No report: the controller crashed (a failed assertion aborts) or exited; its last words say where.
    std::string last = c.output.substr(0, c.output.find_last_not_of("\n") + 1);
    last = last.substr(last.find_last_of('\n') + 1);
    out.killed = true;
    out.by = WIFSIGNALED(status) ? fmt::format("crash (signal {})", WTERMSIG(status))
                                 : fmt::format("crash (exit status {})", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    out.where = last;
    return out;
  }
  const std::string report = c.output.substr(marker + kResultMarker.size());
  const std::size_t t1 = report.find('\t');
  const std::size_t t2 = t1 == std::string::npos ? t1 : report.find('\t', t1 + 1);
  KCSPEC_ASSERT(t2 != std::string::npos);  // encode() wrote it
  out.killed = report[0] == '1';
  out.by = report.substr(t1 + 1, t2 - t1 - 1);
  out.where = report.substr(t2 + 1);
  if (!out.where.empty() && out.where.back() == '\n') out.where.pop_back();
  return out;
}

// Runs `ids` with at most `jobs` children at once; `done` is called as each finishes. False when interrupted.
bool runAll(const GeneratedMutantsOptions& o, const Inputs& in, const std::vector<int>& ids, unsigned jobs,
            const std::function<void(const Outcome&)>& done) {
  std::vector<Child> running;
  std::size_t next = 0;
  while (next < ids.size() || !running.empty()) {
    if (interruptFlag().load()) {
      for (Child& c : running) {
        kill(c.pid, SIGKILL);
        waitpid(c.pid, nullptr, 0);
        close(c.pipe_fd);
      }
      return false;
    }
    while (running.size() < jobs && next < ids.size()) running.push_back(start(o, in, ids[next++]));
    std::vector<pollfd> fds;
    for (const Child& c : running) fds.push_back({c.pipe_fd, POLLIN, 0});
    poll(fds.data(), fds.size(), 100);
    for (std::size_t k = 0; k < running.size();) {
      Child& c = running[k];
      drain(c);
      int status = 0;
      const bool timed_out = Clock::now() - c.started > std::chrono::seconds(o.max_seconds_per_mutant);
      if (timed_out) {
        kill(c.pid, SIGKILL);
        waitpid(c.pid, &status, 0);
      } else if (waitpid(c.pid, &status, WNOHANG) != c.pid) {
        ++k;
        continue;
      }
      done(finish(c, status, timed_out, o.max_seconds_per_mutant));
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(k));
    }
  }
  return true;
}

// A line of the equivalent list: `<file> | <operator> | <original> | <why>`.
struct EquivalentEntry {
  std::string file, op, original, why;
  int line = 0;  // in the list
};

std::string trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return std::string(s);
}

// The list, each entry checked against the table: an entry no mutant matches is stale (the code
// changed) and is an error, `file:line: message`.
std::vector<EquivalentEntry> readEquivalent(const std::string& path, std::span<const impl::generated::GeneratedMutant> table) {
  const std::string text = readUserFile(path, "the equivalent-mutant list");
  std::vector<EquivalentEntry> entries;
  std::size_t at = 0;
  for (int number = 1; at < text.size(); ++number) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    const std::string line = trim(std::string_view(text).substr(at, end - at));
    at = end + 1;
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fields;
    std::size_t from = 0;
    for (int k = 0; k < 3; ++k) {
      const std::size_t bar = line.find(" | ", from);
      if (bar == std::string::npos) break;
      fields.push_back(trim(std::string_view(line).substr(from, bar - from)));
      from = bar + 3;
    }
    fields.push_back(trim(std::string_view(line).substr(from)));
    if (fields.size() != 4 || fields[3].empty()) {
      throw UserError(fmt::format("{}:{}", path, number), "expected `<file> | <operator> | <original> | <why it is equivalent>`");
    }
    EquivalentEntry e{fields[0], fields[1], fields[2], fields[3], number};
    const bool matches = std::any_of(table.begin(), table.end(), [&](const impl::generated::GeneratedMutant& m) {
      return m.file == e.file && m.op == e.op && m.original == e.original;
    });
    if (!matches) {
      throw UserError(fmt::format("{}:{}", path, number),
                      fmt::format("no generated mutant is {} {} `{}` (stale after a change of the code?)", e.file, e.op, e.original));
    }
    entries.push_back(std::move(e));
  }
  return entries;
}

const EquivalentEntry* equivalentOf(const std::vector<EquivalentEntry>& entries, const impl::generated::GeneratedMutant& m) {
  for (const EquivalentEntry& e : entries) {
    if (m.file == e.file && m.op == e.op && m.original == e.original) return &e;
  }
  return nullptr;
}

nlohmann::ordered_json describe(const impl::generated::GeneratedMutant& m) {
  nlohmann::ordered_json e;
  e["id"] = m.id;
  e["file"] = m.file;
  e["line"] = m.line;
  e["column"] = m.column;
  e["operator"] = m.op;
  e["original"] = m.original;
  e["mutated"] = m.mutated;
  return e;
}

}  // namespace

int runGeneratedMutants(const GeneratedMutantsOptions& o) {
  const auto table = impl::generated::table();
  if (table.empty()) {
    throw UserError("--generated",
                    "this kcspec has no generated mutants: run kcspec-schemata (built beside kcspec, "
                    "docs/testing.md \"Generated mutants\")");
  }
  std::vector<int> ids;
  if (!o.only.empty()) {
    for (int id : o.only) {
      if (id < 0 || static_cast<std::size_t>(id) >= table.size()) {
        throw UserError("--id", fmt::format("no generated mutant {} (there are {}: 0 to {})", id, table.size(), table.size() - 1));
      }
      ids.push_back(id);
    }
  } else if (o.sample > 0 && static_cast<std::size_t>(o.sample) < table.size()) {
    for (int k = 0; k < o.sample; ++k) ids.push_back(static_cast<int>(static_cast<std::size_t>(k) * table.size() / static_cast<std::size_t>(o.sample)));
  } else {
    for (std::size_t k = 0; k < table.size(); ++k) ids.push_back(static_cast<int>(k));
  }
  const std::vector<EquivalentEntry> equivalent = o.equivalent.empty() ? std::vector<EquivalentEntry>{}
                                                                       : readEquivalent(o.equivalent, table);
  if (o.list) {
    nlohmann::ordered_json all = nlohmann::ordered_json::array();
    for (int id : ids) {
      const impl::generated::GeneratedMutant& m = table[static_cast<std::size_t>(id)];
      if (o.json) all.push_back(describe(m));
      else fmt::print("G{} {}:{}:{} {}: {}  ->  {}\n", id, m.file, m.line, m.column, m.op, m.original, m.mutated);
    }
    if (o.json) fmt::print("{}\n", all.dump(2));
    return 0;
  }
  // The scenarios, read (and refused with file:line when malformed) before any work.
  Inputs in;
  std::vector<NamedScenario>& scenarios = in.scenarios;
  for (const std::string& given : o.scenarios) {
    std::vector<std::string> files;
    if (std::filesystem::is_directory(given)) {
      for (const auto& entry : std::filesystem::directory_iterator(given)) {
        if (entry.path().extension() == ".scenario") files.push_back(entry.path().string());
      }
      std::sort(files.begin(), files.end());
      if (files.empty()) throw UserError("--scenarios", fmt::format("{} holds no .scenario file", given));
    } else {
      files.push_back(given);
    }
    for (const std::string& file : files) {
      scenarios.push_back({file, parseScenario(readUserFile(file, "a scenario file"), file)});
      // A given world is where the scenario's history starts, on both versions (tests/scenarios/given).
      requireNoComponentActions(scenarios.back().scenario, file, "mutants --generated");
    }
  }
  for (const std::string& given : o.explore_configs) in.explore_configs.push_back(resolveExploreConfig(given));
  if (o.explore_configs.empty()) in.explore_configs.push_back({"two-perturbations", *preset("two-perturbations")});
  const unsigned jobs = o.jobs > 0 ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
  if (!o.out.empty()) checkWritableLater(o.out, /*folder=*/true, "--out");  // before the work, not after it

  InterruptGuard guard;
  TerminalLine line;
  const auto started = Clock::now();
  // The checks mean something only if the controller without a mutant passes them.
  std::optional<Outcome> baseline;
  runAll(o, in, {kBaseline}, 1, [&](const Outcome& r) { baseline = r; });
  if (!baseline) {
    fmt::print(stderr, "kcspec mutants: interrupted\n");
    return 130;
  }
  if (baseline->killed) {
    fmt::print(stderr, "kcspec mutants: the impl without mutants fails the checks ({}; {}); fix that first\n", baseline->by,
               baseline->where);
    return 1;
  }
  std::map<int, Outcome> outcomes;
  const bool complete = runAll(o, in, ids, jobs, [&](const Outcome& r) {
    outcomes[r.id] = r;
    if (line.due()) {
      const double s = std::chrono::duration<double>(Clock::now() - started).count();
      line.show(fmt::format("mutants: {} of {} generated mutants run, {} survived, {:.0f} s", outcomes.size(), ids.size(),
                            std::count_if(outcomes.begin(), outcomes.end(), [](const auto& e) { return !e.second.killed; }),
                            s));
    }
  });
  line.clear();
  const double seconds = std::chrono::duration<double>(Clock::now() - started).count();

  std::size_t killed = 0, equivalent_survivors = 0;
  std::map<std::string, std::pair<int, int>> per_operator;  // op -> (killed, run)
  std::map<std::string, std::pair<int, int>> per_file;
  nlohmann::ordered_json json;
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  std::vector<const Outcome*> survivors;
  for (const auto& [id, r] : outcomes) {
    const impl::generated::GeneratedMutant& m = table[static_cast<std::size_t>(id)];
    killed += r.killed ? 1 : 0;
    per_operator[std::string(m.op)].first += r.killed ? 1 : 0;
    per_operator[std::string(m.op)].second += 1;
    per_file[std::string(m.file)].first += r.killed ? 1 : 0;
    per_file[std::string(m.file)].second += 1;
    const EquivalentEntry* eq = equivalentOf(equivalent, m);
    if (!r.killed && eq != nullptr) ++equivalent_survivors;
    if (!r.killed && eq == nullptr) survivors.push_back(&r);
    nlohmann::ordered_json e = describe(m);
    e["killed"] = r.killed;
    e["equivalent"] = eq != nullptr ? nlohmann::ordered_json(eq->why) : nlohmann::ordered_json(nullptr);
    e["by"] = r.killed ? nlohmann::ordered_json(r.by) : nlohmann::ordered_json(nullptr);
    e["where"] = r.where.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.where);
    e["seconds"] = std::round(r.seconds * 10) / 10;
    list.push_back(e);
  }
  // The score: killed over the mutants run that are not triaged as equivalent.
  const std::size_t counted = outcomes.size() - equivalent_survivors;
  const double score = counted == 0 ? 100.0 : 100.0 * static_cast<double>(killed) / static_cast<double>(counted);
  json["mutants"] = outcomes.size();
  json["of"] = table.size();
  json["killed"] = killed;
  json["equivalent"] = equivalent_survivors;
  json["survived"] = survivors.size();
  json["score_percent"] = std::round(score * 10) / 10;
  json["seconds"] = std::round(seconds);
  json["budget"] = o.budget;
  json["seed"] = o.seed;
  json["explore_depth"] = o.explore_depth;
  json["complete"] = complete;
  for (const auto& [op, kr] : per_operator) json["operators"][op] = {{"killed", kr.first}, {"run", kr.second}};
  for (const auto& [file, kr] : per_file) json["files"][file] = {{"killed", kr.first}, {"run", kr.second}};
  json["results"] = list;
  if (!o.out.empty()) {
    writeFileAtomically((std::filesystem::path(o.out) / "generated-mutants.json").string(), json.dump(2) + "\n");
  }
  if (o.json) {
    fmt::print("{}\n", json.dump(2));
  } else {
    for (const auto& [op, kr] : per_operator) fmt::print("  {:<18} {:>4} of {:>4} killed\n", op, kr.first, kr.second);
    for (const Outcome* r : survivors) {
      const impl::generated::GeneratedMutant& m = table[static_cast<std::size_t>(r->id)];
      fmt::print("SURVIVED G{} {}:{}:{} {}: {}  ->  {}\n", r->id, m.file, m.line, m.column, m.op, m.original, m.mutated);
    }
    fmt::print("{} of {} generated mutants killed, {} equivalent (triaged), {} survived: score {:.1f} % of the "
               "non-equivalent (budget {} histories per configuration, seed {}, "
               "explore depth {}; {:.0f} s){}\n",
               killed, outcomes.size(), equivalent_survivors, survivors.size(), score, o.budget, o.seed, o.explore_depth, seconds,
               complete ? "" : fmt::format("; interrupted: {} of {} not run", ids.size() - outcomes.size(), ids.size()));
  }
  if (!complete) return 130;
  return score < o.fail_under ? 1 : 0;
}

}  // namespace kcspec::cli
