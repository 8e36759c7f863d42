#include "cli/mutant_options.hpp"

#include <fmt/format.h>

#include "cli/files.hpp"

namespace kcspec::cli {

impl::Mutants mutantsNamed(const std::vector<std::string>& names) {
  impl::Mutants mutants;
  for (const std::string& name : names) {
    const std::optional<impl::Mutant> mutant = impl::mutantNamed(name);
    if (!mutant) {
      std::string known;
      for (const impl::MutantInfo& info : impl::kMutants) known += (known.empty() ? "" : ", ") + std::string(info.name);
      throw UserError("--mutant", fmt::format("no mutant called '{}' (there are: {})", name, known));
    }
    mutants.enable(*mutant);
  }
  return mutants;
}

}  // namespace kcspec::cli
