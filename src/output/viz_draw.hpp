// The drawers of a mesh/torus panel's contents, one per detail level (viz_options.hpp:
// VizDetail), all placed by the picture's layout (viz_layout.hpp): the links level
// (viz_links.cpp), the nodes level (viz_nodes.cpp), the summary (viz_summary.cpp), and the
// histograms under the last two (viz_histograms.cpp). Private to src/output.
#pragma once

#include <map>
#include <ostream>

#include "viz_layout.hpp"
#include "viz_parts.hpp"

namespace tac3map::vizlayout {

// Labels and ticks of every slice (links and nodes levels).
void drawSliceFrames(std::ostream& out, const VizLayout& layout);

// Node squares with their ranks, an arrow per loaded link of the plane, the other axes' links
// as a strip at each square's foot.
void drawLinks(std::ostream& out, const VizLayout& layout, const vizparts::HeatScale& scale,
               const vizparts::MappingLoads& mapping, const std::map<LinkId, int>& shown);

// Node squares coloured by the busiest link leaving them.
void drawNodes(std::ostream& out, const VizLayout& layout, const vizparts::HeatScale& scale,
               const vizparts::MappingLoads& mapping, const std::map<LinkId, int>& shown);

// The plane's maxima over the slices and a profile along each other axis.
void drawSummary(std::ostream& out, const VizLayout& layout, const vizparts::HeatScale& scale,
                 const std::map<LinkId, int>& shown);

// The histograms of link loads per axis, from `top` down.
void drawHistograms(std::ostream& out, const VizLayout& layout, const vizparts::HeatScale& scale,
                    const std::map<LinkId, int>& shown, double top);

}  // namespace tac3map::vizlayout
