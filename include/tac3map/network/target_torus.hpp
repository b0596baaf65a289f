// The torus a start lays ranks onto: Tofu's logical 3D torus when the machine has one (X·A,
// Y·B, Z·C, each a ring of one-hop steps), else the box's own axes. The geometric and graph
// starts both place onto it, so that they see the network the same way.
#pragma once

#include <vector>

#include "tac3map/network/machine.hpp"

namespace tac3map {

struct TargetTorus {
  std::vector<int> extents;
  std::vector<bool> closed;  // the axis's two ends are one hop apart
  std::vector<int> node;     // box node of each cell (linear index, first axis fastest)
};

TargetTorus targetTorusOf(const Machine& machine, const Box& box);

}  // namespace tac3map
