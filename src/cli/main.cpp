// The tac3map command: its subcommands and their options (docs/cli.md, generated from this
// file's --help texts by scripts/update-cli-doc.sh).
#include <CLI/CLI.hpp>
#include <iostream>
#include <new>
#include <stdexcept>

#include "bcast_command.hpp"
#include "ccs_command.hpp"
#include "convert_command.hpp"
#include "distributed.hpp"
#include "gen_command.hpp"
#include "map_command.hpp"
#include "platform_command.hpp"
#include "predict_command.hpp"
#include "score_command.hpp"
#include "score_table.hpp"
#include "sweep.hpp"
#include "tac3map/gen/cg_pattern.hpp"
#include "tac3map/gen/patterns.hpp"
#include "tac3map/initial/initial_mapper.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/io/exit_codes.hpp"
#include "tac3map/io/limits.hpp"
#include "tac3map/io/trace_formats.hpp"
#include "tac3map/mapping/rankmap.hpp"
#include "tac3map/model/model.hpp"
#include "tac3map/model/profile.hpp"
#include "tac3map/output/viz_options.hpp"
#include "tac3map/search/objectives.hpp"
#include "tac3map/search/refiner.hpp"
#include "tac3map/search/schedule.hpp"
#include "topology_command.hpp"
#include "usage.hpp"
#include "version.hpp"
#include "viz_command.hpp"

namespace {

using namespace tac3map::cli;
using namespace tac3map;  // the library's name tables (enum_names.hpp)
using tac3map::BoxInput;
using tac3map::TraceInput;

// Options that read a trace. Its format is --trace-format; --format, its old spelling, still
// works with a note where it meant the trace format (where it meant the output format, on
// `score`, it is that command's old spelling of --output-format).
// --init's help: auto, each start of the list (initial_mapper.hpp) with its description, the
// random mappings and a file.
std::string initHelp() {
  std::string names, starts;
  for (const auto& mapper : initialMappers()) {
    names += (names.empty() ? "" : ", ") + std::string(mapper->name());
    starts += std::string(" | ") + mapper->name();
    if (*mapper->description()) starts += std::string(" (") + mapper->description() + ")";
  }
  return "start: auto (the best of " + names +
         " and a hop-bytes search from each, with K > 1 also each refined by node swaps, by the "
         "objective)" +
         starts + " | random (seeded by --seed) | random:SEED | a mapping file";
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
               "blocking sends complete at once on the sender (small buffered messages)");
  app.add_option("--eager-limit", input.eagerLimit,
                 "blocking sends of fewer bytes complete at once on the sender: the MPI's eager "
                 "limit (SimGrid: smpi/send-is-detached-thresh); default 0, none")
      ->check(nonNegative());
  app.add_option("--collectives", input.collectives,
                 "algorithm per collective, e.g. allreduce=ring,allgather=bruck "
                 "(docs/trace-format.md)");
}

// `withOverlap`: whether the command takes --overlap (it changes the score's sets; predict's
// timeline already lets sets without a barrier between them run together, so predict has none).
void addBoxOptions(CLI::App& app, BoxInput& box, bool withOverlap = true) {
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

}  // namespace

// Exit codes: include/tac3map/io/exit_codes.hpp (docs/errors.md).

int main(int argc, char** argv) {
  const MpiSession mpi(&argc, &argv);  // only when launched by mpirun (distributed.hpp)
  CLI::App app{
      "tac3map: contention-aware task mapping for MPI programs on mesh/torus and graph "
      "networks",
      "tac3map"};
  app.require_subcommand(1);
  app.set_version_flag("--version", versionText(), "print the version and git revision, and exit");
  Deprecations deprecated;

  MapOptions map;
  CLI::App* mapCmd = app.add_subcommand(
      "map",
      "find a mapping by simulated annealing and write it\n  example: tac3map map "
      "--machine topologies/fx10.json --shape 2x2x2x2x3x2 --trace examples/cg64-sendrecv.trace -o "
      "cg64.map");
  addBoxOptions(*mapCmd, map.box);
  addTraceOptions(*mapCmd, map.input, &deprecated);
  mapCmd->add_option("--objective", map.objective, tac3map::objectiveNames().help())
      ->check(choiceOf(tac3map::objectiveNames()))
      ->capture_default_str();
  mapCmd->add_option("--seed", map.seed, "random seed (0 to 2^64-1)")
      ->check(nonNegative())
      ->capture_default_str();
  mapCmd->add_option("--init", map.init, initHelp())->capture_default_str();
  mapCmd->add_option("--grid", map.grid,
                     "the ranks' process grid for the geometric start, e.g. 48x46x72 (rank = x + "
                     "X (y + Y z)); default: detected from the pattern");
  mapCmd->add_option("--moves", map.moves, "trial moves: " + moveKindNames().help())
      ->check(choiceOf(moveKindNames()))
      ->capture_default_str();
  mapCmd->add_option("--refiner", map.schedule.refiner, "the search: " + refinerNames().help())
      ->check(choiceOf(refinerNames()))
      ->capture_default_str();
  mapCmd->add_option("--t0", map.schedule.t0, "initial temperature")->capture_default_str();
  mapCmd->add_option("--t-end", map.schedule.tEnd, "final temperature")->capture_default_str();
  mapCmd->add_option("--trials", map.schedule.trialsPerTemperature, "trials per temperature")
      ->check(CLI::Range(std::uint64_t{1}, tac3map::limits::kMaxTrials))
      ->capture_default_str();
  mapCmd->add_option("--cooling", map.schedule.cooling, "temperature factor per step")
      ->capture_default_str();
  mapCmd->add_flag("--no-early-stop", map.noEarlyStop,
                   "run the whole schedule even when tac3 reaches its lower bound");
  mapCmd->add_flag("--no-tie-break", map.noTieBreak,
                   "tac3: keep the search's best mapping as it is (no descent to fewer shared "
                   "links, then fewer byte-hops, at equal tac3)");
  mapCmd->add_option("--time-limit", map.schedule.timeLimit,
                     "seconds for the whole search: the starts of --init auto and their "
                     "searches, the chains, multilevel's levels and the tie-break share them "
                     "(reading the trace and building routes come on top; docs/search.md)");
  mapCmd->add_option("--chains", map.chains, "independent chains (seeds seed, seed+1, ...)")
      ->check(CLI::Range(1, tac3map::limits::kMaxChains))
      ->capture_default_str();
  mapCmd
      ->add_option("--threads", map.threads,
                   "threads running the chains (result does not "
                   "depend on it)")
      ->check(CLI::Range(1, tac3map::limits::kMaxThreads))
      ->capture_default_str();
  mapCmd->add_flag("--quiet,-q", map.quiet,
                   "print nothing but errors (no progress line, no summary)");
  mapCmd->add_option("--output,-o", map.output, "mapping file to write")->required();
  mapCmd
      ->add_option("--output-format,-f", map.mapFormat,
                   "format of -o: " + mapFormatNames().help() + " (docs/rankmap-formats.md)")
      ->check(choiceOf(mapFormatNames()))
      ->capture_default_str();
  deprecated.add(*mapCmd, "--map-format", "--output-format", map.mapFormat, "old --output-format")
      ->check(choiceOf(mapFormatNames()));
  mapCmd
      ->add_option("--cores-per-node", map.coresPerNode,
                   "cores per node (C): openmpi-rankfile --bind core binds slot s to cores "
                   "s*C/K..(s+1)*C/K-1 (0: the machine file's cores_per_node, else slot s to "
                   "core s)")
      ->check(CLI::Range(0, tac3map::limits::kMaxCoresPerNode))
      ->capture_default_str();
  mapCmd
      ->add_option("--sockets-per-node", map.socketsPerNode,
                   "sockets per node (S) for --bind socket (0: the machine file's "
                   "sockets_per_node, else 1)")
      ->check(CLI::Range(0, tac3map::limits::kMaxCoresPerNode))
      ->capture_default_str();
  mapCmd
      ->add_option("--bind", map.bind,
                   "what openmpi-rankfile binds each rank to: " + rankfileBindNames().help())
      ->check(choiceOf(rankfileBindNames()))
      ->capture_default_str();
  mapCmd->add_option("--report", map.report, "JSON report to write");

  ScoreOptions score;
  CLI::App* scoreCmd = app.add_subcommand(
      "score",
      "score mappings (files or names) against a trace\n  example: tac3map score --machine "
      "topologies/fx10.json --shape 2x2x2x2x3x2 --trace examples/cg64-sendrecv.trace identity "
      "tofu-default a.map");
  addBoxOptions(*scoreCmd, score.box);
  addTraceOptions(*scoreCmd, score.input, nullptr);
  scoreCmd
      ->add_option("mappings", score.mappings,
                   "mapping files or names: identity, random:SEED, tofu-default")
      ->required();
  scoreCmd->add_option("--output-format,-f", score.format, scoreFormatNames().help())
      ->check(choiceOf(scoreFormatNames()))
      ->capture_default_str();
  deprecated.add(*scoreCmd, "--format", "--output-format", score.format, "old --output-format")
      ->check(choiceOf(scoreFormatNames()));
  scoreCmd->add_flag("--json", score.json, "the same as --output-format json");
  scoreCmd->add_option("--baseline", score.baseline,
                       "the mapping (as given) the ratio columns divide by; default: the first");
  scoreCmd->add_option("--profile", score.profile,
                       "add the predicted time of one iteration (see predict)");
  scoreCmd->add_option("--model", score.model, "with --profile: " + modelKindNames().help())
      ->check(choiceOf(modelKindNames()))
      ->capture_default_str();

  PredictOptionsCli predict;
  CLI::App* predictCmd = app.add_subcommand(
      "predict",
      "predict the time of one iteration under a mapping from a measured profile\n  example: "
      "tac3map predict --machine topologies/fx10.json --shape 2x2x2x2x3x2 --trace "
      "examples/cg64-sendrecv.trace tofu-default --profile topologies/fx10-profile.json "
      "--barriers");
  addBoxOptions(*predictCmd, predict.box, false);
  addTraceOptions(*predictCmd, predict.input, &deprecated);
  predictCmd->add_option("mapping", predict.mapping, "mapping file or name")->required();
  predictCmd->add_option("--profile", predict.profile, "profile JSON (tac3map-pingpong writes one)")
      ->required();
  predictCmd->add_option("--model", predict.model, modelKindNames().help())
      ->check(choiceOf(modelKindNames()))
      ->capture_default_str();
  predictCmd->add_flag("--barriers", predict.barriers,
                       "advise where a barrier between CCSs pays (cross-CCS collisions)");
  predictCmd->add_flag("--collectives-compare", predict.collectivesCompare,
                       "each collective's predicted time under every algorithm, the best, and "
                       "the best by message size");
  predictCmd->add_option("--output-format,-f", predict.format, "text | json")
      ->check(choiceOf({"text", "json"}))
      ->capture_default_str();
  predictCmd->add_flag("--json", predict.json, "the same as --output-format json");

  VizOptionsCli viz;
  CLI::App* vizCmd = app.add_subcommand(
      "viz",
      "draw a mapping (and the links each CCS loads) as SVG or PNG\n  example: tac3map viz "
      "--machine topologies/fx10.json --shape 2x2x2x2x3x2 --trace examples/cg64-sendrecv.trace "
      "cg64.map --compare identity -o cg64.svg");
  addBoxOptions(*vizCmd, viz.box);
  addTraceOptions(*vizCmd, viz.input, &deprecated);
  vizCmd->add_option("mapping", viz.mapping, "mapping file or name (identity, tofu-default, ...)")
      ->required();
  vizCmd->add_option("--compare", viz.compare, "a second mapping, drawn side by side");
  vizCmd->add_flag("--aggregate-only", viz.aggregateOnly,
                   "one panel per mapping (largest load per link over the CCSs); automatic "
                   "when nodes are aggregated (above 256 nodes) or above 16 CCSs");
  vizCmd
      ->add_option("--detail", viz.detail,
                   vizDetailNames().help() + "; auto: links up to 256 nodes, nodes up to 8192")
      ->check(choiceOf(vizDetailNames()))
      ->capture_default_str();
  vizCmd->add_option("--plane", viz.plane,
                     "the slice plane's two axes, across then down, e.g. X,Y (default: the "
                     "box's two largest)");
  vizCmd
      ->add_option("--output,-o", viz.output,
                   "picture to write: .svg, or .png (drawn by rsvg-convert)")
      ->required();
  vizCmd->add_flag("--quiet,-q", viz.quiet, "print nothing but errors");

  SweepOptions sweep;
  CLI::App* sweepCmd = app.add_subcommand(
      "sweep",
      "run the cross product of a sweep spec, one JSON line per result (resumable)\n  example: "
      "tac3map sweep examples/sweep-paper-table1.json -o table1.jsonl --threads 2");
  sweepCmd->add_option("spec", sweep.spec, "sweep spec (JSON; docs/sweep.md)")->required();
  sweepCmd->add_option("--output,-o", sweep.output, "results, one JSON line each; appended to")
      ->required();
  sweepCmd->add_option("--threads", sweep.threads, "entries run in parallel")
      ->check(CLI::Range(1, tac3map::limits::kMaxThreads))
      ->capture_default_str();
  sweepCmd->add_flag("--quiet,-q", sweep.quiet,
                     "print nothing but errors (no line per finished entry, no summary)");

  CcsOptionsCli ccs;
  CLI::App* ccsCmd = app.add_subcommand(
      "ccs",
      "print the concurrent communication sets of a trace\n  example: tac3map ccs "
      "--trace examples/cg64-sendrecv.trace --json");
  addTraceOptions(*ccsCmd, ccs.input, &deprecated);
  ccsCmd
      ->add_option("--output-format,-f", ccs.format,
                   "text | json ({\"ccs\": [[{src, dst, bytes}, ...], ...], \"distinct\", "
                   "\"same_as\", \"period\"})")
      ->check(choiceOf({"text", "json"}))
      ->capture_default_str();
  ccsCmd->add_flag("--json", ccs.json, "the same as --output-format json");

  GenCgOptions gen;
  CLI::App* genCmd = app.add_subcommand("gen", "write synthetic traces");
  genCmd->require_subcommand(1);
  CLI::App* cgCmd = genCmd->add_subcommand(
      "cg",
      "the NAS CG communication pattern\n  example: tac3map gen cg --ranks 64 --bytes "
      "1048576 --variant sendrecv -o cg64.trace");
  cgCmd->add_option("--ranks", gen.pattern.ranks, "number of ranks (a power of two)")
      ->capture_default_str();
  cgCmd->add_option("--bytes", gen.pattern.bytes, "bytes per message")
      ->check(nonNegative())
      ->capture_default_str();
  cgCmd->add_option("--variant", gen.variant, cgVariantNames().help())
      ->check(choiceOf(cgVariantNames()))
      ->capture_default_str();
  cgCmd->add_option("--iterations", gen.pattern.iterations, "kernel iterations, each with a marker")
      ->capture_default_str();
  cgCmd->add_option("--output,-o", gen.output, "trace file to write (default: standard output)");

  GenStencilOptions stencil;
  CLI::App* stencilCmd = genCmd->add_subcommand(
      "stencil",
      "halo exchange on a 2D/3D grid\n  example: tac3map gen stencil --dims 48x48x48 --points 7 "
      "--periodic --bytes 65536 -o stencil.trace");
  stencilCmd->add_option("--dims", stencil.dims, "grid extents, x fastest (2 or 3 values)")
      ->capture_default_str();
  stencilCmd->add_option("--points", stencil.pattern.points, "2D: 5 or 9; 3D: 7 or 27")
      ->capture_default_str();
  stencilCmd->add_flag("--periodic", stencil.pattern.periodic, "wrap around the grid's edges");
  stencilCmd->add_option("--bytes", stencil.pattern.bytes, "bytes per message")
      ->check(nonNegative())
      ->capture_default_str();
  stencilCmd->add_option("--variant", stencil.variant, exchangeStyleNames().help())
      ->check(choiceOf(exchangeStyleNames()))
      ->capture_default_str();
  stencilCmd->add_option("--iterations", stencil.pattern.iterations, "kernel iterations")
      ->capture_default_str();
  stencilCmd->add_option("--output,-o", stencil.output, "trace file (default: standard output)");

  GenAlltoallOptions alltoall;
  CLI::App* alltoallCmd = genCmd->add_subcommand(
      "alltoall",
      "all-to-all within groups of consecutive ranks (FFT-like transposes)\n  example: tac3map "
      "gen alltoall --ranks 64 --group 8 --bytes 65536 -o a2a.trace");
  alltoallCmd->add_option("--ranks", alltoall.pattern.ranks, "number of ranks")
      ->capture_default_str();
  alltoallCmd->add_option("--group", alltoall.pattern.group, "ranks per group (divides --ranks)")
      ->capture_default_str();
  alltoallCmd->add_option("--bytes", alltoall.pattern.bytes, "bytes per message")
      ->check(nonNegative())
      ->capture_default_str();
  alltoallCmd->add_option("--variant", alltoall.variant, exchangeStyleNames().help())
      ->check(choiceOf(exchangeStyleNames()))
      ->capture_default_str();
  alltoallCmd->add_option("--iterations", alltoall.pattern.iterations, "kernel iterations")
      ->capture_default_str();
  alltoallCmd->add_option("--output,-o", alltoall.output, "trace file (default: standard output)");

  GenRandomOptions random;
  CLI::App* randomCmd = genCmd->add_subcommand(
      "random",
      "random sparse pattern\n  example: tac3map gen random --ranks 256 --degree 4 --bytes "
      "65536 --max-bytes 1048576 --seed 7 -o random.trace");
  randomCmd->add_option("--ranks", random.pattern.ranks, "number of ranks")->capture_default_str();
  randomCmd->add_option("--degree", random.pattern.degree, "distinct destinations per rank")
      ->capture_default_str();
  randomCmd
      ->add_option("--bytes", random.pattern.bytes,
                   "bytes per message (the smallest with --max-bytes)")
      ->check(nonNegative())
      ->capture_default_str();
  randomCmd
      ->add_option("--max-bytes", random.pattern.maxBytes,
                   "sizes uniform in [--bytes, --max-bytes]")
      ->check(nonNegative());
  randomCmd->add_option("--seed", random.pattern.seed, "random seed")
      ->check(nonNegative())
      ->capture_default_str();
  randomCmd->add_option("--iterations", random.pattern.iterations, "kernel iterations")
      ->capture_default_str();
  randomCmd->add_option("--output,-o", random.output, "trace file (default: standard output)");

  PlatformOptions platform;
  CLI::App* platformCmd = addPlatformCommand(app, platform);
  ConvertOptions convert;
  CLI::App* convertCmd = addConvertCommand(app, convert, deprecated);
  BcastOptions bcast;
  CLI::App* bcastCmd = addBcastCommand(app, bcast);
  TopologyOptions topology;
  const std::vector<CLI::App*> topologyKinds = addTopologyCommand(app, topology);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version are "errors" with code 0 in CLI11; every real usage error exits
    // with one documented code, whatever CLI11's own number for it, after one message with a
    // "did you mean" where a name was misspelt.
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (e.get_exit_code() == 0) {
      if (const auto unknown = unknownCommandError(app, args)) {
        if (MpiSession::rank() == 0) std::cerr << *unknown;
        return tac3map::kExitUsage;
      }
      return app.exit(e);
    }
    if (MpiSession::rank() == 0) std::cerr << usageError(app, args, e.what());
    return tac3map::kExitUsage;
  }
  if (MpiSession::rank() == 0) deprecated.warn(std::cerr);
  try {
    if (mapCmd->parsed()) return runMap(map);
    if (scoreCmd->parsed()) return runScore(score);
    if (sweepCmd->parsed()) return runSweep(sweep);
    if (vizCmd->parsed()) return runViz(viz);
    if (predictCmd->parsed()) return runPredict(predict);
    if (ccsCmd->parsed()) return runCcs(ccs);
    if (cgCmd->parsed()) return runGenCg(gen);
    if (stencilCmd->parsed()) return runGenStencil(stencil);
    if (alltoallCmd->parsed()) return runGenAlltoall(alltoall);
    if (randomCmd->parsed()) return runGenRandom(random);
    if (platformCmd->parsed()) return runPlatform(platform);
    if (convertCmd->parsed()) return runConvert(convert);
    if (bcastCmd->parsed()) return runBcast(bcast);
    for (CLI::App* kind : topologyKinds)
      if (kind->parsed()) return runTopology(kind->get_name(), topology);
  } catch (const tac3map::LimitError& e) {
    if (MpiSession::rank() == 0) std::cerr << "tac3map: error: " << e.rendered(optionOf) << "\n";
    return tac3map::kExitResource;
  } catch (const tac3map::InputError& e) {
    // Every MPI process reads the same inputs and fails alike: one message is enough. The
    // library names a setting in words (io/error.hpp); the command line names its option.
    if (MpiSession::rank() == 0) std::cerr << "tac3map: error: " << e.rendered(optionOf) << "\n";
    return tac3map::kExitInput;
  } catch (const std::bad_alloc&) {
    if (MpiSession::rank() == 0)
      std::cerr << "tac3map: error: out of memory: the job is larger than this machine can hold "
                   "(limits: docs/limits.md)\n";
    return tac3map::kExitResource;
  } catch (const std::length_error& e) {
    if (MpiSession::rank() == 0)
      std::cerr << "tac3map: error: the job is too large: " << e.what()
                << " (limits: docs/limits.md)\n";
    return tac3map::kExitResource;
  } catch (const std::exception& e) {
    if (MpiSession::rank() == 0)
      std::cerr << "tac3map: internal error: " << e.what()
                << " (a bug: please report it with the command line and its input files)\n";
    return tac3map::kExitInternal;
  }
  return tac3map::kExitOk;
}
