// The tac3map command: the app, every command added in --help's order (each
// <command>_command.cpp registers its own options; docs/cli.md is generated from their --help
// texts by scripts/update-cli-doc.sh), parsing, and running the one given.
#include <CLI/CLI.hpp>
#include <iostream>
#include <new>
#include <optional>
#include <stdexcept>
#include <vector>

#include "bcast_command.hpp"
#include "ccs_command.hpp"
#include "common_options.hpp"
#include "convert_command.hpp"
#include "distributed.hpp"
#include "gen_command.hpp"
#include "map_command.hpp"
#include "platform_command.hpp"
#include "predict_command.hpp"
#include "score_command.hpp"
#include "sweep_command.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/io/exit_codes.hpp"
#include "topology_command.hpp"
#include "usage.hpp"
#include "version.hpp"
#include "viz_command.hpp"

using namespace tac3map::cli;

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
  // Every command, in --help's order: a new one is its <command>_command.{hpp,cpp} and its
  // name here (common_options.hpp).
  const AddCommand addCommands[] = {addMapCommand,   addScoreCommand,    addPredictCommand,
                                    addVizCommand,   addSweepCommand,    addCcsCommand,
                                    addGenCommand,   addPlatformCommand, addConvertCommand,
                                    addBcastCommand, addTopologyCommand};
  std::vector<Command> commands;
  for (const AddCommand add : addCommands) commands.push_back(add(app, deprecated));

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
    for (const Command& command : commands)
      if (const std::optional<int> code = command()) return *code;
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
