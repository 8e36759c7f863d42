// The embedded configurations: `default` (explored exhaustively in under a minute, DESIGN.md),
// `crash-deletion` (the first slice's default), `every-perturbation` (every kind once: far too
// large to complete), and `medium` and `large` for random histories (not sized yet). Each is
// written in the configuration's text form and parsed, so it is valid by construction.
#pragma once

#include <array>
#include <optional>
#include <string_view>

#include "spec/vocabulary/config.hpp"

namespace kcspec {

// (`crash-deletion` is served by preset() but not listed: the list's order seeds the random
// histories of `kcspec mutants`.)
inline constexpr std::array<std::string_view, 4> kPresetNames = {"default", "every-perturbation", "medium", "large"};

// The preset called `name`, or nullopt when there is none.
std::optional<Config> preset(std::string_view name);

// The preset's text, as `kcspec` could print it for a user to start from (nullopt: no such preset).
std::optional<std::string_view> presetText(std::string_view name);

}  // namespace kcspec
