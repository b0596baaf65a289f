#include "tac3map/output/graph_viz.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <utility>

#include "viz_parts.hpp"

namespace tac3map {
namespace {

using vizparts::curve;
using vizparts::escaped;
using vizparts::number;

// How links are drawn: one direction of a link from (x1, y1) to (x2, y2). Between rows it
// bends to the right of travel, so the two directions of a full-duplex link lie apart (half
// duplex: one straight line); within a row it arcs above the row, clear of the nodes in
// between, the leftward direction higher. The k-th further link between the same two nodes
// (`parallel` = k) bends `apart` more.
struct LinkCurves {
  double cell, rowGap;

  double apart() const { return cell * 0.25 + 3; }
  // The height of a link's arc within a row.
  double lift(double dx, bool fullDuplex, int parallel) const {
    return std::min(0.15 * std::abs(dx), 0.75 * rowGap) + cell * 0.5 + parallel * apart() +
           (fullDuplex && dx < 0 ? apart() : 0);
  }
  std::string path(double x1, double y1, double x2, double y2, bool fullDuplex,
                   int parallel) const {
    const double mx = (x1 + x2) / 2, my = (y1 + y2) / 2;
    const double dx = x2 - x1, dy = y2 - y1, length = std::max(1.0, std::hypot(dx, dy));
    // A quadratic curve peaks half way to its control point.
    if (std::abs(dy) < 0.5)
      return curve(x1, y1, mx, my - 2 * lift(dx, fullDuplex, parallel), x2, y2);
    const double bend =
        (fullDuplex ? cell * 0.3 + std::min(length * 0.05, 12.0) : 0) + parallel * apart();
    return curve(x1, y1, mx - dy / length * bend, my + dx / length * bend, x2, y2);
  }
};

}  // namespace

GraphLayout graphLayout(const GraphNetwork& graph) {
  const int n = static_cast<int>(graph.nodes.size());
  std::vector<std::vector<int>> neighbours(n);
  for (const GraphArc& arc : graph.arcs) neighbours[arc.from].push_back(arc.to);
  for (auto& list : neighbours) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
  GraphLayout layout;
  // Levels: breadth first from all compute nodes at once.
  layout.level.assign(n, -1);
  std::vector<int> queue(graph.compute.begin(), graph.compute.end());
  for (int node : queue) layout.level[node] = 0;
  for (std::size_t head = 0; head < queue.size(); ++head)
    for (int next : neighbours[queue[head]])
      if (layout.level[next] < 0) {
        layout.level[next] = layout.level[queue[head]] + 1;
        queue.push_back(next);
      }
  const int reached = *std::max_element(layout.level.begin(), layout.level.end());
  for (int& level : layout.level)
    if (level < 0) level = reached + 1;
  const int levels = *std::max_element(layout.level.begin(), layout.level.end()) + 1;

  // Rows: compute nodes in file order; above, each row by the mean position of each switch's
  // neighbours one row below (ties, and switches with none: file order).
  layout.rows.assign(levels, {});
  layout.rows[0] = graph.compute;
  for (int node = 0; node < n; ++node)
    if (layout.level[node] > 0) layout.rows[layout.level[node]].push_back(node);
  layout.position.assign(n, 0);
  std::vector<double> barycentre(n, 0.0);
  for (int l = 0; l < levels; ++l) {
    auto& row = layout.rows[l];
    if (l > 0) {
      for (int node : row) {
        double sum = 0;
        int count = 0;
        for (int next : neighbours[node])
          if (layout.level[next] == l - 1) sum += layout.position[next], ++count;
        barycentre[node] = count > 0 ? sum / count : static_cast<double>(n);
      }
      std::stable_sort(row.begin(), row.end(),
                       [&](int a, int b) { return barycentre[a] < barycentre[b]; });
    }
    for (std::size_t i = 0; i < row.size(); ++i) layout.position[row[i]] = static_cast<int>(i);
  }
  return layout;
}

std::string renderGraphSvg(const Network& network, const Problem& problem,
                           const std::vector<VizMapping>& mappings, const VizOptions& options) {
  const GraphNetwork& graph = *network.graph();
  const GraphLayout layout = graphLayout(graph);
  const int levels = static_cast<int>(layout.rows.size());
  std::size_t widest = 1;
  double widestName = 0;
  for (const auto& row : layout.rows) widest = std::max(widest, row.size());
  for (int node : graph.compute)
    widestName = std::max(widestName, vizparts::textWidth(graph.nodes[node].name, 9));
  // Every row spreads over the width of the widest; rows from the bottom up.
  const double cell = std::clamp(960.0 / static_cast<double>(widest), 6.0, 24.0);
  const double left = 20, rowGap = std::max(64.0, 3 * cell);
  const double rowWidth = std::max(600.0, cell * static_cast<double>(widest));
  const LinkCurves curves{cell, rowGap};
  const std::size_t n = graph.nodes.size();
  std::vector<double> x(n), y(n);  // centres
  for (std::size_t node = 0; node < n; ++node)
    x[node] = left + (layout.position[node] + 0.5) * rowWidth /
                         static_cast<double>(layout.rows[layout.level[node]].size());
  // Room above the top row for its links within the row and the switches' names.
  double top = 48;
  std::map<std::pair<int, int>, int> linksBetween;  // so far, per two nodes
  std::vector<int> parallel(graph.arcs.size() / 2);
  for (std::size_t a = 0; a + 1 < graph.arcs.size(); a += 2) {
    const GraphArc& arc = graph.arcs[a];
    parallel[a / 2] = linksBetween[std::minmax(arc.from, arc.to)]++;
    if (layout.level[arc.from] == levels - 1 && layout.level[arc.to] == levels - 1) {
      const bool fullDuplex = arc.capacity != graph.arcs[a + 1].capacity;
      const double leftward = -std::abs(x[arc.to] - x[arc.from]);  // the higher direction
      top = std::max(top, 30 + curves.lift(leftward, fullDuplex, parallel[a / 2]));
    }
  }
  for (std::size_t node = 0; node < n; ++node)
    y[node] = top + (levels - 1 - layout.level[node]) * rowGap + cell / 2;
  const double panelHeight = top + (levels - 1) * rowGap + cell + 24;

  // Each link id's curve and name (ids: the graph's capacities; file link i is arcs 2i, 2i+1).
  struct Shape {
    std::string path, what;
  };
  std::vector<Shape> shapes(network.linkIdLimit());
  for (std::size_t a = 0; a + 1 < graph.arcs.size(); a += 2) {
    const bool fullDuplex = graph.arcs[a].capacity != graph.arcs[a + 1].capacity;
    for (std::size_t k = a; k <= (fullDuplex ? a + 1 : a); ++k) {
      const GraphArc& arc = graph.arcs[k];
      Shape& shape = shapes[arc.capacity];
      shape.path =
          curves.path(x[arc.from], y[arc.from], x[arc.to], y[arc.to], fullDuplex, parallel[a / 2]);
      shape.what = escaped(network.linkName(arc.capacity));
    }
  }

  const std::vector<vizparts::MappingLoads> loads =
      vizparts::mappingLoads(problem, network, mappings);
  const vizparts::HeatScale scale(vizparts::largestLoad(loads));
  const double panelWidth = std::max(
      rowWidth + 2 * left, vizparts::widestPanelTitle(problem, mappings, loads, options) + 24);
  vizparts::Header header;
  header.title = options.title;
  header.lines = {
      "bottom row: compute nodes in file order (number: task; grey: used, white: free); "
      "above: switches by hops from them",
      "a link bends to the right of its direction (half duplex: straight); thin grey: "
      "unused; hover over a link for its name and load"};
  header.scaleCaption =
      "link load (colour): messages per link in the panel's CCS; in 'all CCSs' panels the "
      "largest over the CCSs";
  const double headerHeight = vizparts::headerHeight(header);
  std::ostringstream svg;
  vizparts::writeSvgStart(svg,
                          std::max(20 + panelWidth * static_cast<double>(mappings.size()),
                                   vizparts::headerWidth(header)),
                          headerHeight + panelHeight * vizparts::panelCount(problem, options) + 10);
  vizparts::writeHeader(svg, header, scale);
  const bool labels = cell >= 14;
  const bool computeNames = rowWidth / static_cast<double>(graph.compute.size()) >= widestName + 4;
  const double radius = std::clamp(cell * 0.3, 3.0, 6.0);
  vizparts::writePanels(
      svg, problem, mappings, loads, options, headerHeight, panelWidth, panelHeight,
      [&](const vizparts::MappingLoads& m, const std::map<LinkId, int>& shown) {
        // Unused links first, thin and grey (the network's structure), the loaded over them.
        for (LinkId link = 0; link < network.linkIdLimit(); ++link)
          if (shown.count(link) == 0)
            svg << "<path class=\"idle\" data-link=\"" << link << "\" d=\"" << shapes[link].path
                << "\" fill=\"none\" stroke=\"#cfcfcf\" stroke-width=\""
                << number(std::max(0.6, cell / 24)) << "\"><title>" << shapes[link].what
                << ": unused</title></path>\n";
        for (const auto& [link, load] : shown)
          vizparts::writeLinkPath(svg, link, load, shapes[link].path,
                                  std::min(1.5 + load * 0.5, 4.0) * std::max(cell, 12.0) / 24,
                                  shapes[link].what, scale);
        // Nodes over the links' ends: switches as grey dots named above where there is room.
        for (int l = 1; l < levels; ++l) {
          const double spacing = rowWidth / static_cast<double>(layout.rows[l].size());
          for (int node : layout.rows[l]) {
            const std::string name = escaped(graph.nodes[node].name);
            svg << "<circle class=\"switch\" data-graph-node=\"" << node << "\" data-name=\""
                << name << "\" data-level=\"" << l << "\" cx=\"" << number(x[node]) << "\" cy=\""
                << number(y[node]) << "\" r=\"" << number(radius)
                << "\" fill=\"#a0a0a0\" stroke=\"#606060\"><title>" << name << "</title></circle>";
            if (spacing >= vizparts::textWidth(graph.nodes[node].name, 9) + 4)
              svg << "<text x=\"" << number(x[node]) << "\" y=\"" << number(y[node] - radius - 3)
                  << "\" text-anchor=\"middle\" font-size=\"9\" fill=\"#444\" stroke=\"white\" "
                     "stroke-width=\"3\" paint-order=\"stroke\">"
                  << name << "</text>";
            svg << "\n";
          }
        }
        for (int i = 0; i < graph.computeCount(); ++i) {
          const int node = graph.compute[i];
          vizparts::writeNodeRect(svg, i, m.ranksAt[i], x[node] - cell / 2, y[node] - cell / 2,
                                  cell, labels, graph.nodes[node].name);
          if (computeNames)
            svg << "<text x=\"" << number(x[node]) << "\" y=\"" << number(y[node] + cell / 2 + 11)
                << "\" text-anchor=\"middle\" font-size=\"9\" fill=\"#444\">"
                << escaped(graph.nodes[node].name) << "</text>\n";
        }
      });
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace tac3map
