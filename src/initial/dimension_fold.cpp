// Dimension folding (dimension_fold.hpp): a search over which box axes (and how much of each)
// every grid axis takes, then snake order along the chosen axes.
#include "tac3map/initial/dimension_fold.hpp"

#include <algorithm>
#include <cstddef>

namespace tac3map {
namespace {

class FoldSearch {
 public:
  FoldSearch(const std::vector<int>& grid, const std::vector<bool>& periodic,
             const std::vector<int>& shape, const std::vector<bool>& closed, int openRings)
      : grid_(grid),
        periodic_(periodic),
        shape_(shape),
        closed_(closed),
        openRings_(openRings),
        left_(grid),
        fold_(grid.size()) {}

  std::optional<std::vector<FoldedAxis>> run() {
    if (assign(0)) return result_;
    return std::nullopt;
  }

 private:
  // Box axis j and beyond to the grid axes whose extents are not yet covered.
  bool assign(std::size_t j) {
    // Give up when the axes left cannot hold the cells left, or the search grows too long
    // (six axes and small extents take a few thousand steps; the caller then bisects).
    if (++steps_ > kMaxSteps) return false;
    long long cells = 1, places = 1;
    for (int left : left_) cells *= left;
    for (std::size_t k = j; k < shape_.size(); ++k) places *= shape_[k];
    if (cells > places) return false;
    if (j == shape_.size()) return closeRings();
    // Whole axes first: the fold then spans few axes, and the same extents give the same fold.
    for (std::size_t a = 0; a < grid_.size(); ++a)
      for (int length = std::min(shape_[j], left_[a]); length >= 2; --length) {
        if (left_[a] % length != 0) continue;
        left_[a] /= length;
        fold_[a].boxAxes.push_back(static_cast<int>(j));
        fold_[a].lengths.push_back(length);
        if (assign(j + 1)) return true;
        fold_[a].boxAxes.pop_back();
        fold_[a].lengths.pop_back();
        left_[a] *= length;
      }
    return assign(j + 1);  // box axis j unused (its coordinate stays 0)
  }

  // Whether both ends of `length` cells on box axis j are one hop apart.
  bool endsAdjacent(int j, int length) const {
    return length == 2 || (length == shape_[j] && closed_[j]);
  }

  // Every periodic grid axis gets a slowest box axis that closes its ring; false if more than
  // openRings_ cannot.
  bool closeRings() {
    result_ = fold_;
    int open = 0;
    for (std::size_t a = 0; a < grid_.size(); ++a) {
      FoldedAxis& f = result_[a];
      if (!periodic_[a] || grid_[a] <= 2) continue;
      bool closedRing = false;
      for (std::size_t k = f.boxAxes.size(); k-- > 0 && !closedRing;) {
        const bool alone = f.boxAxes.size() == 1;
        if (!endsAdjacent(f.boxAxes[k], f.lengths[k]) || (!alone && f.lengths[k] % 2 != 0))
          continue;
        // k becomes the slowest; the others keep their order.
        std::swap(f.boxAxes[k], f.boxAxes.back());
        std::swap(f.lengths[k], f.lengths.back());
        closedRing = true;
      }
      if (!closedRing && ++open > openRings_) return false;
    }
    return true;
  }

  const std::vector<int>& grid_;
  const std::vector<bool>& periodic_;
  const std::vector<int>& shape_;
  const std::vector<bool>& closed_;
  int openRings_;
  std::vector<int> left_;  // per grid axis: the extent its box axes do not cover yet
  std::vector<FoldedAxis> fold_, result_;  // the axes given so far; the fold found
  static constexpr long long kMaxSteps = 2000000;
  long long steps_ = 0;
};

}  // namespace

std::optional<std::vector<FoldedAxis>> findDimensionFold(const std::vector<int>& grid,
                                                         const std::vector<bool>& periodic,
                                                         const std::vector<int>& shape,
                                                         const std::vector<bool>& closed,
                                                         int openRings) {
  for (int extent : grid)
    if (extent < 1) return std::nullopt;
  return FoldSearch(grid, periodic, shape, closed, openRings).run();
}

std::optional<std::vector<FoldedAxis>> findNearestFold(const std::vector<int>& grid,
                                                       const std::vector<bool>& periodic,
                                                       const std::vector<int>& shape,
                                                       const std::vector<bool>& closed) {
  int rings = 0;
  for (std::size_t a = 0; a < grid.size(); ++a) rings += periodic[a] && grid[a] > 2;
  for (int open = 0; open <= rings; ++open)
    if (auto fold = findDimensionFold(grid, periodic, shape, closed, open)) return fold;
  return std::nullopt;
}

std::vector<int> foldedCoordinates(const std::vector<FoldedAxis>& fold, int boxAxes,
                                   const std::vector<int>& cell) {
  std::vector<int> coordinates(static_cast<std::size_t>(boxAxes), 0);
  for (std::size_t a = 0; a < fold.size(); ++a) {
    const FoldedAxis& f = fold[a];
    // Reflected mixed-radix Gray code, slowest digit first: the faster digits run backwards
    // whenever the slower digit is odd, so consecutive cells differ in one digit by one.
    long long span = 1;
    for (int length : f.lengths) span *= length;
    long long rest = cell[a];
    for (std::size_t k = f.lengths.size(); k-- > 0;) {
      span /= f.lengths[k];
      const int digit = static_cast<int>(rest / span);
      rest %= span;
      if (digit % 2 == 1) rest = span - 1 - rest;
      coordinates[static_cast<std::size_t>(f.boxAxes[k])] = digit;
    }
  }
  return coordinates;
}

}  // namespace tac3map
