// The nodes level: each node's square coloured by the busiest link leaving it, in the slices'
// frames (which the links level draws too).
#include <algorithm>

#include "viz_draw.hpp"

namespace tac3map::vizlayout {

using vizparts::escaped;
using vizparts::number;
using vizparts::writeText;

void drawSliceFrames(std::ostream& out, const VizLayout& layout) {
  const SliceLayout& slices = layout.slices;
  const SliceBox& s = layout.slice;
  std::vector<int> representative(static_cast<std::size_t>(layout.sliceCount), -1);
  for (int node = 0; node < layout.box.nodeCount; ++node) {
    const SlicePlace& p = slices.place[node];
    int& r =
        representative[static_cast<std::size_t>(p.gridRow * slices.gridColumns + p.gridColumn)];
    if (r < 0) r = node;
  }
  for (int node : representative) {
    const SlicePlace& p = slices.place[node];
    const double x = layout.sliceX(p.gridColumn), y = layout.sliceY(p.gridRow);
    const std::string label =
        coordinateText(layout.machine, layout.others, layout.coordinates[node]);
    out << "<g class=\"slice\" data-slice=\"" << escaped(label) << "\">\n";
    if (!layout.others.empty())
      writeText(out, x, y + s.labelSize, s.labelSize, label, "start",
                "font-weight=\"bold\" fill=\"#333\"");
    for (int c = 0; c < slices.columns; c += s.columnTickEvery)
      writeText(out, x + s.gridLeft + (c + 0.5) * s.pitch, y + s.tickBaseline, s.tickSize,
                layout.tickText(layout.columnAxis, c), "middle", "fill=\"#555\"");
    for (int r = 0; layout.rowAxis >= 0 && r < slices.rows; r += s.rowTickEvery)
      writeText(out, x + s.gridLeft - std::max(4.0, s.stubOut + 1) - 1,
                y + s.gridTop + (r + 0.5) * s.pitch + s.tickSize * 0.35, s.tickSize,
                layout.tickText(layout.rowAxis, r), "end", "fill=\"#555\"");
    out << "</g>\n";
  }
}

void drawNodes(std::ostream& out, const VizLayout& layout, const vizparts::HeatScale& scale,
               const vizparts::MappingLoads& mapping, const std::map<LinkId, int>& shown) {
  drawSliceFrames(out, layout);
  const Network& router = layout.router;
  const double square = layout.slice.square;
  const auto busiest = layout.busiestLeaving(shown);
  for (int node = 0; node < layout.box.nodeCount; ++node) {
    const auto& [load, link] = busiest[node];
    const std::vector<int>& ranks = mapping.ranksAt[node];
    const bool free = ranks.empty();
    std::string title = vizparts::cat("node ", std::to_string(node));
    title +=
        " (" + coordinateText(layout.machine, layout.allAxes, layout.coordinates[node]) + "): ";
    title += free ? std::string("free") : vizparts::cat("task ", vizparts::taskList(ranks));
    if (link >= 0) {
      title += "; busiest link leaving it: ";
      title += layout.axisName(router.linkAxis(link));
      title += router.linkIsPlus(link) ? "+ " : "- ";
      title += std::to_string(load);
      title += load == 1 ? " message" : " messages";
    }
    out << "<rect class=\"node\" data-node=\"" << node << "\" data-task=\""
        << vizparts::taskList(ranks) << "\" data-load=\"" << load << "\" x=\""
        << number(layout.squareX(node)) << "\" y=\"" << number(layout.squareY(node))
        << "\" width=\"" << number(square) << "\" height=\"" << number(square) << "\" fill=\""
        << (load > 0 ? scale.colour(load)
            : free   ? "white"
                     : "#e6e6e6")
        << "\" stroke=\"" << (free ? "#c8c8c8" : "#aaa") << "\" stroke-width=\"0.5\"><title>"
        << escaped(title) << "</title></rect>\n";
  }
}

}  // namespace tac3map::vizlayout
