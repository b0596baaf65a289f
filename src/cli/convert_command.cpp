#include "convert_command.hpp"

#include <iostream>

#include "job.hpp"
#include "tac3map/io/atomic_file.hpp"
#include "tac3map/model/collectives.hpp"
#include "tac3map/output/simgrid_ti_writer.hpp"

namespace tac3map::cli {

CLI::App* addConvertCommand(CLI::App& app, ConvertOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "convert",
      "write a trace in another format (SimGrid time-independent, for smpirun -replay)\n  "
      "example: tac3map convert examples/cg64-isend.trace --to simgrid-ti -o cg64.ti");
  cmd->add_option("trace", o.input.trace, "trace: native, SimGrid TI or DUMPI (index file)")
      ->required();
  cmd->add_option("--format,--trace-format", o.input.format,
                  "input format: auto | native | simgrid-ti | dumpi")
      ->check(CLI::IsMember({"auto", "native", "simgrid-ti", "dumpi"}))
      ->capture_default_str();
  cmd->add_option("--iteration", o.input.iteration,
                  "which kernel iteration to write when the trace has 'iteration' markers")
      ->capture_default_str();
  cmd->add_flag("--allow-empty", o.input.allowEmpty,
                "accept a trace without any message between ranks");
  cmd->add_option("--collectives", o.input.collectives,
                  "algorithm per collective, e.g. allreduce=ring (collectives are written as "
                  "their point-to-point steps)");
  cmd->add_option("--to", o.to, "output format: simgrid-ti")
      ->check(CLI::IsMember({"simgrid-ti"}))
      ->required();
  cmd->add_option("--output,-o", o.output,
                  "index file to write; the per-rank files OUT.rank<r> go beside it")
      ->required();
  return cmd;
}

int runConvert(const ConvertOptions& o) {
  checkOutputPaths({{"-o", o.output}});
  const Trace trace = loadTrace(o.input);
  writeSimgridTi(trace, o.output, parseCollectiveAlgorithms(o.input.collectives));
  std::cout << "wrote " << o.output << " and " << trace.ranks << " rank files ("
            << simgridTiRankFile(o.output, 0) << " ...)\n";
  return 0;
}

}  // namespace tac3map::cli
