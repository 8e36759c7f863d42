// The embedded configurations: `default` (every perturbation kind, at most two per history:
// explored exhaustively in under a minute, DESIGN.md), `medium` and `large` (sized for about ten
// minutes and an hour: `medium` takes about eight, `large` about 26, and the next larger
// candidate outgrew this 24 GiB machine; docs/performance.md has today's times),
// `every-perturbation` (every kind once, without the overall bound: far too large to complete),
// `crash-isr` (the previous default),
// `crash-deletion` (the first slice's default), and `stress-4` and `stress-5` for random
// histories. Each is written in the configuration's text form and parsed, so it is valid by
// construction.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "spec/vocabulary/config.hpp"

namespace kcspec {

inline constexpr std::array<std::string_view, 8> kPresetNames = {
    "default", "medium", "large", "every-perturbation", "crash-isr", "crash-deletion", "stress-4", "stress-5"};

// The presets too large to explore that random histories (`kcspec mutants`, `kcspec prove`, the
// property tests) draw their variety from; the order is part of the histories' seeds.
inline constexpr std::array<std::string_view, 3> kRandomHistoryPresetNames = {"every-perturbation", "stress-4", "stress-5"};

// The preset called `name`, or nullopt when there is none.
std::optional<Config> preset(std::string_view name);

// How many states an exhaustive exploration of the preset visits (its published count,
// docs/performance.md), for presets explored to completion; nullopt for the others. The explorer
// takes it as a sizing hint (ExploreOptions::expected_states): a wrong count costs memory only.
std::optional<std::uint64_t> presetStateCount(std::string_view name);

// The preset's text, as `kcspec` could print it for a user to start from (nullopt: no such preset).
std::optional<std::string_view> presetText(std::string_view name);

}  // namespace kcspec
