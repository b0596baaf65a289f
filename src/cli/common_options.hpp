// What the commands' command lines share: the interface by which main adds every command and
// runs the one given (Command), and the option groups several commands take (a trace to
// read, the job's box).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <utility>

#include "tac3map/pipeline/inputs.hpp"
#include "usage.hpp"

namespace tac3map::cli {

// A command added to the command line: after parsing, it runs its subcommand if that was the
// one given and returns the exit code, else nothing. It owns the options CLI11 parses into.
using Command = std::function<std::optional<int>()>;

// What each <command>_command.hpp declares, as `add<Name>Command`: adds the command's
// subcommand and options to `app` (old option spellings to `deprecated`). main's table lists
// every one, in --help's order.
using AddCommand = Command (*)(CLI::App& app, Deprecations& deprecated);

// The Command of one subcommand: run(*options) when `subcommand` was parsed.
template <class Options>
Command runWhenParsed(const CLI::App* subcommand, std::shared_ptr<Options> options,
                      int (*run)(const Options&)) {
  return [subcommand, options = std::move(options), run]() -> std::optional<int> {
    if (!subcommand->parsed()) return std::nullopt;
    return run(*options);
  };
}

// Options that read a trace: --trace, --trace-format, --iteration, --allow-empty, the eager
// sends, --collectives. The format is --trace-format; --format, its old spelling, still works
// with a note where it meant the trace format (`deprecated` given; where it meant the output
// format, on `score`, it is that command's old spelling of --output-format).
void addTraceOptions(CLI::App& app, TraceInput& input, Deprecations* deprecated);
// "openmpi, mpich, ...": the built-in MPI profiles, for help texts.
std::string mpiProfileList();

// The job's box: --machine, --shape, --offset, --nodes, --ranks-per-node, --engines,
// --overlap, --engine-sets. `withOverlap`: whether the command takes --overlap (it changes
// the score's sets; predict's timeline already lets sets without a barrier between them run
// together, so predict has none).
void addBoxOptions(CLI::App& app, BoxInput& box, bool withOverlap = true);

}  // namespace tac3map::cli
