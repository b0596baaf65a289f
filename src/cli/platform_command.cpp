#include "platform_command.hpp"

#include <iostream>
#include <vector>

#include "tac3map/io/atomic_file.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/io/trace_formats.hpp"
#include "tac3map/mapping/mapping.hpp"
#include "tac3map/mapping/mapping_names.hpp"
#include "tac3map/mapping/rankmap.hpp"
#include "tac3map/network/network.hpp"
#include "tac3map/output/platform.hpp"
#include "tac3map/pipeline/job.hpp"
#include "common_options.hpp"
#include "usage.hpp"

namespace tac3map::cli {

Command addPlatformCommand(CLI::App& app, Deprecations& /*deprecated: none*/) {
  auto options = std::make_shared<PlatformOptions>();
  PlatformOptions& o = *options;
  CLI::App* cmd = app.add_subcommand(
      "platform",
      "write the box as a SimGrid platform (and an SMPI host file for a mapping)\n  example: "
      "tac3map platform --machine topologies/fx10.json --shape 2x2x2x2x3x2 --trace "
      "examples/cg64-sendrecv.trace cg64.map -o fx10.xml --hostfile cg64.hosts\n  then: "
      "smpirun -platform fx10.xml -hostfile cg64.hosts -np 64 -replay cg64.ti "
      "(docs/validation.md)");
  cmd->add_option("--machine,-m", o.machine, "machine description (topologies/*.json)")->required();
  cmd->add_option("--shape,-s", o.shape,
                  "the job's box, e.g. 2x2x2x2x3x2 (required on a mesh/torus; a graph machine's "
                  "platform has all its compute nodes)");
  cmd->add_option("--offset", o.offset, "the box's origin on the machine, e.g. 0,0,0,0,0,0");
  cmd->add_option("--ranks-per-node", o.ranksPerNode, "ranks per node (slots) for the host file")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  cmd->add_option("--engines", o.engines,
                  "injection engines per node (default: the machine file's injection.engines)")
      ->check(CLI::Range(1, 64));
  cmd->add_option("--trace,-t", o.trace,
                  "trace: its rank count sizes the host file (not needed with a tac3map mapping "
                  "file or --ranks)");
  cmd->add_option("--ranks", o.ranks, "ranks in the host file (for a mapping name without --trace)")
      ->check(CLI::Range(1, 1 << 30));
  cmd->add_option("--trace-format", o.traceFormat, "trace format: " + traceFormatNames().help())
      ->check(choiceOf(traceFormatNames()))
      ->capture_default_str();
  cmd->add_option("mapping", o.mapping,
                  "mapping for the host file: a file or identity | round-robin | random:SEED | "
                  "tofu-default")
      ->capture_default_str();
  cmd->add_option("--mpi", o.mpi,
                  "the MPI whose figures the platform's configuration carries: " +
                      mpiProfileList() +
                      ", or a profile file (default: the machine file's \"mpi\"; "
                      "docs/mpi-profiles.md)");
  cmd->add_flag("--no-mpi-config", o.noMpiConfig,
                "write no <config> (SMPI's own defaults, or smpirun's --cfg, then apply)");
  cmd->add_option("--output,-o", o.output, "platform XML to write")->required();
  cmd->add_option("--hostfile", o.hostfile, "SMPI host file to write: line r = the host of rank r");
  cmd->add_flag("--quiet,-q", o.quiet, "print nothing but errors");
  return runWhenParsed(cmd, options, runPlatform);
}

int runPlatform(const PlatformOptions& o) {
  checkOutputPaths({{"-o", o.output}, {"--hostfile", o.hostfile}});
  Machine machine = loadMachine(o.machine);
  if (o.engines > 0) machine.injectionEngines = o.engines;
  const Box box = machine.boxFor(o.shape, o.offset, false, "--shape is required",
                                 "its platform has every compute node (no --shape/--offset)");
  if (o.hostfile.empty() && !o.trace.empty())
    throw InputError("--trace " + o.trace + " is only used for --hostfile, which is missing");
  if (o.hostfile.empty() && o.ranks > 0)
    throw InputError("--ranks is only used for --hostfile, which is missing");
  if (o.ranks > 0 && !o.trace.empty())
    throw InputError("--ranks and --trace both give the number of ranks: give one");
  std::vector<StagedFile> outputs;
  const Network router(machine, box);
  TraceInput mpiInput;
  mpiInput.mpi = o.mpi;
  const MpiProfile mpi = jobMpiProfile(mpiInput, &machine);
  outputs.emplace_back(o.output, platformXml(machine, box, router, o.noMpiConfig ? nullptr : &mpi));
  int ranks = 0;
  if (!o.hostfile.empty()) {
    // The rank count: --ranks, else the trace's, else the mapping file's rank lines.
    std::string source = "--ranks";
    if (o.ranks > 0) {
      ranks = o.ranks;
    } else if (!o.trace.empty()) {
      TraceOptions options;
      options.allowEmpty = true;  // only its rank count is used
      options.ranks = jobRankLimit(box, o.ranksPerNode);
      const Trace trace = readAnyTrace(o.trace, parseTraceFormat(o.traceFormat), options);
      ranks = trace.ranks;
      source = trace.source + ":" + std::to_string(trace.ranksLine);
    } else {
      ranks = mappingFileRanks(o.mapping);
      source = o.mapping;
      if (ranks < 0)
        throw InputError("--hostfile for '" + o.mapping +
                         "' needs the number of ranks: --ranks N or --trace FILE");
    }
    checkTasksFit(ranks, box, source, o.ranksPerNode);
    const RankMapOptions slots{o.ranksPerNode, 0};
    const Mapping mapping = resolveMapping(o.mapping, machine, box, ranks, nullptr, &slots);
    if (mapping.tasks() != ranks)
      failIn(o.mapping, "places " + std::to_string(mapping.tasks()) + " ranks; " + source +
                            " says " + std::to_string(ranks));
    checkMapping(mapping, box, o.mapping, o.ranksPerNode);
    outputs.emplace_back(o.hostfile, smpiHostfile(machine, box, mapping));
  }
  for (StagedFile& file : outputs) file.commit();
  const std::size_t nodes = static_cast<std::size_t>(box.nodeCount);
  std::ostream& out = report(o.quiet);
  out << "wrote " << o.output << ": " << nodes << " hosts, " << nodes * nodes << " routes, "
      << machine.injectionEngines << " injection engine"
      << (machine.injectionEngines == 1 ? "" : "s") << " per node";
  if (!o.hostfile.empty())
    out << "; " << o.hostfile << ": " << ranks << " ranks (" << o.mapping << ", " << o.ranksPerNode
        << " per node)";
  out << "\n";
  if (!o.noMpiConfig)
    out << "MPI " << mpi.name << " in its <config>; run: smpirun -platform " << o.output << " "
        << kPlatformSmpiFlags << " ...\n";
  return 0;
}

}  // namespace tac3map::cli
