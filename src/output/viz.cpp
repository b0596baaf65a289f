#include "tac3map/output/viz.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "tac3map/model/link_loads.hpp"
#include "tac3map/output/graph_viz.hpp"
#include "viz_parts.hpp"

namespace tac3map {
namespace {

using vizparts::escaped;
using vizparts::number;

// Geometry of one panel: cell size, gaps between inner groups, where a node's centre is.
struct Geometry {
  const GridLayout& layout;
  double cell, gap;
  int innerColumns, innerRows;  // nodes per inner group along each direction
  double left, top;             // of the node grid inside the panel

  double x(int column) const { return left + column * cell + (column / innerColumns) * gap; }
  double y(int row) const { return top + row * cell + (row / innerRows) * gap; }
  double width() const { return layout.columns * cell + (layout.columns - 1) / innerColumns * gap; }
  double height() const { return layout.rows * cell + (layout.rows - 1) / innerRows * gap; }
};

int product(const Box& box, const std::vector<int>& axes, std::size_t from) {
  int p = 1;
  for (std::size_t i = from; i < axes.size(); ++i) p *= box.shape[axes[i]];
  return p;
}

}  // namespace

std::vector<std::map<LinkId, int>> linkLoads(const Problem& problem, const Network& router,
                                             const Mapping& mapping) {
  // The score's loads (link_loads.hpp), network links only: engines are not drawn.
  const LinkLoads all(problem, router, mapping);
  std::vector<std::map<LinkId, int>> loads(problem.realCcsCount);
  for (int t = 0; t < problem.realCcsCount; ++t)
    for (const auto& [link, load] : all.ofCcs(t))
      if (all.isNetwork(link)) loads[t][link] = static_cast<int>(load.messages);
  return loads;
}

GridLayout gridLayout(const Machine& machine, const Box& box) {
  const int n = machine.axisCount(), outer = (n + 1) / 2;
  // Axes in drawing order: the outer group (X, Y, Z on Tofu) outside the inner one, and in
  // each group the first axis fastest. `toColumns` says which axes go to the columns.
  std::vector<int> order;
  for (int a = outer - 1; a >= 0; --a) order.push_back(a);
  for (int a = n - 1; a >= outer; --a) order.push_back(a);
  const auto build = [&](const std::vector<bool>& toColumns) {
    GridLayout layout;
    for (int a : order) (toColumns[a] ? layout.columnAxes : layout.rowAxes).push_back(a);
    layout.columns = product(box, layout.columnAxes, 0);
    layout.rows = product(box, layout.rowAxes, 0);
    return layout;
  };
  // Axes alternate between columns and rows within each group (Tofu: an XYZ grid of ABC
  // cells); when that is far from a screen's shape, the most screen-like split is used.
  std::vector<bool> alternate(n);
  for (int a = 0; a < n; ++a) alternate[a] = (a < outer ? a : a - outer) % 2 == 0;
  GridLayout layout = build(alternate);
  const auto badness = [](const GridLayout& l) {
    return std::abs(std::log(static_cast<double>(l.columns) / l.rows / 1.5));
  };
  if (badness(layout) > std::log(3.0) && n <= 12) {
    for (unsigned mask = 0; mask < (1u << n); ++mask) {
      std::vector<bool> toColumns(n);
      for (int a = 0; a < n; ++a) toColumns[a] = (mask >> a) & 1u;
      const GridLayout candidate = build(toColumns);
      if (badness(candidate) < badness(layout) - 1e-9) layout = candidate;
    }
  }
  layout.place.resize(box.nodeCount);
  for (int node = 0; node < box.nodeCount; ++node) {
    const std::vector<int> c = box.coordinatesOf(node);
    GridPlace& p = layout.place[node];
    for (int a : layout.columnAxes) p.column = p.column * box.shape[a] + c[a];
    for (int a : layout.rowAxes) p.row = p.row * box.shape[a] + c[a];
  }
  return layout;
}

std::string renderSvg(const Machine& machine, const Box& box, const Network& router,
                      const Problem& problem, const std::vector<VizMapping>& mappings,
                      const VizOptions& options) {
  if (router.isGraph()) return renderGraphSvg(router, problem, mappings, options);
  const GridLayout layout = gridLayout(machine, box);
  const int outerAxes = (machine.axisCount() + 1) / 2;
  const auto innerCount = [&](const std::vector<int>& axes) {
    std::size_t first = 0;
    while (first < axes.size() && axes[first] < outerAxes) ++first;
    return product(box, axes, first);
  };
  // "Z1 X0": the outer coordinates of the group-th inner group along `axes` (outer to inner).
  const auto groupLabel = [&](const std::vector<int>& axes, int group) {
    std::string text;
    for (auto a = axes.rbegin(); a != axes.rend(); ++a) {
      if (*a >= outerAxes) continue;
      text = escaped(machine.axes[*a].name) + std::to_string(group % box.shape[*a]) +
             (text.empty() ? "" : " ") + text;
      group /= box.shape[*a];
    }
    return text;
  };
  const int longest = std::max(layout.columns, layout.rows);
  const double cell = std::clamp(640.0 / longest, 6.0, 24.0);
  Geometry g{layout, cell, cell * 0.5, innerCount(layout.columnAxes), innerCount(layout.rowAxes),
             40.0,   48.0};
  const bool labels = cell >= 14;
  const double panelWidth = g.width() + g.left + 20, panelHeight = g.height() + g.top + 24;

  std::ostringstream svg;
  // Legend: what the layout means (the colours' legend is shared).
  const auto axisNames = [&](const std::vector<int>& axes) {
    std::string text;
    for (int a : axes) text += (text.empty() ? "" : ", ") + escaped(machine.axes[a].name);
    return text;
  };
  std::string layoutNote = "columns: ";
  layoutNote += axisNames(layout.columnAxes);
  layoutNote += " (outer to inner); rows: ";
  layoutNote += axisNames(layout.rowAxes);
  layoutNote += "; a node's colour and number: its task (grey: free)";
  vizparts::writeHeader(svg, panelWidth, panelHeight, mappings.size(),
                        vizparts::panelCount(problem, options), options.title, layoutNote,
                        "a link is a curve from its source node, bending to the right of its "
                        "direction; colour: messages of the CCS on it");
  vizparts::writePanels(
      svg, problem, router, mappings, options, panelWidth, panelHeight,
      [&](const std::vector<std::vector<int>>& ranksAt, const std::map<LinkId, int>& shown) {
        // Outer coordinates above each inner group of columns and left of each group of rows.
        // Label every group where there is room, else every k-th (text ~6.5 px a character).
        const double groupWidth = g.innerColumns * cell + g.gap;
        const int labelEvery =
            std::max(1, static_cast<int>(std::ceil(6.5 * 4 * outerAxes / groupWidth)));
        for (int column = 0; column < layout.columns; column += g.innerColumns * labelEvery) {
          svg << "<text x=\"" << number(g.x(column)) << "\" y=\"" << number(g.top - 6) << "\">"
              << groupLabel(layout.columnAxes, column / g.innerColumns) << "</text>\n";
        }
        for (int row = 0; row < layout.rows; row += g.innerRows) {
          svg << "<text x=\"0\" y=\"" << number(g.y(row) + cell * 0.7) << "\">"
              << groupLabel(layout.rowAxes, row / g.innerRows) << "</text>\n";
        }
        for (int node = 0; node < box.nodeCount; ++node) {
          const GridPlace& at = layout.place[node];
          vizparts::writeNodeRect(svg, node, ranksAt[node], g.x(at.column), g.y(at.row), cell,
                                  labels);
        }
        for (const auto& [link, load] : shown) {
          const GridPlace& from = layout.place[router.linkSource(link)];
          const GridPlace& to = layout.place[router.linkTarget(link)];
          const double x1 = g.x(from.column) + cell / 2, y1 = g.y(from.row) + cell / 2;
          const double x2 = g.x(to.column) + cell / 2, y2 = g.y(to.row) + cell / 2;
          // A curve bending to the right of the direction of travel: the two directions of a
          // link stay apart, and long jumps (wrap-around, outer axes) arc clear of the nodes.
          const double dx = x2 - x1, dy = y2 - y1, length = std::max(1.0, std::hypot(dx, dy));
          const double bend = cell * 0.18 + length * 0.12;
          const double cx = (x1 + x2) / 2 - dy / length * bend;
          const double cy = (y1 + y2) / 2 + dx / length * bend;
          std::string what = escaped(machine.axes[router.linkAxis(link)].name);
          what += router.linkIsPlus(link) ? "+" : "-";
          what += " from node ";
          what += std::to_string(router.linkSource(link));
          vizparts::writeLinkPath(svg, link, load, vizparts::curve(x1, y1, cx, cy, x2, y2), cell,
                                  what);
        }
      });
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace tac3map
