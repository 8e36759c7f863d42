// docs/proofs.md: what kcspec proves, rendered from the theorem catalog in proofs/.
#pragma once

#include <string>

namespace kcspec::cli {

std::string proofsPage();

}  // namespace kcspec::cli
