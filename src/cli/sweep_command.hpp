// tac3map sweep's command line: the spec, the output, threads (the run itself: sweep.hpp).
#pragma once

#include "common_options.hpp"

namespace tac3map::cli {

Command addSweepCommand(CLI::App& app, Deprecations& deprecated);

}  // namespace tac3map::cli
