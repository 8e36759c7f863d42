// KCSPEC_ASSERT states an invariant where it holds. It is on in every build type: a broken
// invariant stops the program at once with its location, rather than letting a wrong state
// travel on and surface later as a wrong answer.
#pragma once

#include <cstdio>
#include <cstdlib>

#define KCSPEC_ASSERT(condition)                                                          \
  do {                                                                                    \
    if (!(condition)) {                                                                   \
      std::fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__, __LINE__, #condition); \
      std::abort();                                                                       \
    }                                                                                     \
  } while (false)
