// The graph start (--init graph): Scotch's static mapping (dual recursive bipartitioning of
// the communication graph and of the target torus) through libscotch's library API. The
// graph's vertices are the ranks, an edge joins two ranks that exchange messages, weighted by
// their bytes (both ways, over the whole trace); the target is Scotch's torus (or mesh, where
// the torus's axes do not close) of targetTorusOf's extents, or where the network is no grid
// (a graph machine) the graph targetTorusOf gives (buildGraphTarget). Scotch balances ranks over
// nodes within a tolerance; ranks above a node's K slots then move to the nearest node with a
// free slot, so the result is always valid. Scotch maps with four strategies (its default,
// its quality flag, and greedy graph growing with and without Fiduccia-Mattheyses refinement:
// bench/simgrid/peers.sh's four) and the start is the map with the fewest byte-hops, the
// first on a tie; above kAllStrategiesUpTo ranks only the default runs (time).
#include <scotch/scotch.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

#include "tac3map/initial/initial_mapper.hpp"
#include "tac3map/network/target_torus.hpp"

namespace tac3map {
namespace {

// Scotch's torus and mesh targets have at most this many axes (SCOTCH_archTorusX).
constexpr std::size_t kScotchMaxAxes = 5;
// Edge weights are scaled to 1..kMaxEdgeWeight, and lower if the graph has many edges, so
// that Scotch's 32-bit sums of edge weights cannot overflow.
constexpr std::uint64_t kMaxEdgeWeight = 1 << 16;
constexpr std::uint64_t kEdgeWeightSum = std::uint64_t{1} << 30;
constexpr int kAllStrategiesUpTo = 20000;

// Scotch's strategies: empty = the default; "quality" = the default built with
// SCOTCH_STRATQUALITY; else a mapping strategy string.
const char* const kStrategies[] = {
    "", "quality", "r{job=t,map=t,poli=S,sep=h{pass=10}f{move=120,pass=-1,bal=0.01,type=b}}",
    "r{job=t,map=t,poli=S,sep=h{pass=10}}"};

class GraphMapper : public InitialMapper {
 public:
  const char* name() const override { return "graph"; }
  const char* description() const override { return "Scotch's static mapping"; }
  std::string whyNot(const StartContext& c) const override {
    if (!c.allocation.isWholeBox()) return "the job is a node table, not a box";
    if (c.problem.realCommunications == 0) return "the trace has no messages between ranks";
    if (targetTorusOf(c.machine, c.box).extents.size() > kScotchMaxAxes)
      return "Scotch's torus targets have at most 5 axes";
    return {};
  }
  Mapping build(const StartContext& c) const override;
};

Mapping placeParts(const StartContext& c, const TargetTorus& torus,
                   const std::vector<SCOTCH_Num>& part);

// A network that is no grid as Scotch's target: its whole graph (switches too, one edge per
// linked pair, each a hop) with the cells' vertices as terminals, through SCOTCH_archBuild0 (a
// decomposition-defined target). Scotch's parts are then graph vertex ids, turned into cells.
bool buildGraphTarget(SCOTCH_Arch& arch, const TargetTorus& target) {
  std::vector<SCOTCH_Num> start{0}, ends;
  for (const std::vector<int>& list : target.adjacent) {
    ends.insert(ends.end(), list.begin(), list.end());
    start.push_back(static_cast<SCOTCH_Num>(ends.size()));
  }
  const std::vector<SCOTCH_Num> terminals(target.vertexOfCell.begin(), target.vertexOfCell.end());
  SCOTCH_Graph graph;
  SCOTCH_Strat strat;
  SCOTCH_graphInit(&graph);
  SCOTCH_stratInit(&strat);
  const bool ok =
      SCOTCH_graphBuild(&graph, 0, static_cast<SCOTCH_Num>(target.adjacent.size()), start.data(),
                        start.data() + 1, nullptr, nullptr, static_cast<SCOTCH_Num>(ends.size()),
                        ends.data(), nullptr) == 0 &&
      SCOTCH_archBuild0(&arch, &graph, static_cast<SCOTCH_Num>(terminals.size()), terminals.data(),
                        &strat) == 0;
  SCOTCH_stratExit(&strat);
  SCOTCH_graphExit(&graph);
  return ok;
}

// libscotch's objects for one mapping, freed in reverse order. The context makes the run
// reproducible: one thread, Scotch's deterministic option, a fixed random seed (without it,
// two calls in one process gave two different maps).
struct Scotch {
  SCOTCH_Context context;
  SCOTCH_Graph graph, bound;
  SCOTCH_Arch arch;
  SCOTCH_Strat strat;
  Scotch() {
    SCOTCH_contextInit(&context);
    SCOTCH_contextOptionSetNum(&context, SCOTCH_OPTIONNUMDETERMINISTIC, 1);
    SCOTCH_contextRandomSeed(&context, 1);
    SCOTCH_contextThreadSpawn(&context, 1, nullptr);
    SCOTCH_graphInit(&graph);
    SCOTCH_graphInit(&bound);
    SCOTCH_archInit(&arch);
    SCOTCH_stratInit(&strat);
  }
  ~Scotch() {
    SCOTCH_stratExit(&strat);
    SCOTCH_archExit(&arch);
    SCOTCH_graphExit(&bound);
    SCOTCH_graphExit(&graph);
    SCOTCH_contextExit(&context);
  }
};

Mapping GraphMapper::build(const StartContext& c) const {
  const int tasks = c.problem.tasks;
  c.allocation.checkFits(tasks, "graph start");
  // Undirected edges with summed bytes, then CSR with weights scaled to 1..kMaxEdgeWeight.
  std::map<std::pair<int, int>, std::uint64_t> bytes;
  for (std::size_t m = 0; m < c.problem.realCommunications; ++m) {
    const int a = c.problem.src[m], b = c.problem.dst[m];
    if (a != b) bytes[{std::min(a, b), std::max(a, b)}] += c.problem.volume[m];
  }
  std::uint64_t heaviest = 1;
  for (const auto& [pair, b] : bytes) heaviest = std::max(heaviest, b);
  const std::uint64_t largestWeight = std::clamp<std::uint64_t>(
      kEdgeWeightSum / (2 * std::max<std::size_t>(1, bytes.size())), 2, kMaxEdgeWeight);
  std::vector<std::vector<std::pair<SCOTCH_Num, SCOTCH_Num>>> adjacent(tasks);
  for (const auto& [pair, b] : bytes) {
    const auto w = static_cast<SCOTCH_Num>(
        1 + static_cast<std::uint64_t>(static_cast<double>(b) / static_cast<double>(heaviest) *
                                       static_cast<double>(largestWeight - 1)));
    adjacent[pair.first].push_back({pair.second, w});
    adjacent[pair.second].push_back({pair.first, w});
  }
  std::vector<SCOTCH_Num> start(tasks + 1, 0), ends, weights;
  for (int v = 0; v < tasks; ++v) {
    for (const auto& [u, w] : adjacent[v]) {
      ends.push_back(u);
      weights.push_back(w);
    }
    start[v + 1] = static_cast<SCOTCH_Num>(ends.size());
  }
  // A grid is Scotch's torus or mesh; a network that is no grid, its graph (vertices back to
  // cells below).
  const TargetTorus torus = targetTorusOf(c.machine, c.box);
  const bool onGraph = !torus.isGrid();
  std::vector<SCOTCH_Num> cellOfVertex(torus.adjacent.size(), -1);
  for (std::size_t k = 0; k < torus.vertexOfCell.size(); ++k)
    cellOfVertex[torus.vertexOfCell[k]] = static_cast<SCOTCH_Num>(k);
  std::vector<SCOTCH_Num> extents(torus.extents.begin(), torus.extents.end());
  const bool closed =
      std::all_of(torus.closed.begin(), torus.closed.end(), [](bool b) { return b; });
  const int strategies = tasks <= kAllStrategiesUpTo ? 4 : 1;
  Mapping best;
  std::uint64_t bestByteHops = 0;
  for (int k = 0; k < strategies; ++k) {
    Scotch s;
    const std::string strategy = kStrategies[k];
    std::vector<SCOTCH_Num> part(tasks, 0);
    if (SCOTCH_graphBuild(&s.graph, 0, tasks, start.data(), start.data() + 1, nullptr, nullptr,
                          static_cast<SCOTCH_Num>(ends.size()), ends.data(), weights.data()) != 0 ||
        SCOTCH_contextBindGraph(&s.context, &s.graph, &s.bound) != 0 ||
        (onGraph  ? !buildGraphTarget(s.arch, torus)
         : closed ? SCOTCH_archTorusX(&s.arch, static_cast<SCOTCH_Num>(extents.size()),
                                      extents.data()) != 0
                  : SCOTCH_archMeshX(&s.arch, static_cast<SCOTCH_Num>(extents.size()),
                                     extents.data()) != 0) ||
        (strategy == "quality"
             ? SCOTCH_stratGraphMapBuild(&s.strat, SCOTCH_STRATQUALITY,
                                         static_cast<SCOTCH_Num>(torus.node.size()), 0.01)
         : !strategy.empty() ? SCOTCH_stratGraphMap(&s.strat, strategy.c_str())
                             : 0) != 0 ||
        SCOTCH_graphMap(&s.bound, &s.arch, &s.strat, part.data()) != 0)
      throw std::runtime_error("libscotch failed to map the communication graph");
    if (onGraph)
      for (SCOTCH_Num& p : part) {
        p = p >= 0 && static_cast<std::size_t>(p) < cellOfVertex.size() ? cellOfVertex[p] : -1;
        if (p < 0) throw std::runtime_error("libscotch mapped a rank onto a relay-only node");
      }
    Mapping m = placeParts(c, torus, part);
    std::uint64_t byteHops = 0;
    for (std::size_t i = 0; i < c.problem.realCommunications; ++i)
      byteHops += c.problem.volume[i] *
                  static_cast<std::uint64_t>(c.router.hops(m.nodeOfTask[c.problem.src[i]],
                                                           m.nodeOfTask[c.problem.dst[i]]));
    if (k == 0 || byteHops < bestByteHops) {
      best = std::move(m);
      bestByteHops = byteHops;
    }
  }
  return best;
}

// Scotch's parts as a valid mapping on the allocation's slots.
Mapping placeParts(const StartContext& c, const TargetTorus& torus,
                   const std::vector<SCOTCH_Num>& part) {
  const int tasks = c.problem.tasks, slots = c.allocation.slotsPerNode();
  // Terminal t of Scotch's torus is cell t (first axis fastest). Ranks beyond a node's K slots
  // go, in rank order, to the free slot nearest (by hops) to the node Scotch chose.
  const int cells = static_cast<int>(torus.node.size());
  std::vector<int> used(cells, 0);
  Mapping m(std::vector<int>(tasks, -1));
  if (slots > 1) m.slotOfTask.assign(tasks, 0);
  std::vector<int> overflow;
  for (int v = 0; v < tasks; ++v) {
    const int cell = static_cast<int>(part[v]);
    if (used[cell] == slots) {
      overflow.push_back(v);
      continue;
    }
    m.nodeOfTask[v] = torus.node[cell];
    if (slots > 1) m.slotOfTask[v] = used[cell];
    ++used[cell];
  }
  for (int v : overflow) {
    const int wanted = torus.node[part[v]];
    int best = -1;
    for (int cell = 0; cell < cells; ++cell)
      if (used[cell] < slots && (best < 0 || c.router.hops(wanted, torus.node[cell]) <
                                                 c.router.hops(wanted, torus.node[best])))
        best = cell;
    m.nodeOfTask[v] = torus.node[best];
    if (slots > 1) m.slotOfTask[v] = used[best];
    ++used[best];
  }
  return m;
}

}  // namespace

std::unique_ptr<InitialMapper> makeGraphMapper() {
  return std::make_unique<GraphMapper>();
}

}  // namespace tac3map
