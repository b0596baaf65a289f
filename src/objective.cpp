#include "tac3map/objective.hpp"

#include <algorithm>
#include <map>

#include "tac3map/error.hpp"
#include "tac3map/link_loads.hpp"

namespace tac3map {

namespace {

// The union sets of overlapping consecutive CCSs (Problem::overlapFirst).
void addOverlapUnions(const CcsSet& sets, Problem& p) {
  if (p.model.overlap == Overlap::None || p.realCcsCount < 2) return;
  std::vector<std::vector<std::size_t>> members(p.realCcsCount);
  for (std::size_t c = 0; c < p.realCommunications; ++c) members[p.ccs[c]].push_back(c);
  for (int t = 0; t + 1 < p.realCcsCount; ++t) {
    if (p.model.overlap == Overlap::Auto && sets.barrierBetween(static_cast<std::size_t>(t)))
      continue;
    const int u = p.ccsCount++;
    for (int part : {t, t + 1})
      for (std::size_t c : members[part]) {
        p.src.push_back(p.src[c]);
        p.dst.push_back(p.dst[c]);
        p.ccs.push_back(u);
        p.bytes.push_back(p.bytes[c]);
      }
    p.overlapFirst.push_back(t);
    p.bound.push_back(0);
  }
}

}  // namespace

Problem makeProblem(const CcsSet& sets, const Model& model) {
  Problem p;
  p.tasks = sets.tasks;
  p.ccsCount = static_cast<int>(sets.sets.size());
  p.model = model;
  for (std::size_t t = 0; t < sets.sets.size(); ++t)
    for (const Communication& c : sets.sets[t]) {
      if (c.src == c.dst) continue;
      p.src.push_back(c.src);
      p.dst.push_back(c.dst);
      p.ccs.push_back(static_cast<int>(t));
      p.bytes.push_back(c.bytes);
    }
  p.realCcsCount = p.ccsCount;
  p.realCommunications = p.communicationCount();
  p.overlapFirst.assign(p.ccsCount, -1);
  p.bound.assign(p.ccsCount, 0);
  addOverlapUnions(sets, p);
  if (model.ranksPerNode > 1) return p;  // any message may stay inside a node
  for (std::size_t c = 0; c < p.realCommunications; ++c)
    p.bound[p.ccs[c]] = std::max(p.bound[p.ccs[c]], p.bytes[c] * model.linkWeight);
  if (!model.nodeLinks()) return p;
  // One rank per node: a rank's messages of a CCS all load its node's engines.
  std::map<std::pair<int, int>, std::pair<std::uint64_t, std::uint64_t>> out, in;  // count, max
  for (std::size_t c = 0; c < p.realCommunications; ++c) {
    auto& o = out[{p.ccs[c], p.src[c]}];
    auto& i = in[{p.ccs[c], p.dst[c]}];
    ++o.first;
    ++i.first;
    o.second = std::max(o.second, p.bytes[c]);
    i.second = std::max(i.second, p.bytes[c]);
  }
  for (const auto* side : {&out, &in})
    for (const auto& [key, load] : *side)
      p.bound[key.first] =
          std::max(p.bound[key.first], load.first * model.nodeWeight * load.second);
  return p;
}

ExactScores evaluateExact(const Problem& problem, const Router& router, const Mapping& mapping) {
  ExactScores s;
  s.tac3Scale = problem.model.linkWeight;
  const LinkLoads loads(problem, router, mapping);
  std::map<LinkId, std::uint64_t> linkBytes;
  for (std::size_t c = 0; c < problem.realCommunications; ++c) {
    for (LinkId l : loads.links(c))
      if (loads.isNetwork(l)) linkBytes[l] += problem.bytes[c];
    s.tahbByteHops += problem.bytes[c] * static_cast<std::uint64_t>(loads.hops(c));
    s.totalBytes += problem.bytes[c];
  }
  for (int t = 0; t < problem.ccsCount; ++t) {
    s.tac3ByteCounts += loads.cost(t);
    if (problem.isUnion(t)) {  // what the two CCSs add to each other (objective.hpp)
      const int first = problem.overlapFirst[t];
      s.tac3ByteCounts -= std::max(loads.cost(first), loads.cost(first + 1));
    }
    for (const auto& [link, load] : loads.ofCcs(t)) {
      s.sharedPairs +=
          std::uint64_t{load.weight} * load.weight * (load.messages * (load.messages - 1) / 2);
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

Scores evaluate(const Problem& problem, const Router& router, const Mapping& mapping,
                double linkBandwidth) {
  return toScores(evaluateExact(problem, router, mapping), linkBandwidth);
}

std::uint64_t tac3LowerBoundBytes(const Problem& problem) {
  std::uint64_t bound = 0;
  for (std::uint64_t b : problem.bound) bound += b;
  return bound;
}

}  // namespace tac3map
