// The layer-fold start (--init layer-fold, issue 24): K > 1 ranks per node, ranks in layers.
// Layer l holds ranks l*M .. l*M + M - 1 (M = the box's nodes), or every L-th rank from l, in
// slot l of every node, one rank per node. Each layer is laid out by its own order of the
// box's axes (its places enumerate them, first fastest), each axis possibly reversed or turned
// round its ring; the layouts are searched by tac3, and the flow model picks among the best.
//
// Why: on a full node, the ranks of a node that send in one step share its links. Blocks of
// K cells (node-fold, block placement) keep some partners in the node but send the others
// together, K messages to one neighbour over one link. A layer whose ranks talk among
// themselves (a CG row, a slab) laid out once per slot, each slot turned another way, sends
// the node's K messages of a step along K different links. On CG-64 with K = 4 on FX10
// 1x2x2x2x1x2 (a 4-cube of nodes), the three row steps then load every link once:
// 1.26 ms in SimGrid, where the annealing's best stayed at 1.53 ms and the best of block,
// round-robin and Scotch runs 1.97 ms; with K = 2 on 2x2x2x2x1x2, 0.843 ms, one rank per
// node's bound (docs/validation.md).
#include <algorithm>
#include <numeric>
#include <optional>

#include "tac3map/base/random.hpp"
#include "tac3map/initial/initial_mapper.hpp"
#include "tac3map/model/flow.hpp"
#include "tac3map/model/objective.hpp"
#include "tac3map/search/objectives.hpp"

namespace tac3map {
namespace {

// The layouts are searched by scoring whole mappings: at most this many communications
// scored in all (CG-64: 256 communications and 64 ranks, 13,107 scorings, about 0.9 s; four
// times as many found no better layouts on the peers bench's boxes).
constexpr std::uint64_t kLayerFoldWork = std::uint64_t{1} << 22;
// Independent climbs (two from id order, one per kind of layer; the others from random
// layouts), and the fewest scorings worth a climb.
constexpr int kLayerFoldClimbs = 8;
constexpr std::uint64_t kLayerFoldMinSteps = 16;
// The climbs' ends of the lowest tac3 are told apart by the flow model up to this many
// simulated messages (CG-64: 256).
constexpr std::size_t kLayerFoldFlowMessages = std::size_t{1} << 16;
// A start does not depend on --seed (its candidates compete before the search draws).
constexpr std::uint64_t kLayerFoldSeed = 0x1a7e2f01d;

// The box as the layouts see it: its axes of more than one node, except that a ring of four
// nodes is two axes of two (Gray code: positions 0, 1, 2, 3 are 00, 01, 11, 10, so each step
// round the ring changes one of them). A ring of four is a square; as two axes of two a
// layout can put a binary step of the ranks on either side of it (FX10's X ring beside A and
// C), which an order of whole axes cannot.
struct View {
  std::vector<int> shape;
  std::vector<bool> wrap;
  std::vector<int> node;  // box node of each view id (first axis fastest)

  int axisCount() const { return static_cast<int>(shape.size()); }
  int id(const std::vector<int>& c) const {
    int v = 0;
    for (int a = axisCount() - 1; a >= 0; --a) v = v * shape[a] + c[a];
    return v;
  }
};

View viewOf(const Box& box) {
  // Where each view axis comes from: a box axis, and -1 for its coordinate or 0, 1 for that
  // bit of the coordinate's Gray code (a ring of four).
  struct Source {
    int axis, bit;
  };
  View v;
  std::vector<Source> sources;
  for (int a = 0; a < box.axisCount(); ++a) {
    if (box.wrap[a] && box.shape[a] == 4) {
      v.shape.insert(v.shape.end(), {2, 2});
      v.wrap.insert(v.wrap.end(), {false, false});
      sources.insert(sources.end(), {{a, 0}, {a, 1}});
    } else if (box.shape[a] > 1) {
      v.shape.push_back(box.shape[a]);
      v.wrap.push_back(box.wrap[a]);
      sources.push_back({a, -1});
    }
  }
  v.node.resize(static_cast<std::size_t>(box.nodeCount));
  for (int n = 0; n < box.nodeCount; ++n) {
    const std::vector<int> c = box.coordinatesOf(n);
    std::vector<int> w(sources.size());
    for (std::size_t i = 0; i < w.size(); ++i) {
      const int x = c[sources[i].axis];
      w[i] = sources[i].bit < 0 ? x : ((x ^ (x >> 1)) >> sources[i].bit) & 1;
    }
    v.node[v.id(w)] = n;
  }
  return v;
}

// How a layer is laid out: its places enumerate the view's axes in `order` (first fastest),
// then axis a is reversed when flip[a] and turned by shift[a] places round a ring (torus axes
// of more than two nodes). With every axis of one size these are the box's symmetries.
struct Layout {
  std::vector<int> order;
  std::vector<bool> flip;
  std::vector<int> shift;
};

// At most this many orders of the axes are listed and drawn from; a box with more (more than
// eight axes, counting a ring of four as two) draws each order afresh instead.
constexpr std::uint64_t kMaxListedOrders = 40320;

void listOrders(int n, std::vector<int>& order, std::vector<bool>& used,
                std::vector<std::vector<int>>& out) {
  if (static_cast<int>(order.size()) == n) {
    out.push_back(order);
    return;
  }
  for (int t = 0; t < n; ++t)
    if (!used[t]) {
      used[t] = true;
      order.push_back(t);
      listOrders(n, order, used, out);
      order.pop_back();
      used[t] = false;
    }
}

// Every order of the view's axes, lexicographic (the identity first); none when there are
// more than kMaxListedOrders.
std::vector<std::vector<int>> axisOrders(const View& view) {
  std::uint64_t count = 1;
  for (int a = 2; a <= view.axisCount(); ++a)
    if ((count *= static_cast<std::uint64_t>(a)) > kMaxListedOrders) return {};
  std::vector<std::vector<int>> out;
  std::vector<int> order;
  std::vector<bool> used(static_cast<std::size_t>(view.axisCount()));
  listOrders(view.axisCount(), order, used, out);
  return out;
}

// An order drawn afresh (Fisher-Yates).
std::vector<int> drawOrder(const View& view, Rng& rng) {
  std::vector<int> order(static_cast<std::size_t>(view.axisCount()));
  std::iota(order.begin(), order.end(), 0);
  for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
  return order;
}

Layout randomLayout(const View& view, const std::vector<std::vector<int>>& orders, Rng& rng) {
  const auto axes = static_cast<std::size_t>(view.axisCount());
  Layout s{orders.empty() ? drawOrder(view, rng) : orders[rng.below(orders.size())],
           std::vector<bool>(axes), std::vector<int>(axes)};
  for (std::size_t a = 0; a < axes; ++a) {
    s.flip[a] = rng.below(2) == 1;  // every view axis has two nodes or more
    if (view.wrap[a] && view.shape[a] > 2)
      s.shift[a] = static_cast<int>(rng.below(static_cast<std::uint64_t>(view.shape[a])));
  }
  return s;
}

Layout idOrderLayout(const View& view) {
  const auto axes = static_cast<std::size_t>(view.axisCount());
  Layout s{std::vector<int>(axes), std::vector<bool>(axes), std::vector<int>(axes)};
  std::iota(s.order.begin(), s.order.end(), 0);
  return s;
}

// The box node of place `place` of a layer laid out by `s`: the place's digits in the mixed
// radix of the view's axes taken in s.order (first fastest) are its coordinates on those axes,
// each reversed and turned as `s` says.
int image(const View& view, const Layout& s, int place, std::vector<int>& scratch) {
  for (int axis : s.order) {
    const int size = view.shape[axis];
    int c = place % size;
    place /= size;
    if (s.flip[axis]) c = size - 1 - c;
    scratch[axis] = (c + s.shift[axis]) % size;
  }
  return view.node[view.id(scratch)];
}

// Which ranks make a layer: M consecutive ranks (a CG row, a slab), or every L-th rank of L
// layers (ranks a launcher would put on one node, split over nodes).
enum class Layers { Blocks, Strided };

// Rank r: its layer and its place in the layer; the node of that place in the layer's
// layout; the slot is the layer.
Mapping layOut(const StartContext& c, const View& view, Layers kind,
               const std::vector<Layout>& layers) {
  const int m = c.box.nodeCount, count = static_cast<int>(layers.size());
  Mapping out(std::vector<int>(c.problem.tasks), std::vector<int>(c.problem.tasks));
  std::vector<int> scratch(static_cast<std::size_t>(view.axisCount()));
  for (int r = 0; r < c.problem.tasks; ++r) {
    const int layer = kind == Layers::Blocks ? r / m : r % count;
    const int place = kind == Layers::Blocks ? r % m : r / count;
    out.nodeOfTask[r] = image(view, layers[layer], place, scratch);
    out.slotOfTask[r] = layer;
  }
  return out;
}

struct Final {
  Mapping mapping;
  ExactScores scores;
};

// Of the climbs' ends, those of the lowest tac3; of them, the one the flow model finds fastest
// where it simulates the trace within kLayerFoldFlowMessages (the maps of one tac3 run apart:
// which step's messages meet which on a link), else the best by tac3's ties (shared links,
// byte-hops). The first on a tie.
Mapping fastestOfBest(const StartContext& c, std::vector<Final>& finals) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < finals.size(); ++i)
    if (isBetter(finals[i].scores, finals[best].scores, ObjectiveKind::Tac3)) best = i;
  const auto tac3 = objectiveValue(finals[best].scores, ObjectiveKind::Tac3);
  std::optional<double> fastest;
  std::size_t chosen = best;
  for (std::size_t i = 0; i < finals.size(); ++i) {
    if (objectiveValue(finals[i].scores, ObjectiveKind::Tac3) != tac3) continue;
    const std::optional<double> f =
        flowSeconds(c.problem, c.router, finals[i].mapping, kLayerFoldFlowMessages);
    if (!f) return std::move(finals[best].mapping);
    if (!fastest || *f < *fastest) {
      fastest = f;
      chosen = i;
    }
  }
  return std::move(finals[chosen].mapping);
}

class LayerFoldMapper : public InitialMapper {
 public:
  const char* name() const override { return "layer-fold"; }
  const char* description() const override {
    return "K > 1: a layer of ranks per slot, one rank per node, each laid out along its own "
           "order of the box's axes";
  }
  std::string whyNot(const StartContext& c) const override {
    if (c.allocation.slotsPerNode() < 2) return "one rank per node: nothing to layer";
    if (std::string why = c.machine.whyNotMeshOrTorus(); !why.empty()) return why;
    if (!c.allocation.isWholeBox()) return "the job is a node table, not a box";
    if (c.problem.tasks <= c.box.nodeCount) return "the ranks fit one per node: one layer";
    return {};
  }
  Mapping build(const StartContext& c) const override {
    const int layers = (c.problem.tasks + c.box.nodeCount - 1) / c.box.nodeCount;
    const View view = viewOf(c.box);
    const std::vector<std::vector<int>> orders = axisOrders(view);
    const std::uint64_t cost =
        static_cast<std::uint64_t>(c.problem.realCommunications) + c.problem.tasks;
    // A large job gets fewer climbs, down to the two from the identity (then possibly not a
    // single step: the start costs two scorings, never more than the budget's worth).
    const std::uint64_t scorings = kLayerFoldWork / cost;
    const int climbs = static_cast<int>(std::clamp<std::uint64_t>(
        scorings / kLayerFoldMinSteps, 2, static_cast<std::uint64_t>(kLayerFoldClimbs)));
    const std::uint64_t steps = scorings / static_cast<std::uint64_t>(climbs);
    Rng rng(kLayerFoldSeed);
    std::vector<Final> finals;
    for (int climb = 0; climb < climbs; ++climb) {
      const Layers kind = climb % 2 == 0 ? Layers::Blocks : Layers::Strided;
      std::vector<Layout> s(static_cast<std::size_t>(layers), idOrderLayout(view));
      if (climb > 1)
        for (Layout& layer : s) layer = randomLayout(view, orders, rng);
      Mapping m = layOut(c, view, kind, s);
      ExactScores scores = evaluateExact(c.problem, c.router, m);
      for (std::uint64_t step = 0; step < steps; ++step) {
        const auto l = static_cast<std::size_t>(rng.below(static_cast<std::uint64_t>(layers)));
        Layout old = std::move(s[l]);
        s[l] = randomLayout(view, orders, rng);
        Mapping trial = layOut(c, view, kind, s);
        const ExactScores t = evaluateExact(c.problem, c.router, trial);
        if (isBetter(scores, t, ObjectiveKind::Tac3)) {
          s[l] = std::move(old);  // worse: undone; equal or better is taken (plateaus)
          continue;
        }
        m = std::move(trial);
        scores = t;
      }
      finals.push_back({std::move(m), scores});
    }
    return fastestOfBest(c, finals);
  }
};

}  // namespace

std::unique_ptr<InitialMapper> makeLayerFoldMapper() {
  return std::make_unique<LayerFoldMapper>();
}

}  // namespace tac3map
