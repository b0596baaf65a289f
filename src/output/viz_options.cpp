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

const EnumNames<VizDetail>& vizDetailNames() {
  static const EnumNames<VizDetail> names(
      "detail", {{VizDetail::Auto, "auto", ""},
                 {VizDetail::Links, "links", "(every link)"},
                 {VizDetail::Nodes, "nodes", "(each node by its busiest link)"},
                 {VizDetail::Summary, "summary", "(plane maxima, profiles, histograms)"}});
  return names;
}

VizDetail parseDetail(const std::string& text) {
  return vizDetailNames().parse(text);
}

const char* detailName(VizDetail detail) {
  return vizDetailNames().name(detail).c_str();
}

}  // namespace tac3map
