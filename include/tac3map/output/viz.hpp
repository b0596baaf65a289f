// SVG pictures of mappings: the box's nodes laid out in 2D (docs/viz.md), each coloured by the
// task on it, and per CCS the directed links coloured by how many of the CCS's messages use
// them (1 = fine, more = contention); one panel per CCS plus one with each link's largest
// load over the CCSs. Several mappings are drawn side by side, one column each. A graph
// machine's picture is layered instead (graph_viz.hpp); both share the header, legend, panels
// and node and link elements (src/output/viz_parts.hpp).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "tac3map/mapping/mapping.hpp"
#include "tac3map/model/objective.hpp"
#include "tac3map/network/machine.hpp"
#include "tac3map/network/network.hpp"

namespace tac3map {

// Messages of each CCS on each directed link: loads[t][link]; only links with load > 0.
std::vector<std::map<LinkId, int>> linkLoads(const Problem& problem, const Network& router,
                                             const Mapping& mapping);

// Where node n is drawn: column and row of the node grid.
struct GridPlace {
  int column = 0, row = 0;
};
// The layout: the first half of the axes (the outer ones: X, Y, Z on Tofu) is drawn outside
// the second half (A, B, C), and axes alternate between columns and rows: columns Z, X, C, A
// (outer to inner), rows Y, B on a 6D machine, an XYZ grid of ABC cells. When that grid is
// more than 3x off a 3:2 screen, the split of axes between columns and rows closest to 3:2
// is used instead (same nesting order).
struct GridLayout {
  int columns = 1, rows = 1;
  std::vector<int> columnAxes, rowAxes;  // outer to inner
  std::vector<GridPlace> place;          // per node
};
GridLayout gridLayout(const Machine& machine, const Box& box);

struct VizMapping {
  std::string label;
  Mapping mapping;
};

struct VizOptions {
  std::string title;
  bool aggregateOnly = false;  // one panel per mapping (large boxes), not one per CCS
};

// On a graph machine (router.isGraph()) this is renderGraphSvg's picture.
std::string renderSvg(const Machine& machine, const Box& box, const Network& router,
                      const Problem& problem, const std::vector<VizMapping>& mappings,
                      const VizOptions& options);

}  // namespace tac3map
