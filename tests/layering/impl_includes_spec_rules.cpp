// Must not compile: impl/ may see the vocabulary and model/, never spec's rules (DESIGN.md).
#include "spec/rules/step.hpp"
