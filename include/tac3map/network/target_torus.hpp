// The torus a start lays ranks onto: Tofu's logical 3D torus when the machine has one (X·A,
// Y·B, Z·C, each a ring of one-hop steps), else the box's own axes. The geometric and graph
// starts both place onto it, so that they see the network the same way. A network that is
// no grid (a graph machine) gives its graph instead, so that a partitioner maps onto it
// (Scotch: a torus/mesh target or a graph target) without asking which kind of network it is.
#pragma once

#include <optional>
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

// A torus on which the hops between any two of the box's nodes are the network's own, for a
// partitioner that maps onto a subset of a torus (Scotch's sub target): every axis closed, an
// open axis of n nodes laid on a ring of 2(n - 1) (its first n positions are as far apart as
// on the line), axes of one node left out, and two axes of two nodes each one ring of four
// (a 2x2 mesh is that ring) until at most `maxAxes` remain: Tofu's A and C. Absent where no
// such torus exists (a graph machine, or more axes than `maxAxes` after merging).
struct DistanceTorus {
  std::vector<int> extents;     // every axis closed
  std::vector<int> cellOfNode;  // the torus cell (first axis fastest) of each box node
};
std::optional<DistanceTorus> distanceTorusOf(const Machine& machine, const Box& box, int maxAxes);

}  // namespace tac3map
