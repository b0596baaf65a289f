#include "sweep_command.hpp"

#include "sweep.hpp"
#include "tac3map/io/limits.hpp"

namespace tac3map::cli {

Command addSweepCommand(CLI::App& app, Deprecations& /*deprecated: none*/) {
  auto options = std::make_shared<SweepOptions>();
  SweepOptions& o = *options;
  CLI::App* cmd = app.add_subcommand(
      "sweep",
      "run the cross product of a sweep spec, one JSON line per result (resumable)\n  example: "
      "tac3map sweep examples/sweep-paper-table1.json -o table1.jsonl --threads 2");
  cmd->add_option("spec", o.spec, "sweep spec (JSON; docs/sweep.md)")->required();
  cmd->add_option("--output,-o", o.output, "results, one JSON line each; appended to")->required();
  cmd->add_option("--threads", o.threads, "entries run in parallel")
      ->check(CLI::Range(1, limits::kMaxThreads))
      ->capture_default_str();
  cmd->add_flag("--quiet,-q", o.quiet,
                "print nothing but errors (no line per finished entry, no summary)");
  return runWhenParsed(cmd, options, runSweep);
}

}  // namespace tac3map::cli
