#include "spec/vocabulary/metadata_version.hpp"

#include <string>

#include "spec/vocabulary/assert.hpp"

namespace kcspec {
namespace {

// Each value's `version()` (ibpVersion): its release (shortVersion), then `-IV<n>` from 0.10.0 on.
constexpr std::array<std::string_view, kMetadataVersionCount> kSpellings = {
    "0.8.0",      "0.8.1",      "0.8.2",      "0.9.0",      "0.10.0-IV0", "0.10.0-IV1", "0.10.1-IV0", "0.10.1-IV1",
    "0.10.1-IV2", "0.10.2-IV0", "0.11.0-IV0", "0.11.0-IV1", "0.11.0-IV2", "1.0-IV0",    "1.1-IV0",    "2.0-IV0",
    "2.0-IV1",    "2.1-IV0",    "2.1-IV1",    "2.1-IV2",    "2.2-IV0",    "2.2-IV1",    "2.3-IV0",    "2.3-IV1",
    "2.4-IV0",    "2.4-IV1",    "2.5-IV0",    "2.6-IV0",    "2.7-IV0",    "2.7-IV1",    "2.7-IV2",    "2.8-IV0",
    "2.8-IV1",    "3.0-IV0",    "3.0-IV1",    "3.1-IV0",    "3.2-IV0",    "3.3-IV0",    "3.3-IV1",    "3.3-IV2",
    "3.3-IV3",    "3.4-IV0",    "3.5-IV0",    "3.5-IV1",    "3.5-IV2",    "3.6-IV0",    "3.6-IV1",    "3.6-IV2",
    "3.7-IV0",    "3.7-IV1",    "3.7-IV2",    "3.7-IV3",    "3.7-IV4",    "3.8-IV0",
};

constexpr std::string_view releaseOf(std::string_view full) { return full.substr(0, full.find('-')); }

// Kafka's IBP_VERSIONS map: every full spelling, and every release for its newest production value.
std::optional<MetadataVersion> lookup(std::string_view key) {
  for (std::size_t i = 0; i < kSpellings.size(); ++i) {
    if (kSpellings[i] == key) return static_cast<MetadataVersion>(i);
  }
  std::optional<MetadataVersion> newest;
  for (std::size_t i = 0; i <= static_cast<std::size_t>(kLatestProductionMetadataVersion); ++i) {
    if (releaseOf(kSpellings[i]) == key) newest = static_cast<MetadataVersion>(i);
  }
  return newest;
}

}  // namespace

std::string_view metadataVersionName(MetadataVersion version) {
  const auto i = static_cast<std::size_t>(version);
  KCSPEC_ASSERT(i < kSpellings.size());
  return kSpellings[i];
}

std::optional<MetadataVersion> parseMetadataVersion(std::string_view text) {
  // Java's versionString.split("."): the segments, trailing empty ones dropped. With more than 2
  // (3 for "0.x") the key is the first 2 (3) joined again, else the whole text.
  const std::size_t kept_segments = text.starts_with("0.") ? 3 : 2;
  std::size_t segments = 0;
  std::size_t kept_end = text.size();  // where the kept segments end in `text`
  std::size_t start = 0;
  std::size_t nonempty_segments = 0;   // segments up to the last non-empty one
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != '.') continue;
    ++segments;
    if (i > start) nonempty_segments = segments;
    if (segments == kept_segments) kept_end = i;
    start = i + 1;
  }
  const std::string_view key = nonempty_segments > kept_segments ? text.substr(0, kept_end) : text;
  return lookup(key);
}

}  // namespace kcspec
