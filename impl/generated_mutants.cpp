// The ordinary build's table of generated mutants: empty. `kcspec-schemata` links the table that
// tools/mutate writes instead (impl/generated_mutants.hpp); this file then stays out of the link
// because it defines nothing else.
#include "impl/generated_mutants.hpp"

namespace kcspec::impl::generated {

std::span<const GeneratedMutant> table() { return {}; }

}  // namespace kcspec::impl::generated
