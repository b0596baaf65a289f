#include "tac3map/output/viz_options.hpp"

#include "tac3map/io/error.hpp"
#include "tac3map/model/link_loads.hpp"

namespace tac3map {

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

VizDetail resolveDetail(VizDetail detail, int nodes) {
  if (detail != VizDetail::Auto) return detail;
  if (nodes <= kVizLinksUpTo) return VizDetail::Links;
  return nodes <= kVizNodesUpTo ? VizDetail::Nodes : VizDetail::Summary;
}

VizDetail parseDetail(const std::string& text) {
  if (text == "auto") return VizDetail::Auto;
  if (text == "links") return VizDetail::Links;
  if (text == "nodes") return VizDetail::Nodes;
  if (text == "summary") return VizDetail::Summary;
  throw InputError("--detail '" + text + "': expected auto, links, nodes or summary");
}

const char* detailName(VizDetail detail) {
  switch (detail) {
    case VizDetail::Links:
      return "links";
    case VizDetail::Nodes:
      return "nodes";
    case VizDetail::Summary:
      return "summary";
    default:
      return "auto";
  }
}

}  // namespace tac3map
