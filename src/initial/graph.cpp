// The graph start (--init graph): Scotch's static mapping (dual recursive bipartitioning of
// the communication graph and of the target) through libscotch's library API. The graph's
// vertices are the ranks, an edge joins two ranks that exchange messages, weighted by their
// bytes (both ways, over the whole trace). Two targets: the torus whose hops between the box's
// nodes are the network's (distanceTorusOf, as Scotch's sub target of it), and the torus the
// starts share, targetTorusOf's (Tofu's logical 3D torus: three rings where the network has six
// axes, so Scotch's distances are not the network's) or, where the network is no grid (a graph
// machine), its graph (buildGraphTarget). Neither is always better: on CG-64 on FX10 the logical
// torus gives 4.6% fewer byte-hops, on a 20,000-rank partitioned mesh on Fugaku the exact one 5%
// fewer (docs/initial-mappers.md). Scotch balances ranks over nodes within a tolerance; ranks
// above a node's K slots then move to the nearest node with a free slot, so the result is always
// valid. Scotch maps with four strategies (its default, its quality flag, and greedy graph
// growing with and without Fiduccia-Mattheyses refinement: bench/simgrid/peers.sh's four) on
// each target and the start is the map with the fewest byte-hops, the first on a tie; above
// kAllStrategiesUpTo ranks only the default strategy on the first target runs (time).
#include <scotch/scotch.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <optional>
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

Mapping placeParts(const StartContext& c, const std::vector<int>& nodeOfPart,
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
  SCOTCH_Arch whole, arch;  // arch: whole, or a sub target of it
  SCOTCH_Strat strat;
  Scotch() {
    SCOTCH_contextInit(&context);
    SCOTCH_contextOptionSetNum(&context, SCOTCH_OPTIONNUMDETERMINISTIC, 1);
    SCOTCH_contextRandomSeed(&context, 1);
    SCOTCH_contextThreadSpawn(&context, 1, nullptr);
    SCOTCH_graphInit(&graph);
    SCOTCH_graphInit(&bound);
    SCOTCH_archInit(&whole);
    SCOTCH_archInit(&arch);
    SCOTCH_stratInit(&strat);
  }
  ~Scotch() {
    SCOTCH_stratExit(&strat);
    SCOTCH_archExit(&arch);
    SCOTCH_archExit(&whole);
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
  // The targets, each tried with every strategy: where the network has one, a torus with its
  // exact hops (target_torus.hpp's DistanceTorus, as Scotch's sub target of it); and the torus
  // the starts share (Tofu's logical 3D torus, whose hops are not the network's) or, on a
  // network that is no grid, its graph (vertices back to cells below). Above
  // kAllStrategiesUpTo ranks only the first target and strategy run (time).
  const TargetTorus torus = targetTorusOf(c.machine, c.box);
  const std::optional<DistanceTorus> exact =
      distanceTorusOf(c.machine, c.box, static_cast<int>(kScotchMaxAxes));
  const bool onGraph = !torus.isGrid();
  std::vector<SCOTCH_Num> cellOfVertex(torus.adjacent.size(), -1);
  for (std::size_t k = 0; k < torus.vertexOfCell.size(); ++k)
    cellOfVertex[torus.vertexOfCell[k]] = static_cast<SCOTCH_Num>(k);
  std::vector<SCOTCH_Num> extents(torus.extents.begin(), torus.extents.end());
  const bool closed =
      std::all_of(torus.closed.begin(), torus.closed.end(), [](bool b) { return b; });
  std::vector<int> boxNodes(c.box.nodeCount);
  std::iota(boxNodes.begin(), boxNodes.end(), 0);
  const bool all = tasks <= kAllStrategiesUpTo;
  const int strategies = all ? 4 : 1;
  const int targets = exact ? (all ? 2 : 1) : 1;
  Mapping best;
  std::uint64_t bestByteHops = 0;
  bool first = true;
  for (int t = 0; t < targets; ++t)
    for (int k = 0; k < strategies; ++k) {
      const bool onExact = exact && t == 0;
      Scotch s;
      const std::string strategy = kStrategies[k];
      std::vector<SCOTCH_Num> part(tasks, 0);
      const auto buildTarget = [&] {
        if (onExact) {
          const std::vector<SCOTCH_Num> whole(exact->extents.begin(), exact->extents.end());
          const std::vector<SCOTCH_Num> cells(exact->cellOfNode.begin(), exact->cellOfNode.end());
          return SCOTCH_archTorusX(&s.whole, static_cast<SCOTCH_Num>(whole.size()), whole.data()) ==
                     0 &&
                 SCOTCH_archSub(&s.arch, &s.whole, static_cast<SCOTCH_Num>(cells.size()),
                                cells.data()) == 0;
        }
        if (onGraph) return buildGraphTarget(s.arch, torus);
        return (closed ? SCOTCH_archTorusX(&s.arch, static_cast<SCOTCH_Num>(extents.size()),
                                           extents.data())
                       : SCOTCH_archMeshX(&s.arch, static_cast<SCOTCH_Num>(extents.size()),
                                          extents.data())) == 0;
      };
      const SCOTCH_Num terminals = onExact ? static_cast<SCOTCH_Num>(c.box.nodeCount)
                                           : static_cast<SCOTCH_Num>(torus.node.size());
      if (SCOTCH_graphBuild(&s.graph, 0, tasks, start.data(), start.data() + 1, nullptr, nullptr,
                            static_cast<SCOTCH_Num>(ends.size()), ends.data(),
                            weights.data()) != 0 ||
          SCOTCH_contextBindGraph(&s.context, &s.graph, &s.bound) != 0 || !buildTarget() ||
          (strategy == "quality"
               ? SCOTCH_stratGraphMapBuild(&s.strat, SCOTCH_STRATQUALITY, terminals, 0.01)
           : !strategy.empty() ? SCOTCH_stratGraphMap(&s.strat, strategy.c_str())
                               : 0) != 0 ||
          SCOTCH_graphMap(&s.bound, &s.arch, &s.strat, part.data()) != 0)
        throw std::runtime_error("libscotch failed to map the communication graph");
      if (onGraph && !onExact)
        for (SCOTCH_Num& p : part) {
          p = p >= 0 && static_cast<std::size_t>(p) < cellOfVertex.size() ? cellOfVertex[p] : -1;
          if (p < 0) throw std::runtime_error("libscotch mapped a rank onto a relay-only node");
        }
      // The sub target's terminals are the box's nodes in order.
      Mapping m = placeParts(c, onExact ? boxNodes : torus.node, part);
      std::uint64_t byteHops = 0;
      for (std::size_t i = 0; i < c.problem.realCommunications; ++i)
        byteHops += c.problem.volume[i] *
                    static_cast<std::uint64_t>(c.router.hops(m.nodeOfTask[c.problem.src[i]],
                                                             m.nodeOfTask[c.problem.dst[i]]));
      if (first || byteHops < bestByteHops) {
        best = std::move(m);
        bestByteHops = byteHops;
        first = false;
      }
    }
  return best;
}

// Scotch's parts as a valid mapping on the allocation's slots.
Mapping placeParts(const StartContext& c, const std::vector<int>& nodeOfPart,
                   const std::vector<SCOTCH_Num>& part) {
  const int tasks = c.problem.tasks, slots = c.allocation.slotsPerNode();
  // Terminal t of Scotch's target is box node nodeOfPart[t]. Ranks beyond a node's K slots
  // go, in rank order, to the free slot nearest (by hops) to the node Scotch chose.
  const int cells = static_cast<int>(nodeOfPart.size());
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
    m.nodeOfTask[v] = nodeOfPart[cell];
    if (slots > 1) m.slotOfTask[v] = used[cell];
    ++used[cell];
  }
  for (int v : overflow) {
    const int wanted = nodeOfPart[part[v]];
    int best = -1;
    for (int cell = 0; cell < cells; ++cell)
      if (used[cell] < slots && (best < 0 || c.router.hops(wanted, nodeOfPart[cell]) <
                                                 c.router.hops(wanted, nodeOfPart[best])))
        best = cell;
    m.nodeOfTask[v] = nodeOfPart[best];
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
