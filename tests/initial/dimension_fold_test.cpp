// Dimension folding (initial/dimension_fold.hpp), checked by plain arithmetic on box
// coordinates: a fold is one-to-one, puts every pair of grid neighbours one hop apart (and a
// periodic axis's last and first cells too), and exists where the extents factor as needed.
#include "tac3map/initial/dimension_fold.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <set>

#include "tac3map/base/random.hpp"

namespace tac3map {
namespace {

// Hops between two box coordinate vectors (dimension-order routing takes the shorter way
// round a wrapping axis).
int hops(const std::vector<int>& a, const std::vector<int>& b, const std::vector<int>& shape,
         const std::vector<bool>& closed) {
  int total = 0;
  for (std::size_t j = 0; j < a.size(); ++j) {
    const int d = std::abs(a[j] - b[j]);
    total += closed[j] ? std::min(d, shape[j] - d) : d;
  }
  return total;
}

// Every cell of the grid, its box coordinates checked: inside the box, distinct, and one hop
// from each grid neighbour.
void checkFold(const std::vector<int>& grid, const std::vector<bool>& periodic,
               const std::vector<int>& shape, const std::vector<bool>& closed,
               const std::vector<FoldedAxis>& fold) {
  long long cells = 1;
  for (int e : grid) cells *= e;
  std::set<std::vector<int>> seen;
  std::vector<int> cell(grid.size());
  for (long long i = 0; i < cells; ++i) {
    long long left = i;
    for (std::size_t a = 0; a < grid.size(); ++a) {
      cell[a] = static_cast<int>(left % grid[a]);
      left /= grid[a];
    }
    const std::vector<int> at = foldedCoordinates(fold, static_cast<int>(shape.size()), cell);
    for (std::size_t j = 0; j < shape.size(); ++j) ASSERT_TRUE(at[j] >= 0 && at[j] < shape[j]);
    ASSERT_TRUE(seen.insert(at).second) << "two cells on one node";
    for (std::size_t a = 0; a < grid.size(); ++a) {
      if (grid[a] == 1) continue;
      std::vector<int> next = cell;
      next[a] = cell[a] + 1;
      if (next[a] == grid[a]) {
        if (!periodic[a]) continue;
        next[a] = 0;
      }
      ASSERT_EQ(
          hops(at, foldedCoordinates(fold, static_cast<int>(shape.size()), next), shape, closed), 1)
          << "axis " << a << " cell " << i;
    }
  }
}

TEST(DimensionFold, FoldsFugakusStencilOntoTheWholeMachine) {
  const std::vector<int> grid{48, 46, 72}, shape{24, 23, 24, 2, 3, 2};
  const std::vector<bool> periodic(3, true), closed{true, true, true, false, true, false};
  const auto fold = findDimensionFold(grid, periodic, shape, closed);
  ASSERT_TRUE(fold);
  checkFold(grid, periodic, shape, closed, *fold);
}

TEST(DimensionFold, SaysWhenNoFoldExists) {
  // 5 does not divide any axis; a periodic 3x4 on a 3x4 mesh cannot close its rings; 2x2x2
  // cells on 7 places.
  EXPECT_FALSE(findDimensionFold({5, 4}, {true, true}, {4, 4, 4}, {true, true, true}));
  EXPECT_FALSE(findDimensionFold({3, 4}, {true, true}, {3, 4}, {false, false}));
  EXPECT_TRUE(findDimensionFold({3, 4}, {false, false}, {3, 4}, {false, false}));
  EXPECT_FALSE(findDimensionFold({2, 2, 2}, {true, true, true}, {7}, {true}));
}

// Periodic grid axes whose last and first cells are not one hop apart under `fold`.
int openRings(const std::vector<int>& grid, const std::vector<bool>& periodic,
              const std::vector<int>& shape, const std::vector<bool>& closed,
              const std::vector<FoldedAxis>& fold) {
  int open = 0;
  for (std::size_t a = 0; a < grid.size(); ++a) {
    if (!periodic[a] || grid[a] <= 2) continue;
    std::vector<int> first(grid.size(), 0), last(grid.size(), 0);
    last[a] = grid[a] - 1;
    const int n = static_cast<int>(shape.size());
    open += hops(foldedCoordinates(fold, n, first), foldedCoordinates(fold, n, last), shape,
                 closed) != 1;
  }
  return open;
}

// The 4x4x4 periodic stencil in FX10's box 1x2x4x2x3x2: Z (4 of the machine's 8) is a path,
// so no fold closes all three rings; the nearest lays one open along Z, every other neighbour
// one hop apart.
TEST(DimensionFold, LaysARingOpenWhenNoFoldClosesThemAll) {
  const std::vector<int> grid{4, 4, 4}, shape{1, 2, 4, 2, 3, 2};
  const std::vector<bool> periodic{true, true, true};
  const std::vector<bool> closed{true, true, false, false, true, false};
  EXPECT_FALSE(findDimensionFold(grid, periodic, shape, closed));
  const auto fold = findNearestFold(grid, periodic, shape, closed);
  ASSERT_TRUE(fold);
  checkFold(grid, {false, false, false}, shape, closed, *fold);
  EXPECT_EQ(openRings(grid, periodic, shape, closed, *fold), 1);
}

// Random grids and boxes: the nearest fold exists exactly when a fold of open rings does, and
// no fold leaves fewer rings open.
TEST(DimensionFold, TheNearestFoldLeavesTheFewestRingsOpen) {
  Rng rng(23);
  int relaxed = 0;
  for (int draw = 0; draw < 200; ++draw) {
    std::vector<int> grid(2 + rng.below(2)), shape;
    std::vector<bool> periodic, closed, open;
    for (int& e : grid) {
      e = 2 + static_cast<int>(rng.below(5));
      periodic.push_back(rng.below(3) != 0);
      open.push_back(false);
      shape.push_back(e);
    }
    for (std::size_t j = 0; j < shape.size(); ++j) closed.push_back(rng.below(2) == 0);
    const auto nearest = findNearestFold(grid, periodic, shape, closed);
    ASSERT_EQ(nearest.has_value(), findDimensionFold(grid, open, shape, closed).has_value());
    if (!nearest) continue;
    checkFold(grid, open, shape, closed, *nearest);
    const int left = openRings(grid, periodic, shape, closed, *nearest);
    if (left > 0) {
      ++relaxed;
      EXPECT_FALSE(findDimensionFold(grid, periodic, shape, closed, left - 1)) << "draw " << draw;
    }
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(relaxed, 20);
}

// Random grids and boxes: whatever fold is found passes the check; on boxes made by splitting
// the grid's extents into factors (so a fold exists), one is found.
TEST(DimensionFold, RandomFoldsPutNeighboursOneHopApart) {
  Rng rng(17);
  int found = 0;
  for (int draw = 0; draw < 200; ++draw) {
    std::vector<int> grid(2 + rng.below(2)), shape;
    std::vector<bool> periodic, closed;
    for (int& e : grid) {
      e = 2 + static_cast<int>(rng.below(6));
      periodic.push_back(rng.below(2) == 0);
      // The extent as one axis or as two factors, in a random place among the box axes.
      if (e % 2 == 0 && e > 2 && rng.below(2) == 0) {
        shape.push_back(e / 2);
        shape.push_back(2);
      } else {
        shape.push_back(e);
      }
    }
    for (std::size_t i = shape.size() - 1; i > 0; --i) std::swap(shape[i], shape[rng.below(i + 1)]);
    if (rng.below(3) == 0) shape.push_back(2 + static_cast<int>(rng.below(3)));  // a spare axis
    for (std::size_t j = 0; j < shape.size(); ++j) closed.push_back(rng.below(3) != 0);
    const auto fold = findDimensionFold(grid, periodic, shape, closed);
    bool mustExist = true;  // every axis wraps: the factor split always closes the rings
    for (std::size_t j = 0; j < shape.size(); ++j) mustExist = mustExist && closed[j];
    if (mustExist) {
      EXPECT_TRUE(fold);
    }
    if (!fold) continue;
    ++found;
    checkFold(grid, periodic, shape, closed, *fold);
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(found, 100);
}

}  // namespace
}  // namespace tac3map
