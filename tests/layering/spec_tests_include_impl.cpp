// Must not compile in the spec's tests: they test the spec alone and link no other version.
#include "impl/cluster.hpp"
