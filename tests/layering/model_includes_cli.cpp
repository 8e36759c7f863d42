// Must not compile: model/ may see only the vocabulary, never the CLI (DESIGN.md arrows).
#include "cli/files.hpp"
