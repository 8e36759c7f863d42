// `kcspec prove [--only ID…] [--out FILE] [--threads N] [--json] [--list]`: runs the theorem
// catalog (proofs/theorems/catalog.hpp) and writes docs/proofs.md (docs/generator/proofs_page.hpp). A
// progress line per run and per theorem goes to stderr; on a terminal, a line rewritten twice a
// second shows how far the run in progress is. Ctrl-C stops the run in progress, prints the
// theorems decided before it, writes nothing and exits 130.
//
// Exit status (cli/exit_status.hpp): 0 every theorem is proven, holds, or is a confirmed known
// Kafka deviation; 1 a theorem is violated or a deviation was not reproduced; 2 bad input; 3 a
// theorem is incomplete (its run stopped at a limit) and none failed; 130 interrupted (when
// nothing decided so far failed).
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "cli/exit_status.hpp"
#include "cli/files.hpp"
#include "cli/interrupt_guard.hpp"
#include "cli/number_options.hpp"
#include "docs/generator/proofs_page.hpp"
#include "cli/terminal_line.hpp"
#include "proofs/theorems/runner.hpp"
#include "spec/vocabulary/assert.hpp"

namespace kcspec::cli {

using namespace docs;  // the generator (docs/generator/) renders what this command prints
namespace {

using proofs::Catalog;
using proofs::Theorem;

struct ProveCommandOptions {
  std::vector<std::string> only;
  std::string out = "docs/proofs.md";
  bool out_given = false;
  unsigned threads = 0;
  std::uint64_t max_memory_mib = 4096;  // per exploration; past it the theorem is incomplete
  bool json = false;
  bool list = false;
};

// The theorems `only` names (a theorem id, a property id or a scope name each), or all.
std::vector<const Theorem*> select(const Catalog& catalog, const std::vector<std::string>& only) {
  std::vector<const Theorem*> chosen;
  std::set<const Theorem*> seen;
  const auto take = [&](const Theorem& t) {
    if (seen.insert(&t).second) chosen.push_back(&t);
  };
  if (only.empty()) {
    for (const Theorem& t : catalog.theorems) take(t);
    return chosen;
  }
  for (const std::string& name : only) {
    bool matched = false;
    if (const Theorem* exact = catalog.theorem(name)) {
      take(*exact);
      matched = true;
    } else {
      for (const Theorem& t : catalog.theorems) {
        if (t.property == name || t.scope == name) {
          take(t);
          matched = true;
        }
      }
    }
    if (!matched) {
      throw UserError("--only", fmt::format("no theorem, property or scope called '{}' (`kcspec prove --list` lists them)",
                                            name));
    }
  }
  return chosen;
}

nlohmann::ordered_json jsonReport(const ProveReport& report, const std::string& written) {
  nlohmann::ordered_json json;
  json["success"] = report.success();
  json["interrupted"] = report.interrupted;
  json["seconds"] = report.seconds;
  json["threads"] = report.threads;
  json["out"] = written.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(written);
  nlohmann::ordered_json runs = nlohmann::ordered_json::array();
  for (const RunSummary& run : report.runs) {
    nlohmann::ordered_json entry;
    entry["scope"] = run.scope;
    entry["method"] = std::string(proofs::methodName(run.method));
    entry["subject"] = std::string(proofs::subjectName(run.subject));
    entry["max_perturbations"] = run.max_perturbations;
    if (run.method == proofs::Method::Exhaustive) {
      entry["states"] = run.states;
      entry["transitions"] = run.transitions;
      entry["max_depth"] = run.max_depth;
      entry["complete"] = run.complete;
    } else {
      entry["histories"] = run.histories;
      entry["steps"] = run.states;
      entry["seed"] = run.random.seed;
      entry["max_steps"] = run.random.max_steps;
    }
    entry["seconds"] = run.seconds;
    runs.push_back(entry);
  }
  json["runs"] = runs;
  nlohmann::ordered_json theorems = nlohmann::ordered_json::array();
  for (const TheoremResult& r : report.results) {
    nlohmann::ordered_json entry;
    entry["id"] = r.theorem->id;
    entry["property"] = r.theorem->property;
    entry["scope"] = r.theorem->scope;
    entry["method"] = std::string(proofs::methodName(r.theorem->method));
    entry["expectation"] = r.theorem->expectation == proofs::Expectation::Holds ? "holds" : "known Kafka deviation";
    entry["verdict"] = std::string(outcomeName(r.outcome));
    entry["run"] = r.run ? nlohmann::ordered_json(*r.run) : nlohmann::ordered_json(nullptr);
    if (r.counterexample) {
      nlohmann::ordered_json c;
      c["steps"] = r.counterexample->steps;
      if (!r.counterexample->recovery.empty()) c["recovery"] = r.counterexample->recovery;
      if (!r.counterexample->detail.empty()) c["detail"] = r.counterexample->detail;
      c["occurrences"] = r.counterexample->occurrences;
      c["scenario"] = r.counterexample->scenario;
      entry["counterexample"] = c;
    }
    theorems.push_back(entry);
  }
  json["theorems"] = theorems;
  return json;
}

void printText(const ProveReport& report, const std::string& written) {
  std::size_t failed = 0;
  std::size_t incomplete = 0;
  for (const TheoremResult& r : report.results) {
    if (r.outcome == Outcome::DeviationConfirmed) {
      const bool reduced = r.run && report.runs[*r.run].reduced_only;  // the reduced search's, not the shortest
      fmt::print("{}: Kafka deviation confirmed, {} {} steps\n", r.theorem->id,
                 reduced ? "counterexample" : "shortest counterexample",
                 r.counterexample ? r.counterexample->steps.size() : 0);
    }
    if (outcomeIsSuccess(r.outcome)) continue;
    ++(r.outcome == Outcome::Incomplete ? incomplete : failed);
    fmt::print("{}: {}\n", r.theorem->id, outcomeName(r.outcome));
    if (r.counterexample) {
      for (std::size_t i = 0; i < r.counterexample->steps.size(); ++i) {
        fmt::print("  {:>3}. {}\n", i + 1, r.counterexample->steps[i]);
      }
      if (!r.counterexample->detail.empty()) fmt::print("  {}\n", r.counterexample->detail);
    }
  }
  fmt::print("{} theorems in {} runs, {:.1f} s{}: {}\n", report.results.size(), report.runs.size(), report.seconds,
             report.interrupted ? " (interrupted: the others were not run)" : "",
             failed + incomplete == 0 ? std::string("every theorem is proven, holds or is a confirmed Kafka deviation")
             : incomplete == 0      ? fmt::format("{} failed", failed)
             : failed == 0 ? fmt::format("{} incomplete (stopped at a limit: not decided)", incomplete)
                           : fmt::format("{} failed, {} incomplete (stopped at a limit: not decided)", failed, incomplete));
  if (!written.empty()) {
    fmt::print("wrote {} (docs/spec/invariants.md reads its verdicts from docs/proofs.md: run `kcspec docs`)\n", written);
  }
}

int runProve(const ProveCommandOptions& options) {
  const Catalog& catalog = proofs::theoremCatalog();
  const std::vector<const Theorem*> selection = select(catalog, options.only);
  if (options.list) {  // the selection (--only applies), as text or JSON
    nlohmann::ordered_json listed = nlohmann::ordered_json::array();
    for (const Theorem* t : selection) {
      const std::string_view expectation =
          t->expectation == proofs::Expectation::Holds ? "holds" : "known Kafka deviation";
      if (options.json) {
        listed.push_back({{"id", t->id}, {"method", proofs::methodName(t->method)}, {"expectation", expectation}});
      } else {
        fmt::print("{}\t{}\t{}\n", t->id, proofs::methodName(t->method), expectation);
      }
    }
    if (options.json) fmt::print("{}\n", listed.dump());
    return 0;
  }
  // A partial run does not overwrite the whole page unless asked to.
  const bool write = options.only.empty() || options.out_given;
  if (write) checkWritableLater(options.out, /*folder=*/false, "--out");  // before the work, not after it
  ProveOptions run;
  run.threads = options.threads;
  run.max_memory_bytes = options.max_memory_mib * 1024 * 1024;
  // On a terminal a transient line (the run in progress) is rewritten in place; each progress
  // line of its own first takes it off. The runner throttles the ticks.
  TerminalLine line;
  run.progress = [&line](const std::string& text) {
    line.clear();
    fmt::print(stderr, "prove: {}\n", text);
    std::fflush(stderr);
  };
  if (line.on()) run.tick = [&line](const std::string& text) { line.show("prove:   " + text); };
  InterruptGuard guard;
  run.cancel = &interruptFlag();
  const ProveReport report = prove(catalog, selection, run);
  line.clear();
  std::string written;
  if (report.interrupted) {
    fmt::print(stderr, "kcspec prove: interrupted; partial report ({} of {} theorems decided), nothing written\n",
               report.results.size(), selection.size());
  } else if (write) {
    writeFileAtomically(options.out, proofsPage(catalog, report) + "\n");
    written = options.out;
  }
  if (options.json) {
    fmt::print("{}\n", jsonReport(report, written).dump());
  } else {
    printText(report, written);
    if (!write && !report.interrupted) fmt::print("(--only without --out: nothing written)\n");
  }
  // A violation or an unreproduced deviation decides; a theorem that could not be decided (its run
  // stopped at a limit) is incomplete, never success.
  const auto is = [&](proofs::Outcome o) {
    return std::any_of(report.results.begin(), report.results.end(), [o](const TheoremResult& r) { return r.outcome == o; });
  };
  if (is(proofs::Outcome::Violated) || is(proofs::Outcome::DeviationNotReproduced)) return kExitViolation;
  if (report.interrupted) return kExitInterrupted;
  if (is(proofs::Outcome::Incomplete)) return kExitIncomplete;
  KCSPEC_ASSERT(report.success());
  return kExitHolds;
}

}  // namespace

CommandRun addProveCommand(CLI::App& app) {
  auto options = std::make_shared<ProveCommandOptions>();
  auto* command = app.add_subcommand("prove", "Run the theorem catalog and write docs/proofs.md");
  command->footer(std::string(kExitStatusFooter));
  command->add_option("--only", options->only,
                      "Only these theorems (a theorem id such as S1@crash-failover, a property id such as S1, or a "
                      "scope name); repeatable. Without --out nothing is written");
  auto* out = command->add_option("--out", options->out, "Where the page is written")->capture_default_str();
  command->add_option("--threads", options->threads, "The explorer's worker threads (default: the hardware's cores)")
      ->check(CLI::Range(1u, 1024u));
  command->add_option("--max-memory", options->max_memory_mib,
                      "MiB of checker memory per exploration (default 4096); a run that needs more leaves its theorems "
                      "incomplete (exit 3)")
      ->check(wholeNumber(1, 1 << 30));
  command->add_flag("--json", options->json, "Print one JSON object instead of the text summary");
  auto* list = command->add_flag("--list", options->list, "List the theorems (id, method, expectation; those --only selects; "
                                 "a JSON array with --json) and exit");
  list->excludes(out);
  return [options, out] {
    options->out_given = out->count() > 0;
    return runProve(*options);
  };
}

}  // namespace kcspec::cli
