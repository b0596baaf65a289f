# Scotch (Debian libscotch-dev: the static libraries, header in scotch/), behind --init graph,
# as the target tac3map::scotch. One file for both sides: the build includes it, and it is
# installed beside tac3mapConfig.cmake so that a consumer of the installed (static) library
# finds the same libraries on its own machine instead of paths baked in at build time.
# Sets TAC3MAP_SCOTCH_FOUND.
find_path(TAC3MAP_SCOTCH_INCLUDE_DIR scotch/scotch.h)
find_library(TAC3MAP_SCOTCH_LIBRARY NAMES libscotch.a scotch)
find_library(TAC3MAP_SCOTCHERR_LIBRARY NAMES libscotcherr.a scotcherr)
if(TAC3MAP_SCOTCH_INCLUDE_DIR AND TAC3MAP_SCOTCH_LIBRARY AND TAC3MAP_SCOTCHERR_LIBRARY)
  set(TAC3MAP_SCOTCH_FOUND TRUE)
  if(NOT TARGET tac3map::scotch)
    add_library(tac3map::scotch INTERFACE IMPORTED)
    set_target_properties(tac3map::scotch PROPERTIES
      INTERFACE_INCLUDE_DIRECTORIES "${TAC3MAP_SCOTCH_INCLUDE_DIR}"
      INTERFACE_LINK_LIBRARIES "${TAC3MAP_SCOTCH_LIBRARY};${TAC3MAP_SCOTCHERR_LIBRARY}")
  endif()
else()
  set(TAC3MAP_SCOTCH_FOUND FALSE)
endif()
