// tac3map ccs: the concurrent communication sets of a trace, as text or JSON.
#pragma once

#include <string>

#include "common_options.hpp"
#include "tac3map/pipeline/inputs.hpp"

namespace tac3map::cli {

struct CcsOptionsCli {
  TraceInput input;
  std::string format = "text";  // text | json
  bool json = false;            // the same as format json
};

Command addCcsCommand(CLI::App& app, Deprecations& deprecated);
int runCcs(const CcsOptionsCli& options);

}  // namespace tac3map::cli
