// Must not compile: spec/ is written against its own plain tables, never model/'s machines.
#include "model/lifecycle.hpp"
