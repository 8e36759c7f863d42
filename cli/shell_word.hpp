// Command lines kcspec prints for the user to run again ("reproduce: …"): each word quoted for a
// POSIX shell where it needs to be.
#pragma once

#include <string>

namespace kcspec::cli {

// `word` as one shell word: as it is when it holds only safe characters (letters, digits and
// -_./=:,+), else in single quotes (a quote inside as '\'').
std::string shellWord(const std::string& word);

}  // namespace kcspec::cli
