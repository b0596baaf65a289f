// The viz picture of a graph machine (trees, fat-trees, dragonflies; docs/viz.md): a layered
// drawing with the compute nodes on the bottom row in file order and each switch on the row
// of its level, its hop distance from the nearest compute node; within a row switches follow
// the mean position of their neighbours one row below (barycentre), so trees and fat-trees
// draw without crossings. Links are curves between node centres; the two directions of a
// full-duplex link bend apart, unused links are thin grey lines. Same header, legend, panels
// and node and link elements as the mesh/torus picture (viz.hpp), which calls this on a
// graph machine.
#pragma once

#include <string>
#include <vector>

#include "tac3map/network/graph_network.hpp"
#include "tac3map/output/viz_options.hpp"

namespace tac3map {

struct GraphLayout {
  // Per graph node: 0 for a compute node, else its hops from the nearest compute node (a
  // switch no compute node reaches: one level above all others).
  std::vector<int> level;
  // rows[l]: the graph nodes of level l, left to right; rows[0] is graph.compute.
  std::vector<std::vector<int>> rows;
  // Per graph node: its index in rows[level].
  std::vector<int> position;
};
GraphLayout graphLayout(const GraphNetwork& graph);

// The picture of `mappings` on a graph machine's network (network.graph(): a machine without
// axes, Machine::whyNoAxes).
std::string renderGraphSvg(const Network& network, const Problem& problem,
                           const std::vector<VizMapping>& mappings, const VizOptions& options);

}  // namespace tac3map
