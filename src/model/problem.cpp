#include "tac3map/model/problem.hpp"

#include <algorithm>
#include <map>

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

}  // namespace tac3map
