// `--mutant NAME` as every command that switches mutants of the reference controller on takes it.
#pragma once

#include <string>
#include <vector>

#include "impl/mutants.hpp"

namespace kcspec::cli {

// The mutants called `names` (what impl::mutantNamed takes: "M3", "m3" or the ticket); an unknown
// name is UserError("--mutant", …) listing the mutants there are.
impl::Mutants mutantsNamed(const std::vector<std::string>& names);

}  // namespace kcspec::cli
