#include "tac3map/network/tofu_view.hpp"

#include "tac3map/io/error.hpp"

namespace tac3map {
namespace {

// rows x columns, rows even: column 0 is the way back. Row 0 runs right over columns
// 1..C-1, row 1 left, ..., the last row (odd) ends at column 1; then up column 0 to the start.
GridRing combRing(int rows, int columns) {
  GridRing ring;
  ring.cells.push_back({0, 0});
  for (int r = 0; r < rows; ++r)
    for (int k = 1; k < columns; ++k) ring.cells.push_back({r, r % 2 == 0 ? k : columns - k});
  for (int r = rows - 1; r >= 1; --r) ring.cells.push_back({r, 0});
  ring.closed = true;
  return ring;
}

// rows x columns, both odd, columns wrap: row 0 runs all the way right; the other rows (an
// even number) snake over columns 1..C-1 ending at the right end of the last row, which wraps
// to column 0 and runs up column 0 to the start.
GridRing wrappedRing(int rows, int columns) {
  GridRing ring;
  for (int c = 0; c < columns; ++c) ring.cells.push_back({0, c});
  for (int r = 1; r < rows; ++r)
    for (int k = 1; k < columns; ++k) ring.cells.push_back({r, r % 2 == 1 ? columns - k : k});
  for (int r = rows - 1; r >= 1; --r) ring.cells.push_back({r, 0});
  ring.closed = true;
  return ring;
}

GridRing swapped(GridRing ring) {
  for (auto& cell : ring.cells) std::swap(cell[0], cell[1]);
  return ring;
}

}  // namespace

GridRing gridRing(int uSize, bool uWrap, int vSize, bool vWrap) {
  if (uSize == 1 || vSize == 1) {
    GridRing ring;
    const int n = uSize * vSize;
    for (int i = 0; i < n; ++i)
      ring.cells.push_back(uSize == 1 ? std::array{0, i} : std::array{i, 0});
    ring.closed = n <= 2 || (uSize == 1 ? vWrap : uWrap);
    return ring;
  }
  // Rows along v (the A/B/C axis, usually the short one) where that gives a cycle, so the ring
  // runs along the long axis and comes back one row over.
  if (vSize % 2 == 0) return swapped(combRing(vSize, uSize));
  if (uSize % 2 == 0) return combRing(uSize, vSize);
  if (uWrap) return swapped(wrappedRing(vSize, uSize));
  if (vWrap) return wrappedRing(uSize, vSize);
  GridRing path;  // no cycle exists (odd number of nodes, no wrap): a serpentine path
  for (int r = 0; r < vSize; ++r)
    for (int k = 0; k < uSize; ++k) path.cells.push_back({r % 2 == 0 ? k : uSize - 1 - k, r});
  path.closed = false;
  return path;
}

LogicalTorus tofuLogicalTorus(const Machine& machine, const Box& box) {
  const char* names[6] = {"X", "Y", "Z", "A", "B", "C"};
  std::array<int, 6> axis{};
  if (machine.axisCount() != 6)
    failIn(machine.source, "tofu-default needs a 6D machine with axes X Y Z A B C");
  for (int k = 0; k < 6; ++k) {
    axis[k] = -1;
    for (int a = 0; a < 6; ++a)
      if (machine.axes[a].name == names[k]) axis[k] = a;
    if (axis[k] < 0)
      failIn(machine.source, std::string("tofu-default needs an axis named ") + names[k]);
  }
  LogicalTorus view;
  std::array<GridRing, 3> rings;
  for (int d = 0; d < 3; ++d) {
    const int u = axis[d], v = axis[d + 3];
    rings[d] = gridRing(box.shape[u], box.wrap[u], box.shape[v], box.wrap[v]);
    view.size[d] = static_cast<int>(rings[d].cells.size());
    view.closed[d] = rings[d].closed;
  }
  view.node.reserve(static_cast<std::size_t>(box.nodeCount));
  std::vector<int> coordinates(6, 0);
  for (int z = 0; z < view.size[2]; ++z)
    for (int y = 0; y < view.size[1]; ++y)
      for (int x = 0; x < view.size[0]; ++x) {
        const int position[3] = {x, y, z};
        for (int d = 0; d < 3; ++d) {
          coordinates[axis[d]] = rings[d].cells[position[d]][0];
          coordinates[axis[d + 3]] = rings[d].cells[position[d]][1];
        }
        view.node.push_back(box.nodeAt(coordinates));
      }
  return view;
}

}  // namespace tac3map
