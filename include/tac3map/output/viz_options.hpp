// What every viz picture takes (viz.hpp: mesh/torus slices; graph_viz.hpp: the layered graph):
// the mappings drawn, the options, how much is drawn, and the link loads it colours.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "tac3map/io/enum_names.hpp"
#include "tac3map/mapping/mapping.hpp"
#include "tac3map/model/objective.hpp"
#include "tac3map/network/network.hpp"

namespace tac3map {

// Messages of each CCS on each directed link: loads[t][link]; only links with load > 0.
std::vector<std::map<LinkId, int>> linkLoads(const Problem& problem, const Network& router,
                                             const Mapping& mapping);

// How much a mesh/torus picture draws. Auto: Links up to kVizLinksUpTo nodes, Nodes up to
// kVizNodesUpTo, Summary above.
enum class VizDetail { Auto, Links, Nodes, Summary };
inline constexpr int kVizLinksUpTo = 256;
inline constexpr int kVizNodesUpTo = 8192;
VizDetail resolveDetail(VizDetail detail, int nodes);
// "auto", "links", "nodes", "summary"; parseDetail throws InputError naming --detail.
// The names of detail values (enum_names.hpp): parse, name, --help and choice checks.
const EnumNames<VizDetail>& vizDetailNames();
VizDetail parseDetail(const std::string& text);
const char* detailName(VizDetail detail);

struct VizMapping {
  std::string label;
  Mapping mapping;
};

struct VizOptions {
  std::string title;
  bool aggregateOnly = false;  // one panel per mapping (large boxes), not one per CCS
  VizDetail detail = VizDetail::Auto;
  std::vector<int> plane;  // the slice plane's two axes (empty: the default)
};

}  // namespace tac3map
