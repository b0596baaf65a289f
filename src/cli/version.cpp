// The version line. Alone in its file because git_revision.hpp changes with every commit: only
// this file is recompiled then.
#include "version.hpp"

#include "git_revision.hpp"  // generated at build time by cmake/GitRevision.cmake
#include "tac3map/version.hpp"

namespace tac3map::cli {

std::string versionText() {
  return std::string("tac3map ") + TAC3MAP_VERSION + " (git " + TAC3MAP_GIT_REVISION + ")";
}

}  // namespace tac3map::cli
