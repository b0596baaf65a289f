// The links level: every node's square with its ranks, each loaded link of the slice plane an
// arrow, the other axes' loaded links cells of a strip at the square's foot.
#include <algorithm>
#include <cmath>

#include "viz_draw.hpp"

namespace tac3map::vizlayout {

using vizparts::number;

void drawLinks(std::ostream& out, const VizLayout& layout, const vizparts::HeatScale& scale,
               const vizparts::MappingLoads& mapping, const std::map<LinkId, int>& shown) {
  drawSliceFrames(out, layout);
  const Network& router = layout.router;
  const SliceLayout& slices = layout.slices;
  const std::vector<int>& others = layout.others;
  const double pitch = layout.slice.pitch, square = layout.slice.square;
  const int colAxis = layout.columnAxis, rowAxis = layout.rowAxis;
  for (int node = 0; node < layout.box.nodeCount; ++node) {
    std::string title = vizparts::cat("node ", std::to_string(node));
    title += " (" + coordinateText(layout.machine, layout.allAxes, layout.coordinates[node]) +
             "): task ";
    title += vizparts::taskList(mapping.ranksAt[node]);
    vizparts::writeNodeRect(out, node, mapping.ranksAt[node], layout.squareX(node),
                            layout.squareY(node), square, true, title);
  }
  const double thick = std::max(2.4, pitch * 0.11);
  for (const auto& [link, load] : shown) {
    const int from = router.linkSource(link), axis = router.linkAxis(link);
    const bool plus = router.linkIsPlus(link);
    const double x0 = layout.squareX(from), y0 = layout.squareY(from);
    if (axis != colAxis && axis != rowAxis) {
      // A cell of the strip at the square's foot: column = the axis, + upper, - lower.
      const std::size_t i =
          static_cast<std::size_t>(std::find(others.begin(), others.end(), axis) - others.begin());
      const double stripHeight = std::round(square * 0.4), cellWidth = (square - 2) / others.size();
      const double x = x0 + 1 + i * cellWidth;
      const double y = y0 + square - 1 - stripHeight + (plus ? 0 : stripHeight / 2);
      const std::string d =
          vizparts::cat("M", number(x), ",", number(y), " h", number(cellWidth), " v",
                        number(stripHeight / 2), " h", number(-cellWidth), " z");
      vizparts::writeLinkPath(out, link, load, d, 0, layout.linkWhat(link), scale, true);
      continue;
    }
    // An arrow in the direction of travel, right of it (the two directions stay apart),
    // from square to square, or out of the slice's edge when it wraps around.
    const int to = router.linkTarget(link);
    const int step = axis == colAxis ? slices.place[to].column - slices.place[from].column
                                     : slices.place[to].row - slices.place[from].row;
    const bool wraps = plus ? step != 1 : step != -1;
    const double dx = axis == colAxis ? (plus ? 1 : -1) : 0;
    const double dy = axis == colAxis ? 0 : (plus ? 1 : -1);
    const double cx = x0 + square / 2, cy = y0 + square / 2;
    const double offset = square * 0.2, startAt = square / 2 + 1;
    const double length = wraps ? layout.slice.stubOut - 1 : pitch - square - 2;
    const double sx = cx + dx * startAt - dy * offset, sy = cy + dy * startAt + dx * offset;
    const double head = std::min(length * 0.5, thick * 1.8), halfHead = thick * 1.1;
    const auto at = [&](double along, double across) {
      return number(sx + dx * along - dy * across) + "," + number(sy + dy * along + dx * across);
    };
    const std::string d = vizparts::cat("M", at(0, -thick / 2), " L", at(length - head, -thick / 2),
                                        " L", at(length - head, -halfHead), " L", at(length, 0),
                                        " L", at(length - head, halfHead), " L",
                                        at(length - head, thick / 2), " L", at(0, thick / 2), " Z");
    std::string what = layout.linkWhat(link);
    if (wraps) what += ", wrap-around";
    vizparts::writeLinkPath(out, link, load, d, 0, what, scale, true);
  }
}

}  // namespace tac3map::vizlayout
