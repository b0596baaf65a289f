# The layers of the library (docs/architecture.md), checked on every build: run as
#   cmake -DROOT=<source dir> -P cmake/CheckLayers.cmake
# by the target tac3map_layers, which the library depends on, so that an include of a folder
# above one's own, or two modules that include each other (directly or through others), is a
# build error naming the file.
#
# A folder may include its own headers and those of the folders before it in this list.
set(layers base io network mapping model gen search initial bcast output pipeline cli)

file(GLOB_RECURSE files RELATIVE "${ROOT}" "${ROOT}/src/*.cpp" "${ROOT}/src/*.hpp"
     "${ROOT}/include/tac3map/*.hpp")
set(errors "")
set(modules "")
foreach(file IN LISTS files)
  if(file MATCHES "^src/([a-z_]+)/([a-z_0-9]+)\\.(cpp|hpp)$")
    set(folder "${CMAKE_MATCH_1}")
    set(module "${CMAKE_MATCH_1}/${CMAKE_MATCH_2}")
  elseif(file MATCHES "^include/tac3map/([a-z_]+)/([a-z_0-9]+)\\.hpp$")
    set(folder "${CMAKE_MATCH_1}")
    set(module "${CMAKE_MATCH_1}/${CMAKE_MATCH_2}")
  else()
    continue()  # version.hpp (generated) and anything outside a layer folder
  endif()
  list(FIND layers "${folder}" level)
  if(level EQUAL -1)
    string(APPEND errors "${file}: folder '${folder}' is in no layer (cmake/CheckLayers.cmake)\n")
    continue()
  endif()
  list(APPEND modules "${module}")
  file(STRINGS "${ROOT}/${file}" includes REGEX "^#include \"")
  foreach(line IN LISTS includes)
    if(line MATCHES "^#include \"tac3map/([a-z_]+)/([a-z_0-9]+)\\.hpp\"")
      set(target "${CMAKE_MATCH_1}/${CMAKE_MATCH_2}")
      list(FIND layers "${CMAKE_MATCH_1}" targetLevel)
      if(targetLevel GREATER level)
        string(APPEND errors
               "${file}: includes tac3map/${target}.hpp, from layer '${CMAKE_MATCH_1}' above its own '${folder}' (layers, bottom first: ${layers})\n")
      endif()
    elseif(line MATCHES "^#include \"([a-z_0-9]+)\\.hpp\"")
      set(target "${folder}/${CMAKE_MATCH_1}")  # a private header beside the file
    else()
      continue()
    endif()
    if(NOT target STREQUAL module)
      set_property(GLOBAL APPEND PROPERTY "deps_${module}" "${target}")
    endif()
  endforeach()
endforeach()
list(REMOVE_DUPLICATES modules)

# Modules (a .hpp with its .cpp) must not include each other in a loop: depth-first search
# with three colours.
function(visit module path)
  get_property(colour GLOBAL PROPERTY "colour_${module}")
  if(colour STREQUAL "done")
    return()
  elseif(colour STREQUAL "open")
    set_property(GLOBAL APPEND_STRING PROPERTY loops "${path} -> ${module}\n")
    return()
  endif()
  set_property(GLOBAL PROPERTY "colour_${module}" open)
  get_property(deps GLOBAL PROPERTY "deps_${module}")
  list(REMOVE_DUPLICATES deps)
  foreach(dep IN LISTS deps)
    visit("${dep}" "${path} -> ${module}")
  endforeach()
  set_property(GLOBAL PROPERTY "colour_${module}" done)
endfunction()
foreach(module IN LISTS modules)
  visit("${module}" "")
endforeach()
get_property(loops GLOBAL PROPERTY loops)
if(loops)
  string(APPEND errors "modules that include each other in a loop:\n${loops}")
endif()

if(errors)
  message(FATAL_ERROR "layers (docs/architecture.md):\n${errors}")
endif()
