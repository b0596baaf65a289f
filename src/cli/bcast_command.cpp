#include "bcast_command.hpp"

#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tac3map/bcast/broadcast.hpp"
#include "tac3map/io/atomic_file.hpp"
#include "tac3map/io/error.hpp"
#include "usage.hpp"

namespace tac3map::cli {

Command addBcastCommand(CLI::App& app, Deprecations& /*deprecated: none*/) {
  auto options = std::make_shared<BcastOptions>();
  BcastOptions& o = *options;
  CLI::App* cmd = app.add_subcommand(
      "bcast",
      "a broadcast schedule on a tree network: optimal (branch and bound), binomial or flat\n"
      "  example: tac3map bcast --machine topologies/trees/dual-cpu-2x4.json --root c0 -o "
      "bcast.json");
  cmd->add_option("--machine", o.machine, "machine file of kind \"graph\" whose links form a tree")
      ->required();
  cmd->add_option("--root", o.root, "the node that holds the message first (a participant)")
      ->required();
  cmd->add_option("--bytes", o.bytes, "message size")->check(nonNegative())->capture_default_str();
  cmd->add_option("--participants", o.participants,
                  "the nodes that take part, in rank order, comma-separated (default: every "
                  "compute node in file order); other nodes only relay");
  cmd->add_option("--algorithm", o.algorithm, "optimal | binomial | flat")
      ->check(choiceOf({"optimal", "binomial", "flat"}))
      ->capture_default_str();
  cmd->add_flag("--no-bound", o.noBound, "optimal: no lower-bound pruning (to measure it)");
  cmd->add_flag("--no-isomorphism", o.noIsomorphism,
                "optimal: no receiver-side cut by subtree isomorphism (to measure it)");
  cmd->add_option("--time-limit", o.timeLimit,
                  "optimal: stop after this many seconds with the best schedule so far");
  cmd->add_option("--output,-o", o.output, "write the schedule as JSON");
  cmd->add_option("--trace-out", o.traceOut,
                  "write the schedule as a native trace (isend/irecv/wait per rank, rank = "
                  "participant index) for predict or a SimGrid replay");
  cmd->add_flag("--quiet,-q", o.quiet, "print nothing but errors (no schedule on stdout)");
  return runWhenParsed(cmd, options, runBcast);
}

int runBcast(const BcastOptions& o) {
  checkOutputPaths({{"-o", o.output}, {"--trace-out", o.traceOut}});
  if (o.bytes == 0) throw InputError("--bytes must be positive");
  const double bytes = static_cast<double>(o.bytes);
  if (!o.output.empty() && o.output == o.traceOut)
    throw InputError("--output and --trace-out name the same file");
  if (o.timeLimit < 0) throw InputError("--time-limit must be >= 0");
  const Machine machine = loadMachine(o.machine);
  std::vector<std::string> names;
  std::stringstream list(o.participants);
  for (std::string name; std::getline(list, name, ',');)
    if (!name.empty()) names.push_back(name);
  const BroadcastNetwork net(machine, names);
  const int root = net.indexOf(o.root);
  if (root < 0) throw InputError("--root: '" + o.root + "' is not a participant of " + o.machine);
  const BroadcastSchedule s =
      o.algorithm == "flat" ? flatBroadcast(net, root, bytes)
      : o.algorithm == "binomial"
          ? binomialBroadcast(net, root, bytes)
          : optimalBroadcast(net, root, bytes, !o.noBound, o.timeLimit, !o.noIsomorphism);
  nlohmann::json transfers = nlohmann::json::array();
  for (const Transfer& t : s.transfers)
    transfers.push_back(
        {{"src", net.name(t.src)}, {"dst", net.name(t.dst)}, {"start", t.start}, {"end", t.end}});
  const nlohmann::json out = {
      {"root", net.name(root)},   {"bytes", o.bytes},
      {"algorithm", o.algorithm}, {"time", s.time},
      {"optimal", s.optimal},     {"search", {{"nodes", s.searchNodes}, {"seconds", s.seconds}}},
      {"transfers", transfers}};
  std::vector<StagedFile> files;  // both or neither
  if (!o.output.empty()) files.emplace_back(o.output, out.dump(2) + "\n");
  if (!o.traceOut.empty()) files.emplace_back(o.traceOut, broadcastTrace(net, s));
  for (StagedFile& f : files) f.commit();
  std::ostream& text = report(o.quiet);
  text << o.algorithm << " broadcast of " << o.bytes << " bytes from " << net.name(root) << " to "
       << net.participants() - 1 << " participants: " << s.time * 1e3 << " ms";
  if (o.algorithm == "optimal")
    text << (s.optimal ? " (optimal" : " (best found before the time limit") << ", "
         << s.searchNodes << " search nodes, " << s.seconds << " s)";
  text << "\n";
  for (const Transfer& t : s.transfers)
    text << "  " << net.name(t.src) << " -> " << net.name(t.dst) << "  " << t.start * 1e3 << " .. "
         << t.end * 1e3 << " ms\n";
  return 0;
}

}  // namespace tac3map::cli
