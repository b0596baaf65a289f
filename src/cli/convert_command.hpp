// tac3map convert: a trace or a mapping written in another format (docs/convert.md).
//   traces:   tac3map convert TRACE --to native|simgrid-ti|dumpi -o OUT (the input format
//             recognised, or --trace-format); SimGrid TI for smpirun -replay, DUMPI as
//             dumpi2ascii prints it, the native text format;
//   mappings: tac3map convert --mapping IN [--target IN.tgt] --to FORMAT -o OUT --machine M
//             [--shape S] [--nodes T] [--ranks-per-node K]: between every launcher format of
//             `map --output-format` and Scotch's .map (+ .tgt).
#pragma once

#include <string>

#include "common_options.hpp"
#include "tac3map/pipeline/inputs.hpp"

namespace tac3map::cli {

struct ConvertOptions {
  TraceInput input;  // trace mode: the positional TRACE
  std::string to;
  std::string output;
  // Mapping mode.
  std::string mapping;
  std::string target;      // the Scotch target (.tgt) of a Scotch mapping given as --mapping
  BoxInput box;            // --machine, --shape, --offset, --nodes, --ranks-per-node
  int coresPerNode = 0;    // 0: the machine file's
  int socketsPerNode = 0;  // 0: the machine file's
  std::string bind = "core";
  int ranks = 0;  // Scotch input: the ranks are vertices 0..ranks-1 (0: all)
  bool quiet = false;
};

// Its old --format spelling (of --trace-format) goes to `deprecated`.
Command addConvertCommand(CLI::App& app, Deprecations& deprecated);
int runConvert(const ConvertOptions& options);

}  // namespace tac3map::cli
