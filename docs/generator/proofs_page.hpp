// docs/proofs.md: what kcspec proves. `kcspec prove` writes it from the results of the theorem
// catalog (proofs/theorems/catalog.hpp, proofs/theorems/runner.hpp); `kcspec docs` does not write it,
// it reads the "Verdicts by property" table back into the invariant catalog page
// (docs_spec_pages.hpp verdictsFromProofsPage), and `kcspec docs --check` checks the page with
// proofsPageProblems below.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "proofs/theorems/runner.hpp"
#include "proofs/theorems/catalog.hpp"

namespace kcspec::docs {

using proofs::Outcome;
using proofs::ProveOptions;
using proofs::ProveReport;
using proofs::RunSummary;
using proofs::TheoremCounterexample;
using proofs::TheoremResult;
using proofs::outcomeIsSuccess;
using proofs::outcomeName;
using proofs::runFigures;
using proofs::runTitle;

// The page for `report`, a run of (part of) `catalog`. Deterministic but for the times.
std::string proofsPage(const proofs::Catalog& catalog, const ProveReport& report);

// The compile-time section of the page (the same on every run).
std::string compileTimeSection();

// The catalog the page was written for: the scopes and theorems of `report` (its fingerprint is
// on the page).
proofs::Catalog reportedCatalog(const proofs::Catalog& catalog, const ProveReport& report);

// What is wrong with `page` (the text of docs/proofs.md) for the current `catalog`: nothing when
// it was written by `kcspec prove` for exactly this catalog; otherwise one line per problem.
std::vector<std::string> proofsPageProblems(std::string_view page, const proofs::Catalog& catalog);

// The marker line holding the catalog's fingerprint.
std::string fingerprintLine(const proofs::Catalog& catalog);

}  // namespace kcspec::docs
