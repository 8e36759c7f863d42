#include "docs/generator/proofs_page.hpp"

#include <fmt/format.h>

#include <map>
#include <set>

#include "docs/generator/markdown.hpp"
#include "proofs/compile_time/theorems.hpp"
#include "spec/rules/invariants.hpp"
#include "spec/vocabulary/number_text.hpp"

namespace kcspec::docs {
namespace {

using proofs::Catalog;
using proofs::Method;
using proofs::Theorem;

constexpr std::string_view kFingerprintPrefix = "<!-- theorem catalog fingerprint: ";

// A Markdown table cell: no line breaks, `|` escaped.
std::string cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out;
}

std::string counterexampleHeading(const Theorem& t) { return fmt::format("Counterexample {}: {}", t.id, t.name); }

std::string_view deviationWhy(std::string_view property) {
  const spec::Property* p = spec::catalogProperty(property);
  return p == nullptr ? std::string_view{} : p->kafka_deviation;
}

// The property's verdict over all its theorems of the report.
std::string propertyVerdict(const ProveReport& report, const std::vector<const TheoremResult*>& results) {
  const auto first = [&](Outcome outcome) -> const TheoremResult* {
    for (const TheoremResult* r : results) {
      if (r->outcome == outcome) return r;
    }
    return nullptr;
  };
  for (Outcome bad : {Outcome::Violated, Outcome::DeviationNotReproduced, Outcome::Incomplete}) {
    if (const TheoremResult* r = first(bad)) {
      return fmt::format("**{}** ({}{})", outcomeName(bad), r->theorem->id,
                         r->counterexample ? fmt::format(", {} steps", r->counterexample->steps.size()) : "");
    }
  }
  if (const TheoremResult* r = first(Outcome::DeviationConfirmed)) {
    return fmt::format("**Kafka deviation confirmed** ({}, shortest counterexample {} steps)", r->theorem->id,
                       r->counterexample ? r->counterexample->steps.size() : 0);
  }
  if (first(Outcome::Proven) != nullptr) return "proven (compile time)";
  // What the verdict covers: how many scopes, how much was explored, and the largest number of
  // perturbations one history of those scopes can hold.
  struct Coverage {
    std::size_t scopes = 0;
    std::uint64_t amount = 0;  // states (exhaustive) or histories (random)
    int fewest_perturbations = 0;
    int most_perturbations = 0;
    int max_steps = 0;
    void add(const RunSummary& run, std::uint64_t n) {
      fewest_perturbations = scopes == 0 ? run.max_perturbations : std::min(fewest_perturbations, run.max_perturbations);
      most_perturbations = std::max(most_perturbations, run.max_perturbations);
      max_steps = std::max(max_steps, run.random.max_steps);
      ++scopes;
      amount += n;
    }
    std::string perturbations() const {
      if (fewest_perturbations == most_perturbations) return fmt::format("{}", most_perturbations);
      return fmt::format("{}–{}", fewest_perturbations, most_perturbations);
    }
  };
  Coverage exhaustive, random;
  for (const TheoremResult* r : results) {
    if (!r->run) continue;
    const RunSummary& run = report.runs[*r->run];
    if (run.method == Method::Exhaustive) {
      exhaustive.add(run, run.states);
    } else {
      random.add(run, run.histories);
    }
  }
  std::string out = "holds:";
  if (exhaustive.scopes > 0) {
    out += fmt::format(" exhaustive in {} scope{} of at most {} perturbations per history ({} states)", exhaustive.scopes,
                       exhaustive.scopes == 1 ? "" : "s", exhaustive.perturbations(), grouped(exhaustive.amount));
  }
  if (random.scopes > 0) {
    out += fmt::format("{} random in {} scope{} of at most {} perturbations per history ({} histories of at most {} steps)",
                       exhaustive.scopes > 0 ? ";" : "", random.scopes, random.scopes == 1 ? "" : "s",
                       random.perturbations(), grouped(random.amount), random.max_steps);
  }
  return out;
}

std::string counterexampleBlock(const TheoremCounterexample& c) {
  std::string md;
  for (std::size_t i = 0; i < c.steps.size(); ++i) md += fmt::format("{}. `{}`\n", i + 1, c.steps[i]);
  if (c.steps.empty()) md += "(the initial state)\n";
  md += "\n";
  if (!c.recovery.empty()) {
    md += "From there, recovery actions alone never reach the goal; for example:\n\n";
    for (std::size_t i = 0; i < c.recovery.size(); ++i) {
      md += fmt::format("{}. `{}`\n", c.steps.size() + i + 1, c.recovery[i]);
    }
    md += "\n";
  }
  if (!c.detail.empty()) md += "What failed:\n\n```text\n" + c.detail + (c.detail.ends_with('\n') ? "" : "\n") + "```\n\n";
  md += "As a scenario file (`kcspec replay FILE` replays it through the spec):\n\n```text\n" + c.scenario + "```\n\n";
  return md;
}

}  // namespace

std::string compileTimeSection() {
  std::string out =
      "## Compile-time theorems\n\n"
      "Method: `static_assert` over the Rows of model/'s Boost.MSM transition tables, read from the "
      "types themselves (`model/table_rows.hpp`), in `proofs/compile_time/lifecycle_tables.cpp`. "
      "Scope: the partition lifecycle (4 states) and the replica lifecycle (7 states). "
      "Verdict: **proven** — kcspec does not build when one of them fails; the test "
      "`proofs.changed_row_breaks_build` changes one Row of each table and checks that the build fails.\n\n"
      "| id | statement |\n|---|---|\n";
  for (const auto& theorem : proofs::compileTimeTheorems()) {
    out += fmt::format("| {} | {} |\n", theorem.id, theorem.statement);
  }
  return out;
}

Catalog reportedCatalog(const Catalog& catalog, const ProveReport& report) {
  Catalog out;
  std::set<std::string> scopes;
  for (const TheoremResult& r : report.results) scopes.insert(r.theorem->scope);
  for (const proofs::Scope& s : catalog.scopes) {
    if (scopes.contains(s.name)) out.scopes.push_back(s);
  }
  for (const TheoremResult& r : report.results) out.theorems.push_back(*r.theorem);
  return out;
}

std::string fingerprintLine(const Catalog& catalog) {
  return fmt::format("{}{:016x} -->", kFingerprintPrefix, proofs::catalogFingerprint(catalog));
}

namespace {

// What the page is and how to read it (the same on every run).
std::string introSection() {
  return "# What kcspec proves\n\n"
         "`kcspec prove` runs the theorem catalog (`proofs/theorems/catalog.cpp`) and writes this page. Each theorem is "
         "a **property** (a compile-time theorem about the lifecycles, a property of the "
         "[invariant catalog](spec/invariants.md), the explorer's `GOOD`, `POR`: the search with partial-order reduction "
         "reports what the full search reports (below), or `AGREE`: the spec and the reference "
         "controller agree), a **scope** (a named configuration, listed at the end) and a **method**:\n\n"
         "- **compile-time**: a `static_assert`; kcspec does not build when it fails.\n"
         "- **exhaustive**: the explorer (`proofs/explorer/`) visits every state the spec reaches in the scope, breadth "
         "first, and checks every safety property at every state and step and every liveness goal (from every "
         "reachable state, recovery actions alone reach it); for `AGREE` it takes every edge with the spec and the "
         "reference controller in lockstep (`kcspec explore --system both`), whose observations and enabled actions "
         "must be equal after every step. A counterexample is the shortest.\n"
         "- **random histories**: N histories of at most M actions from a seed, chosen with the weights of "
         "`proofs/agreement/random_histories.hpp`; after every step the safety properties are checked on the spec, or (`AGREE`) "
         "the spec and the reference controller are compared (`docs/testing.md`). A counterexample is the shortest "
         "violating prefix among the histories, or (`AGREE`) the first failing history, shrunk.\n\n"
         "A property that Kafka 3.8 itself violates is a theorem whose expected verdict is **Kafka deviation "
         "confirmed**: the explorer reaches the violation in its scope, and its shortest counterexample is below. "
         "`kcspec prove` exits 0 when every theorem is proven, holds or is a confirmed Kafka deviation.\n\n";
}

// The argument for `kcspec explore --reduction por`, with its assumptions and what checks each.
std::string reductionSection() {
  return "## Partial-order reduction\n\n"
         "`kcspec explore --reduction por` expands, in a state where the spec's independence relation "
         "(`spec/vocabulary/independence.hpp`) allows it, one request delivery alone instead of every enabled action "
         "(`proofs/explorer/persistent_delivery.hpp` chooses it), and takes those deliveries in chains: after each "
         "step, the persistent delivery while there is one, keeping only the state where the chain ends (*Chains* "
         "below). **Theorem**: the "
         "reduced search reports exactly the properties the full search reports violated — state safety, step safety, "
         "liveness goals and `GOOD`, known Kafka deviations included. Its counterexamples replay but need not be the "
         "shortest (a safety counterexample is shortened until no single action of it can be dropped, which "
         "`explorer.ReducedSearch.*` checks): for the shortest, run with `--reduction none`. The `POR` theorems below check the claim on every "
         "exhaustive scope; the assumptions are checked as follows.\n\n"
         "Assumptions, for a delivery *a* = `deliver-request b` taken alone in state *s*:\n\n"
         "1. **Independence** (`independentOfDelivery`): an action the relation calls independent of *a* and *a* leave "
         "each other enabled and reach the same state, with the same step violations, in either order; `crash b` after "
         "*a* reaches the state `crash b` reaches alone (it absorbs *a*). Checked pair by pair in every reachable state "
         "of small configurations, on the spec and on the reference controller (`explorer.IndependenceRelation.*`). "
         "*Up to topic ids*: a new topic id is the least one nothing in the world holds (`freshTopicId`), so a "
         "`create-topic` and a delivery that drops the last copy of an old id give the new topic different ids in the "
         "two orders. Every rule and property reads an id only to compare it with another or with none, so states that "
         "differ by a one-to-one renaming of each topic's ids have the same futures, renamed alike, and violate the same "
         "properties; the relation holds up to that renaming, and the test compares the spec's states up to it "
         "(`withTopicIdsRenumbered`; configuration `recreate-small`). Below, \"the same state\" means the same up to it.\n"
         "2. **Persistence** (`deliveryIsPersistent`): every other action enabled in *s* is independent of *a* or "
         "absorbs it, and *a* is persistent again after it (checked in the same test, and for the persistence claims "
         "alone on a three-broker failover configuration too large for the pair check), so along every path from *s* "
         "that does not take *a*, *a* stays enabled and every action is independent of it or absorbs it. The "
         "relation reads the state's remaining perturbations only for bounds that, once spent, stay spent "
         "(`create-topic`, `delete-topic`: a follower's replica at an old leader epoch is safe from `expand-isr` "
         "only while its topic cannot be deleted and created again, which starts the epochs anew).\n"
         "3. **Invisibility**: *a* changes no state-safety property's value and breaks no step-safety property (a "
         "delivery changes only its broker's queues, replicas, metadata cache and known controller epoch, which no "
         "safety property reads). Goals are judged in quiescent states only, every request queue empty "
         "(`CatalogProperties::goalsReached`), and *b*'s queue loses its head only to *a* or to a `crash b`, which is "
         "not a recovery action: so no recovery path from *s* that does not take *a* reaches a goal. Checked in the "
         "same test (no state with a request queued reaches a goal). *a* is a recovery action, and only `crash`, "
         "which is not, absorbs it.\n"
         "4. **Descent, in place of a cycle proviso**: a delivery takes one request off its broker's queue and "
         "queues none (`queuedRequests`, checked for every delivery in the same test, and by the explorer at every "
         "step of a chain), and only deliveries are taken alone. A chain of deliveries therefore ends within as many "
         "steps as requests are queued, at a state expanded in full: every cycle of the reduced graph has a state "
         "expanded in full, and no action is deferred forever. (The explorer keeps a breadth-first cycle proviso — a "
         "state whose chosen successor is already known at its depth or shallower is expanded in full — for systems "
         "that name no such measure, `PersistentActionsDescend` in `proofs/explorer/system.hpp`; "
         "`explorer.CycleProviso.*` shows it at work. The catalog's systems needed it until session 25: it expanded "
         "in full a quarter of the states of `three-perturbations`.)\n\n"
         "**Safety.** Take a path π of the full graph from a state *s* of the reduced graph. If *s* is expanded in "
         "full, π's first step is in the reduced graph. Else let *a* be its delivery: if π takes *a*, the steps before "
         "it are independent of it (2) and *a* moves to the front, leaving π one step shorter; if a `crash b` on π "
         "comes first, *a* moves to just before it and the crash reaches π's own state (1); if π takes neither, π "
         "from *a*(*s*) reaches *a* applied to each of π's states, which violate the same properties (1, 3). Each case "
         "starts again from *a*(*s*), which has one request fewer queued (4), with a path no longer than π; a state "
         "with none queued has no delivery and is expanded in full. So induction on π's length and the requests "
         "queued gives a path of the reduced graph that shows every violation π shows. The reduced graph is part of the full one, so it shows no other.\n\n"
         "**Liveness.** A state *t* of the full graph from which recovery cannot reach a goal is matched (above) by a "
         "state *t*′ of the reduced graph reached from *t* by deferred deliveries, which are recovery actions: "
         "recovery reaches from *t*′ only what it reaches from *t*, so *t*′ violates the goal too, and the reduced "
         "graph, which has fewer edges, finds that. Conversely, a recovery path from a reduced state *s* to a goal "
         "has no crash (recovery only), so it takes *s*'s delivery (3), which moves to its front (2): the reduced "
         "graph's edge from *s* starts a recovery path one step shorter to the same goal state, and induction on the "
         "length gives one in the reduced graph: no violation is added.\n\n"
         "**Chains.** The states inside a chain of deliveries have one successor each in the reduced graph, so "
         "leaving them out keeps every path between the states kept, with the chain's deliveries written into the "
         "counterexample. They show nothing the chain's end does not: the same state properties (3), no step "
         "violation (3), and the same liveness verdict — recovery reaches the end from each of them, and a recovery "
         "path from one of them to a goal moves to one from the next (the converse above). The end is the same "
         "whichever persistent delivery is taken first: two persistent deliveries go to different brokers and "
         "commute, and each stays persistent until taken (2), so the chains from a state all end in one state. A "
         "search with chains keeps 4.6 times fewer states of `three-perturbations` than one without. Breadth-first "
         "order now counts a step and its chain as one, so a counterexample may be longer than with single steps. "
         "Inside a chain the spec's, the reference implementation's and the lockstep (`--system both`, the spec's "
         "choice while the two agree, none once they disagree) systems name the next delivery without "
         "listing every enabled action (`persistentActionIn`, `firstPersistentDelivery` in "
         "`proofs/explorer/persistent_delivery.hpp`: the first configured broker whose delivery the system enables "
         "and the relation calls persistent, which is the delivery `persistentDelivery` picks from the enabled list, "
         "as candidates list brokers in that order); `explorer.IndependenceRelation.HoldsForTheSpecInEveryState` and "
         "`HoldsForTheReferenceImplementationInEveryState` compare the two choices in every state they visit, "
         "and `SpecAndImplInLockstepNameThePersistentDeliveryAloneAsAmongTheEnabled` in every state of spec and impl "
         "in lockstep, with a mutant that makes them disagree and without.\n\n"
         "## Symmetry reduction\n\n"
         "`kcspec explore --reduction full` is partial-order reduction and, on the spec, symmetry reduction: brokers "
         "the configuration treats alike (a permutation σ of its brokers that maps every topic's assignment, "
         "reassignment targets and added partitions onto themselves, and the brokers alive at start onto themselves; "
         "`spec/vocabulary/symmetry.hpp`) are interchangeable, and the search keeps one state of each class. A state's "
         "fingerprint is that of the least encoding among its images σ(r(*s*)), where r renumbers each broker's "
         "epochs 1, 2, … in their order (`proofs/explorer/canonical_fingerprint.hpp`); the search keeps the first "
         "state of each class it meets with its own path, so counterexamples are real histories. The header names "
         "the group (`symmetry     brokers {2,3} (2 permutations); the search keeps one state of each class`). "
         "**Theorem**: the search reports exactly the properties the unreduced search reports violated. The `POR` "
         "theorems run with `full`; on the one scope with a symmetry (`spare-brokers`) they check this claim too.\n\n"
         "Assumptions, for every state *s*, permutation σ of the group and action *a*:\n\n"
         "1. **The rules treat the brokers alike**: σ(*s*) enables exactly σ of what *s* enables, and σ(*a*) leads "
         "from σ(*s*) to σ(next(*s*, *a*)) with the same step violations; the state properties and goals are the "
         "same in σ(*s*) and *s*. Checked over every reachable state of small symmetric configurations "
         "(`explorer.SymmetryRelabelling.*`).\n"
         "2. **Epochs are read only through their order**: r(*s*) enables what *s* enables, each action leads to a "
         "state whose renumbering is that of *s*'s successor, with the same violations, state properties and goals — "
         "the rules compare a broker's epochs only with that broker's other epochs, and a new registration's epoch "
         "exceeds every epoch so far. Checked over every reachable state of two configurations with restarts "
         "(`explorer.SymmetryRenumbering.*`; a renumbering that forgets the order fails it).\n"
         "3. **The fingerprint names the class**: equal on every image of a state, and shared only by states related "
         "by σ∘r (`explorer.SymmetryRenumbering.TheCanonicalFingerprint…`), up to the 64-bit hash's collisions, as "
         "for any state.\n\n"
         "By (1) and (2) the relation *s* ~ *t* ⇔ r(*s*) = σ(r(*t*)) for some σ is a bisimulation that keeps every "
         "property's value, every step violation and whether an action is a recovery action (its kind): the graph of "
         "classes has a path to a violation of a property exactly when the full graph has one, and a state from which "
         "recovery cannot reach a goal exactly when the full graph has one. Partial-order reduction applies to the "
         "graph of classes as to the full graph: its assumptions are about single states and actions, which (1) and "
         "(2) carry over, and every member of a class has as many requests queued (4). A step violation found "
         "in a state the replay reaches as another member of its class is shown with the action that violates the "
         "property from there.\n";
}

}  // namespace

std::string proofsPage(const Catalog& catalog, const ProveReport& report) {
  std::map<Outcome, std::size_t> counts;
  for (const TheoremResult& r : report.results) ++counts[r.outcome];
  std::string md =
      "<!-- Generated by `kcspec prove` from the theorem catalog (proofs/theorems/catalog.cpp). Do not edit by hand: "
      "run `kcspec prove`, then `kcspec docs`. -->\n";
  md += fingerprintLine(reportedCatalog(catalog, report)) + "\n";
  md += introSection();
  md += fmt::format(
      "**Summary**: {} theorems — {} proven at compile time, {} hold, {} Kafka deviations confirmed, {} violated, {} "
      "deviations not reproduced, {} incomplete. {} runs took {:.0f} s with {} explorer threads.\n\n",
      report.results.size(), counts[Outcome::Proven], counts[Outcome::Holds], counts[Outcome::DeviationConfirmed],
      counts[Outcome::Violated], counts[Outcome::DeviationNotReproduced], counts[Outcome::Incomplete],
      report.runs.size(), report.seconds, report.threads);

  // Verdicts by property (read back by the invariant catalog page).
  std::vector<std::string> properties;
  std::map<std::string, std::vector<const TheoremResult*>> by_property;
  for (const TheoremResult& r : report.results) {
    if (r.theorem->method == Method::CompileTime) continue;
    auto& list = by_property[r.theorem->property];
    if (list.empty()) properties.push_back(r.theorem->property);
    list.push_back(&r);
  }
  if (!properties.empty()) {
    md += "## Verdicts by property\n\n"
          "Every theorem of a property, in every scope and by every method, summed up (the invariant catalog page "
          "shows this column).\n\n";
    md += "| property | name | statement | latest verdict |\n|---|---|---|---|\n";
    for (const std::string& id : properties) {
      const Theorem& t = *by_property[id].front()->theorem;
      md += fmt::format("| {} | {} | {} | {} |\n", id, cell(t.name), cell(t.statement),
                        cell(propertyVerdict(report, by_property[id])));
    }
    md += "\n";
  }

  if (counts[Outcome::Proven] > 0) md += compileTimeSection() + "\n";
  md += reductionSection() + "\n";

  if (!report.runs.empty()) {
    md += "## Runs\n\nTheorems that share a scope and a method share one run; each row is one theorem (`<property>@<scope>`).\n\n";
    for (std::size_t r = 0; r < report.runs.size(); ++r) {
      const RunSummary& run = report.runs[r];
      const proofs::Scope* scope = catalog.scope(run.scope);
      md += fmt::format("### {}\n\n", runTitle(run));
      md += fmt::format("Scope [`{}`](#{}): {}; at most {} perturbations per history. Method: {}. Explored: {}.\n\n",
                        run.scope, headingId("Scope " + run.scope), scope ? scope->summary : "", run.max_perturbations,
                        proofs::methodName(run.method), runFigures(run));
      md += "| theorem | property | outcome |\n|---|---|---|\n";
      for (const TheoremResult& res : report.results) {
        if (res.run != r) continue;
        std::string outcome(outcomeName(res.outcome));
        if (res.counterexample) {
          outcome += fmt::format(", [counterexample](#{}) of {} steps", headingId(counterexampleHeading(*res.theorem)),
                                 res.counterexample->steps.size());
        }
        md += fmt::format("| {} | {} {} | {} |\n", res.theorem->id, res.theorem->property, cell(res.theorem->name),
                          cell(outcome));
      }
      if (!run.other_deviations.empty()) {
        md += "\nAlso reached in this run (known Kafka deviations that a theorem of another scope confirms):";
        for (const auto& [id, length] : run.other_deviations) md += fmt::format(" {} ({} steps);", id, length);
        md.back() = '.';
        md += "\n";
      }
      md += "\n";
    }
  }

  // Counterexamples: the confirmed deviations, then everything that failed.
  for (bool deviations : {true, false}) {
    bool any = false;
    for (const TheoremResult& r : report.results) {
      if (!r.counterexample || (r.outcome == Outcome::DeviationConfirmed) != deviations) continue;
      if (!any) {
        md += deviations ? "## Known Kafka deviations: counterexamples\n\n"
                           "Properties Kafka 3.8 violates (`kafka_deviation` in `spec/rules/invariants.cpp`; the story of each in "
                           "[rules.md](spec/rules.md#findings-so-far-properties-kafka-38-violates)), each with the "
                           "shortest counterexample the explorer found in the theorem's scope (in a scope explored "
                           "with `--reduction full` only, the reduced search's, which need not be the shortest).\n\n"
                         : "## Violations: counterexamples\n\n";
        any = true;
      }
      const TheoremCounterexample& c = *r.counterexample;
      const RunSummary& run = report.runs[*r.run];
      md += "### " + counterexampleHeading(*r.theorem) + "\n\n";
      md += r.theorem->statement + "\n\n";
      if (deviations) md += fmt::format("Kafka 3.8: {}\n\n", deviationWhy(r.theorem->property));
      md += fmt::format("In the {}: {} {} violate it. The {} counterexample, {} steps:\n\n", runTitle(run),
                        grouped(c.occurrences), c.occurrence_unit,
                        run.method == Method::Exhaustive && run.reduced_only ? "reduced search's"
                        : run.method == Method::Exhaustive                 ? "shortest"
                        : run.subject == proofs::Subject::SpecAndImpl ? "shrunk"
                                                                      : "shortest found",
                        c.steps.size());
      md += counterexampleBlock(c);
    }
  }

  // The scopes, with their configurations.
  std::set<std::string> used;
  for (const TheoremResult& r : report.results) used.insert(r.theorem->scope);
  md += "## Scopes\n\n";
  for (const proofs::Scope& s : catalog.scopes) {
    if (!used.contains(s.name)) continue;
    md += fmt::format("### Scope {}\n\n{}", s.name, s.summary);
    if (!s.preset.empty() || !s.config_text.empty()) {
      md += fmt::format(" At most {} perturbations in one history.\n\n",
                        maxPerturbationsPerHistory(proofs::scopeConfig(s).bounds));
      md += "```text\n" + proofs::scopeConfigText(s) + "```\n\n";
    } else {
      md += "\n\n";
    }
  }
  while (md.ends_with("\n\n")) md.pop_back();
  return md;
}

std::vector<std::string> proofsPageProblems(std::string_view page, const Catalog& catalog) {
  std::vector<std::string> problems;
  const std::size_t at = page.find(kFingerprintPrefix);
  if (at == std::string_view::npos) {
    problems.push_back("not written by `kcspec prove` (no theorem catalog fingerprint; run `kcspec prove`)");
    return problems;
  }
  const std::string_view line = page.substr(at, page.find('\n', at) - at);
  if (line != fingerprintLine(catalog)) {
    problems.push_back(
        "written by `kcspec prove` for another theorem catalog than the code's (run `kcspec prove`, then `kcspec docs`)");
  }
  if (page.find(compileTimeSection()) == std::string_view::npos) {
    problems.push_back("its compile-time section differs from the compile-time theorems (run `kcspec prove`)");
  }
  // The prose the generator writes on every run: edited by hand, or written by an older generator.
  if (page.find(introSection()) == std::string_view::npos) {
    problems.push_back("its introduction differs from what `kcspec prove` writes (run `kcspec prove`)");
  }
  if (page.find(reductionSection()) == std::string_view::npos) {
    problems.push_back("its reduction argument differs from what `kcspec prove` writes (run `kcspec prove`)");
  }
  return problems;
}

}  // namespace kcspec::docs
