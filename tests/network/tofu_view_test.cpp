// The logical torus view: rings through 2D grids are one hop per step and close exactly when
// a Hamiltonian cycle exists; a stencil of the view's extents lands one hop per neighbour on
// Fugaku and the K computer. Also the mapping names.
#include "tac3map/network/tofu_view.hpp"

#include <gtest/gtest.h>

#include <set>

#include "tac3map/io/error.hpp"
#include "tac3map/mapping/mapping_names.hpp"
#include "tac3map/network/network.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

bool oneHop(int a, int b, int size, bool wrap) {
  const int d = a > b ? a - b : b - a;
  return d == 1 || (wrap && size > 2 && d == size - 1);
}

bool adjacent(const std::array<int, 2>& p, const std::array<int, 2>& q, int u, bool uw, int v,
              bool vw) {
  return (p[1] == q[1] && oneHop(p[0], q[0], u, uw)) || (p[0] == q[0] && oneHop(p[1], q[1], v, vw));
}

TEST(TofuView, GridRingVisitsEveryCellOnceOneHopPerStepAndClosesWhenACycleExists) {
  for (int u = 1; u <= 7; ++u)
    for (int v = 1; v <= 7; ++v)
      for (bool uw : {false, true})
        for (bool vw : {false, true}) {
          SCOPED_TRACE(std::to_string(u) + (uw ? "w" : "") + "x" + std::to_string(v) +
                       (vw ? "w" : ""));
          const GridRing ring = gridRing(u, uw, v, vw);
          ASSERT_EQ(ring.cells.size(), static_cast<std::size_t>(u * v));
          std::set<std::array<int, 2>> seen(ring.cells.begin(), ring.cells.end());
          ASSERT_EQ(seen.size(), ring.cells.size());
          for (const auto& c : ring.cells) {
            ASSERT_TRUE(c[0] >= 0 && c[0] < u && c[1] >= 0 && c[1] < v);
          }
          for (std::size_t i = 1; i < ring.cells.size(); ++i)
            ASSERT_TRUE(adjacent(ring.cells[i - 1], ring.cells[i], u, uw, v, vw)) << i;
          const bool line = u == 1 || v == 1;
          const bool cycleExists =
              line ? u * v <= 2 || (u == 1 ? vw : uw) : u % 2 == 0 || v % 2 == 0 || uw || vw;
          EXPECT_EQ(ring.closed, cycleExists);
          if (ring.closed && u * v > 1) {
            EXPECT_TRUE(adjacent(ring.cells.back(), ring.cells.front(), u, uw, v, vw));
          }
        }
}

// Every neighbour pair of a periodic 3D 7-point stencil on the view's extents is one hop.
void expectStencilOneHop(const std::string& machineFile, const std::string& shape,
                         std::array<int, 3> dims) {
  const Machine machine = loadMachine(testing::sourcePath(machineFile));
  const Box box = makeBox(machine, shape);
  const LogicalTorus view = tofuLogicalTorus(machine, box);
  ASSERT_EQ(view.size, dims);
  ASSERT_TRUE(view.closed[0] && view.closed[1] && view.closed[2]);
  std::set<int> used(view.node.begin(), view.node.end());
  ASSERT_EQ(used.size(), static_cast<std::size_t>(box.nodeCount));
  const Network router(machine, box, 0);
  const int tasks = dims[0] * dims[1] * dims[2];
  const Mapping m = tofuDefaultMapping(tasks, machine, box);
  long farPairs = 0;
  for (int z = 0; z < dims[2]; ++z)
    for (int y = 0; y < dims[1]; ++y)
      for (int x = 0; x < dims[0]; ++x) {
        const int r = x + dims[0] * (y + dims[1] * z);
        const int next[3] = {(x + 1) % dims[0] + dims[0] * (y + dims[1] * z),
                             x + dims[0] * ((y + 1) % dims[1] + dims[1] * z),
                             x + dims[0] * (y + dims[1] * ((z + 1) % dims[2]))};
        for (int n : next) {
          farPairs += router.hops(m.nodeOfTask[r], m.nodeOfTask[n]) != 1;
          farPairs += router.hops(m.nodeOfTask[n], m.nodeOfTask[r]) != 1;
        }
      }
  EXPECT_EQ(farPairs, 0);
}

TEST(TofuView, StencilNeighboursAreOneHopOnWholeFugaku) {
  expectStencilOneHop("topologies/fugaku.json", "24x23x24x2x3x2", {48, 69, 48});
}

TEST(TofuView, StencilNeighboursAreOneHopOnPartOfFugaku) {
  expectStencilOneHop("topologies/fugaku.json", "24x16x24x2x3x2", {48, 48, 48});
}

TEST(TofuView, StencilNeighboursAreOneHopOnWholeKComputer) {
  expectStencilOneHop("topologies/k-computer.json", "24x18x17x2x3x2", {48, 54, 34});
}

TEST(TofuView, NeedsTofuAxisNames) {
  const Machine torus = testing::simpleMachine({4, 4, 4}, {true, true, true});
  const Box box = makeBox(torus, "4x4x4");
  EXPECT_THROW(tofuDefaultMapping(8, torus, box), InputError);
}

TEST(TofuView, ResolvesMappingNames) {
  const Machine fx10 = testing::fx10();
  const Box box = makeBox(fx10, "2x2x2x2x3x2");
  EXPECT_EQ(resolveMapping("identity", fx10, box, 64).nodeOfTask,
            identityMapping(64, box).nodeOfTask);
  EXPECT_EQ(resolveMapping("random:7", fx10, box, 64).nodeOfTask,
            randomMapping(64, box, 7).nodeOfTask);
  EXPECT_NE(resolveMapping("random:7", fx10, box, 64).nodeOfTask,
            resolveMapping("random:8", fx10, box, 64).nodeOfTask);
  EXPECT_EQ(resolveMapping("tofu-default", fx10, box, 64).nodeOfTask,
            tofuDefaultMapping(64, fx10, box).nodeOfTask);
  for (const char* bad : {"random:", "random:x1", "random:-3"})
    EXPECT_THROW(resolveMapping(bad, fx10, box, 64), InputError) << bad;
  EXPECT_THROW(resolveMapping("/nonexistent/map", fx10, box, 64), InputError);
}

}  // namespace
}  // namespace tac3map
