// The geometric start (--init geometric): for ranks that form a Cartesian process grid, lay
// the grid onto the box by dual recursive coordinate bisection. The grid and the box's torus
// (Tofu: its logical 3D torus, else the box's own axes) are each cut in halves along their
// longest axis, recursively, and the grid's cells take the box's slots in the same order.
// Where the shapes are the same up to an axis permutation both cut sequences agree, so the
// map is that permutation: grid neighbours are one hop apart, and a periodic grid's rings
// close over the torus's wrap-around links. Where they differ, each half of the grid still
// lands on a half of the box, so neighbours stay near.
#pragma once

#include <optional>
#include <vector>

#include "tac3map/model/problem.hpp"

namespace tac3map {

// The process grid the communication pattern forms: extents (rank = x + X (y + Y z) ...) such
// that every communicating pair is at most one step apart on every axis, cyclically (7- and
// 27-point stencils, periodic or not). nullopt when no such grid of two or more axes
// explains every communication.
std::optional<std::vector<int>> detectProcessGrid(const Problem& problem);

// The cells of a grid of `extents` (linear index, first axis fastest) in recursive bisection
// order: cut the longest axis (of equal ones, the one of larger whole extent, then the first)
// into floor and ceil halves, the lower half first.
std::vector<int> bisectionOrder(const std::vector<int>& extents);

}  // namespace tac3map
