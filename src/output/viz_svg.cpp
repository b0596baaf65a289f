// The mesh/torus picture (viz.hpp: renderSvg): the header explaining the slice plane and the
// detail level, then a panel per CCS and mapping drawn by the level's drawer (viz_draw.hpp),
// all placed by the layout (viz_layout.hpp).
#include <algorithm>
#include <sstream>

#include "tac3map/output/graph_viz.hpp"
#include "tac3map/output/viz.hpp"
#include "viz_draw.hpp"
#include "viz_layout.hpp"

namespace tac3map {
namespace {

using vizlayout::VizLayout;

// The page header: which plane, which detail level and what its marks mean.
vizparts::Header pictureHeader(const VizLayout& layout, const VizOptions& options) {
  const std::vector<int>& others = layout.others;
  const auto axisName = [&](int a) { return layout.axisName(a); };
  const int colAxis = layout.columnAxis, rowAxis = layout.rowAxis;
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
  if (!layout.summary && !others.empty()) {
    plane += "; one small panel per ";
    for (std::size_t i = 0; i < others.size(); ++i) {
      plane += i == 0 ? "" : (i + 1 == others.size() ? " and " : ", ");
      plane += axisName(others[i]);
    }
    plane += ", labelled with them";
  }
  header.lines.push_back(plane);
  std::string level = "detail: ";
  level += detailName(layout.detail);
  if (options.detail == VizDetail::Auto)
    level += " (auto: links up to 256 nodes, nodes up to 8192)";
  header.lines.push_back(level);
  if (layout.links) {
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
  } else if (!layout.summary) {
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
  return header;
}

// A panel's contents at the layout's detail level.
void drawPanel(std::ostream& out, const VizLayout& layout, const vizparts::HeatScale& scale,
               const vizparts::MappingLoads& mapping, const std::map<LinkId, int>& shown) {
  if (layout.links) return vizlayout::drawLinks(out, layout, scale, mapping, shown);
  if (layout.summary)
    vizlayout::drawSummary(out, layout, scale, shown);
  else
    vizlayout::drawNodes(out, layout, scale, mapping, shown);
  vizlayout::drawHistograms(out, layout, scale, shown,
                            vizparts::kPanelTitleHeight + layout.contentHeight);
}

}  // namespace

std::string renderSvg(const Machine& machine, const Box& box, const Network& router,
                      const Problem& problem, const std::vector<VizMapping>& mappings,
                      const VizOptions& options) {
  // The grid pictures draw the box's axes; a machine without axes is drawn as its graph.
  if (!machine.whyNoAxes().empty()) return renderGraphSvg(router, problem, mappings, options);
  const std::vector<vizparts::MappingLoads> loads =
      vizparts::mappingLoads(problem, router, mappings);
  const vizparts::HeatScale scale(vizparts::largestLoad(loads));
  const VizLayout layout(machine, box, router, problem, mappings, loads, options);
  const vizparts::Header header = pictureHeader(layout, options);
  const double headerHeight = vizparts::headerHeight(header);
  const double width = std::max(20 + layout.panelWidth * static_cast<double>(mappings.size()),
                                vizparts::headerWidth(header));
  const double height =
      headerHeight + layout.panelHeight * vizparts::panelCount(problem, options) + 10;

  std::ostringstream svg;
  vizparts::writeSvgStart(svg, width, height);
  vizparts::writeHeader(svg, header, scale);
  vizparts::writePanels(svg, problem, mappings, loads, options, headerHeight, layout.panelWidth,
                        layout.panelHeight,
                        [&](const vizparts::MappingLoads& m, const std::map<LinkId, int>& shown) {
                          drawPanel(svg, layout, scale, m, shown);
                        });
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace tac3map
