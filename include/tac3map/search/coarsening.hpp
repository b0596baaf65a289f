// One coarsening step of the multilevel search (multilevel.cpp), as multilevel partitioners
// (KaMinPar, Scotch) coarsen: the box is halved along one axis, so a coarse node is two
// neighbouring nodes, and the tasks are matched in pairs by heavy edges (each task, in a
// seeded random order, with the unmatched partner it exchanges the most bytes with), so a
// coarse task is one or two tasks. The coarse job is a job of the same kind (one task per
// node, the same CCSs without the messages inside a pair) that the annealer searches as is;
// mappings move between the levels by restrict (down) and prolong (up).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "tac3map/mapping/mapping.hpp"
#include "tac3map/model/problem.hpp"
#include "tac3map/network/machine.hpp"
#include "tac3map/network/network.hpp"

namespace tac3map {

struct CoarseLevel {
  Machine machine;  // a mesh/torus of the coarse box's extents
  Box box;
  std::unique_ptr<Network> router;  // on machine and box (kept at a stable address)
  Problem problem;
  int axis = -1;                            // the finer box's axis that was halved
  std::vector<std::array<int, 2>> members;  // per coarse task: its finer tasks (-1: none)
};

// The next coarser level of a job of one task per node on the box of `router`, or nullopt
// when the box has no axis of even extent to halve or the tasks cannot fit half the nodes.
// Deterministic for a seed.
std::optional<CoarseLevel> coarsen(const Network& router, const Problem& problem,
                                   std::uint64_t seed);

// The coarse mapping of a finer one: each coarse task on the coarse node holding its first
// task; a task whose coarse node is taken goes to the first free coarse node.
Mapping restrictMapping(const CoarseLevel& level, const Network& fine, const Mapping& mapping);

// The finer mapping of a coarse one: a coarse task's first task on the lower of its node's
// two nodes along the halved axis, its second on the upper.
Mapping prolongMapping(const CoarseLevel& level, const Network& fine, int fineTasks,
                       const Mapping& coarse);

}  // namespace tac3map
