#include "common_options.hpp"

#include "tac3map/io/trace_formats.hpp"
#include "tac3map/model/model.hpp"
#include "tac3map/model/mpi_profile.hpp"

namespace tac3map::cli {

std::string mpiProfileList() {
  std::string names;
  for (const std::string& name : mpiProfileNames()) names += (names.empty() ? "" : ", ") + name;
  return names;
}

void addTraceOptions(CLI::App& app, TraceInput& input, Deprecations* deprecated) {
  app.add_option("--trace,-t", input.trace,
                 "trace: native, SimGrid time-independent, or DUMPI ascii (an index file listing "
                 "one file per rank for the latter two; for DUMPI also the folder of "
                 "dumpi2ascii's .txt files)")
      ->required();
  app.add_option("--trace-format", input.format, "trace format: " + traceFormatNames().help())
      ->check(choiceOf(traceFormatNames()))
      ->capture_default_str();
  if (deprecated)
    deprecated->add(app, "--format", "--trace-format", input.format, "old --trace-format")
        ->check(choiceOf(traceFormatNames()));
  app.add_option("--iteration", input.iteration,
                 "which kernel iteration to use when the trace has 'iteration' markers")
      ->capture_default_str();
  app.add_flag("--allow-empty", input.allowEmpty,
               "accept a trace without any message between ranks (else an error: usually a "
               "wrong file or format)");
  app.add_flag("--eager-sends", input.eagerSends,
               "sends complete at once on the sender, blocking or at their wait (small buffered "
               "messages)");
  app.add_option("--eager-limit", input.eagerLimit,
                 "sends of fewer bytes complete at once on the sender, blocking or at their wait "
                 "(default: the MPI profile's eager limit; 0: none)")
      ->check(nonNegative());
  app.add_option("--mpi", input.mpi,
                 "the MPI the program runs: " + mpiProfileList() +
                     ", or a profile file: its eager limit, collective algorithms by size and "
                     "cost per message (default: the machine file's \"mpi\", else openmpi; "
                     "docs/mpi-profiles.md)");
  app.add_option("--collectives", input.collectives,
                 "algorithm per collective, e.g. allreduce=ring,allgather=bruck "
                 "(docs/trace-format.md)");
}

void addBoxOptions(CLI::App& app, BoxInput& box, bool withOverlap) {
  // Not required: a mapping file written by tac3map records machine, box and ranks per node
  // (job_context.hpp); a given option must agree with it.
  app.add_option("--machine,-m", box.machine,
                 "machine description (topologies/*.json; default: the one a mapping file "
                 "records)");
  app.add_option("--shape,-s", box.shape,
                 "the job's box, e.g. 2x2x2x2x3x2 (default: the one a mapping file records; "
                 "else required unless --nodes lists the job's nodes anywhere on the machine)");
  app.add_option("--offset", box.offset,
                 "the box's origin on the machine, e.g. 0,0,0,0,0,0 (default: a mapping "
                 "file's, else zeros)");
  app.add_option("--nodes", box.nodes,
                 "node table: the job's nodes with host names / logical coordinates "
                 "(for host-based rank maps)");
  app.add_option("--ranks-per-node", box.ranksPerNode,
                 "MPI ranks per node (K): each node has K slots; ranks of one node share its "
                 "injection engines and talk without the network (default: a mapping file's, "
                 "else 1)")
      ->check(CLI::Range(1, 4096));
  app.add_option("--engines", box.engines,
                 "injection engines per node (default: the machine file's \"injection\", else 1); "
                 "1 = the paper's model")
      ->check(CLI::Range(1, 64));
  if (withOverlap)
    app.add_option("--overlap", box.overlap, "phases in flight together: " + overlapNames().help())
        ->check(choiceOf(overlapNames()))
        ->capture_default_str();
  app.add_option("--engine-sets", box.engineSets,
                 "CCSs with several engines: level (a level's messages start together and "
                 "share the engines) | split (at most E messages per rank and set; to compare)")
      ->check(choiceOf({"level", "split"}))
      ->capture_default_str();
}

}  // namespace tac3map::cli
