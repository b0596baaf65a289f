// tac3map topology: machine files from a few parameters (gen/topologies.hpp).
#pragma once

#include <string>

#include "common_options.hpp"

namespace tac3map::cli {

struct TopologyOptions {
  std::string sizes;                               // torus: 4x4x4
  bool mesh = false;                               // torus: no wrap-around links
  std::string arity;                               // tree: 4,8
  std::string bandwidth = "1.25e9";                // per level for a tree (comma-separated)
  std::string latency = "1e-6";                    // per level for a tree
  int k = 4, levels = 2;                           // fat-tree
  int groups = 4, routers = 4, hosts = 2;          // dragonfly
  double globalBandwidth = 0, globalLatency = -1;  // dragonfly: default = local's
  std::string output;
  bool quiet = false;
};

// `topology` with its four kinds: torus, tree, fat-tree, dragonfly.
Command addTopologyCommand(CLI::App& app, Deprecations& deprecated);
int runTopology(const std::string& kind, const TopologyOptions& options);

}  // namespace tac3map::cli
