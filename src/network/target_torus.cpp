#include "tac3map/network/target_torus.hpp"

#include <algorithm>

#include "tac3map/io/error.hpp"
#include "tac3map/network/tofu_view.hpp"

namespace tac3map {

TargetTorus targetTorusOf(const Machine& machine, const Box& box) {
  if (machine.graph) {
    const GraphNetwork& net = *machine.graph;
    TargetTorus graph;
    graph.whyNoGrid = machine.source + " is a graph machine";
    for (int k = 0; k < box.nodeCount; ++k) graph.node.push_back(k);
    graph.vertexOfCell = net.compute;
    graph.adjacent.resize(net.nodes.size());
    // One edge per linked pair (a link's two arcs, and parallel links, are one edge).
    for (std::size_t a = 0; a < net.arcs.size(); a += 2) {
      const int u = net.arcs[a].from, v = net.arcs[a].to;
      std::vector<int>& uAdjacent = graph.adjacent[u];
      if (std::find(uAdjacent.begin(), uAdjacent.end(), v) != uAdjacent.end()) continue;
      uAdjacent.push_back(v);
      graph.adjacent[v].push_back(u);
    }
    return graph;
  }
  try {
    const LogicalTorus view = tofuLogicalTorus(machine, box);
    TargetTorus logical;
    logical.extents = {view.size[0], view.size[1], view.size[2]};
    logical.closed = {view.closed[0], view.closed[1], view.closed[2]};
    logical.node = view.node;
    return logical;
  } catch (const InputError&) {
    // not a Tofu machine: the box's axes are the torus
  }
  TargetTorus torus;
  torus.extents = box.shape;
  torus.closed = box.wrap;
  for (int cell = 0; cell < box.nodeCount; ++cell) {
    std::vector<int> coordinates;
    int rest = cell;
    for (int extent : box.shape) {
      coordinates.push_back(rest % extent);
      rest /= extent;
    }
    torus.node.push_back(box.nodeAt(coordinates));
  }
  return torus;
}

}  // namespace tac3map
