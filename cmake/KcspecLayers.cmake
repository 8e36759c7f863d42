# Layer roots: how CMake, not convention, enforces DESIGN.md's dependency arrows.
#
# Sources include each other as "<layer>/<file>.hpp" (e.g. "spec/vocabulary/states.hpp",
# "model/partition_lifecycle.hpp"). The repository root is never an include directory.
# Instead, every layer gets its own root under the build tree that holds a single symbolic
# link to the layer's folder:
#
#   <build>/layer-roots/vocabulary/spec/vocabulary -> <source>/spec/vocabulary
#   <build>/layer-roots/spec-rules/spec/rules      -> <source>/spec/rules
#   <build>/layer-roots/model/model                -> <source>/model
#   ...
#
# A target links (and so sees) only the layers it may depend on; an include of any other
# layer's header fails to compile. tests/layering checks that no source escapes with "../".

set(KCSPEC_LAYER_ROOTS "${CMAKE_BINARY_DIR}/layer-roots")

# kcspec_layer_root(<name> <folder relative to the source root>)
# Creates <build>/layer-roots/<name>/<folder> -> <source>/<folder> and records the root in the
# global KCSPEC_LAYER_ROOT_<name> (tests compile against exactly a layer's roots).
function(kcspec_layer_root name folder)
  set(root "${KCSPEC_LAYER_ROOTS}/${name}")
  set(link "${root}/${folder}")
  get_filename_component(parent "${link}" DIRECTORY)
  file(MAKE_DIRECTORY "${parent}")
  if(NOT EXISTS "${link}")
    file(CREATE_LINK "${CMAKE_SOURCE_DIR}/${folder}" "${link}" SYMBOLIC)
  endif()
  set(KCSPEC_LAYER_ROOT_${name} "${root}" CACHE INTERNAL "include root of layer ${name}")
endfunction()

# Warnings on and clean, for every target of the project.
function(kcspec_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                           -Wno-sign-conversion -Werror
                                           # designated initializers rely on member defaults on purpose
                                           -Wno-missing-field-initializers)
endfunction()
