#include "tac3map/model/link_loads.hpp"

#include <algorithm>

#include "tac3map/model/problem.hpp"

namespace tac3map {

LinkLoads::LinkLoads(const Problem& problem, const Network& router, const Mapping& mapping)
    : problem_(problem),
      networkLimit_(router.linkIdLimit()),
      linkWeight_(problem.model.linkWeight),
      links_(problem.communicationCount()),
      hops_(problem.communicationCount(), 0),
      perCcs_(problem.ccsCount) {
  const ModelLinks model(router, problem.model);
  for (std::size_t c = 0; c < problem.communicationCount(); ++c) {
    const int p = mapping.nodeOfTask[problem.src[c]], q = mapping.nodeOfTask[problem.dst[c]];
    model.forEachLink(
        p, q,
        [&](LinkId l, std::uint32_t w) {
          links_[c].push_back(l);
          LinkLoad& load = perCcs_[problem.ccs[c]][l];
          load.weighted += w;
          load.weight = w;
          ++load.messages;
          load.largest = std::max(load.largest, problem.bytes[c]);
          hops_[c] += model.isNetwork(l);
        },
        c < problem.realCommunications);  // unions load network links only (objective.hpp)
  }
}

double LinkLoads::contention(std::size_t c) const {
  std::uint64_t most = 0;
  for (LinkId l : links_[c]) most = std::max(most, perCcs_[problem_.ccs[c]].at(l).weighted);
  return static_cast<double>(most) / linkWeight_;
}

int LinkLoads::memoryMessages(std::size_t c) const {
  if (!insideNode(c) || links_[c].empty()) return 0;
  return static_cast<int>(perCcs_[problem_.ccs[c]].at(links_[c].front()).messages);
}

int LinkLoads::linkMessages(std::size_t c) const {
  std::uint64_t most = 0;
  for (LinkId l : links_[c])
    if (isNetwork(l)) most = std::max(most, perCcs_[problem_.ccs[c]].at(l).messages);
  return static_cast<int>(most);
}

std::uint64_t LinkLoads::cost(int t) const {
  std::uint64_t worst = 0;
  for (const auto& [link, load] : perCcs_[t]) worst = std::max(worst, load.weighted * load.largest);
  return worst;
}

}  // namespace tac3map
