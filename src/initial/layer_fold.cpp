// The layer-fold start (--init layer-fold, issue 24): K > 1 ranks per node, ranks in layers.
// Layer l holds ranks l*M .. l*M + M - 1 (M = the box's nodes), or every L-th rank from l, in
// slot l of every node; layer 0 goes onto the nodes in id order (of the view below), layer l
// onto the image of that order under a symmetry of the box (axes of one size and kind
// exchanged, axes reversed, rings turned), and the symmetries are searched by tac3.
//
// Why: on a full node, the ranks of a node that send in one step share its links. Blocks of
// K cells (node-fold, block placement) keep some partners in the node but send the others
// together, K messages to one neighbour over one link. A layer whose ranks talk among
// themselves (a CG row, a slab) laid out once per slot, each slot turned another way, sends
// the node's K messages of a step along K different links. On CG-64 with K = 4 on FX10
// 1x2x2x2x1x2 (a 4-cube of nodes), the three row steps then load every link once:
// 1.29 ms in SimGrid, where the annealing's best stayed at 1.53 ms and the best of block,
// round-robin and Scotch runs 1.97 ms; with K = 2 on 2x2x2x2x1x2, 0.843 ms, one rank per
// node's bound (docs/validation.md).
#include <algorithm>
#include <numeric>

#include "tac3map/base/random.hpp"
#include "tac3map/initial/initial_mapper.hpp"
#include "tac3map/model/objective.hpp"
#include "tac3map/search/objectives.hpp"

namespace tac3map {
namespace {

// The symmetries are searched by scoring whole mappings: at most this many communications
// scored in all (CG-64: 256 communications and 64 ranks, 13,107 scorings, about 0.6 s; four
// times as many found no better symmetries on the peers bench's boxes).
constexpr std::uint64_t kLayerFoldWork = std::uint64_t{1} << 22;
// Independent climbs (two from the identity, the others from random symmetries), and the
// fewest scorings worth a climb.
constexpr int kLayerFoldClimbs = 8;
constexpr std::uint64_t kLayerFoldMinSteps = 16;
// A start does not depend on --seed (its candidates compete before the search draws).
constexpr std::uint64_t kLayerFoldSeed = 0x1a7e2f01d;

// The box as the symmetries see it: its axes, except that a ring of four nodes is two axes
// of two (Gray code: positions 0, 1, 2, 3 are 00, 01, 11, 10, so each step round the ring
// changes one of them). A ring of four is a square; as two axes its symmetries mix it with
// the box's other axes of two (FX10's X ring with A and C), which its own turns cannot.
struct View {
  std::vector<int> shape;
  std::vector<bool> wrap;
  std::vector<std::vector<int>> coordinates;  // per node id of the view (first axis fastest)
  std::vector<int> node;                      // box node of each view id

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
    } else {
      v.shape.push_back(box.shape[a]);
      v.wrap.push_back(box.wrap[a]);
      sources.push_back({a, -1});
    }
  }
  v.coordinates.resize(static_cast<std::size_t>(box.nodeCount));
  v.node.resize(static_cast<std::size_t>(box.nodeCount));
  for (int n = 0; n < box.nodeCount; ++n) {
    const std::vector<int> c = box.coordinatesOf(n);
    std::vector<int> w(sources.size());
    for (std::size_t i = 0; i < w.size(); ++i) {
      const int x = c[sources[i].axis];
      w[i] = sources[i].bit < 0 ? x : ((x ^ (x >> 1)) >> sources[i].bit) & 1;
    }
    const int id = v.id(w);
    v.node[id] = n;
    v.coordinates[id] = std::move(w);
  }
  return v;
}

// A symmetry of the view: coordinate a goes to axis target[a], reversed when flip[a], then
// turned by shift[a] places round a ring (torus axes of more than two nodes).
struct Symmetry {
  std::vector<int> target;
  std::vector<bool> flip;
  std::vector<int> shift;
};

// Axes a symmetry may exchange: of one size and kind (wrap). An axis of two nodes has one link
// each way, torus or not (its routes take the + way on a tie, network.cpp), so it pairs with
// any other of two.
bool sameKind(const View& view, int a, int b) {
  return view.shape[a] == view.shape[b] && (view.shape[a] <= 2 || view.wrap[a] == view.wrap[b]);
}

// At most this many axis permutations are listed and drawn from; a box with more (more than
// eight axes of one kind) draws each permutation class by class instead.
constexpr std::uint64_t kMaxListedPermutations = 40320;

void listPermutations(const View& view, std::vector<int>& order, std::vector<bool>& used,
                      std::vector<std::vector<int>>& out) {
  const int a = static_cast<int>(order.size());
  if (a == view.axisCount()) {
    out.push_back(order);
    return;
  }
  for (int t = 0; t < view.axisCount(); ++t)
    if (!used[t] && sameKind(view, a, t)) {
      used[t] = true;
      order.push_back(t);
      listPermutations(view, order, used, out);
      order.pop_back();
      used[t] = false;
    }
}

// Every permutation of the axes that sends each axis to one of its kind, in lexicographic
// order (the identity first); none when there are more than kMaxListedPermutations.
std::vector<std::vector<int>> axisPermutations(const View& view) {
  std::uint64_t count = 1;
  for (int a = 0; a < view.axisCount(); ++a) {
    std::uint64_t before = 0;  // axes of a's kind before it: a's choices are the others
    for (int b = 0; b < a; ++b) before += sameKind(view, a, b);
    count *= before + 1;
    if (count > kMaxListedPermutations) return {};
  }
  std::vector<std::vector<int>> out;
  std::vector<int> order;
  std::vector<bool> used(static_cast<std::size_t>(view.axisCount()));
  listPermutations(view, order, used, out);
  return out;
}

// A permutation drawn class by class (Fisher-Yates within each kind of axis).
std::vector<int> drawPermutation(const View& view, Rng& rng) {
  const int n = view.axisCount();
  std::vector<int> target(static_cast<std::size_t>(n), -1);
  for (int a = 0; a < n; ++a) {
    if (target[a] >= 0) continue;
    std::vector<int> kind;
    for (int b = a; b < n; ++b)
      if (target[b] < 0 && sameKind(view, a, b)) kind.push_back(b);
    std::vector<int> image = kind;
    for (std::size_t i = image.size(); i > 1; --i) std::swap(image[i - 1], image[rng.below(i)]);
    for (std::size_t i = 0; i < kind.size(); ++i) target[kind[i]] = image[i];
  }
  return target;
}

Symmetry randomSymmetry(const View& view, const std::vector<std::vector<int>>& permutations,
                        Rng& rng) {
  const auto axes = static_cast<std::size_t>(view.axisCount());
  Symmetry s{permutations.empty() ? drawPermutation(view, rng)
                                  : permutations[rng.below(permutations.size())],
             std::vector<bool>(axes), std::vector<int>(axes)};
  for (std::size_t a = 0; a < axes; ++a) {
    s.flip[a] = view.shape[a] > 1 && rng.below(2) == 1;
    if (view.wrap[a] && view.shape[a] > 2)
      s.shift[a] = static_cast<int>(rng.below(static_cast<std::uint64_t>(view.shape[a])));
  }
  return s;
}

Symmetry identitySymmetry(const View& view) {
  const auto axes = static_cast<std::size_t>(view.axisCount());
  Symmetry s{std::vector<int>(axes), std::vector<bool>(axes), std::vector<int>(axes)};
  std::iota(s.target.begin(), s.target.end(), 0);
  return s;
}

// The box node that view place `place` goes to under `s`.
int image(const View& view, const Symmetry& s, int place, std::vector<int>& scratch) {
  const std::vector<int>& coordinates = view.coordinates[place];
  for (int a = 0; a < view.axisCount(); ++a) {
    const int c = s.flip[a] ? view.shape[a] - 1 - coordinates[a] : coordinates[a];
    scratch[s.target[a]] = (c + s.shift[a]) % view.shape[a];
  }
  return view.node[view.id(scratch)];
}

// Which ranks make a layer: M consecutive ranks (a CG row, a slab), or every L-th rank of L
// layers (ranks a launcher would put on one node, split over nodes).
enum class Layers { Blocks, Strided };

// Rank r: its layer and its place in the layer; the node of that place in id order, moved by
// the layer's symmetry; the slot is the layer.
Mapping layOut(const StartContext& c, const View& view, Layers kind,
               const std::vector<Symmetry>& layers) {
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

class LayerFoldMapper : public InitialMapper {
 public:
  const char* name() const override { return "layer-fold"; }
  const char* description() const override {
    return "K > 1: a layer of ranks per slot, one rank per node, each layer turned by a symmetry "
           "of the box";
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
    const std::vector<std::vector<int>> permutations = axisPermutations(view);
    const std::uint64_t cost =
        static_cast<std::uint64_t>(c.problem.realCommunications) + c.problem.tasks;
    // A large job gets fewer climbs, down to the two from the identity (then possibly not a
    // single step: the start costs two scorings, never more than the budget's worth).
    const std::uint64_t scorings = kLayerFoldWork / cost;
    const int climbs = static_cast<int>(std::clamp<std::uint64_t>(
        scorings / kLayerFoldMinSteps, 2, static_cast<std::uint64_t>(kLayerFoldClimbs)));
    const std::uint64_t steps = scorings / static_cast<std::uint64_t>(climbs);
    Rng rng(kLayerFoldSeed);
    Mapping best;
    ExactScores bestScores;
    for (int climb = 0; climb < climbs; ++climb) {
      const Layers kind = climb % 2 == 0 ? Layers::Blocks : Layers::Strided;
      // Layer 0 stays in id order: turning every layer alike gives the same loads.
      std::vector<Symmetry> s(static_cast<std::size_t>(layers), identitySymmetry(view));
      if (climb > 1)
        for (int l = 1; l < layers; ++l) s[l] = randomSymmetry(view, permutations, rng);
      Mapping m = layOut(c, view, kind, s);
      ExactScores scores = evaluateExact(c.problem, c.router, m);
      for (std::uint64_t step = 0; step < steps; ++step) {
        const int l = 1 + static_cast<int>(rng.below(static_cast<std::uint64_t>(layers - 1)));
        Symmetry old = std::move(s[l]);
        s[l] = randomSymmetry(view, permutations, rng);
        Mapping trial = layOut(c, view, kind, s);
        const ExactScores t = evaluateExact(c.problem, c.router, trial);
        if (isBetter(scores, t, ObjectiveKind::Tac3)) {
          s[l] = std::move(old);  // worse: undone; equal or better is taken (plateaus)
          continue;
        }
        m = std::move(trial);
        scores = t;
      }
      if (best.nodeOfTask.empty() || isBetter(scores, bestScores, ObjectiveKind::Tac3)) {
        best = std::move(m);
        bestScores = scores;
      }
    }
    return best;
  }
};

}  // namespace

std::unique_ptr<InitialMapper> makeLayerFoldMapper() {
  return std::make_unique<LayerFoldMapper>();
}

}  // namespace tac3map
