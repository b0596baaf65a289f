// tac3map convert: a trace written in another format. For now only to SimGrid's
// time-independent format (simgrid_ti_writer.hpp), the input of `smpirun -replay`.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "commands.hpp"

namespace tac3map::cli {

struct ConvertOptions {
  TraceInput input;
  std::string to;
  std::string output;
};

CLI::App* addConvertCommand(CLI::App& app, ConvertOptions& options);
int runConvert(const ConvertOptions& options);

}  // namespace tac3map::cli
