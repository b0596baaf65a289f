// Coarsening for the multilevel search (coarsening.hpp): heavy-edge matching of the tasks,
// the box halved along its longest even axis, and mappings restricted and prolonged.
#include "tac3map/search/coarsening.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "tac3map/base/random.hpp"
#include "tac3map/model/ccs.hpp"

namespace tac3map {
namespace {

// Per task, the partner it is matched with (-1: none): tasks in a seeded random order, each
// unmatched one with its unmatched partner of the most bytes (the lowest index on a tie).
std::vector<int> heavyEdgeMatching(const Problem& problem, std::uint64_t seed) {
  const int n = problem.tasks;
  std::vector<std::pair<std::pair<int, int>, std::uint64_t>> edges;
  edges.reserve(problem.realCommunications);
  for (std::size_t c = 0; c < problem.realCommunications; ++c) {
    const int a = problem.src[c], b = problem.dst[c];
    if (a != b) edges.push_back({{std::min(a, b), std::max(a, b)}, problem.volume[c]});
  }
  std::sort(edges.begin(), edges.end());
  // CSR of summed pair weights, both ways.
  std::vector<int> start(n + 1, 0), partner;
  std::vector<std::uint64_t> weight;
  std::vector<std::pair<std::pair<int, int>, std::uint64_t>> pairs;
  for (const auto& e : edges) {
    if (!pairs.empty() && pairs.back().first == e.first) {
      pairs.back().second += e.second;
    } else {
      pairs.push_back(e);
    }
  }
  for (const auto& p : pairs) {
    ++start[p.first.first + 1];
    ++start[p.first.second + 1];
  }
  for (int v = 0; v < n; ++v) start[v + 1] += start[v];
  partner.resize(start[n]);
  weight.resize(start[n]);
  std::vector<int> fill(start.begin(), start.end() - 1);
  for (const auto& p : pairs) {
    const auto [a, b] = p.first;
    partner[fill[a]] = b;
    weight[fill[a]++] = p.second;
    partner[fill[b]] = a;
    weight[fill[b]++] = p.second;
  }
  std::vector<int> order(n);
  for (int v = 0; v < n; ++v) order[v] = v;
  Rng rng(seed);
  for (int i = n - 1; i > 0; --i) std::swap(order[i], order[rng.below(i + 1)]);
  std::vector<int> mate(n, -1);
  for (int v : order) {
    if (mate[v] >= 0) continue;
    int best = -1;
    std::uint64_t heaviest = 0;
    for (int k = start[v]; k < start[v + 1]; ++k) {
      const int u = partner[k];
      if (mate[u] >= 0) continue;
      if (best < 0 || weight[k] > heaviest || (weight[k] == heaviest && u < best)) {
        best = u;
        heaviest = weight[k];
      }
    }
    if (best >= 0) {
      mate[v] = best;
      mate[best] = v;
    }
  }
  return mate;
}

}  // namespace

std::optional<CoarseLevel> coarsen(const Network& router, const Problem& problem,
                                   std::uint64_t seed) {
  const std::vector<int>& shape = router.shape();
  int axis = -1;
  for (int a = 0; a < router.axisCount(); ++a)
    if (shape[a] % 2 == 0 && (axis < 0 || shape[a] > shape[axis])) axis = a;
  const int n = problem.tasks, coarseNodes = router.nodeCount() / 2;
  if (axis < 0 || n > router.nodeCount()) return std::nullopt;

  // Pairs by heavy edges; then, while the coarse tasks outnumber the coarse nodes, unmatched
  // tasks in pairs (they exchange nothing: only room matters).
  std::vector<int> mate = heavyEdgeMatching(problem, seed);
  int coarseTasks = n;
  for (int v = 0; v < n; ++v) coarseTasks -= mate[v] > v;
  int single = -1;
  for (int v = 0; v < n && coarseTasks > coarseNodes; ++v) {
    if (mate[v] >= 0) continue;
    if (single < 0) {
      single = v;
      continue;
    }
    mate[v] = single;
    mate[single] = v;
    single = -1;
    --coarseTasks;
  }
  if (coarseTasks > coarseNodes) return std::nullopt;

  CoarseLevel level;
  level.axis = axis;
  std::vector<int> taskOf(n, -1);
  for (int v = 0; v < n; ++v) {
    if (taskOf[v] >= 0) continue;
    taskOf[v] = static_cast<int>(level.members.size());
    if (mate[v] >= 0) taskOf[mate[v]] = taskOf[v];
    level.members.push_back({v, mate[v]});
  }

  level.machine.name = "coarse level";
  for (int a = 0; a < router.axisCount(); ++a) {
    std::string axisName = "A";  // (not "A" + ...: g++ 12 warns falsely, -Wrestrict)
    axisName += std::to_string(a);
    level.machine.axes.push_back(
        {axisName, a == axis ? shape[a] / 2 : shape[a], static_cast<bool>(router.wraps()[a])});
  }
  level.machine.routingOrder = router.routingOrder();
  level.box = makeBox(level.machine, level.machine.shapeText());
  level.router = std::make_unique<Network>(level.machine, level.box);

  // The trace's CCSs without the messages inside a coarse task (phase overlap is left to the
  // finest level, which searches the job's own problem).
  CcsSet sets;
  sets.tasks = static_cast<int>(level.members.size());
  sets.sets.resize(static_cast<std::size_t>(problem.realCcsCount));
  sets.repeats.assign(problem.repeats.begin(), problem.repeats.begin() + problem.realCcsCount);
  for (std::size_t c = 0; c < problem.realCommunications; ++c) {
    const int a = taskOf[problem.src[c]], b = taskOf[problem.dst[c]];
    if (a == b) continue;
    Communication m;
    m.src = a;
    m.dst = b;
    m.bytes = problem.bytes[c];
    m.level = problem.ccs[c];
    sets.sets[problem.ccs[c]].push_back(m);
  }
  // Sets left empty are dropped (with their counts); makeProblem merges those that became equal.
  std::size_t kept = 0;
  for (std::size_t t = 0; t < sets.sets.size(); ++t) {
    if (sets.sets[t].empty()) continue;
    if (kept != t) {  // a vector moved onto itself would be left empty
      sets.sets[kept] = std::move(sets.sets[t]);
      sets.repeats[kept] = sets.repeats[t];
    }
    ++kept;
  }
  sets.sets.resize(kept);
  sets.repeats.resize(kept);
  Model model = problem.model;
  model.overlap = Overlap::None;
  model.ranksPerNode = 1;
  level.problem = makeProblem(sets, model);
  return level;
}

Mapping restrictMapping(const CoarseLevel& level, const Network& fine, const Mapping& mapping) {
  const int coarseNodes = level.box.nodeCount;
  std::vector<bool> used(coarseNodes, false);
  Mapping coarse(std::vector<int>(level.members.size(), -1));
  std::vector<int> waiting;
  for (std::size_t t = 0; t < level.members.size(); ++t) {
    std::vector<int> c = fine.coordinatesOf(mapping.nodeOfTask[level.members[t][0]]);
    c[level.axis] /= 2;
    const int node = level.box.nodeAt(c);
    if (used[node]) {
      waiting.push_back(static_cast<int>(t));
      continue;
    }
    used[node] = true;
    coarse.nodeOfTask[t] = node;
  }
  int free = 0;
  for (int t : waiting) {
    while (used[free]) ++free;
    used[free] = true;
    coarse.nodeOfTask[t] = free;
  }
  return coarse;
}

Mapping prolongMapping(const CoarseLevel& level, const Network& fine, int fineTasks,
                       const Mapping& coarse) {
  Mapping m(std::vector<int>(fineTasks, -1));
  for (std::size_t t = 0; t < level.members.size(); ++t) {
    std::vector<int> c = level.router->coordinatesOf(coarse.nodeOfTask[t]);
    c[level.axis] *= 2;
    m.nodeOfTask[level.members[t][0]] = fine.nodeAt(c);
    ++c[level.axis];
    if (level.members[t][1] >= 0) m.nodeOfTask[level.members[t][1]] = fine.nodeAt(c);
  }
  return m;
}

}  // namespace tac3map
