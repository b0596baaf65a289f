// tac3map viz: a mapping and the links each CCS loads, drawn as SVG or PNG (docs/viz.md).
#pragma once

#include <string>

#include "common_options.hpp"
#include "tac3map/pipeline/inputs.hpp"

namespace tac3map::cli {

struct VizOptionsCli {
  TraceInput input;
  BoxInput box;
  std::string mapping;
  std::string compare;
  std::string output;
  bool aggregateOnly = false;
  bool quiet = false;
  std::string detail = "auto";  // auto | links | nodes | summary
  std::string plane;            // "X,Y": the slice plane's axes (empty: the two largest)
};

Command addVizCommand(CLI::App& app, Deprecations& deprecated);
int runViz(const VizOptionsCli& options);

}  // namespace tac3map::cli
