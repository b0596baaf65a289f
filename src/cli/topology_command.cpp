#include "topology_command.hpp"

#include <iostream>
#include <vector>

#include "tac3map/gen/topologies.hpp"
#include "tac3map/io/atomic_file.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/network/machine.hpp"
#include "usage.hpp"

namespace tac3map::cli {
namespace {

// A comma-separated list of at least one number.
std::vector<double> numbers(const std::string& text, const std::string& what) {
  std::vector<double> values = parseNumberList(text, ',', what);
  if (values.empty()) throw InputError(what + ": expected a number");
  return values;
}

}  // namespace

Command addTopologyCommand(CLI::App& app, Deprecations& /*deprecated: none*/) {
  auto options = std::make_shared<TopologyOptions>();
  TopologyOptions& o = *options;
  CLI::App* cmd =
      app.add_subcommand("topology",
                         "write a machine file: torus | tree | fat-tree | dragonfly\n"
                         "  example: tac3map topology fat-tree --k 4 --levels 3 -o fat-tree.json");
  cmd->require_subcommand(1);
  const auto common = [&](CLI::App* kind, bool perLevel) {
    kind->add_option("--bandwidth", o.bandwidth,
                     perLevel ? "bytes/s of the links of each level, root first, comma-separated "
                                "(the last one for the levels below)"
                              : "bytes/s of every link")
        ->capture_default_str();
    kind->add_option(
            "--latency", o.latency,
            perLevel ? "seconds per link of each level, comma-separated" : "seconds per link")
        ->capture_default_str();
    kind->add_option("--output,-o", o.output, "machine file to write")->required();
    kind->add_flag("--quiet,-q", o.quiet, "print nothing but errors");
  };
  CLI::App* torus = cmd->add_subcommand("torus", "a mesh/torus in the axes format");
  torus->add_option("--sizes", o.sizes, "extents, e.g. 4x4x4")->required();
  torus->add_flag("--mesh", o.mesh, "no wrap-around links");
  common(torus, false);
  CLI::App* tree = cmd->add_subcommand("tree", "a tree of switches with compute leaves");
  tree->add_option("--arity", o.arity, "children per node of each level, root first, e.g. 4,8")
      ->required();
  common(tree, true);
  CLI::App* fat = cmd->add_subcommand("fat-tree", "a k-ary n-tree with d-mod-k routing");
  fat->add_option("--k", o.k, "switch arity (k^levels compute nodes)")->capture_default_str();
  fat->add_option("--levels", o.levels, "levels of switches")->capture_default_str();
  common(fat, false);
  CLI::App* fly = cmd->add_subcommand("dragonfly", "groups of all-to-all routers, minimal routing");
  fly->add_option("--groups", o.groups, "groups (one global link between every two)")
      ->capture_default_str();
  fly->add_option("--routers", o.routers, "routers per group")->capture_default_str();
  fly->add_option("--hosts", o.hosts, "compute nodes per router")->capture_default_str();
  fly->add_option("--global-bandwidth", o.globalBandwidth,
                  "bytes/s of the global links (default: --bandwidth)");
  fly->add_option("--global-latency", o.globalLatency,
                  "seconds per global link (default: --latency)");
  common(fly, false);
  const std::vector<const CLI::App*> kinds = {torus, tree, fat, fly};
  return [kinds, options]() -> std::optional<int> {
    for (const CLI::App* kind : kinds)
      if (kind->parsed()) return runTopology(kind->get_name(), *options);
    return std::nullopt;
  };
}

int runTopology(const std::string& kind, const TopologyOptions& o) {
  checkOutputPaths({{"-o", o.output}});
  const std::vector<double> bandwidths = numbers(o.bandwidth, "--bandwidth");
  const std::vector<double> latencies = numbers(o.latency, "--latency");
  const LinkSpec first{bandwidths.front(), latencies.front()};
  std::string text;
  if (kind == "torus") {
    text = torusMachine(parseIntegerList(o.sizes, 'x', "--sizes"), !o.mesh, first);
  } else if (kind == "tree") {
    std::vector<LinkSpec> links;
    for (std::size_t i = 0; i < std::max(bandwidths.size(), latencies.size()); ++i)
      links.push_back({bandwidths[std::min(i, bandwidths.size() - 1)],
                       latencies[std::min(i, latencies.size() - 1)]});
    text = treeMachine(parseIntegerList(o.arity, ',', "--arity"), links);
  } else if (kind == "fat-tree") {
    text = fatTreeMachine(o.k, o.levels, first);
  } else {
    const LinkSpec global{o.globalBandwidth > 0 ? o.globalBandwidth : first.bandwidth,
                          o.globalLatency >= 0 ? o.globalLatency : first.latency};
    text = dragonflyMachine(o.groups, o.routers, o.hosts, first, global);
  }
  writeFileAtomically(o.output, text);
  report(o.quiet) << "wrote " << o.output << " (" << kind << ")\n";
  return 0;
}

}  // namespace tac3map::cli
