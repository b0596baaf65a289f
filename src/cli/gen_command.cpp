#include "gen_command.hpp"

#include <iostream>
#include <vector>

#include "tac3map/io/atomic_file.hpp"
#include "tac3map/io/error.hpp"

namespace tac3map::cli {

namespace {

int writeTrace(const std::string& output, const std::string& text) {
  checkOutputPaths({{"-o", output}});
  if (output.empty())
    std::cout << text;
  else
    writeFileAtomically(output, text);
  return 0;
}

// The last options of the stencil, all-to-all and random generators, in --help's order.
template <class Options>
void addIterationsAndOutput(CLI::App* cmd, Options& o) {
  cmd->add_option("--iterations", o.pattern.iterations, "kernel iterations")->capture_default_str();
  cmd->add_option("--output,-o", o.output, "trace file (default: standard output)");
}

// The seed of a randomly drawn pattern (random, mesh).
template <class Options>
void addSeed(CLI::App* cmd, Options& o) {
  cmd->add_option("--seed", o.pattern.seed, "random seed")
      ->check(nonNegative())
      ->capture_default_str();
}

// A pattern sent in one of the exchange styles (stencil, all-to-all): its message size and
// style, then the last options.
template <class Options>
void addExchangeOptions(CLI::App* cmd, Options& o) {
  cmd->add_option("--bytes", o.pattern.bytes, "bytes per message")
      ->check(nonNegative())
      ->capture_default_str();
  cmd->add_option("--variant", o.variant, exchangeStyleNames().help())
      ->check(choiceOf(exchangeStyleNames()))
      ->capture_default_str();
  addIterationsAndOutput(cmd, o);
}

// Each generator is a subcommand of `gen`.
Command addCg(CLI::App& gen) {
  auto options = std::make_shared<GenCgOptions>();
  GenCgOptions& o = *options;
  CLI::App* cmd = gen.add_subcommand(
      "cg",
      "the NAS CG communication pattern\n  example: tac3map gen cg --ranks 64 --bytes "
      "1048576 --variant sendrecv -o cg64.trace");
  cmd->add_option("--ranks", o.pattern.ranks, "number of ranks (a power of two)")
      ->capture_default_str();
  cmd->add_option("--bytes", o.pattern.bytes, "bytes per message")
      ->check(nonNegative())
      ->capture_default_str();
  cmd->add_option("--variant", o.variant, cgVariantNames().help())
      ->check(choiceOf(cgVariantNames()))
      ->capture_default_str();
  cmd->add_option("--iterations", o.pattern.iterations, "kernel iterations, each with a marker")
      ->capture_default_str();
  cmd->add_option("--output,-o", o.output, "trace file to write (default: standard output)");
  return runWhenParsed(cmd, options, runGenCg);
}

Command addStencil(CLI::App& gen) {
  auto options = std::make_shared<GenStencilOptions>();
  GenStencilOptions& o = *options;
  CLI::App* cmd = gen.add_subcommand(
      "stencil",
      "halo exchange on a 2D/3D grid\n  example: tac3map gen stencil --dims 48x48x48 --points 7 "
      "--periodic --bytes 65536 -o stencil.trace");
  cmd->add_option("--dims", o.dims, "grid extents, x fastest (2 or 3 values)")
      ->capture_default_str();
  cmd->add_option("--points", o.pattern.points, "2D: 5 or 9; 3D: 7 or 27")->capture_default_str();
  cmd->add_flag("--periodic", o.pattern.periodic, "wrap around the grid's edges");
  addExchangeOptions(cmd, o);
  return runWhenParsed(cmd, options, runGenStencil);
}

Command addAlltoall(CLI::App& gen) {
  auto options = std::make_shared<GenAlltoallOptions>();
  GenAlltoallOptions& o = *options;
  CLI::App* cmd = gen.add_subcommand(
      "alltoall",
      "all-to-all within groups of consecutive ranks (FFT-like transposes)\n  example: tac3map "
      "gen alltoall --ranks 64 --group 8 --bytes 65536 -o a2a.trace");
  cmd->add_option("--ranks", o.pattern.ranks, "number of ranks")->capture_default_str();
  cmd->add_option("--group", o.pattern.group, "ranks per group (divides --ranks)")
      ->capture_default_str();
  addExchangeOptions(cmd, o);
  return runWhenParsed(cmd, options, runGenAlltoall);
}

Command addRandom(CLI::App& gen) {
  auto options = std::make_shared<GenRandomOptions>();
  GenRandomOptions& o = *options;
  CLI::App* cmd = gen.add_subcommand(
      "random",
      "random sparse pattern\n  example: tac3map gen random --ranks 256 --degree 4 --bytes "
      "65536 --max-bytes 1048576 --seed 7 -o random.trace");
  cmd->add_option("--ranks", o.pattern.ranks, "number of ranks")->capture_default_str();
  cmd->add_option("--degree", o.pattern.degree, "distinct destinations per rank")
      ->capture_default_str();
  cmd->add_option("--bytes", o.pattern.bytes, "bytes per message (the smallest with --max-bytes)")
      ->check(nonNegative())
      ->capture_default_str();
  cmd->add_option("--max-bytes", o.pattern.maxBytes, "sizes uniform in [--bytes, --max-bytes]")
      ->check(nonNegative());
  addSeed(cmd, o);
  addIterationsAndOutput(cmd, o);
  return runWhenParsed(cmd, options, runGenRandom);
}

Command addMesh(CLI::App& gen) {
  auto options = std::make_shared<GenMeshOptions>();
  GenMeshOptions& o = *options;
  CLI::App* cmd = gen.add_subcommand(
      "mesh",
      "halo exchange of a partitioned unstructured mesh (random points, k nearest, "
      "face-sized messages)\n  example: tac3map gen mesh --ranks 20000 --neighbours 6 --bytes "
      "16384 --max-bytes 262144 --seed 1 -o mesh.trace");
  cmd->add_option("--ranks", o.pattern.ranks, "number of ranks (points)")->capture_default_str();
  cmd->add_option("--dimensions", o.pattern.dimensions, "points in the unit square (2) or cube (3)")
      ->capture_default_str();
  cmd->add_option("--neighbours", o.pattern.neighbours,
                  "each rank's nearest points it exchanges with (and whoever chose it)")
      ->capture_default_str();
  cmd->add_option("--bytes", o.pattern.bytes, "bytes of the smallest face's message")
      ->check(nonNegative())
      ->capture_default_str();
  cmd->add_option("--max-bytes", o.pattern.maxBytes,
                  "bytes of the largest face's message (the closest pair; 0: 262144, or --bytes "
                  "if larger)")
      ->check(nonNegative())
      ->capture_default_str();
  addSeed(cmd, o);
  cmd->add_option("--variant", o.variant,
                  exchangeStyleNames().help() + "; sendrecv: one partner per round")
      ->check(choiceOf(exchangeStyleNames()))
      ->capture_default_str();
  addIterationsAndOutput(cmd, o);
  return runWhenParsed(cmd, options, runGenMesh);
}

}  // namespace

Command addGenCommand(CLI::App& app, Deprecations& /*deprecated: none*/) {
  CLI::App* cmd = app.add_subcommand("gen", "write synthetic traces");
  cmd->require_subcommand(1);
  const std::vector<Command> generators = {addCg(*cmd), addStencil(*cmd), addAlltoall(*cmd),
                                           addRandom(*cmd), addMesh(*cmd)};
  return [generators]() -> std::optional<int> {
    for (const Command& generator : generators)
      if (const std::optional<int> code = generator()) return code;
    return std::nullopt;
  };
}

int runGenCg(const GenCgOptions& o) {
  CgOptions pattern = o.pattern;
  pattern.variant = parseCgVariant(o.variant);
  return writeTrace(o.output, generateCgTrace(pattern));
}

int runGenStencil(const GenStencilOptions& o) {
  StencilOptions pattern = o.pattern;
  pattern.dims = parseIntegerList(o.dims, 'x', "--dims");
  pattern.style = parseExchangeStyle(o.variant);
  return writeTrace(o.output, generateStencilTrace(pattern));
}

int runGenAlltoall(const GenAlltoallOptions& o) {
  AlltoallOptions pattern = o.pattern;
  pattern.style = parseExchangeStyle(o.variant);
  return writeTrace(o.output, generateAlltoallTrace(pattern));
}

int runGenRandom(const GenRandomOptions& o) {
  return writeTrace(o.output, generateRandomTrace(o.pattern));
}

int runGenMesh(const GenMeshOptions& o) {
  MeshPatternOptions pattern = o.pattern;
  pattern.style = parseExchangeStyle(o.variant);
  return writeTrace(o.output, generateMeshTrace(pattern));
}

}  // namespace tac3map::cli
