// Scotch's mapping files (.map: a count, then 'vertex part' lines) and target architecture
// files (.tgt), so that a mapping computed with Scotch (gmap, scotch_gmap) comes into tac3map
// and a tac3map mapping goes out to Scotch (docs/convert.md). A Scotch part is a terminal of
// the target; which node of the job it is depends on the target:
//   - torus2D/3D/XD, mesh2D/3D/XD: the cell of that grid, dimension 0 fastest (Scotch's label
//     x0 + d0 (x1 + d1 (x2 ...))), on the torus --init graph maps onto (targetTorusOf: Tofu's
//     logical 3D torus, else the box's axes in machine order), whose extents the target's must
//     equal;
//   - cmplt, cmpltw, tleaf: the p-th node of the job (the node table's order, else the box's
//     node order, X fastest);
//   - deco 0 / deco 1 (amk_grf): the terminal labelled p is box node p (the architecture graph
//     numbered as the box, as bench/simgrid/scotch_maps.py builds it);
//   - sub N t0 .. tN-1 ARCH: part i is terminal t_i of ARCH.
#pragma once

#include <string>
#include <vector>

#include "tac3map/mapping/mapping.hpp"
#include "tac3map/mapping/rankmap.hpp"
#include "tac3map/network/machine.hpp"

namespace tac3map {

struct ScotchTarget {
  enum class Kind { Grid, JobOrder, Labelled };
  std::string source;
  std::size_t line = 0;  // where the architecture's name is
  std::string name;      // "torus3D", "cmplt", ... as written
  Kind kind = Kind::JobOrder;
  long long terminals = 0;   // of the architecture itself
  long long parts = 0;       // of the target: `terminals`, or the sub-architecture's
  std::vector<int> extents;  // Grid: extents, dimension 0 fastest
  // Labelled: the labels of the terminals (deco); sub: part i -> terminal sub[i] of the rest.
  std::vector<long long> labels;
  std::vector<long long> sub;
};

// Reads a target file; errors name file:line ("unknown architecture 'foo'", what each form
// takes; hcub, ltleaf, deco 2 and the variable-sized architectures are refused by name).
ScotchTarget readScotchTarget(const std::string& path);

// The box node of every part of `target` on this job (rules above), or an InputError naming
// the target when it does not fit the job (extents other than the torus's, more parts than
// the job has nodes, a label beyond the box).
std::vector<int> scotchPartNodes(const ScotchTarget& target, const Machine& machine, const Box& box,
                                 const NodeTable* table);

// Whether `path` holds a Scotch mapping: a first line with one integer, then lines of two.
bool isScotchMapping(const std::string& path);

// The vertex count on the mapping file's first line.
long long scotchMappingCount(const std::string& path);

// Reads a Scotch mapping: vertex v is rank v (labels 0..n-1, or 1..n for a graph with base
// 1), placed on nodeOfPart[part] in its node's lowest free slot, in file order. `tasks`: the
// ranks are vertices 0..tasks-1 and any higher vertex is padding, skipped (scotch_maps.py pads
// the graph with isolated vertices); the count on line 1 when tasks < 0. Errors name
// file:line: a vertex listed twice or missing, a part the target does not have, lines that do
// not match the count.
Mapping readScotchMapping(const std::string& path, const std::vector<int>& nodeOfPart,
                          const Box& box, int tasks, int slotsPerNode);

// The target tac3map writes for a job, and the part of each box node on it (-1: not a part).
struct ScotchTargetText {
  std::string text;
  std::vector<int> partOfNode;
};
// A torus (every axis of targetTorusOf's torus closes) or mesh of its extents: torus2D/3D,
// mesh2D/3D (one axis: 2D with a second extent of 1), torusXD/meshXD for 4 or 5 axes (Scotch's
// most); otherwise (a graph machine, more axes) cmplt over the job's nodes in job order.
ScotchTargetText scotchTargetFor(const Machine& machine, const Box& box, const NodeTable* table);

// The mapping as a Scotch mapping file: the rank count, then '<rank> <part of its node>'.
std::string scotchMappingText(const Mapping& mapping, const std::vector<int>& partOfNode);

}  // namespace tac3map
