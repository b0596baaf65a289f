// SVG pictures of mappings (docs/viz.md). A mesh/torus box is drawn as small multiples of 2D
// slices: two axes make the slice plane (by default the box's two largest), and one small
// panel per combination of the other coordinates, labelled with them ("Y=0 A=1 B=2 C=0").
// Link load is a heat scale (viridis, messages per link) with a colour bar. How much is drawn
// depends on the box's size (VizDetail): every loaded link (in-slice links as arrows between
// nodes, the others as a strip in each node), each node coloured by its busiest link, or only
// a summary (the plane's maxima over the slices, per-axis profiles and histograms). Per
// mapping a column of panels: one per CCS plus the largest load per link over the CCSs. A
// graph machine's picture is layered instead (graph_viz.hpp); both share the header, scale,
// panels and node and link elements (src/output/viz_parts.hpp).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "tac3map/mapping/mapping.hpp"
#include "tac3map/model/objective.hpp"
#include "tac3map/network/machine.hpp"
#include "tac3map/network/network.hpp"
#include "tac3map/output/viz_options.hpp"

namespace tac3map {

// The small multiples: the slice plane (columnAxis across, rowAxis down; rowAxis -1 on a
// one-axis machine) and how the slices are arranged in a panel: the other axes split between
// the grid's columns and rows (outer to inner, machine order), the split whose panel is
// closest to a 3:2 screen.
struct SlicePlace {
  int gridColumn = 0, gridRow = 0;  // the node's slice in the grid of slices
  int column = 0, row = 0;          // the node within its slice
};
struct SliceLayout {
  int columnAxis = 0, rowAxis = -1;
  int columns = 1, rows = 1;  // nodes per slice across and down
  std::vector<int> gridColumnAxes, gridRowAxes;
  int gridColumns = 1, gridRows = 1;
  std::vector<SlicePlace> place;  // per node
};
// `plane`: the two axes (columns, rows) or empty for the default: the two largest of the box
// (ties: the earlier axis), the larger across. InputError when plane names a bad axis.
SliceLayout sliceLayout(const Machine& machine, const Box& box, const std::vector<int>& plane = {});
// "X,Y" -> axis indices of `machine`; InputError naming --plane otherwise.
std::vector<int> parsePlane(const Machine& machine, const std::string& text);

// On a machine without axes (a graph machine: Machine::whyNoAxes) this is renderGraphSvg's
// picture.
std::string renderSvg(const Machine& machine, const Box& box, const Network& router,
                      const Problem& problem, const std::vector<VizMapping>& mappings,
                      const VizOptions& options);

// PNG bytes of an SVG picture, drawn by `rsvg-convert` (Debian package librsvg2-bin) run as a
// child process on a temporary SVG file (removed afterwards). InputError when rsvg-convert is
// not on the PATH, fails or writes no PNG.
std::string svgToPng(const std::string& svg);
// The rsvg-convert on the PATH, or "" when there is none.
std::string findRsvgConvert();

}  // namespace tac3map
