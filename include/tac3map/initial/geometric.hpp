// The geometric start (--init geometric): for ranks that form a Cartesian process grid, lay
// the grid onto the box by dual recursive coordinate bisection (src/initial/geometric.cpp,
// docs/initial-mappers.md). The box's torus (Tofu: its logical 3D torus, else the box's own
// axes) is cut in halves along its longest axis, recursively, and the grid's cells along
// their longest axis into the part each half holds. Where the shapes are the same up to an
// axis permutation both cut sequences agree, so the map is that permutation: grid neighbours
// are one hop apart, and a periodic grid's rings close over the torus's wrap-around links.
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

// Per axis of the grid `extents`: whether some message wraps around it (the grid is periodic
// there), so that a fold must close that axis's ring.
std::vector<bool> periodicGridAxes(const Problem& problem, const std::vector<int>& extents);

}  // namespace tac3map
