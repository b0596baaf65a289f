#include "tac3map/output/viz.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "tac3map/io/error.hpp"
#include "tac3map/model/link_loads.hpp"
#include "tac3map/output/graph_viz.hpp"
#include "viz_parts.hpp"

namespace tac3map {

using vizparts::escaped;
using vizparts::lineHeight;
using vizparts::number;
using vizparts::textWidth;
using vizparts::writeText;

std::vector<int> parsePlane(const Machine& machine, const std::string& text) {
  std::string names;
  for (const Axis& axis : machine.axes) names += (names.empty() ? "" : " ") + axis.name;
  const auto fail = [&](const std::string& why) {
    throw InputError("--plane '" + text + "': " + why + " (axes " + names + ")");
  };
  if (machine.isGraph()) fail("a graph machine has no axes");
  std::vector<int> plane;
  std::size_t from = 0;
  while (from <= text.size()) {
    const std::size_t comma = std::min(text.find(',', from), text.size());
    const std::string name = text.substr(from, comma - from);
    int found = -1;
    for (int a = 0; a < machine.axisCount(); ++a)
      if (machine.axes[a].name == name) found = a;
    if (found < 0) fail("'" + name + "' is not an axis");
    plane.push_back(found);
    from = comma + 1;
  }
  if (plane.size() != 2 || plane[0] == plane[1]) fail("expected two different axes, as X,Y");
  return plane;
}

namespace {

// The layout with the slices of a panel arranged for slice boxes of `aspect` (width over
// height): the split of the other axes between the grid's columns and rows that makes the
// panel closest to 3:2.
SliceLayout layoutSlices(const Machine& machine, const Box& box, const std::vector<int>& plane,
                         double aspect) {
  SliceLayout layout;
  const int n = box.axisCount();
  if (!plane.empty()) {
    if (plane.size() != 2 || plane[0] == plane[1] || plane[0] < 0 || plane[1] < 0 ||
        plane[0] >= n || plane[1] >= n)
      throw InputError("--plane: expected two different axes of " + machine.name);
    layout.columnAxis = plane[0];
    layout.rowAxis = plane[1];
  } else {
    std::vector<int> order(n);
    for (int a = 0; a < n; ++a) order[a] = a;
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return box.shape[a] > box.shape[b]; });
    layout.columnAxis = order[0];
    layout.rowAxis = n > 1 ? order[1] : -1;
  }
  layout.columns = box.shape[layout.columnAxis];
  layout.rows = layout.rowAxis >= 0 ? box.shape[layout.rowAxis] : 1;
  if (aspect <= 0) aspect = static_cast<double>(layout.columns) / layout.rows;
  std::vector<int> others;
  for (int a = 0; a < n; ++a)
    if (a != layout.columnAxis && a != layout.rowAxis) others.push_back(a);
  const int k = static_cast<int>(others.size());
  double best = 1e300;
  unsigned chosen = 0;
  const unsigned masks = k <= 12 ? (1u << k) : 1u;
  for (unsigned mask = 0; mask < masks; ++mask) {
    double across = 1, down = 1;
    for (int i = 0; i < k; ++i) ((mask >> i) & 1u ? across : down) *= box.shape[others[i]];
    const double badness = std::abs(std::log(across * aspect / down / 1.5));
    if (badness < best - 1e-9) best = badness, chosen = mask;
  }
  for (int i = 0; i < k; ++i)
    ((chosen >> i) & 1u ? layout.gridColumnAxes : layout.gridRowAxes).push_back(others[i]);
  for (int a : layout.gridColumnAxes) layout.gridColumns *= box.shape[a];
  for (int a : layout.gridRowAxes) layout.gridRows *= box.shape[a];
  layout.place.resize(box.nodeCount);
  for (int node = 0; node < box.nodeCount; ++node) {
    const std::vector<int> c = box.coordinatesOf(node);
    SlicePlace& p = layout.place[node];
    p.column = c[layout.columnAxis];
    p.row = layout.rowAxis >= 0 ? c[layout.rowAxis] : 0;
    for (int a : layout.gridColumnAxes) p.gridColumn = p.gridColumn * box.shape[a] + c[a];
    for (int a : layout.gridRowAxes) p.gridRow = p.gridRow * box.shape[a] + c[a];
  }
  return layout;
}

// "X=0 Y=1" for the given axes of coordinates c.
std::string coordinateText(const Machine& machine, const std::vector<int>& axes,
                           const std::vector<int>& c) {
  std::string text;
  for (int a : axes) {
    if (!text.empty()) text += ' ';
    text += machine.axes[a].name;
    text += '=';
    text += std::to_string(c[a]);
  }
  return text;
}

// Every `k`-th of `count` ticks whose labels are at most `widest` px wide, `pitch` px apart.
int tickEvery(double widest, double pitch) {
  return std::max(1, static_cast<int>(std::ceil(widest / pitch)));
}

// The per-axis histogram of a panel's link loads: one bar per load (or per range of loads
// when the scale's top is above kMaxBins), its height the number of loaded links of the axis.
struct Histograms {
  static constexpr double kPlotWidth = 150, kPlotHeight = 56, kTitleSize = 9, kTickSize = 8;
  static constexpr int kMaxBins = 24;
  double left = 0;   // the y ticks' room
  double width = 0;  // of one histogram with its title
  double boxWidth() const { return width; }
  static double boxHeight() {
    return lineHeight(kTitleSize) + 4 + kPlotHeight + 3 + 2 * lineHeight(kTickSize) + 4;
  }
};

}  // namespace

SliceLayout sliceLayout(const Machine& machine, const Box& box, const std::vector<int>& plane) {
  return layoutSlices(machine, box, plane, 0);
}

std::string renderSvg(const Machine& machine, const Box& box, const Network& router,
                      const Problem& problem, const std::vector<VizMapping>& mappings,
                      const VizOptions& options) {
  if (router.isGraph()) return renderGraphSvg(router, problem, mappings, options);
  const VizDetail detail = resolveDetail(options.detail, box.nodeCount);
  const int axes = box.axisCount();
  const auto axisName = [&](int a) { return machine.axes[a].name; };
  const std::vector<vizparts::MappingLoads> loads =
      vizparts::mappingLoads(problem, router, mappings);
  const vizparts::HeatScale scale(vizparts::largestLoad(loads));

  // The slice plane (the arrangement of slices comes once their boxes' size is known).
  SliceLayout layout = layoutSlices(machine, box, options.plane, 0);
  const int colAxis = layout.columnAxis, rowAxis = layout.rowAxis;
  std::vector<int> others;  // machine order
  for (int a = 0; a < axes; ++a)
    if (a != colAxis && a != rowAxis) others.push_back(a);
  const int slices = box.nodeCount / (layout.columns * layout.rows);

  // Geometry of one slice box: the label with its fixed coordinates, column ticks, row ticks
  // left of the grid of nodes (pitch px apart, squares of `square` px).
  const bool links = detail == VizDetail::Links, summary = detail == VizDetail::Summary;
  double pitch = 44;
  if (links && box.nodeCount > 128) pitch = 36;
  if (links && box.nodeCount > kVizLinksUpTo) pitch = 30;
  if (!links) pitch = box.nodeCount <= 2048 ? 12 : 9;
  const double square = links ? std::round(pitch * 0.68) : pitch - 1.5;
  const double stubOut = links ? (pitch - square) / 2 + 3 : 0;  // wrap-around stubs
  const double labelSize = links ? 10 : 9, tickSize = links ? 9 : 8;
  const auto tickText = [&](int axis, int c) { return axisName(axis) + std::to_string(c); };
  double widestColumnTick = 0, widestRowTick = 0, widestLabel = 0;
  for (int c = 0; c < layout.columns; ++c)
    widestColumnTick = std::max(widestColumnTick, textWidth(tickText(colAxis, c), tickSize));
  for (int r = 0; rowAxis >= 0 && r < layout.rows; ++r)
    widestRowTick = std::max(widestRowTick, textWidth(tickText(rowAxis, r), tickSize));
  {
    std::vector<int> largest(axes);
    for (int a = 0; a < axes; ++a) largest[a] = box.shape[a] - 1;
    // The widest label: each coordinate at its widest (the largest value has the most digits).
    widestLabel = textWidth(coordinateText(machine, others, largest), labelSize);
  }
  const int columnTickEvery = tickEvery(widestColumnTick + 4, pitch);
  const int rowTickEvery = tickEvery(lineHeight(tickSize) + 1, pitch);
  const double labelHeight = others.empty() ? 0 : lineHeight(labelSize) + 2;
  const double tickBaseline = labelHeight + tickSize * 0.95;
  const double gridTop = tickBaseline + tickSize * 0.3 + std::max(4.0, stubOut + 1);
  const double gridLeft = (rowAxis >= 0 ? widestRowTick + 3 : 0) + std::max(4.0, stubOut + 1);
  const double gridWidth = layout.columns * pitch, gridHeight = layout.rows * pitch;
  // The last column tick is centred on its column and may stick out of the grid.
  const double boxWidth =
      std::max({gridLeft + gridWidth + std::max(stubOut, widestColumnTick / 2 - pitch / 2) + 2,
                widestLabel + 2});
  const double boxHeight = gridTop + gridHeight + stubOut + 2;
  const double gapX = 14, gapY = 10;
  if (!summary) layout = layoutSlices(machine, box, options.plane, boxWidth / boxHeight);
  const auto sliceX = [&](int gc) { return gc * (boxWidth + gapX); };
  const auto sliceY = [&](int gr) { return vizparts::kPanelTitleHeight + gr * (boxHeight + gapY); };

  // The summary's plane of maxima and profiles along the other axes.
  const double summaryPitch = std::clamp(360.0 / std::max(layout.columns, layout.rows), 8.0, 20.0);
  const double summaryTick = 8, summaryTitle = 10;
  double summaryRowTick = 0, summaryColumnTick = 0, profileTick = 0, profileLabel = 0;
  for (int c = 0; c < layout.columns; ++c)
    summaryColumnTick = std::max(summaryColumnTick, textWidth(tickText(colAxis, c), summaryTick));
  for (int r = 0; rowAxis >= 0 && r < layout.rows; ++r)
    summaryRowTick = std::max(summaryRowTick, textWidth(tickText(rowAxis, r), summaryTick));
  for (int a : others) {
    profileLabel = std::max(profileLabel, textWidth(axisName(a), summaryTitle));
    profileTick = std::max(profileTick, textWidth(tickText(a, box.shape[a] - 1), summaryTick));
  }
  std::string planeTitle = "busiest link leaving the nodes at each ";
  planeTitle += axisName(colAxis);
  if (rowAxis >= 0) planeTitle += ", " + axisName(rowAxis);
  planeTitle += others.empty() ? "" : " (largest over the slices)";
  std::string profileTitle = "the same along each other axis (largest over all else):";
  const double planeLeft = (rowAxis >= 0 ? summaryRowTick + 4 : 0);
  const double planeTop = lineHeight(summaryTitle) + lineHeight(summaryTick) + 4;
  const double planeHeight = planeTop + layout.rows * summaryPitch + 8;
  // Profiles: one cell per coordinate, up to 20 px and 600 px in all.
  const auto profilePitch = [&](int axis) {
    return std::clamp(600.0 / box.shape[axis], 6.0, 20.0);
  };
  double profileWidth = 0;
  for (int a : others)
    profileWidth = std::max(profileWidth, profileLabel + 6 + box.shape[a] * profilePitch(a));
  const double profileRow = lineHeight(summaryTick) + std::max(14.0, lineHeight(summaryTitle)) + 6;
  const double profilesHeight =
      others.empty() ? 0 : lineHeight(summaryTitle) + 4 + profileRow * others.size() + 4;
  const double summaryWidth =
      std::max({planeLeft + layout.columns * summaryPitch + summaryColumnTick,
                textWidth(planeTitle, summaryTitle), textWidth(profileTitle, summaryTitle),
                profileWidth + 4});

  // Histograms (aggregated levels): one per axis, wrapped to the panel's width.
  Histograms histograms;
  {
    // Room for the largest count left of the plot, and for the widest title.
    const std::string most = std::to_string(2 * box.nodeCount);
    histograms.left = textWidth(most, Histograms::kTickSize) + 6;
    double title = 0;
    for (int a = 0; a < axes; ++a)
      title = std::max(title, textWidth(axisName(a) + ": " + most + " of " + most + " links loaded",
                                        Histograms::kTitleSize) *
                                  1.12);
    histograms.width = std::max(histograms.left + Histograms::kPlotWidth + 12, title + 6);
  }
  const double slicesWidth = layout.gridColumns * (boxWidth + gapX) - gapX;
  double panelInner = std::max(summary ? summaryWidth : slicesWidth,
                               vizparts::widestPanelTitle(problem, mappings, loads, options));
  if (!links) panelInner = std::max(panelInner, 2 * histograms.boxWidth());
  const int histogramsPerRow =
      std::max(1, static_cast<int>((panelInner + 10) / (histograms.boxWidth() + 10)));
  const int histogramRows = (axes + histogramsPerRow - 1) / histogramsPerRow;
  const std::string histogramTitle = "links by load, per axis (both directions):";
  const double histogramsHeight =
      links ? 0 : lineHeight(summaryTitle) + 4 + histogramRows * (Histograms::boxHeight() + 8);
  const double contentHeight =
      summary ? planeHeight + profilesHeight : layout.gridRows * (boxHeight + gapY) - gapY + 10;
  const double panelWidth = panelInner + 24;
  const double panelHeight = vizparts::kPanelTitleHeight + contentHeight + histogramsHeight + 18;

  // The header.
  vizparts::Header header;
  header.title = options.title;
  std::string plane = "slice plane ";
  plane += axisName(colAxis);
  if (rowAxis >= 0) plane += " x " + axisName(rowAxis);
  plane += " (";
  plane += axisName(colAxis);
  plane += rowAxis >= 0 ? " across, " + axisName(rowAxis) + " down" : " across";
  plane += options.plane.empty() ? "; the box's two largest axes" : "";
  plane += ")";
  if (!summary && !others.empty()) {
    plane += "; one small panel per ";
    for (std::size_t i = 0; i < others.size(); ++i) {
      plane += i == 0 ? "" : (i + 1 == others.size() ? " and " : ", ");
      plane += axisName(others[i]);
    }
    plane += ", labelled with them";
  }
  header.lines.push_back(plane);
  std::string level = "detail: ";
  level += detailName(detail);
  if (options.detail == VizDetail::Auto)
    level += " (auto: links up to 256 nodes, nodes up to 8192)";
  header.lines.push_back(level);
  if (links) {
    header.lines.push_back(
        "a square: a node, its task number on it (grey: used, white: free); an arrow: a loaded "
        "link of the plane, in the direction of travel");
    if (!others.empty()) {
      std::string strip = "the strip at a square's foot: its links along ";
      for (std::size_t i = 0; i < others.size(); ++i) {
        strip += i == 0 ? "" : " ";
        strip += axisName(others[i]);
      }
      strip += " (left to right; + upper half, - lower), coloured when loaded";
      header.lines.push_back(strip);
    }
    header.lines.push_back(
        "an arrow leaving a panel's edge: a wrap-around link; hover over a link for its name and "
        "load");
  } else if (!summary) {
    header.lines.push_back(
        "a square: a node, coloured by the busiest link leaving it along any axis (light grey: "
        "none loaded, white: free node); hover for details");
  } else {
    header.lines.push_back(
        "summary only: the busiest link leaving each position of the plane, along each other "
        "axis, and per axis the links by load");
  }
  header.scaleCaption =
      "link load (colour): messages per link in the panel's CCS; in 'all CCSs' panels the "
      "largest over the CCSs";
  const double headerHeight = vizparts::headerHeight(header);
  const double width = std::max(20 + panelWidth * static_cast<double>(mappings.size()),
                                vizparts::headerWidth(header));
  const double height = headerHeight + panelHeight * vizparts::panelCount(problem, options) + 10;

  std::ostringstream svg;
  vizparts::writeSvgStart(svg, width, height);
  vizparts::writeHeader(svg, header, scale);

  // Per axis, how many directed links the box has (the histograms' totals).
  std::vector<int> linksOnAxis(axes, 0);
  for (int node = 0; node < box.nodeCount; ++node)
    for (int a = 0; a < axes; ++a)
      for (bool plus : {true, false})
        if (router.neighbour(node, a, plus) >= 0) ++linksOnAxis[a];
  std::vector<std::vector<int>> coordinates(box.nodeCount);
  for (int node = 0; node < box.nodeCount; ++node) coordinates[node] = box.coordinatesOf(node);
  std::vector<int> allAxes(axes);
  for (int a = 0; a < axes; ++a) allAxes[a] = a;
  const auto linkWhat = [&](LinkId link) {
    const int from = router.linkSource(link);
    std::string what = escaped(axisName(router.linkAxis(link)));
    what += router.linkIsPlus(link) ? "+" : "-";
    what += " from node ";
    what += std::to_string(from);
    what += " (";
    what += escaped(coordinateText(machine, allAxes, coordinates[from]));
    what += ")";
    return what;
  };

  const auto drawSliceFrames = [&](std::ostream& out) {
    // Labels and ticks of every slice.
    std::vector<int> representative(static_cast<std::size_t>(slices), -1);
    for (int node = 0; node < box.nodeCount; ++node) {
      const SlicePlace& p = layout.place[node];
      int& r =
          representative[static_cast<std::size_t>(p.gridRow * layout.gridColumns + p.gridColumn)];
      if (r < 0) r = node;
    }
    for (int node : representative) {
      const SlicePlace& p = layout.place[node];
      const double x = sliceX(p.gridColumn), y = sliceY(p.gridRow);
      out << "<g class=\"slice\" data-slice=\""
          << escaped(coordinateText(machine, others, coordinates[node])) << "\">\n";
      if (!others.empty())
        writeText(out, x, y + labelSize, labelSize,
                  coordinateText(machine, others, coordinates[node]), "start",
                  "font-weight=\"bold\" fill=\"#333\"");
      for (int c = 0; c < layout.columns; c += columnTickEvery)
        writeText(out, x + gridLeft + (c + 0.5) * pitch, y + tickBaseline, tickSize,
                  tickText(colAxis, c), "middle", "fill=\"#555\"");
      for (int r = 0; rowAxis >= 0 && r < layout.rows; r += rowTickEvery)
        writeText(out, x + gridLeft - std::max(4.0, stubOut + 1) - 1,
                  y + gridTop + (r + 0.5) * pitch + tickSize * 0.35, tickSize, tickText(rowAxis, r),
                  "end", "fill=\"#555\"");
      out << "</g>\n";
    }
  };
  // The top-left corner of node's square.
  const auto squareX = [&](int node) {
    const SlicePlace& p = layout.place[node];
    return sliceX(p.gridColumn) + gridLeft + p.column * pitch + (pitch - square) / 2;
  };
  const auto squareY = [&](int node) {
    const SlicePlace& p = layout.place[node];
    return sliceY(p.gridRow) + gridTop + p.row * pitch + (pitch - square) / 2;
  };
  // Per node, its busiest outgoing link (any axis) and that link.
  const auto busiestLeaving = [&](const std::map<LinkId, int>& shown) {
    std::vector<std::pair<int, LinkId>> out(box.nodeCount, {0, -1});
    for (const auto& [link, load] : shown) {
      auto& b = out[router.linkSource(link)];
      if (load > b.first) b = {load, link};
    }
    return out;
  };

  const auto drawLinks = [&](std::ostream& out, const vizparts::MappingLoads& m,
                             const std::map<LinkId, int>& shown) {
    drawSliceFrames(out);
    for (int node = 0; node < box.nodeCount; ++node) {
      std::string title = vizparts::cat("node ", std::to_string(node));
      title += " (" + coordinateText(machine, allAxes, coordinates[node]) + "): task ";
      title += vizparts::taskList(m.ranksAt[node]);
      vizparts::writeNodeRect(out, node, m.ranksAt[node], squareX(node), squareY(node), square,
                              true, title);
    }
    const double thick = std::max(2.4, pitch * 0.11);
    for (const auto& [link, load] : shown) {
      const int from = router.linkSource(link), axis = router.linkAxis(link);
      const bool plus = router.linkIsPlus(link);
      const double x0 = squareX(from), y0 = squareY(from);
      if (axis != colAxis && axis != rowAxis) {
        // A cell of the strip at the square's foot: column = the axis, + upper, - lower.
        const std::size_t i = static_cast<std::size_t>(
            std::find(others.begin(), others.end(), axis) - others.begin());
        const double stripHeight = std::round(square * 0.4),
                     cellWidth = (square - 2) / others.size();
        const double x = x0 + 1 + i * cellWidth;
        const double y = y0 + square - 1 - stripHeight + (plus ? 0 : stripHeight / 2);
        std::string d = "M" + number(x) + "," + number(y) + " h" + number(cellWidth) + " v" +
                        number(stripHeight / 2) + " h" + number(-cellWidth) + " z";
        vizparts::writeLinkPath(out, link, load, d, 0, linkWhat(link), scale, true);
        continue;
      }
      // An arrow in the direction of travel, right of it (the two directions stay apart),
      // from square to square, or out of the slice's edge when it wraps around.
      const int to = router.linkTarget(link);
      const int step = axis == colAxis ? layout.place[to].column - layout.place[from].column
                                       : layout.place[to].row - layout.place[from].row;
      const bool wraps = plus ? step != 1 : step != -1;
      const double dx = axis == colAxis ? (plus ? 1 : -1) : 0;
      const double dy = axis == colAxis ? 0 : (plus ? 1 : -1);
      const double cx = x0 + square / 2, cy = y0 + square / 2;
      const double offset = square * 0.2, startAt = square / 2 + 1;
      const double length = wraps ? stubOut - 1 : pitch - square - 2;
      const double sx = cx + dx * startAt - dy * offset, sy = cy + dy * startAt + dx * offset;
      const double head = std::min(length * 0.5, thick * 1.8), halfHead = thick * 1.1;
      const auto at = [&](double along, double across) {
        return number(sx + dx * along - dy * across) + "," + number(sy + dy * along + dx * across);
      };
      std::string d = "M" + at(0, -thick / 2) + " L" + at(length - head, -thick / 2) + " L" +
                      at(length - head, -halfHead) + " L" + at(length, 0) + " L" +
                      at(length - head, halfHead) + " L" + at(length - head, thick / 2) + " L" +
                      at(0, thick / 2) + " Z";
      std::string what = linkWhat(link);
      if (wraps) what += ", wrap-around";
      vizparts::writeLinkPath(out, link, load, d, 0, what, scale, true);
    }
  };

  const auto drawNodes = [&](std::ostream& out, const vizparts::MappingLoads& m,
                             const std::map<LinkId, int>& shown) {
    drawSliceFrames(out);
    const auto busiest = busiestLeaving(shown);
    for (int node = 0; node < box.nodeCount; ++node) {
      const auto& [load, link] = busiest[node];
      const bool free = m.ranksAt[node].empty();
      std::string title = vizparts::cat("node ", std::to_string(node));
      title += " (" + coordinateText(machine, allAxes, coordinates[node]) + "): ";
      title +=
          free ? std::string("free") : vizparts::cat("task ", vizparts::taskList(m.ranksAt[node]));
      if (link >= 0) {
        title += "; busiest link leaving it: ";
        title += axisName(router.linkAxis(link));
        title += router.linkIsPlus(link) ? "+ " : "- ";
        title += std::to_string(load);
        title += load == 1 ? " message" : " messages";
      }
      out << "<rect class=\"node\" data-node=\"" << node << "\" data-task=\""
          << vizparts::taskList(m.ranksAt[node]) << "\" data-load=\"" << load << "\" x=\""
          << number(squareX(node)) << "\" y=\"" << number(squareY(node)) << "\" width=\""
          << number(square) << "\" height=\"" << number(square) << "\" fill=\""
          << (load > 0 ? scale.colour(load)
              : free   ? "white"
                       : "#e6e6e6")
          << "\" stroke=\"" << (free ? "#c8c8c8" : "#aaa") << "\" stroke-width=\"0.5\"><title>"
          << escaped(title) << "</title></rect>\n";
    }
  };

  const auto drawSummary = [&](std::ostream& out, const std::map<LinkId, int>& shown) {
    const auto busiest = busiestLeaving(shown);
    double y = vizparts::kPanelTitleHeight;
    out << "<g class=\"plane-summary\">\n";
    writeText(out, 0, y + summaryTitle, summaryTitle, planeTitle, "start", "fill=\"#333\"");
    std::vector<int> maxima(static_cast<std::size_t>(layout.columns * layout.rows), 0);
    for (int node = 0; node < box.nodeCount; ++node) {
      int& v = maxima[static_cast<std::size_t>(layout.place[node].row * layout.columns +
                                               layout.place[node].column)];
      v = std::max(v, busiest[node].first);
    }
    const double top = y + planeTop;
    const int everyColumn = tickEvery(summaryColumnTick + 4, summaryPitch);
    const int everyRow = tickEvery(lineHeight(summaryTick) + 1, summaryPitch);
    for (int c = 0; c < layout.columns; c += everyColumn)
      writeText(out, planeLeft + (c + 0.5) * summaryPitch, top - 4, summaryTick,
                tickText(colAxis, c), "middle", "fill=\"#555\"");
    for (int r = 0; rowAxis >= 0 && r < layout.rows; r += everyRow)
      writeText(out, planeLeft - 4, top + (r + 0.5) * summaryPitch + summaryTick * 0.35,
                summaryTick, tickText(rowAxis, r), "end", "fill=\"#555\"");
    for (int r = 0; r < layout.rows; ++r)
      for (int c = 0; c < layout.columns; ++c) {
        const int v = maxima[static_cast<std::size_t>(r * layout.columns + c)];
        std::string title = vizparts::cat(axisName(colAxis), "=", std::to_string(c));
        if (rowAxis >= 0) title += vizparts::cat(" ", axisName(rowAxis), "=", std::to_string(r));
        title += vizparts::cat(": busiest link ", std::to_string(v));
        out << "<rect class=\"cell\" data-load=\"" << v << "\" x=\""
            << number(planeLeft + c * summaryPitch) << "\" y=\"" << number(top + r * summaryPitch)
            << "\" width=\"" << number(summaryPitch - 1) << "\" height=\""
            << number(summaryPitch - 1) << "\" fill=\"" << (v > 0 ? scale.colour(v) : "#e6e6e6")
            << "\"><title>" << escaped(title) << "</title></rect>\n";
      }
    out << "</g>\n";
    y += planeHeight;
    if (others.empty()) return;
    out << "<g class=\"profiles\">\n";
    writeText(out, 0, y + summaryTitle, summaryTitle, profileTitle, "start", "fill=\"#333\"");
    y += lineHeight(summaryTitle) + 4;
    for (int a : others) {
      std::vector<int> profile(static_cast<std::size_t>(box.shape[a]), 0);
      for (int node = 0; node < box.nodeCount; ++node) {
        int& v = profile[static_cast<std::size_t>(coordinates[node][a])];
        v = std::max(v, busiest[node].first);
      }
      const double cellPitch = profilePitch(a);
      const double x0 = profileLabel + 6;
      writeText(out, 0, y + 11, summaryTitle, axisName(a), "start", "font-weight=\"bold\"");
      for (int c = 0; c < box.shape[a]; ++c) {
        out << "<rect class=\"cell\" data-axis=\"" << escaped(axisName(a)) << "\" data-load=\""
            << profile[c] << "\" x=\"" << number(x0 + c * cellPitch) << "\" y=\"" << number(y)
            << "\" width=\"" << number(cellPitch - 1) << "\" height=\"14\" fill=\""
            << (profile[c] > 0 ? scale.colour(profile[c]) : "#e6e6e6") << "\"><title>"
            << escaped(axisName(a)) << "=" << c << ": busiest link " << profile[c]
            << "</title></rect>\n";
      }
      const int every = tickEvery(profileTick + 4, cellPitch);
      for (int c = 0; c < box.shape[a]; c += every)
        writeText(out, x0 + (c + 0.5) * cellPitch, y + 14 + 2 + summaryTick, summaryTick,
                  tickText(a, c), "middle", "fill=\"#555\"");
      y += profileRow;
    }
    out << "</g>\n";
  };

  const auto drawHistograms = [&](std::ostream& out, const std::map<LinkId, int>& shown,
                                  double top) {
    const int bins = std::min(scale.top(), Histograms::kMaxBins);
    // Bin of a load in 1..top: equal ranges of loads.
    const auto binOf = [&](int load) {
      return std::min(bins - 1, (load - 1) * bins / scale.top());
    };
    std::vector<std::vector<int>> counts(axes, std::vector<int>(bins, 0));
    std::vector<int> loaded(axes, 0);
    for (const auto& [link, load] : shown) {
      ++counts[router.linkAxis(link)][binOf(load)];
      ++loaded[router.linkAxis(link)];
    }
    out << "<g class=\"histograms\">\n";
    writeText(out, 0, top + summaryTitle, summaryTitle, histogramTitle, "start", "fill=\"#333\"");
    top += lineHeight(summaryTitle) + 4;
    const double barWidth = Histograms::kPlotWidth / bins;
    for (int a = 0; a < axes; ++a) {
      const double x0 = (a % histogramsPerRow) * (histograms.boxWidth() + 10);
      const double y0 = top + (a / histogramsPerRow) * (Histograms::boxHeight() + 8);
      const double plotLeft = x0 + histograms.left,
                   plotTop = y0 + lineHeight(Histograms::kTitleSize) + 4;
      const std::string title = vizparts::cat(axisName(a), ": ", std::to_string(loaded[a]), " of ",
                                              std::to_string(linksOnAxis[a]), " links loaded");
      writeText(out, x0, y0 + Histograms::kTitleSize, Histograms::kTitleSize, title, "start",
                "font-weight=\"bold\"");
      int most = 1;
      for (int count : counts[a]) most = std::max(most, count);
      out << "<rect x=\"" << number(plotLeft) << "\" y=\"" << number(plotTop) << "\" width=\""
          << number(Histograms::kPlotWidth) << "\" height=\"" << number(Histograms::kPlotHeight)
          << "\" fill=\"#f7f7f7\" stroke=\"#bbb\" stroke-width=\"0.5\"/>\n";
      for (int b = 0; b < bins; ++b) {
        if (counts[a][b] == 0) continue;
        const double h = Histograms::kPlotHeight * counts[a][b] / most;
        const int low = b * scale.top() / bins + 1, high = (b + 1) * scale.top() / bins;
        std::string what =
            vizparts::cat(std::to_string(counts[a][b]), " links with ", std::to_string(low));
        if (high > low) what += vizparts::cat("-", std::to_string(high));
        what += low == 1 && high <= 1 ? " message" : " messages";
        out << "<rect class=\"bar\" data-axis=\"" << escaped(axisName(a)) << "\" data-count=\""
            << counts[a][b] << "\" x=\"" << number(plotLeft + b * barWidth) << "\" y=\""
            << number(plotTop + Histograms::kPlotHeight - h) << "\" width=\""
            << number(barWidth - 0.5) << "\" height=\"" << number(h) << "\" fill=\""
            << scale.colour((low + high) / 2.0) << "\" stroke=\"#333\" stroke-width=\"0.4\"><title>"
            << escaped(what) << "</title></rect>\n";
      }
      const double tick = Histograms::kTickSize;
      writeText(out, plotLeft - 3, plotTop + tick * 0.8, tick, std::to_string(most), "end");
      writeText(out, plotLeft - 3, plotTop + Histograms::kPlotHeight, tick, "0", "end");
      const double below = plotTop + Histograms::kPlotHeight + 3 + tick;
      // Loads under their bars, as many as fit apart (always 1 and the top).
      const int every = bins == scale.top()
                            ? tickEvery(textWidth(std::to_string(scale.top()), tick) + 4, barWidth)
                            : bins;
      for (int b = 0; b < bins; b += every)
        if (b == 0 || (bins - 1 - b) * barWidth >= textWidth(std::to_string(scale.top()), tick) + 4)
          writeText(out, plotLeft + (b + 0.5) * barWidth, below, tick,
                    std::to_string(b * scale.top() / bins + 1), "middle");
      writeText(out, plotLeft + Histograms::kPlotWidth - barWidth / 2, below, tick,
                std::to_string(scale.top()), "middle");
      writeText(out, plotLeft + Histograms::kPlotWidth / 2, below + lineHeight(tick), tick,
                "messages per link", "middle", "fill=\"#555\"");
    }
    out << "</g>\n";
  };

  vizparts::writePanels(svg, problem, mappings, loads, options, headerHeight, panelWidth,
                        panelHeight,
                        [&](const vizparts::MappingLoads& m, const std::map<LinkId, int>& shown) {
                          if (links) return drawLinks(svg, m, shown);
                          if (summary)
                            drawSummary(svg, shown);
                          else
                            drawNodes(svg, m, shown);
                          drawHistograms(svg, shown, vizparts::kPanelTitleHeight + contentHeight);
                        });
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace tac3map
