// --quiet: the stream a command's informational lines go to. Kept apart from usage.hpp so
// that commands without their own options do not compile CLI11 (seconds per file).
#pragma once

#include <ostream>
#include <string>

namespace tac3map::cli {

// Standard output, or nowhere with --quiet (errors and deprecation notes still reach stderr).
std::ostream& report(bool quiet);

// One number printed by a printf pattern: format("%.3f s", seconds).
std::string format(const char* pattern, double value);

}  // namespace tac3map::cli
