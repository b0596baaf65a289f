// The torus a start lays ranks onto: Tofu's logical 3D torus when the machine has one (X·A,
// Y·B, Z·C, each a ring of one-hop steps), else the box's own axes. The geometric and graph
// starts both place onto it, so that they see the network the same way. A network that is
// no grid (a graph machine) gives its graph instead, so that a partitioner maps onto it
// (Scotch: a torus/mesh target or a graph target) without asking which kind of network it is.
#pragma once

#include <string>
#include <vector>

#include "tac3map/network/machine.hpp"

namespace tac3map {

struct TargetTorus {
  std::vector<int> extents;  // empty where the network is no grid
  std::vector<bool> closed;  // the axis's two ends are one hop apart
  std::vector<int> node;     // box node of each cell (linear index, first axis fastest)
  // Where the network is no grid: why, for messages ("<file> is a graph machine"; empty on a
  // grid), and the network as an undirected graph of all its vertices (switches too): the
  // neighbours of each vertex (one entry per linked pair, in link order) and the vertex of
  // each cell, cell k being box node k.
  std::string whyNoGrid;
  std::vector<std::vector<int>> adjacent;
  std::vector<int> vertexOfCell;

  bool isGrid() const { return whyNoGrid.empty(); }
};

TargetTorus targetTorusOf(const Machine& machine, const Box& box);

}  // namespace tac3map
