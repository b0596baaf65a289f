// The layout of a mesh/torus picture (viz.hpp): the slice plane and how the slices are
// arranged, the size of a slice box and of its node squares, the summary's plane and profiles,
// the histograms, and from them the size of a panel. The detail levels' drawers
// (viz_draw.hpp) place everything by it; viz_svg.cpp puts the picture together. Private to
// src/output.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "tac3map/network/machine.hpp"
#include "tac3map/network/network.hpp"
#include "tac3map/output/viz.hpp"
#include "viz_parts.hpp"

namespace tac3map::vizlayout {

// "X=0 Y=1" for the given axes of coordinates c.
std::string coordinateText(const Machine& machine, const std::vector<int>& axes,
                           const std::vector<int>& c);

// Every `k`-th of `count` ticks whose labels are at most `widest` px wide, `pitch` px apart.
int tickEvery(double widest, double pitch);

// Geometry of one slice box (links and nodes levels): the label with its fixed coordinates,
// column ticks, row ticks left of the grid of nodes (pitch px apart, squares of `square` px).
struct SliceBox {
  static constexpr double kGapX = 14, kGapY = 10;  // between slice boxes
  double pitch = 0, square = 0;
  double stubOut = 0;  // wrap-around stubs
  double labelSize = 0, tickSize = 0;
  int columnTickEvery = 1, rowTickEvery = 1;
  double tickBaseline = 0, gridTop = 0, gridLeft = 0;
  double width = 0, height = 0;
};

// The summary's plane of maxima and profiles along the other axes.
struct SummaryLayout {
  static constexpr double kTick = 8, kTitle = 10;  // font sizes
  double pitch = 0;
  double columnTick = 0, profileTick = 0, profileLabel = 0;  // the widest of each
  std::string planeTitle, profileTitle;
  double planeLeft = 0, planeTop = 0, planeHeight = 0;
  double profileRow = 0, profilesHeight = 0;
  double width = 0;
  // Profiles: one cell per coordinate, up to 20 px and 600 px in all.
  static double profilePitch(int size);
};

// The per-axis histogram of a panel's link loads: one bar per load (or per range of loads
// when the scale's top is above kMaxBins), its height the number of loaded links of the axis.
struct Histograms {
  static constexpr double kPlotWidth = 150, kPlotHeight = 56, kTitleSize = 9, kTickSize = 8;
  static constexpr int kMaxBins = 24;
  double left = 0;   // the y ticks' room
  double width = 0;  // of one histogram with its title
  double boxWidth() const { return width; }
  static double boxHeight() {
    return vizparts::lineHeight(kTitleSize) + 4 + kPlotHeight + 3 +
           2 * vizparts::lineHeight(kTickSize) + 4;
  }
  // Histograms (aggregated levels): one per axis, wrapped to the panel's width.
  int perRow = 1, rows = 1;
  std::string title;
  double height = 0;  // with the title; 0 on the links level, which has none
};

// Everything placed in a panel, for one picture.
struct VizLayout {
  VizLayout(const Machine& machine, const Box& box, const Network& router, const Problem& problem,
            const std::vector<VizMapping>& mappings,
            const std::vector<vizparts::MappingLoads>& loads, const VizOptions& options);

  const Machine& machine;
  const Box& box;
  const Network& router;
  VizDetail detail;
  bool links, summary;  // the detail levels; neither: nodes
  SliceLayout slices;
  int columnAxis, rowAxis;
  std::vector<int> others;                    // the axes not in the plane, machine order
  std::vector<int> allAxes;                   // 0, 1, ...
  std::vector<std::vector<int>> coordinates;  // per node
  int sliceCount;
  SliceBox slice;
  SummaryLayout plane;
  Histograms histograms;
  double contentHeight = 0;  // under the panel's title, above the histograms
  double panelWidth = 0, panelHeight = 0;
  std::vector<int> linksOnAxis;  // per axis, how many directed links the box has

  const std::string& axisName(int a) const { return machine.axes[a].name; }
  std::string tickText(int axis, int c) const { return axisName(axis) + std::to_string(c); }
  double sliceX(int gridColumn) const;
  double sliceY(int gridRow) const;
  // The top-left corner of node's square.
  double squareX(int node) const;
  double squareY(int node) const;
  // A link's title (SVG text): "X+ from node 3 (X=1 Y=0 ...)".
  std::string linkWhat(LinkId link) const;
  // Per node, its busiest outgoing link (any axis) and that link.
  std::vector<std::pair<int, LinkId>> busiestLeaving(const std::map<LinkId, int>& shown) const;

 private:
  void layOutSliceBox();
  void layOutSummary();
  void layOutPanel(const Problem& problem, const std::vector<VizMapping>& mappings,
                   const std::vector<vizparts::MappingLoads>& loads, const VizOptions& options);
};

}  // namespace tac3map::vizlayout
