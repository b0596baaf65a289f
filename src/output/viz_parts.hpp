// What the two viz pictures (viz.cpp: the mesh/torus grid; graph_viz.cpp: the layered graph)
// draw alike, so that a script or test reading one reads the other: the page header and
// legend, the panels (<g class="panel" data-mapping data-ccs>, one per CCS and mapping plus
// the largest load per link), compute nodes (<rect class="node" data-node data-task>) and
// loaded links (<path class="link" data-link data-load> with a <title>). Private to
// src/output.
#pragma once

#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "tac3map/output/viz.hpp"

namespace tac3map::vizparts {

// Text for SVG content and attributes: & < > " escaped.
std::string escaped(const std::string& text);
// A coordinate with one decimal.
std::string number(double value);
// Messages on a link: green 1, orange 2, red 3 or more (contention).
const char* loadColour(int load);
// A task's fill; light grey for a free node (task < 0).
std::string taskColour(int task);

// Panels per mapping: one per CCS plus the largest-load panel, or that one alone.
int panelCount(const Problem& problem, const VizOptions& options);

// The XML header, the page (sized for `mappings` columns of `panels` panels), the title,
// the layout note (SVG text, already escaped), the load colours' legend and the link note.
// Panels start kHeaderHeight below the top.
inline constexpr double kHeaderHeight = 92;
void writeHeader(std::ostream& svg, double panelWidth, double panelHeight, std::size_t mappings,
                 int panels, const std::string& title, const std::string& layoutNote,
                 const std::string& linkNote);

// Each panel of each mapping: its <g> (placed, titled with the mapping, the CCS and its
// busiest link), then draw(ranksAt, loads) for its contents, then </g>. ranksAt[node]: the
// node's ranks in slot order; loads: the panel's messages per link (only loaded links).
using DrawPanel = std::function<void(const std::vector<std::vector<int>>& ranksAt,
                                     const std::map<LinkId, int>& loads)>;
void writePanels(std::ostream& svg, const Problem& problem, const Network& network,
                 const std::vector<VizMapping>& mappings, const VizOptions& options,
                 double panelWidth, double panelHeight, const DrawPanel& draw);

// A node as a `cell`-sized square with top-left corner (x, y), filled by its first rank's
// colour; with `labels`, its ranks written on it; `title` (plain text; empty: none) shown
// on hover. Ends the line.
void writeNodeRect(std::ostream& svg, int node, const std::vector<int>& ranks, double x, double y,
                   double cell, bool labels, const std::string& title = "");

// The path data of a quadratic curve from (x1, y1) to (x2, y2) with control point (cx, cy).
std::string curve(double x1, double y1, double cx, double cy, double x2, double y2);
// A loaded link drawn along `pathData`, its colour and width from its load; its title is
// `what` (SVG text, already escaped) and the load. Ends the line.
void writeLinkPath(std::ostream& svg, LinkId link, int load, const std::string& pathData,
                   double cell, const std::string& what);

}  // namespace tac3map::vizparts
