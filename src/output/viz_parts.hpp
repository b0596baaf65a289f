// What the two viz pictures (viz_svg.cpp: mesh/torus slices; graph_viz.cpp: the layered graph)
// draw alike, so that a script or test reading one reads the other: the page header with the
// heat scale's colour bar, the panels (<g class="panel" data-mapping data-ccs>, one per CCS
// and mapping plus the largest load per link), compute nodes (<rect class="node" data-node
// data-task>) and loaded links (<path class="link" data-link data-load> with a <title>), and
// the text layout rules that keep labels apart (textWidth). Private to src/output.
#pragma once

#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "tac3map/output/viz_options.hpp"

namespace tac3map::vizparts {

// Text for SVG content and attributes: & < > " escaped.
std::string escaped(const std::string& text);
// A coordinate with one decimal.
std::string number(double value);
// The parts one after the other (appended with +=: g++ 12 warns falsely, -Wrestrict, on
// chains of + starting from a literal).
template <class... Parts>
std::string cat(const Parts&... parts) {
  std::string out;
  ((out += parts), ...);
  return out;
}

// The pictures' font (DejaVu Sans where installed) and an upper bound on the width in pixels
// of `text` (plain, not escaped) at `size` px: DejaVu Sans's advance widths, rounded up, and
// wider than Liberation Sans / Arial, the usual fallbacks. Layouts place text with it so that
// no two labels overlap and none leaves the picture.
inline constexpr const char* kFontFamily = "DejaVu Sans, Liberation Sans, Arial, sans-serif";
double textWidth(const std::string& text, double size);
// The height of a line of text of `size` px (ascent + descent of the font's line box).
inline double lineHeight(double size) {
  return size * 1.2;
}
// <text> at (x, y) (baseline), `anchor` start|middle|end, content escaped here; `extra`
// attributes as given. Ends the line.
void writeText(std::ostream& svg, double x, double y, double size, const std::string& text,
               const char* anchor = "start", const std::string& extra = "");

// The heat scale of link load: viridis (perceptually uniform, colour-blind safe), from 1
// message (dark purple: no contention) to the picture's largest load (yellow), at least 2.
class HeatScale {
 public:
  explicit HeatScale(int largest) : top_(largest < 2 ? 2 : largest) {}
  int top() const { return top_; }
  // The colour of `load` messages (clamped to [1, top]).
  std::string colour(double load) const;

 private:
  int top_;
};
// Viridis at t in [0, 1], "#rrggbb".
std::string viridis(double t);

// The loads a picture shows, per mapping: per CCS the messages on each loaded network link
// (model/link_loads.hpp, as score and predict count them), the largest per link over the
// CCSs, and each node's ranks in slot order.
struct MappingLoads {
  std::vector<std::map<LinkId, int>> perCcs;
  std::map<LinkId, int> all;
  std::vector<std::vector<int>> ranksAt;
};
std::vector<MappingLoads> mappingLoads(const Problem& problem, const Network& network,
                                       const std::vector<VizMapping>& mappings);
int largestLoad(const std::vector<MappingLoads>& loads);

// Panels per mapping: one per CCS plus the largest-load panel, or that one alone.
int panelCount(const Problem& problem, const VizOptions& options);
// The panel titles' font size and text: "M - CCS 3, busiest link: 4 messages".
inline constexpr double kPanelTitleSize = 12;
std::string panelTitle(const std::string& mapping, int ccs, bool all, int busiest);
// The widest panel title of a picture (layouts make panels at least this wide).
double widestPanelTitle(const Problem& problem, const std::vector<VizMapping>& mappings,
                        const std::vector<MappingLoads>& loads, const VizOptions& options);
// Panel contents start this far below the panel's top (under its title).
inline constexpr double kPanelTitleHeight = 22;

// The page header: the title, lines of explanation (plain text) and the colour bar of the
// heat scale with its ticks and caption.
struct Header {
  std::string title;
  std::vector<std::string> lines;
  std::string scaleCaption;
};
double headerHeight(const Header& header);
double headerWidth(const Header& header);
// The XML header and the <svg> root of `width` x `height` px (white page, the font, the
// colour bar's gradient).
void writeSvgStart(std::ostream& svg, double width, double height);
void writeHeader(std::ostream& svg, const Header& header, const HeatScale& scale);

// Each panel of each mapping: its <g> (at column m, row p of panelWidth x panelHeight boxes
// below the header, titled), then draw(m, loads) for its contents, then </g>.
using DrawPanel = std::function<void(const MappingLoads& mapping, const std::map<LinkId, int>&)>;
void writePanels(std::ostream& svg, const Problem& problem, const std::vector<VizMapping>& mappings,
                 const std::vector<MappingLoads>& loads, const VizOptions& options, double top,
                 double panelWidth, double panelHeight, const DrawPanel& draw);

// A node's ranks as its data-task attribute: "3", "3,7" (slot order), "-1" when free.
std::string taskList(const std::vector<int>& ranks);
// A node as a `cell`-sized square with top-left corner (x, y): light grey with its ranks
// written on it (with `labels`; more than two: the first and "+"), white with a dashed border
// when free; `title` (plain text; empty: none) shown on hover. Ends the line.
void writeNodeRect(std::ostream& svg, int node, const std::vector<int>& ranks, double x, double y,
                   double cell, bool labels, const std::string& title = "");

// The path data of a quadratic curve from (x1, y1) to (x2, y2) with control point (cx, cy).
std::string curve(double x1, double y1, double cx, double cy, double x2, double y2);
// A loaded link drawn as `pathData`: stroked in its heat colour over a dark casing (so the
// scale's light end shows on white), or, with `filled`, the shape filled in its colour with a
// dark outline. Its title is `what` (SVG text, already escaped) and the load. Ends the line.
void writeLinkPath(std::ostream& svg, LinkId link, int load, const std::string& pathData,
                   double width, const std::string& what, const HeatScale& scale,
                   bool filled = false);

}  // namespace tac3map::vizparts
