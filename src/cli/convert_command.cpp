#include "convert_command.hpp"

#include <iostream>
#include <optional>
#include <vector>

#include "tac3map/io/atomic_file.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/io/limits.hpp"
#include "tac3map/io/trace_formats.hpp"
#include "tac3map/mapping/allocation.hpp"
#include "tac3map/mapping/rankmap.hpp"
#include "tac3map/mapping/scotch_files.hpp"
#include "tac3map/model/collectives.hpp"
#include "tac3map/output/dumpi_writer.hpp"
#include "tac3map/output/native_trace_writer.hpp"
#include "tac3map/output/simgrid_ti_writer.hpp"
#include "tac3map/pipeline/job.hpp"
#include "tac3map/pipeline/job_context.hpp"
#include "usage.hpp"

namespace tac3map::cli {
namespace {

// What convert writes: every trace format but auto; every mapping format and Scotch's.
std::vector<std::string> traceOutputs() {
  std::vector<std::string> names;
  for (const auto& entry : traceFormatNames().entries())
    if (entry.value != TraceFormat::Auto) names.push_back(entry.name);
  return names;
}
const std::vector<std::string> kTraceFormats = traceOutputs();
const std::vector<std::string> kMapFormats = [] {
  std::vector<std::string> names = mapFormatNames().names();
  names.push_back("scotch");
  return names;
}();

bool isOneOf(const std::string& value, const std::vector<std::string>& list) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

std::string listed(const std::vector<std::string>& list) {
  std::string text;
  for (std::size_t i = 0; i < list.size(); ++i) text += (i ? " | " : "") + list[i];
  return text;
}

// Where `--to scotch -o OUT` writes the target: OUT with .map replaced by .tgt, else OUT.tgt.
std::string scotchTargetPath(const std::string& mapPath) {
  const std::string suffix = ".map";
  if (mapPath.size() > suffix.size() &&
      mapPath.compare(mapPath.size() - suffix.size(), suffix.size(), suffix) == 0)
    return mapPath.substr(0, mapPath.size() - suffix.size()) + ".tgt";
  return mapPath + ".tgt";
}

// The command line names one input: a trace, or a mapping with a machine; each mode's options
// and formats only. Checked while parsing, so a mix-up is a usage error (exit 2).
void checkMode(const CLI::App& cmd, const ConvertOptions& o) {
  const bool trace = !o.input.trace.empty(), mapping = !o.mapping.empty();
  if (trace == mapping)
    throw CLI::ValidationError("convert",
                               "give a trace (TRACE) or a mapping (--mapping FILE), "
                               "not both");
  const char* const mappingOnly[] = {
      "--target",         "--machine", "--shape",          "--offset",           "--nodes",
      "--ranks-per-node", "--ranks",   "--cores-per-node", "--sockets-per-node", "--bind"};
  const char* const traceOnly[] = {"--trace-format", "--iteration", "--allow-empty",
                                   "--collectives", "--mpi"};
  if (trace) {
    for (const char* name : mappingOnly)
      if (cmd.count(name) > 0)
        throw CLI::ValidationError(name, "is for converting a mapping (--mapping FILE)");
    if (!isOneOf(o.to, kTraceFormats))
      throw CLI::ValidationError(
          "--output-format",
          o.to + " is a mapping format; a trace converts to " + listed(kTraceFormats));
    return;
  }
  for (const char* name : traceOnly)
    if (cmd.count(name) > 0) throw CLI::ValidationError(name, "is for converting a trace");
  if (!isOneOf(o.to, kMapFormats))
    throw CLI::ValidationError(
        "--output-format",
        o.to + " is a trace format; a mapping converts to " + listed(kMapFormats));
}

int convertTrace(const ConvertOptions& o) {
  checkOutputPaths({{"-o", o.output}});
  const Trace trace = loadTrace(o.input);
  // Collectives the output expands run as the MPI runs them (--mpi, --collectives).
  const CollectiveAlgorithms algorithms =
      ccsOptions(o.input, jobMpiProfile(o.input, nullptr)).collectives;
  if (o.to == "simgrid-ti") {
    writeSimgridTi(trace, o.output, algorithms);
    report(o.quiet) << "wrote " << o.output << " and " << trace.ranks << " rank files ("
                    << simgridTiRankFile(o.output, 0) << " ...)\n";
  } else if (o.to == "dumpi") {
    writeDumpi(trace, o.output, algorithms);
    report(o.quiet) << "wrote " << o.output << " and " << trace.ranks << " rank files ("
                    << dumpiRankFile(o.output, 0, trace.ranks) << " ...)\n";
  } else {
    writeNativeTrace(trace, o.output, algorithms);
    report(o.quiet) << "wrote " << o.output << ": " << trace.ranks << " ranks, native trace\n";
  }
  return 0;
}

int convertMapping(const ConvertOptions& o) {
  const bool scotchOut = o.to == "scotch";
  const std::string targetOut = scotchOut ? scotchTargetPath(o.output) : "";
  checkOutputPaths({{"-o", o.output}, {"the Scotch target", targetOut}});
  // A coordinates or JSON file written by tac3map records its job: the options may leave
  // out what it records (and must agree with it).
  const JobContext context = jobContext(o.box, {o.mapping});
  const Machine& machine = context.machine;
  const Box box = jobBox(machine, context.box);
  const int k = context.box.ranksPerNode;
  const RankMapOptions rankMap{k, o.coresPerNode, o.socketsPerNode, parseRankfileBind(o.bind)};
  std::optional<NodeTable> table;
  if (!o.box.nodes.empty()) table = readNodeTable(o.box.nodes, machine, box);
  const NodeTable* nodes = table ? &*table : nullptr;
  const Allocation allocation = table && static_cast<int>(table->nodes.size()) < box.nodeCount
                                    ? Allocation::ofNodes(table->nodes, box.nodeCount, k)
                                    : Allocation::wholeBox(box.nodeCount, k);

  // The ranks a file places fit the box (and the node table's nodes), before anything is sized.
  const auto fits = [&](long long ranks) {
    if (ranks > static_cast<long long>(box.nodeCount) * k)
      failIn(o.mapping, std::to_string(ranks) + " ranks do not fit on " + boxCapacityText(box, k));
    if (!allocation.isWholeBox()) allocation.checkFits(ranks, table->source);
  };
  const bool scotchIn = isScotchMapping(o.mapping);
  if (scotchIn && o.target.empty())
    failIn(o.mapping,
           "is a Scotch mapping (a vertex count, then 'vertex part' lines): give its target "
           "architecture with --target FILE.tgt");
  if (!scotchIn && !o.target.empty())
    failIn(o.mapping,
           "--target is for a Scotch mapping, and this is not one (expected a vertex "
           "count on the first line, then 'vertex part' lines)");
  if (!scotchIn && o.ranks > 0)
    throw InputError("--ranks is for a Scotch mapping (vertices beyond it are padding); " +
                     o.mapping + " places every rank it lists");
  Mapping mapping;
  if (scotchIn) {
    const ScotchTarget target = readScotchTarget(o.target);
    const std::vector<int> nodeOfPart = scotchPartNodes(target, machine, box, nodes);
    const long long count = scotchMappingCount(o.mapping);
    const long long ranks = o.ranks > 0 ? o.ranks : count;
    fits(ranks);
    mapping = readScotchMapping(o.mapping, nodeOfPart, box, static_cast<int>(ranks), k);
  } else {
    const int ranks = rankMapRanks(o.mapping);
    fits(ranks);
    mapping = readRankMap(o.mapping, machine, box, ranks, nodes, rankMap);
  }
  if (!allocation.isWholeBox()) allocation.checkHolds(mapping, o.mapping, table->source);

  if (scotchOut) {
    const ScotchTargetText target = scotchTargetFor(machine, box, nodes);
    std::vector<StagedFile> files;
    files.emplace_back(o.output, scotchMappingText(mapping, target.partOfNode));
    files.emplace_back(targetOut, target.text);
    for (StagedFile& file : files) file.commit();
    report(o.quiet) << "wrote " << o.output << " and " << targetOut << ": " << mapping.tasks()
                    << " ranks (from " << o.mapping << ")\n";
    return 0;
  }
  writeFileAtomically(o.output,
                      writeRankMap(parseMapFormat(o.to), mapping, machine, box, nodes, rankMap));
  report(o.quiet) << "wrote " << o.output << ": " << mapping.tasks() << " ranks, " << o.to
                  << " (from " << o.mapping << ")\n";
  return 0;
}

}  // namespace

Command addConvertCommand(CLI::App& app, Deprecations& deprecated) {
  auto options = std::make_shared<ConvertOptions>();
  ConvertOptions& o = *options;
  CLI::App* cmd = app.add_subcommand(
      "convert",
      "write a trace or a mapping in another format (docs/convert.md)\n  examples: tac3map "
      "convert examples/cg64-isend.trace --to simgrid-ti -o cg64.ti\n            tac3map convert "
      "--mapping job.rankfile --machine topologies/fx10.json --shape 2x2x2x2x3x2 --nodes "
      "nodes.txt --to fujitsu-vcoord -o job.vcoord");
  cmd->add_option("trace", o.input.trace,
                  "trace to convert: native, SimGrid TI or DUMPI (index file or folder)");
  cmd->add_option("--trace-format", o.input.format,
                  "input trace format: " + traceFormatNames().help())
      ->check(choiceOf(traceFormatNames()))
      ->capture_default_str();
  deprecated.add(*cmd, "--format", "--trace-format", o.input.format, "old --trace-format")
      ->check(choiceOf(traceFormatNames()));
  cmd->add_option("--iteration", o.input.iteration,
                  "which kernel iteration to write when the trace has 'iteration' markers")
      ->capture_default_str();
  cmd->add_flag("--allow-empty", o.input.allowEmpty,
                "accept a trace without any message between ranks");
  cmd->add_option("--collectives", o.input.collectives,
                  "algorithm per collective the output expands into point-to-point steps, e.g. "
                  "allreduce=ring (simgrid-ti: every collective; native, dumpi: gatherv, "
                  "scatterv, allgatherv, alltoallv)");
  cmd->add_option("--mpi", o.input.mpi,
                  "the MPI whose collective algorithms the output's expansion follows: " +
                      mpiProfileList() + ", or a profile file (default openmpi)");
  std::vector<std::string> formats = kTraceFormats;
  formats.insert(formats.end(), kMapFormats.begin(), kMapFormats.end());
  cmd->add_option("--output-format,-f,--to", o.to,
                  "output format: a trace to " + listed(kTraceFormats) + "; a mapping to " +
                      listed(kMapFormats))
      ->check(choiceOf(formats))
      ->required();
  cmd->add_option("--output,-o", o.output,
                  "file to write (simgrid-ti, dumpi: an index, the per-rank files beside it; "
                  "scotch: the .map, its target .tgt beside it)")
      ->required();
  cmd->add_flag("--quiet,-q", o.quiet, "print nothing but errors");
  cmd->add_option("--mapping", o.mapping,
                  "mapping to convert: any rank-map format (recognised) or a Scotch .map");
  cmd->add_option("--target", o.target, "the Scotch target (.tgt) a Scotch --mapping refers to");
  cmd->add_option("--machine,-m", o.box.machine,
                  "machine description (with --mapping; default: the one a tac3map "
                  "coordinates or JSON mapping records)");
  cmd->add_option("--shape,-s", o.box.shape, "the job's box, e.g. 2x2x2x2x3x2");
  cmd->add_option("--offset", o.box.offset, "the box's origin on the machine");
  cmd->add_option("--nodes", o.box.nodes,
                  "node table: host names and logical coordinates (host-based formats)");
  cmd->add_option("--ranks-per-node", o.box.ranksPerNode,
                  "ranks (slots) per node (default: the mapping file's, else 1)")
      ->check(CLI::Range(1, 1024));
  cmd->add_option("--cores-per-node", o.coresPerNode,
                  "cores per node, for openmpi-rankfile core ranges (0: the machine file's)")
      ->check(CLI::Range(0, tac3map::limits::kMaxCoresPerNode))
      ->capture_default_str();
  cmd->add_option("--sockets-per-node", o.socketsPerNode,
                  "sockets per node, for openmpi-rankfile --bind socket (0: the machine file's)")
      ->check(CLI::Range(0, tac3map::limits::kMaxCoresPerNode))
      ->capture_default_str();
  cmd->add_option(
         "--bind", o.bind,
         "what an openmpi-rankfile output binds each rank to: " + rankfileBindNames().help())
      ->check(choiceOf(rankfileBindNames()))
      ->capture_default_str();
  cmd->add_option("--ranks", o.ranks,
                  "Scotch input: the ranks are vertices 0..N-1, higher ones padding")
      ->check(CLI::Range(1, 1 << 30));
  cmd->parse_complete_callback([cmd, options] { checkMode(*cmd, *options); });
  return runWhenParsed(cmd, options, runConvert);
}

int runConvert(const ConvertOptions& o) {
  return o.mapping.empty() ? convertTrace(o) : convertMapping(o);
}

}  // namespace tac3map::cli
