// The node-fold start (--init node-fold, issue 24): K > 1 ranks per node on a process grid.
// The geometric start blocks K cells per node one way (each prime factor of K into the longest
// coarse axis) and folds the coarse grid when it can; on the 8x4x4 stencil with K = 4 on FX10
// 1x1x8x2x1x2 its 2x4x4 coarse grid does not fold (no ring of 4 closes there) and the bisection
// scores 3x round-robin. Here every block shape of K cells that divides the grid is tried, with
// the grid's axes in every order (which grid axis lands on which box axes decides which links
// carry a block's faces), each coarse grid that folds exactly onto the box is laid out (every
// coarse neighbour one hop away), and the start is the fold with the best tac3 (then fewer
// shared links, then byte-hops; the first on a tie). Which block is best is a question of
// link loads, not of hops: a 1x2x2 and a 2x2x1 block both fold on that box, with different
// loads, so the folds are scored rather than ranked by a rule.
#include <algorithm>
#include <numeric>

#include "tac3map/initial/dimension_fold.hpp"
#include "tac3map/initial/geometric.hpp"
#include "tac3map/initial/initial_mapper.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/model/objective.hpp"
#include "tac3map/search/objectives.hpp"

namespace tac3map {
namespace {

// At most this many folds are scored (each is one reference scoring of the job): the 3-axis
// grids of the issue have at most 6 orders x 10 blocks, most of which do not fold.
constexpr int kMaxScoredFolds = 24;

struct NodeFold {
  std::vector<int> block;        // cells per node along each grid axis (product K)
  std::vector<int> order;        // grid axes in the order given to the fold
  std::vector<FoldedAxis> fold;  // of the coarse grid, permuted by `order`
};

// Every block shape: block[a] divides grid[a], the product is `slots`.
void blockShapes(const std::vector<int>& grid, std::size_t axis, int left, std::vector<int>& block,
                 std::vector<std::vector<int>>& out) {
  if (axis == grid.size()) {
    if (left == 1) out.push_back(block);
    return;
  }
  for (int b = 1; b <= left; ++b)
    if (left % b == 0 && grid[axis] % b == 0) {
      block[axis] = b;
      blockShapes(grid, axis + 1, left / b, block, out);
    }
  block[axis] = 1;
}

std::vector<int> gridOf(const StartContext& c) {
  if (!c.grid.empty()) return c.grid;
  const auto detected = detectProcessGrid(c.problem);
  return detected ? *detected : std::vector<int>{};
}

std::vector<NodeFold> nodeFolds(const StartContext& c, const std::vector<int>& grid) {
  const std::vector<bool> periodic = periodicGridAxes(c.problem, grid);
  std::vector<std::vector<int>> blocks;
  std::vector<int> block(grid.size(), 1);
  blockShapes(grid, 0, c.allocation.slotsPerNode(), block, blocks);
  std::vector<NodeFold> folds;
  for (const std::vector<int>& b : blocks) {
    std::vector<int> order(grid.size());
    std::iota(order.begin(), order.end(), 0);
    do {
      std::vector<int> coarse;
      std::vector<bool> ring;
      for (int a : order) {
        coarse.push_back(grid[a] / b[a]);
        // A periodic axis cut into blocks stays a ring of blocks.
        ring.push_back(periodic[a]);
      }
      if (auto fold = findDimensionFold(coarse, ring, c.box.shape, c.box.wrap))
        folds.push_back({b, order, std::move(*fold)});
    } while (std::next_permutation(order.begin(), order.end()) &&
             static_cast<int>(folds.size()) < kMaxScoredFolds);
    if (static_cast<int>(folds.size()) >= kMaxScoredFolds) break;
  }
  return folds;
}

// Rank = x + X (y + Y z) ...; its node is its block's coarse cell folded onto the box, its
// slot its place in the block (first axis fastest).
Mapping layOut(const StartContext& c, const std::vector<int>& grid, const NodeFold& f) {
  const std::size_t axes = grid.size();
  Mapping m(std::vector<int>(c.problem.tasks), std::vector<int>(c.problem.tasks));
  std::vector<int> cell(axes), coarse(axes);
  for (int rank = 0; rank < c.problem.tasks; ++rank) {
    int rest = rank, slot = 0, stride = 1;
    for (std::size_t a = 0; a < axes; ++a) {
      cell[a] = rest % grid[a];
      rest /= grid[a];
      slot += (cell[a] % f.block[a]) * stride;
      stride *= f.block[a];
    }
    for (std::size_t i = 0; i < axes; ++i) coarse[i] = cell[f.order[i]] / f.block[f.order[i]];
    m.nodeOfTask[rank] = c.box.nodeAt(foldedCoordinates(f.fold, c.box.axisCount(), coarse));
    m.slotOfTask[rank] = slot;
  }
  return m;
}

class NodeFoldMapper : public InitialMapper {
 public:
  const char* name() const override { return "node-fold"; }
  const char* description() const override {
    return "K > 1: blocks of K grid cells folded onto the box";
  }
  std::string whyNot(const StartContext& c) const override {
    if (c.allocation.slotsPerNode() < 2) return "one rank per node: geometric folds the grid";
    if (std::string why = c.machine.whyNotMeshOrTorus(); !why.empty()) return why;
    if (!c.allocation.isWholeBox()) return "the job is a node table, not a box";
    const std::vector<int> grid = gridOf(c);
    if (grid.empty()) return "the ranks do not form a process grid";
    long long cells = 1;
    for (int extent : grid) cells *= extent;
    if (cells != c.problem.tasks) return settingName("grid") + " does not have one cell per rank";
    if (nodeFolds(c, grid).empty())
      return "no block of K grid cells gives a coarse grid that folds onto the box";
    return {};
  }
  Mapping build(const StartContext& c) const override {
    const std::vector<int> grid = gridOf(c);
    Mapping best;
    ExactScores bestScores;
    for (const NodeFold& f : nodeFolds(c, grid)) {
      Mapping m = layOut(c, grid, f);
      const ExactScores scores = evaluateExact(c.problem, c.router, m);
      if (best.nodeOfTask.empty() || isBetter(scores, bestScores, ObjectiveKind::Tac3)) {
        best = std::move(m);
        bestScores = scores;
      }
    }
    return best;
  }
};

}  // namespace

std::unique_ptr<InitialMapper> makeNodeFoldMapper() {
  return std::make_unique<NodeFoldMapper>();
}

}  // namespace tac3map
