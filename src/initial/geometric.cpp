#include "tac3map/initial/geometric.hpp"

#include <algorithm>
#include <cstdlib>
#include <set>

#include "tac3map/initial/initial_mapper.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/network/tofu_view.hpp"

namespace tac3map {
namespace {

// A process grid has at most this many axes (MPI Cartesian codes use 2 or 3); with more, any
// pattern on 2^k ranks fits a grid of extent-2 axes (a hypercube).
constexpr int kMaxGridAxes = 4;

// -1 unless every communication joins cells at most one step apart on every axis (cyclically;
// extent-2 axes excluded: there every pair of cells is one step apart); else how many do so
// without a wrap-around step.
long long messagesInside(const Problem& problem, const std::vector<int>& extents) {
  for (int extent : extents)
    if (extent < 3) return -1;
  long long inside = 0;
  for (std::size_t c = 0; c < problem.realCommunications; ++c) {
    int a = problem.src[c], b = problem.dst[c];
    bool wraps = false;
    for (int extent : extents) {
      const int step = std::abs(a % extent - b % extent);
      if (step > 1 && step != extent - 1) return -1;
      wraps |= step > 1;
      a /= extent;
      b /= extent;
    }
    inside += !wraps;
  }
  return inside;
}

void bisect(const std::vector<int>& extents, std::vector<int>& lo, std::vector<int>& hi,
            std::vector<int>& out) {
  // The longest axis; on a tie the one of larger whole extent, then the first. (Not just the
  // first: two grids whose extents are a permutation of each other must cut corresponding
  // axes at every step, also in the uneven halves of an odd cut, so a tie must be broken by
  // something the permutation carries along.)
  std::size_t longest = 0;
  for (std::size_t a = 1; a < extents.size(); ++a) {
    const int length = hi[a] - lo[a], best = hi[longest] - lo[longest];
    if (length > best || (length == best && extents[a] > extents[longest])) longest = a;
  }
  if (hi[longest] - lo[longest] <= 1) {
    int index = 0;
    for (std::size_t a = extents.size(); a-- > 0;) index = index * extents[a] + lo[a];
    out.push_back(index);
    return;
  }
  const int mid = lo[longest] + (hi[longest] - lo[longest]) / 2;
  const int end = hi[longest];
  hi[longest] = mid;
  bisect(extents, lo, hi, out);
  hi[longest] = end;
  const int begin = lo[longest];
  lo[longest] = mid;
  bisect(extents, lo, hi, out);
  lo[longest] = begin;
}

// The box's nodes in bisection order of its torus: Tofu's logical 3D torus when the machine
// has one, else the box's own axes.
std::vector<int> boxNodesInBisectionOrder(const Machine& machine, const Box& box) {
  std::vector<int> nodes;
  try {
    const LogicalTorus view = tofuLogicalTorus(machine, box);
    for (int cell : bisectionOrder({view.size[0], view.size[1], view.size[2]}))
      nodes.push_back(view.node[cell]);
    return nodes;
  } catch (const InputError&) {
    // not a Tofu machine: the box's axes are the torus
  }
  for (int cell : bisectionOrder(box.shape)) {
    std::vector<int> coordinates;
    int rest = cell;
    for (int extent : box.shape) {
      coordinates.push_back(rest % extent);
      rest /= extent;
    }
    nodes.push_back(box.nodeAt(coordinates));
  }
  return nodes;
}

class GeometricMapper : public InitialMapper {
 public:
  const char* name() const override { return "geometric"; }
  std::string whyNot(const StartContext& c) const override {
    if (!c.allocation.isWholeBox()) return "the job is a node table, not a box";
    if (!c.grid.empty()) {
      long long cells = 1;
      for (int extent : c.grid) cells *= extent;
      return cells == c.problem.tasks ? "" : "--grid does not have one cell per rank";
    }
    return detectProcessGrid(c.problem) ? "" : "the ranks do not form a process grid";
  }
  Mapping build(const StartContext& c) const override {
    const std::vector<int> grid = c.grid.empty() ? *detectProcessGrid(c.problem) : c.grid;
    const int slots = c.allocation.slotsPerNode();
    c.allocation.checkFits(c.problem.tasks, "geometric start");
    const std::vector<int> nodes = boxNodesInBisectionOrder(c.machine, c.box);
    Mapping m(std::vector<int>(c.problem.tasks));
    if (slots > 1) m.slotOfTask.resize(c.problem.tasks);
    // K ranks per node: blocks of K cells share a node. Fold K into the grid's axes (each prime
    // factor into the longest coarse axis it divides), then lay the coarse grid onto the
    // nodes, so that the nodes see the coarse grid's neighbours one hop apart.
    std::vector<int> block(grid.size(), 1), coarse = grid;
    int rest = slots;
    for (int p = 2; rest > 1; ++p)
      while (rest % p == 0) {
        int axis = -1;
        for (std::size_t a = 0; a < coarse.size(); ++a)
          if (coarse[a] % p == 0 && (axis < 0 || coarse[a] > coarse[axis]))
            axis = static_cast<int>(a);
        if (axis < 0) break;
        coarse[axis] /= p;
        block[axis] *= p;
        rest /= p;
      }
    if (rest == 1) {
      const std::vector<int> order = bisectionOrder(coarse);
      for (std::size_t i = 0; i < order.size(); ++i) {
        // Cell (coarse coordinate x block + offset) for each offset in the block, x fastest.
        std::vector<int> base(grid.size());
        for (std::size_t a = 0, left = order[i]; a < grid.size(); ++a) {
          base[a] = static_cast<int>(left % coarse[a]) * block[a];
          left /= coarse[a];
        }
        for (int slot = 0; slot < slots; ++slot) {
          int cell = 0;
          for (std::size_t a = grid.size(), offset = slot, stride = slots; a-- > 0;) {
            stride /= block[a];
            cell = cell * grid[a] + base[a] + static_cast<int>(offset / stride);
            offset %= stride;
          }
          m.nodeOfTask[cell] = nodes[i];
          if (slots > 1) m.slotOfTask[cell] = slot;
        }
      }
      return m;
    }
    // K does not divide the grid: the i-th cell in bisection order takes the i-th slot.
    const std::vector<int> cells = bisectionOrder(grid);
    for (std::size_t i = 0; i < cells.size(); ++i) {
      m.nodeOfTask[cells[i]] = nodes[i / slots];
      if (slots > 1) m.slotOfTask[cells[i]] = static_cast<int>(i % slots);
    }
    return m;
  }
};

}  // namespace

std::optional<std::vector<int>> detectProcessGrid(const Problem& problem) {
  const int n = problem.tasks;
  if (n < 4) return std::nullopt;
  // An axis's stride is a rank difference of some message, and divides n; so is a wrap-around
  // difference ((extent - 1) x stride) now and then, so every chain of such strides is tried.
  std::set<int> differences;
  for (std::size_t c = 0; c < problem.realCommunications; ++c) {
    const int d = std::abs(problem.src[c] - problem.dst[c]);
    if (d > 1 && n % d == 0) differences.insert(d);
  }
  // Among the grids that explain every message, the one where most messages stay off the
  // wrap-around (a stencil's true grid: only its boundary wraps), then the one with more axes.
  std::optional<std::vector<int>> best;
  long long bestInside = -1;
  std::vector<int> strides = {1};
  const auto consider = [&] {
    std::vector<int> extents;
    for (std::size_t a = 0; a < strides.size(); ++a)
      extents.push_back((a + 1 < strides.size() ? strides[a + 1] : n) / strides[a]);
    if (extents.size() < 2) return;
    const long long inside = messagesInside(problem, extents);
    if (inside < 0) return;
    if (inside > bestInside || (inside == bestInside && extents.size() > best->size())) {
      best = extents;
      bestInside = inside;
    }
  };
  // Depth-first over chains 1 | s_1 | s_2 | ... of at most kMaxGridAxes axes.
  const auto extend = [&](const auto& self) -> void {
    consider();
    if (static_cast<int>(strides.size()) == kMaxGridAxes) return;
    for (int d : differences)
      if (d > strides.back() && d % strides.back() == 0) {
        strides.push_back(d);
        self(self);
        strides.pop_back();
      }
  };
  extend(extend);
  return best;
}

std::vector<int> bisectionOrder(const std::vector<int>& extents) {
  std::vector<int> lo(extents.size(), 0), hi = extents, out;
  long long cells = 1;
  for (int extent : extents) cells *= extent;
  out.reserve(static_cast<std::size_t>(cells));
  if (cells > 0) bisect(extents, lo, hi, out);
  return out;
}

std::unique_ptr<InitialMapper> makeGeometricMapper() {
  return std::make_unique<GeometricMapper>();
}

}  // namespace tac3map
