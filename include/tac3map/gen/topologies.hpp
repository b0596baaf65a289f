// Machine files made from a few parameters (`tac3map topology`, docs/graph-networks.md): a
// mesh/torus in the axes format, and trees, fat-trees and dragonflies as machine files of kind
// "graph". Each returns the file's JSON text; every one reads back with loadMachine or
// loadGraphNetwork.
#pragma once

#include <string>
#include <vector>

namespace tac3map {

struct LinkSpec {
  double bandwidth = 1.25e9;  // bytes per second
  double latency = 1e-6;      // seconds
};

// A mesh/torus of the given extents, all wrapping or none, routed in axis order.
std::string torusMachine(const std::vector<int>& extents, bool wrap, const LinkSpec& link);

// A tree: the root switch has arity[0] children, each of those arity[1], ...; the last level's
// children are compute nodes (c0, c1, ... in depth-first order). links[i] (or the last one
// given) joins level i to its children. Routing: shortest (a tree has one path).
std::string treeMachine(const std::vector<int>& arity, const std::vector<LinkSpec>& links);

// A k-ary n-tree (fat-tree): k^n compute nodes, n levels of k^(n-1) switches; routes listed
// ("table") by d-mod-k: going up, the switch taken at each level is chosen by the
// destination's digits, so the routes spread over the top.
std::string fatTreeMachine(int k, int levels, const LinkSpec& link);

// A dragonfly: `groups` groups of `routers` routers, all-to-all inside a group; `hosts`
// compute nodes per router; one global link between every two groups, the links of a group
// dealt over its routers in turn. Routing: shortest (minimal: local, global, local).
std::string dragonflyMachine(int groups, int routers, int hosts, const LinkSpec& local,
                             const LinkSpec& global);

}  // namespace tac3map
