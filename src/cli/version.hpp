// What `tac3map --version` prints: the project version (CMake's, <tac3map/version.hpp>) and the
// git revision the command was built from, so a bug report names the exact source.
#pragma once

#include <string>

namespace tac3map::cli {

// "tac3map 0.2.0 (git 24ecd3e)"; the revision is "unknown" for a build outside a git checkout.
std::string versionText();

}  // namespace tac3map::cli
