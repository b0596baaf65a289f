// Dimension folding: a process grid laid onto the box's own axes so that every pair of grid
// neighbours is one hop apart, when the extents allow it exactly. Each grid axis takes a group
// of box axes (whole or a leading part of each) whose lengths multiply to its extent, and
// runs through them in snake order (a reflected mixed-radix Gray code: consecutive cells
// differ by one step on one box axis). A periodic grid axis also needs its ring closed: its
// last cell one hop from its first, which holds when the group's slowest axis has an even
// length and its ends are adjacent (length 2, or a whole axis that wraps in the box).
// Example: 48x46x72 on Fugaku's 24x23x24x2x3x2 is 48 = X24·A2, 46 = C2·Y23, 72 = B3·Z24.
#pragma once

#include <optional>
#include <vector>

namespace tac3map {

struct FoldedAxis {
  std::vector<int> boxAxes;  // fastest first; the last is the slowest
  std::vector<int> lengths;  // cells used along each (0 .. length - 1)
};

// A fold of `grid` (extents; `periodic` per axis) onto a box of `shape` whose axis j wraps
// when closed[j]; nullopt when none exists. Deterministic: the first fold found when box axes
// are tried in order and each is given to the grid axes in order. With `openRings` > 0, up to
// that many periodic grid axes may be laid open (their last and first cells not adjacent).
std::optional<std::vector<FoldedAxis>> findDimensionFold(const std::vector<int>& grid,
                                                         const std::vector<bool>& periodic,
                                                         const std::vector<int>& shape,
                                                         const std::vector<bool>& closed,
                                                         int openRings = 0);

// The fold with the fewest open rings: findDimensionFold with openRings 0, 1, ... A ring laid
// open along a path (every other neighbour still one hop apart) carries its wrap-around
// message back over the path's links, two messages a link where a closed ring has one: on
// the 4x4x4 stencil in FX10's 1x2x4x2x3x2 box, whose Z is a path of 4 (no closed fold exists),
// that is the best the search ever found, where recursive bisection put neighbours 2.5 hops
// apart.
std::optional<std::vector<FoldedAxis>> findNearestFold(const std::vector<int>& grid,
                                                       const std::vector<bool>& periodic,
                                                       const std::vector<int>& shape,
                                                       const std::vector<bool>& closed);

// Box coordinates (box-relative, one per box axis; axes no grid axis uses stay 0) of the grid
// cell whose coordinates are `cell`.
std::vector<int> foldedCoordinates(const std::vector<FoldedAxis>& fold, int boxAxes,
                                   const std::vector<int>& cell);

}  // namespace tac3map
