#include "tac3map/initial/geometric.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <set>

#include "tac3map/initial/dimension_fold.hpp"
#include "tac3map/initial/initial_mapper.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/network/target_torus.hpp"

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

long long volume(const std::vector<int>& lo, const std::vector<int>& hi) {
  long long cells = 1;
  for (std::size_t a = 0; a < lo.size(); ++a) cells *= hi[a] - lo[a];
  return cells;
}

// Axes of the sub-box [lo, hi) in the order a cut prefers them: longest first; on a tie the
// one of larger whole extent, then the first. (Not just the first: a grid and a torus whose
// extents are a permutation of each other must cut corresponding axes at every step, also in
// the uneven halves of an odd cut, so a tie must be broken by something the permutation
// carries along.)
std::vector<int> axesByCutRule(const std::vector<int>& extents, const std::vector<int>& lo,
                               const std::vector<int>& hi) {
  std::vector<int> axes(extents.size());
  for (std::size_t a = 0; a < axes.size(); ++a) axes[a] = static_cast<int>(a);
  std::stable_sort(axes.begin(), axes.end(), [&](int x, int y) {
    const int lx = hi[x] - lo[x], ly = hi[y] - lo[y];
    return lx != ly ? lx > ly : extents[x] > extents[y];
  });
  return axes;
}

// Dual recursive bisection: the torus box is cut in halves along its longest axis; the grid's cells
// are cut along the longest axis of their bounding box into the part each half can hold (`capacity`
// cells per torus cell), in proportion to the halves' capacities: the lowest cells along that axis
// go with the lower half. Where the grid's slabs fit the halves, a cut takes whole slabs, so grids
// and tori of the same extents (in any order) correspond axis by axis; where they do not (a full
// machine whose shape differs from the grid's), a cut may split a slab, and every cell still gets a
// place near its neighbours. owner[grid cell] = its torus cell.
class DualBisection {
 public:
  DualBisection(const std::vector<int>& grid, const std::vector<int>& torus, int capacity)
      : grid_(grid), torus_(torus), capacity_(capacity) {}

  std::vector<int> run() {
    long long cells = 1;
    for (int extent : grid_) cells *= extent;
    owner_.assign(static_cast<std::size_t>(cells), -1);
    coordinates_.resize(static_cast<std::size_t>(cells) * grid_.size());
    points_.resize(static_cast<std::size_t>(cells));
    for (long long cell = 0; cell < cells; ++cell) {
      points_[cell] = static_cast<int>(cell);
      long long rest = cell;
      for (std::size_t a = 0; a < grid_.size(); ++a) {
        coordinates_[cell * grid_.size() + a] = static_cast<int>(rest % grid_[a]);
        rest /= grid_[a];
      }
    }
    std::vector<int> tlo(torus_.size(), 0), thi = torus_;
    split(0, points_.size(), tlo, thi);
    return owner_;
  }

 private:
  int coordinate(int cell, std::size_t axis) const {
    return coordinates_[static_cast<std::size_t>(cell) * grid_.size() + axis];
  }

  void split(std::size_t begin, std::size_t end, std::vector<int>& tlo, std::vector<int>& thi) {
    if (begin == end) return;
    const long long places = volume(tlo, thi);
    if (places == 1) {
      int torusCell = 0;
      for (std::size_t a = torus_.size(); a-- > 0;) torusCell = torusCell * torus_[a] + tlo[a];
      for (std::size_t i = begin; i < end; ++i) owner_[points_[i]] = torusCell;
      return;
    }
    const int ta = axesByCutRule(torus_, tlo, thi).front();
    const int tmid = tlo[ta] + (thi[ta] - tlo[ta]) / 2;
    const long long lowerPlaces = places / (thi[ta] - tlo[ta]) * (tmid - tlo[ta]);
    const long long c1 = lowerPlaces * capacity_, c2 = (places - lowerPlaces) * capacity_;
    // The grid part's bounding box and its longest axis.
    std::vector<int> glo(grid_.size(), std::numeric_limits<int>::max()), ghi(grid_.size(), 0);
    for (std::size_t i = begin; i < end; ++i)
      for (std::size_t a = 0; a < grid_.size(); ++a) {
        glo[a] = std::min(glo[a], coordinate(points_[i], a));
        ghi[a] = std::max(ghi[a], coordinate(points_[i], a) + 1);
      }
    const std::size_t ga = static_cast<std::size_t>(axesByCutRule(grid_, glo, ghi).front());
    const long long n = static_cast<long long>(end - begin);
    const double ideal =
        static_cast<double>(n) * static_cast<double>(c1) / static_cast<double>(c1 + c2);
    const long long lower =
        std::clamp(static_cast<long long>(ideal + 0.5), std::max(0LL, n - c2), std::min(n, c1));
    const std::size_t mid = begin + static_cast<std::size_t>(lower);
    std::nth_element(points_.begin() + static_cast<long>(begin),
                     points_.begin() + static_cast<long>(mid),
                     points_.begin() + static_cast<long>(end), [&](int x, int y) {
                       const int cx = coordinate(x, ga), cy = coordinate(y, ga);
                       return cx != cy ? cx < cy : x < y;
                     });
    const int tend = thi[ta];
    thi[ta] = tmid;
    split(begin, mid, tlo, thi);
    thi[ta] = tend;
    const int tbegin = tlo[ta];
    tlo[ta] = tmid;
    split(mid, end, tlo, thi);
    tlo[ta] = tbegin;
  }

  const std::vector<int>& grid_;
  const std::vector<int>& torus_;
  int capacity_;
  std::vector<int> owner_, coordinates_, points_;
};

// Bytes x hops of the problem's messages under `m`: how two candidate layouts compare.
unsigned long long byteHops(const StartContext& c, const Mapping& m) {
  unsigned long long total = 0;
  for (std::size_t k = 0; k < c.problem.realCommunications; ++k)
    total +=
        c.problem.bytes[k] * static_cast<unsigned long long>(c.router.hops(
                                 m.nodeOfTask[c.problem.src[k]], m.nodeOfTask[c.problem.dst[k]]));
  return total;
}

class GeometricMapper : public InitialMapper {
 public:
  const char* name() const override { return "geometric"; }
  const char* description() const override {
    return "the process grid laid onto the torus by recursive bisection";
  }
  std::string whyNot(const StartContext& c) const override {
    if (std::string why = c.machine.whyNotMeshOrTorus(); !why.empty()) return why;
    if (!c.allocation.isWholeBox()) return "the job is a node table, not a box";
    if (!c.grid.empty()) {
      long long cells = 1;
      for (int extent : c.grid) cells *= extent;
      return cells == c.problem.tasks ? ""
                                      : settingName("grid") + " does not have one cell per rank";
    }
    return detectProcessGrid(c.problem) ? "" : "the ranks do not form a process grid";
  }
  Mapping build(const StartContext& c) const override {
    const std::vector<int> grid = c.grid.empty() ? *detectProcessGrid(c.problem) : c.grid;
    const int slots = c.allocation.slotsPerNode();
    c.allocation.checkFits(c.problem.tasks, "geometric start");
    const TargetTorus torus = targetTorusOf(c.machine, c.box);
    Mapping m(std::vector<int>(c.problem.tasks));
    if (slots > 1) m.slotOfTask.resize(c.problem.tasks);
    // K ranks per node: blocks of K cells share a node. Fold K into the grid's axes (each prime
    // factor into the longest coarse axis it divides), then lay the coarse grid onto the
    // nodes, so that the nodes see the coarse grid's neighbours one hop apart.
    std::vector<int> block(grid.size(), 1), coarse = grid;
    int rest = slots;
    for (int p = 2; rest > 1 && p <= rest; ++p)
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
      // The block's cells: coarse coordinate x block + offset on each axis, x fastest.
      const auto layOut = [&](const std::vector<int>& nodeOfCoarse) {
        for (std::size_t i = 0; i < nodeOfCoarse.size(); ++i) {
          std::vector<int> base(grid.size());
          std::size_t left = i;
          for (std::size_t a = 0; a < grid.size(); ++a) {
            base[a] = static_cast<int>(left % coarse[a]) * block[a];
            left /= coarse[a];
          }
          for (int slot = 0; slot < slots; ++slot) {
            int cell = 0;
            std::size_t offset = slot, stride = slots;
            for (std::size_t a = grid.size(); a-- > 0;) {
              stride /= block[a];
              cell = cell * grid[a] + base[a] + static_cast<int>(offset / stride);
              offset %= stride;
            }
            m.nodeOfTask[cell] = nodeOfCoarse[i];
            if (slots > 1) m.slotOfTask[cell] = slot;
          }
        }
        return m;
      };
      const auto folded = [&](const std::vector<FoldedAxis>& fold) {
        long long cells = 1;
        for (int extent : coarse) cells *= extent;
        std::vector<int> cell(coarse.size()), nodeOfCoarse;
        for (long long i = 0; i < cells; ++i) {
          long long left = i;
          for (std::size_t a = 0; a < coarse.size(); ++a) {
            cell[a] = static_cast<int>(left % coarse[a]);
            left /= coarse[a];
          }
          nodeOfCoarse.push_back(c.box.nodeAt(foldedCoordinates(fold, c.box.axisCount(), cell)));
        }
        return layOut(nodeOfCoarse);
      };
      // Nodes of the coarse cells: an exact fold onto the box's axes if there is one (every
      // grid neighbour one hop away, every ring closed); else the bisection onto the target
      // torus or the fold with the fewest rings laid open, whichever puts the messages' bytes
      // fewer hops apart (the bisection on ties). Either can win: on K's 4x4x6x2x3x2 the
      // bisection onto the logical torus closes every ring of a 12x12x8 grid; in FX10's
      // 1x2x4x2x3x2 it puts the 4x4x4 grid's neighbours 2.5 hops apart, the open fold 1.2.
      const std::vector<bool> periodic = periodicGridAxes(c.problem, grid);
      if (const auto fold = findDimensionFold(coarse, periodic, c.box.shape, c.box.wrap))
        return folded(*fold);
      std::vector<int> nodeOfCoarse;
      for (int owner : DualBisection(coarse, torus.extents, 1).run())
        nodeOfCoarse.push_back(torus.node[owner]);
      const Mapping bisected = layOut(nodeOfCoarse);
      const auto open = findNearestFold(coarse, periodic, c.box.shape, c.box.wrap);
      if (!open) return bisected;
      const Mapping opened = folded(*open);
      return byteHops(c, opened) < byteHops(c, bisected) ? opened : bisected;
    }
    // K does not divide the grid: K cells per node, in the order the bisection assigns them.
    const std::vector<int> owner = DualBisection(grid, torus.extents, slots).run();
    std::vector<int> used(torus.node.size(), 0);
    for (std::size_t cell = 0; cell < owner.size(); ++cell) {
      m.nodeOfTask[cell] = torus.node[owner[cell]];
      m.slotOfTask[cell] = used[owner[cell]]++;
    }
    return m;
  }
};

}  // namespace

std::vector<bool> periodicGridAxes(const Problem& problem, const std::vector<int>& extents) {
  std::vector<bool> periodic(extents.size(), false);
  for (std::size_t c = 0; c < problem.realCommunications; ++c) {
    int a = problem.src[c], b = problem.dst[c];
    for (std::size_t axis = 0; axis < extents.size(); ++axis) {
      if (std::abs(a % extents[axis] - b % extents[axis]) > 1) periodic[axis] = true;
      a /= extents[axis];
      b /= extents[axis];
    }
  }
  return periodic;
}

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

std::unique_ptr<InitialMapper> makeGeometricMapper() {
  return std::make_unique<GeometricMapper>();
}

}  // namespace tac3map
