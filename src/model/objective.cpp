#include "tac3map/model/objective.hpp"

#include <algorithm>
#include <map>

#include "tac3map/model/link_loads.hpp"

namespace tac3map {

ExactScores evaluateExact(const Problem& problem, const Network& router, const Mapping& mapping) {
  ExactScores s;
  s.tac3Scale = problem.model.linkWeight;
  const LinkLoads loads(problem, router, mapping);
  std::map<LinkId, std::uint64_t> linkBytes;
  for (std::size_t c = 0; c < problem.realCommunications; ++c) {
    for (LinkId l : loads.links(c))
      if (loads.isNetwork(l)) linkBytes[l] += problem.volume[c];
    s.tahbByteHops += problem.volume[c] * static_cast<std::uint64_t>(loads.hops(c));
    s.totalBytes += problem.volume[c];
  }
  // A CCS that repeats counts as often as it occurs (problem.hpp); unions occur once.
  for (int t = 0; t < problem.ccsCount; ++t) {
    const std::uint64_t repeats = problem.repeats[t];
    s.tac3ByteCounts += repeats * loads.cost(t);
    if (problem.isUnion(t)) {  // what the two CCSs add to each other (objective.hpp)
      const int first = problem.overlapFirst[t];
      s.tac3ByteCounts -= std::max(loads.cost(first), loads.cost(first + 1));
    }
    for (const auto& [link, load] : loads.ofCcs(t)) {
      s.sharedPairs += repeats * std::uint64_t{load.weight} * load.weight *
                       (load.messages * (load.messages - 1) / 2);
      if (loads.isNetwork(link) && !problem.isUnion(t))
        s.maxLinkMessages = std::max(s.maxLinkMessages, static_cast<int>(load.messages));
    }
  }
  s.lowerBoundBytes = tac3LowerBoundBytes(problem);
  for (const auto& [link, bytes] : linkBytes) s.maxLinkBytes = std::max(s.maxLinkBytes, bytes);
  return s;
}

Scores toScores(const ExactScores& e, double linkBandwidth) {
  Scores s;
  const double scale = linkBandwidth * static_cast<double>(e.tac3Scale);
  s.tac3 = static_cast<double>(e.tac3ByteCounts) / scale;
  s.tac3LowerBound = static_cast<double>(e.lowerBoundBytes) / scale;
  s.tahb = static_cast<double>(e.tahbByteHops);
  s.rmattO2f = static_cast<double>(e.tahbByteHops) * static_cast<double>(e.maxLinkBytes);
  s.maxLinkMessages = e.maxLinkMessages;
  s.avgHops = e.totalBytes ? static_cast<double>(e.tahbByteHops) / e.totalBytes : 0.0;
  return s;
}

Scores evaluate(const Problem& problem, const Network& router, const Mapping& mapping,
                double linkBandwidth) {
  return toScores(evaluateExact(problem, router, mapping), linkBandwidth);
}

std::uint64_t tac3LowerBoundBytes(const Problem& problem) {
  std::uint64_t bound = 0;
  for (std::size_t t = 0; t < problem.bound.size(); ++t)
    bound += problem.repeats[t] * problem.bound[t];
  return bound;
}

}  // namespace tac3map
