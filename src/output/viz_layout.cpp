#include "viz_layout.hpp"

#include <algorithm>
#include <cmath>

#include "tac3map/io/error.hpp"

namespace tac3map {

using vizparts::lineHeight;
using vizparts::textWidth;

std::vector<int> parsePlane(const Machine& machine, const std::string& text) {
  std::string names;
  for (const Axis& axis : machine.axes) names += (names.empty() ? "" : " ") + axis.name;
  const auto fail = [&](const std::string& why) {
    throw SettingError("plane", " '" + text + "': " + why + " (axes " + names + ")");
  };
  if (std::string why = machine.whyNoAxes(); !why.empty()) fail(why);
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
      throw SettingError("plane", ": expected two different axes of " + machine.name);
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

}  // namespace

SliceLayout sliceLayout(const Machine& machine, const Box& box, const std::vector<int>& plane) {
  return layoutSlices(machine, box, plane, 0);
}

namespace vizlayout {

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

int tickEvery(double widest, double pitch) {
  return std::max(1, static_cast<int>(std::ceil(widest / pitch)));
}

double SummaryLayout::profilePitch(int size) {
  return std::clamp(600.0 / size, 6.0, 20.0);
}

VizLayout::VizLayout(const Machine& machine, const Box& box, const Network& router,
                     const Problem& problem, const std::vector<VizMapping>& mappings,
                     const std::vector<vizparts::MappingLoads>& loads, const VizOptions& options)
    : machine(machine),
      box(box),
      router(router),
      detail(resolveDetail(options.detail, box.nodeCount)),
      links(detail == VizDetail::Links),
      summary(detail == VizDetail::Summary),
      // The slice plane (the arrangement of slices comes once their boxes' size is known).
      slices(layoutSlices(machine, box, options.plane, 0)),
      columnAxis(slices.columnAxis),
      rowAxis(slices.rowAxis),
      allAxes(box.axisCount()),
      coordinates(box.nodeCount),
      sliceCount(box.nodeCount / (slices.columns * slices.rows)),
      linksOnAxis(box.axisCount(), 0) {
  const int axes = box.axisCount();
  for (int a = 0; a < axes; ++a)
    if (a != columnAxis && a != rowAxis) others.push_back(a);
  for (int a = 0; a < axes; ++a) allAxes[a] = a;
  for (int node = 0; node < box.nodeCount; ++node) coordinates[node] = box.coordinatesOf(node);
  for (int node = 0; node < box.nodeCount; ++node)
    for (int a = 0; a < axes; ++a)
      for (bool plus : {true, false})
        if (router.neighbour(node, a, plus) >= 0) ++linksOnAxis[a];
  layOutSliceBox();
  if (!summary) slices = layoutSlices(machine, box, options.plane, slice.width / slice.height);
  layOutSummary();
  layOutPanel(problem, mappings, loads, options);
}

void VizLayout::layOutSliceBox() {
  SliceBox& s = slice;
  s.pitch = 44;
  if (links && box.nodeCount > 128) s.pitch = 36;
  if (links && box.nodeCount > kVizLinksUpTo) s.pitch = 30;
  if (!links) s.pitch = box.nodeCount <= 2048 ? 12 : 9;
  s.square = links ? std::round(s.pitch * 0.68) : s.pitch - 1.5;
  s.stubOut = links ? (s.pitch - s.square) / 2 + 3 : 0;
  s.labelSize = links ? 10 : 9;
  s.tickSize = links ? 9 : 8;
  double widestColumnTick = 0, widestRowTick = 0, widestLabel = 0;
  for (int c = 0; c < slices.columns; ++c)
    widestColumnTick = std::max(widestColumnTick, textWidth(tickText(columnAxis, c), s.tickSize));
  for (int r = 0; rowAxis >= 0 && r < slices.rows; ++r)
    widestRowTick = std::max(widestRowTick, textWidth(tickText(rowAxis, r), s.tickSize));
  {
    std::vector<int> largest(box.axisCount());
    for (int a = 0; a < box.axisCount(); ++a) largest[a] = box.shape[a] - 1;
    // The widest label: each coordinate at its widest (the largest value has the most digits).
    widestLabel = textWidth(coordinateText(machine, others, largest), s.labelSize);
  }
  s.columnTickEvery = tickEvery(widestColumnTick + 4, s.pitch);
  s.rowTickEvery = tickEvery(lineHeight(s.tickSize) + 1, s.pitch);
  const double labelHeight = others.empty() ? 0 : lineHeight(s.labelSize) + 2;
  s.tickBaseline = labelHeight + s.tickSize * 0.95;
  s.gridTop = s.tickBaseline + s.tickSize * 0.3 + std::max(4.0, s.stubOut + 1);
  s.gridLeft = (rowAxis >= 0 ? widestRowTick + 3 : 0) + std::max(4.0, s.stubOut + 1);
  const double gridWidth = slices.columns * s.pitch, gridHeight = slices.rows * s.pitch;
  // The last column tick is centred on its column and may stick out of the grid.
  s.width = std::max(
      {s.gridLeft + gridWidth + std::max(s.stubOut, widestColumnTick / 2 - s.pitch / 2) + 2,
       widestLabel + 2});
  s.height = s.gridTop + gridHeight + s.stubOut + 2;
}

void VizLayout::layOutSummary() {
  SummaryLayout& p = plane;
  const double tick = SummaryLayout::kTick, title = SummaryLayout::kTitle;
  p.pitch = std::clamp(360.0 / std::max(slices.columns, slices.rows), 8.0, 20.0);
  double rowTick = 0;
  for (int c = 0; c < slices.columns; ++c)
    p.columnTick = std::max(p.columnTick, textWidth(tickText(columnAxis, c), tick));
  for (int r = 0; rowAxis >= 0 && r < slices.rows; ++r)
    rowTick = std::max(rowTick, textWidth(tickText(rowAxis, r), tick));
  for (int a : others) {
    p.profileLabel = std::max(p.profileLabel, textWidth(axisName(a), title));
    p.profileTick = std::max(p.profileTick, textWidth(tickText(a, box.shape[a] - 1), tick));
  }
  p.planeTitle = "busiest link leaving the nodes at each ";
  p.planeTitle += axisName(columnAxis);
  if (rowAxis >= 0) p.planeTitle += ", " + axisName(rowAxis);
  p.planeTitle += others.empty() ? "" : " (largest over the slices)";
  p.profileTitle = "the same along each other axis (largest over all else):";
  p.planeLeft = (rowAxis >= 0 ? rowTick + 4 : 0);
  p.planeTop = lineHeight(title) + lineHeight(tick) + 4;
  p.planeHeight = p.planeTop + slices.rows * p.pitch + 8;
  double profileWidth = 0;
  for (int a : others)
    profileWidth =
        std::max(profileWidth,
                 p.profileLabel + 6 + box.shape[a] * SummaryLayout::profilePitch(box.shape[a]));
  p.profileRow = lineHeight(tick) + std::max(14.0, lineHeight(title)) + 6;
  p.profilesHeight = others.empty() ? 0 : lineHeight(title) + 4 + p.profileRow * others.size() + 4;
  p.width = std::max({p.planeLeft + slices.columns * p.pitch + p.columnTick,
                      textWidth(p.planeTitle, title), textWidth(p.profileTitle, title),
                      profileWidth + 4});
}

void VizLayout::layOutPanel(const Problem& problem, const std::vector<VizMapping>& mappings,
                            const std::vector<vizparts::MappingLoads>& loads,
                            const VizOptions& options) {
  const int axes = box.axisCount();
  Histograms& h = histograms;
  {
    // Room for the largest count left of the plot, and for the widest title.
    const std::string most = std::to_string(2 * box.nodeCount);
    h.left = textWidth(most, Histograms::kTickSize) + 6;
    double title = 0;
    for (int a = 0; a < axes; ++a)
      title = std::max(title, textWidth(axisName(a) + ": " + most + " of " + most + " links loaded",
                                        Histograms::kTitleSize) *
                                  1.12);
    h.width = std::max(h.left + Histograms::kPlotWidth + 12, title + 6);
  }
  const double slicesWidth = slices.gridColumns * (slice.width + SliceBox::kGapX) - SliceBox::kGapX;
  double panelInner = std::max(summary ? plane.width : slicesWidth,
                               vizparts::widestPanelTitle(problem, mappings, loads, options));
  if (!links) panelInner = std::max(panelInner, 2 * h.boxWidth());
  h.perRow = std::max(1, static_cast<int>((panelInner + 10) / (h.boxWidth() + 10)));
  h.rows = (axes + h.perRow - 1) / h.perRow;
  h.title = "links by load, per axis (both directions):";
  h.height =
      links ? 0 : lineHeight(SummaryLayout::kTitle) + 4 + h.rows * (Histograms::boxHeight() + 8);
  contentHeight = summary
                      ? plane.planeHeight + plane.profilesHeight
                      : slices.gridRows * (slice.height + SliceBox::kGapY) - SliceBox::kGapY + 10;
  panelWidth = panelInner + 24;
  panelHeight = vizparts::kPanelTitleHeight + contentHeight + h.height + 18;
}

double VizLayout::sliceX(int gridColumn) const {
  return gridColumn * (slice.width + SliceBox::kGapX);
}

double VizLayout::sliceY(int gridRow) const {
  return vizparts::kPanelTitleHeight + gridRow * (slice.height + SliceBox::kGapY);
}

double VizLayout::squareX(int node) const {
  const SlicePlace& p = slices.place[node];
  return sliceX(p.gridColumn) + slice.gridLeft + p.column * slice.pitch +
         (slice.pitch - slice.square) / 2;
}

double VizLayout::squareY(int node) const {
  const SlicePlace& p = slices.place[node];
  return sliceY(p.gridRow) + slice.gridTop + p.row * slice.pitch + (slice.pitch - slice.square) / 2;
}

std::string VizLayout::linkWhat(LinkId link) const {
  const int from = router.linkSource(link);
  std::string what = vizparts::escaped(axisName(router.linkAxis(link)));
  what += router.linkIsPlus(link) ? "+" : "-";
  what += " from node ";
  what += std::to_string(from);
  what += " (";
  what += vizparts::escaped(coordinateText(machine, allAxes, coordinates[from]));
  what += ")";
  return what;
}

std::vector<std::pair<int, LinkId>> VizLayout::busiestLeaving(
    const std::map<LinkId, int>& shown) const {
  std::vector<std::pair<int, LinkId>> out(box.nodeCount, {0, -1});
  for (const auto& [link, load] : shown) {
    auto& b = out[router.linkSource(link)];
    if (load > b.first) b = {load, link};
  }
  return out;
}

}  // namespace vizlayout
}  // namespace tac3map
