// The summary level, for boxes too large to draw node by node: per position of the slice plane
// the busiest link leaving any node there, and the same along each other axis.
#include <algorithm>

#include "viz_draw.hpp"

namespace tac3map::vizlayout {

using vizparts::escaped;
using vizparts::lineHeight;
using vizparts::number;
using vizparts::writeText;

void drawSummary(std::ostream& out, const VizLayout& layout, const vizparts::HeatScale& scale,
                 const std::map<LinkId, int>& shown) {
  const SliceLayout& slices = layout.slices;
  const SummaryLayout& p = layout.plane;
  const Box& box = layout.box;
  const double tick = SummaryLayout::kTick, titleSize = SummaryLayout::kTitle;
  const int colAxis = layout.columnAxis, rowAxis = layout.rowAxis;
  const auto busiest = layout.busiestLeaving(shown);
  double y = vizparts::kPanelTitleHeight;
  out << "<g class=\"plane-summary\">\n";
  writeText(out, 0, y + titleSize, titleSize, p.planeTitle, "start", "fill=\"#333\"");
  std::vector<int> maxima(static_cast<std::size_t>(slices.columns * slices.rows), 0);
  for (int node = 0; node < box.nodeCount; ++node) {
    int& v = maxima[static_cast<std::size_t>(slices.place[node].row * slices.columns +
                                             slices.place[node].column)];
    v = std::max(v, busiest[node].first);
  }
  const double top = y + p.planeTop;
  const int everyColumn = tickEvery(p.columnTick + 4, p.pitch);
  const int everyRow = tickEvery(lineHeight(tick) + 1, p.pitch);
  for (int c = 0; c < slices.columns; c += everyColumn)
    writeText(out, p.planeLeft + (c + 0.5) * p.pitch, top - 4, tick, layout.tickText(colAxis, c),
              "middle", "fill=\"#555\"");
  for (int r = 0; rowAxis >= 0 && r < slices.rows; r += everyRow)
    writeText(out, p.planeLeft - 4, top + (r + 0.5) * p.pitch + tick * 0.35, tick,
              layout.tickText(rowAxis, r), "end", "fill=\"#555\"");
  for (int r = 0; r < slices.rows; ++r)
    for (int c = 0; c < slices.columns; ++c) {
      const int v = maxima[static_cast<std::size_t>(r * slices.columns + c)];
      std::string title = vizparts::cat(layout.axisName(colAxis), "=", std::to_string(c));
      if (rowAxis >= 0)
        title += vizparts::cat(" ", layout.axisName(rowAxis), "=", std::to_string(r));
      title += vizparts::cat(": busiest link ", std::to_string(v));
      out << "<rect class=\"cell\" data-load=\"" << v << "\" x=\""
          << number(p.planeLeft + c * p.pitch) << "\" y=\"" << number(top + r * p.pitch)
          << "\" width=\"" << number(p.pitch - 1) << "\" height=\"" << number(p.pitch - 1)
          << "\" fill=\"" << (v > 0 ? scale.colour(v) : "#e6e6e6") << "\"><title>" << escaped(title)
          << "</title></rect>\n";
    }
  out << "</g>\n";
  y += p.planeHeight;
  if (layout.others.empty()) return;
  out << "<g class=\"profiles\">\n";
  writeText(out, 0, y + titleSize, titleSize, p.profileTitle, "start", "fill=\"#333\"");
  y += lineHeight(titleSize) + 4;
  for (int a : layout.others) {
    const std::string& name = layout.axisName(a);
    std::vector<int> profile(static_cast<std::size_t>(box.shape[a]), 0);
    for (int node = 0; node < box.nodeCount; ++node) {
      int& v = profile[static_cast<std::size_t>(layout.coordinates[node][a])];
      v = std::max(v, busiest[node].first);
    }
    const double cellPitch = SummaryLayout::profilePitch(box.shape[a]);
    const double x0 = p.profileLabel + 6;
    writeText(out, 0, y + 11, titleSize, name, "start", "font-weight=\"bold\"");
    for (int c = 0; c < box.shape[a]; ++c) {
      out << "<rect class=\"cell\" data-axis=\"" << escaped(name) << "\" data-load=\"" << profile[c]
          << "\" x=\"" << number(x0 + c * cellPitch) << "\" y=\"" << number(y) << "\" width=\""
          << number(cellPitch - 1) << "\" height=\"14\" fill=\""
          << (profile[c] > 0 ? scale.colour(profile[c]) : "#e6e6e6") << "\"><title>"
          << escaped(name) << "=" << c << ": busiest link " << profile[c] << "</title></rect>\n";
    }
    const int every = tickEvery(p.profileTick + 4, cellPitch);
    for (int c = 0; c < box.shape[a]; c += every)
      writeText(out, x0 + (c + 0.5) * cellPitch, y + 14 + 2 + tick, tick, layout.tickText(a, c),
                "middle", "fill=\"#555\"");
    y += p.profileRow;
  }
  out << "</g>\n";
}

}  // namespace tac3map::vizlayout
