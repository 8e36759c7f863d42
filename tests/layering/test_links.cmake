# cmake -DTARGET=name -DLINKS="a;b" -DALLOWED="a;b" -P test_links.cmake
# Passes only if every project layer (kcspec_*) that the test binary TARGET links directly is in
# ALLOWED: a test folder links the layers it tests, nothing more (issue "One home for each idea").
cmake_minimum_required(VERSION 3.20)
set(extra)
foreach(link IN LISTS LINKS)
  if(link MATCHES "^kcspec_" AND NOT link IN_LIST ALLOWED)
    list(APPEND extra ${link})
  endif()
endforeach()
if(extra)
  message(FATAL_ERROR "${TARGET} links ${extra}, a layer its folder does not test (allowed: ${ALLOWED})")
endif()
if(NOT LINKS)
  message(FATAL_ERROR "${TARGET} links nothing: the check would prove nothing")
endif()
message(STATUS "${TARGET} links only ${ALLOWED}")
