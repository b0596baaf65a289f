// The Fujitsu-style logical 3D torus view of a 6D Tofu box.
//
// Each logical axis pairs one of X, Y, Z with one of A, B, C (X-A, Y-B, Z-C) and runs through
// the 2D grid of that pair as a ring: a Hamiltonian cycle of the grid's nodes, so that logical
// neighbours are one hop apart, including the logical wrap-around where the cycle closes.
// docs/mapping-names.md gives the construction. It is the natural place for a 3D stencil of
// the same extents, and of tac3map's `tofu-default` baseline (mapping_names.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "tac3map/network/machine.hpp"

namespace tac3map {

// A closed or open walk through every node of a 2D grid, each step one hop.
struct GridRing {
  std::vector<std::array<int, 2>> cells;  // (u, v) in walk order
  bool closed = false;                    // the last cell is one hop from the first
};

// u has size `uSize` (wrapping if `uWrap`), v likewise. A cycle exists when one size is even,
// or when both are odd and one axis wraps; otherwise the walk is a serpentine path (open).
GridRing gridRing(int uSize, bool uWrap, int vSize, bool vWrap);

struct LogicalTorus {
  std::array<int, 3> size{};
  std::array<bool, 3> closed{};  // logical neighbours across the end are one hop apart
  std::vector<int> node;         // box node of logical position x + size_x * (y + size_y * z)
};

// Needs a 6-axis machine with axes named X Y Z A B C (any order in the file).
LogicalTorus tofuLogicalTorus(const Machine& machine, const Box& box);

}  // namespace tac3map
