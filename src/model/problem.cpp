#include "tac3map/model/problem.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <tuple>

#include "tac3map/io/error.hpp"

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
        p.volume.push_back(p.bytes[c]);
        p.eager.push_back(p.eager[c]);
      }
    p.overlapFirst.push_back(t);
    p.bound.push_back(0);
    p.repeats.push_back(1);
  }
}

// Which sets of `sets` are the same (sorted messages between distinct tasks equal), as an
// index per set into the distinct sets in order of first occurrence, and each distinct set's
// first occurrence. Without merging every set is its own.
struct Distinct {
  std::vector<int> ofSet;
  std::vector<std::size_t> first;
  std::vector<std::uint64_t> repeats;
};

Distinct distinctSets(const CcsSet& sets, bool merge) {
  Distinct d;
  const std::size_t n = sets.sets.size();
  const auto repeatsOf = [&](std::size_t t) -> std::uint64_t {
    return sets.repeats.empty() ? 1 : sets.repeats[t];
  };
  d.ofSet.resize(n);
  using Key = std::vector<std::tuple<int, int, std::uint64_t>>;
  std::map<Key, int> seen;
  Key key;
  for (std::size_t t = 0; t < n; ++t) {
    if (merge) {
      key.clear();
      for (const Communication& c : sets.sets[t])
        if (c.src != c.dst) key.emplace_back(c.src, c.dst, c.bytes);
      std::sort(key.begin(), key.end());
      const auto [it, added] = seen.emplace(key, static_cast<int>(d.first.size()));
      d.ofSet[t] = it->second;
      if (!added) {
        d.repeats[it->second] += repeatsOf(t);
        continue;
      }
    } else {
      d.ofSet[t] = static_cast<int>(d.first.size());
    }
    d.first.push_back(t);
    d.repeats.push_back(repeatsOf(t));
  }
  return d;
}

}  // namespace

Problem hopBytesProblem(const Problem& problem) {
  std::vector<std::pair<std::pair<int, int>, std::uint64_t>> pairs;
  pairs.reserve(problem.realCommunications);
  for (std::size_t c = 0; c < problem.realCommunications; ++c)
    pairs.push_back({{problem.src[c], problem.dst[c]}, problem.volume[c]});
  std::sort(pairs.begin(), pairs.end());
  Problem g;
  g.tasks = problem.tasks;
  g.model = problem.model;
  g.model.overlap = Overlap::None;
  for (std::size_t i = 0; i < pairs.size();) {
    std::uint64_t volume = 0;
    std::size_t j = i;
    for (; j < pairs.size() && pairs[j].first == pairs[i].first; ++j) volume += pairs[j].second;
    g.src.push_back(pairs[i].first.first);
    g.dst.push_back(pairs[i].first.second);
    g.ccs.push_back(0);
    g.bytes.push_back(volume);
    g.volume.push_back(volume);
    i = j;
  }
  g.ccsCount = g.realCcsCount = 1;
  g.realCommunications = g.src.size();
  g.repeats = {1};
  g.ccsOfSet = {0};
  g.barrierBefore = {0};
  g.sameStep = {0};
  g.bound = {0};
  g.overlapFirst = {-1};
  return g;
}

Problem makeProblem(const CcsSet& sets, const Model& model, bool mergeRepeats) {
  Problem p;
  p.tasks = sets.tasks;
  p.model = model;
  Distinct distinct = distinctSets(sets, mergeRepeats && model.overlap == Overlap::None);
  p.ccsCount = static_cast<int>(distinct.first.size());
  p.ccsOfSet = std::move(distinct.ofSet);
  p.repeats = std::move(distinct.repeats);
  p.barrierBefore.assign(sets.sets.size(), 0);
  for (std::size_t k = 1; k < sets.sets.size(); ++k)
    p.barrierBefore[k] = sets.barrierBetween(k - 1) ? 1 : 0;
  p.barrierAlgorithm = sets.barrierAlgorithm;
  // A barrier's floor is the level its later sets start at: at or below the first set's
  // level it comes before every message, above the last set's after all of them.
  const auto levelOf = [&](std::size_t k) { return sets.sets[k].front().level; };
  std::size_t first = 0, last = sets.sets.size();
  while (first < sets.sets.size() && sets.sets[first].empty()) ++first;
  while (last > first && sets.sets[last - 1].empty()) --last;
  if (!sets.barrierLevels.empty() && first < last) {
    p.barrierFirst = sets.barrierLevels.front() <= levelOf(first);
    p.barrierLast = sets.barrierLevels.back() > levelOf(last - 1);
  }
  p.sameStep.assign(sets.sets.size(), 0);
  for (std::size_t k = 1; k < sets.sets.size(); ++k)
    p.sameStep[k] = !p.barrierBefore[k] && !sets.sets[k].empty() && !sets.sets[k - 1].empty() &&
                    sets.sets[k].front().level == sets.sets[k - 1].front().level;
  for (int t = 0; t < p.ccsCount; ++t)
    for (const Communication& c : sets.sets[distinct.first[t]]) {
      if (c.src == c.dst) continue;
      p.src.push_back(c.src);
      p.dst.push_back(c.dst);
      p.ccs.push_back(t);
      p.bytes.push_back(c.bytes);
      p.volume.push_back(c.bytes * p.repeats[t]);
      p.eager.push_back(c.eager ? 1 : 0);
    }
  p.realCcsCount = p.ccsCount;
  p.realCommunications = p.communicationCount();
  p.overlapFirst.assign(p.ccsCount, -1);
  p.bound.assign(p.ccsCount, 0);
  addOverlapUnions(sets, p);
  if (model.ranksPerNode > 1) {
    // Any message may stay inside a node: free when the model does not charge memory, else
    // it loads its node's memory link (memoryWeight) or, between nodes, a network link and an
    // engine link (the larger of their weights): at least the smaller of the two.
    if (!model.memoryLinks()) return p;
    const std::uint64_t least =
        std::min<std::uint64_t>(model.memoryWeight, std::max(model.linkWeight, model.nodeWeight));
    for (std::size_t c = 0; c < p.realCommunications; ++c)
      p.bound[p.ccs[c]] = std::max(p.bound[p.ccs[c]], p.bytes[c] * least);
    return p;
  }
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

void checkScoreArithmetic(const CcsSet& sets, const Model& model, int longestRoute,
                          const std::string& source) {
  using Wide = unsigned __int128;
  constexpr Wide kMost = static_cast<Wide>(std::numeric_limits<std::int64_t>::max());
  const Wide weight = std::max({model.linkWeight, model.nodeWeight, model.memoryWeight});
  const Wide links = static_cast<Wide>(std::max(longestRoute, 0)) + 2;  // + the node links
  Wide tac3 = 0, bytes = 0, pairs = 0;
  Wide previousMessages = 0, previousLargest = 0;
  for (std::size_t t = 0; t < sets.sets.size(); ++t) {
    Wide messages = 0, largest = 0;
    const Communication* biggest = nullptr;
    for (const Communication& c : sets.sets[t]) {
      if (c.src == c.dst) continue;
      ++messages;
      bytes += c.bytes;
      if (!biggest || c.bytes > biggest->bytes) biggest = &c;
      largest = std::max<Wide>(largest, c.bytes);
    }
    // This CCS, and its union with the previous one when phases overlap (problem.hpp).
    tac3 += messages * weight * largest;
    pairs += weight * weight * (messages * links) * (messages * links) / 2;
    if (model.overlap != Overlap::None) {
      const Wide both = messages + previousMessages;
      tac3 += both * weight * std::max(largest, previousLargest);
      pairs += weight * weight * (both * links) * (both * links) / 2;
    }
    previousMessages = messages;
    previousLargest = largest;
    // Byte totals: each message counted at most three times (itself and two unions), over
    // every link of its route.
    const char* what = tac3 > kMost                ? "tac3 (messages x weight x bytes)"
                       : bytes * 3 * links > kMost ? "byte-hops"
                       : pairs > kMost             ? "the tie-break's shared link pairs"
                                                   : nullptr;
    if (!what) continue;
    std::string message = "CCS ";
    message += std::to_string(t);
    if (biggest) {
      message += " (largest message ";
      message += std::to_string(biggest->bytes);
      message += " bytes, sent at line ";
      message += std::to_string(biggest->sendLine);
      message += ")";
    }
    message += ": the trace is too large to score exactly in 64 bits: ";
    message += what;
    message += " could pass 2^63 - 1 (docs/limits.md)";
    failLimit(source, 0, message);
  }
}

std::vector<int> orderKeys(const Problem& problem) {
  std::vector<int> keys(problem.ccsOfSet.size());
  for (std::size_t k = 0; k < keys.size(); ++k)
    keys[k] =
        2 * problem.ccsOfSet[k] + (problem.barrierBefore.empty() ? 0 : problem.barrierBefore[k]);
  return keys;
}

Period findPeriod(const std::vector<int>& sequence) {
  // For each candidate period p, the longest stretch where the list equals itself shifted by
  // p; the best covers the most sets in whole periods (the smallest p on ties: a multiple of
  // the kernel's period covers no more). Periods are tried up to a bound that keeps the scan
  // near 10^8 comparisons, so a list of millions of sets is still looked at in a second.
  constexpr std::size_t kWork = 100'000'000;
  const std::size_t n = sequence.size();
  const std::size_t longest =
      std::min(n / 2, std::max<std::size_t>(1, kWork / std::max<std::size_t>(n, 1)));
  Period best;
  for (std::size_t p = 1; p <= longest; ++p) {
    std::size_t run = 0, bestRun = 0, bestStart = 0;
    for (std::size_t i = 0; i + p < n; ++i) {
      run = sequence[i] == sequence[i + p] ? run + 1 : 0;
      if (run > bestRun) {
        bestRun = run;
        bestStart = i + 1 - run;
      }
    }
    const std::size_t repeats = (bestRun + p) / p;
    if (repeats < 2 || repeats * p <= best.repeats * best.length) continue;
    best = {bestStart, p, repeats};
  }
  return best;
}

}  // namespace tac3map
