// The optimal broadcast schedule (bcast/broadcast.hpp): depth-first branch and bound, with
// the cut by subtree isomorphism.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <map>
#include <tuple>
#include <unordered_set>
#include <vector>

#include "broadcast_support.hpp"
#include "tac3map/bcast/broadcast.hpp"

namespace tac3map {
namespace {

// States the optimal search remembers (16 bytes each, about 130 MiB with the set's overhead);
// past it, new states are not remembered (the search stays exact, only slower).
constexpr std::size_t kMaxSeenStates = std::size_t{1} << 21;

// The cut by subtree isomorphism (the paper's receiver- and sender-side cuts, in one rule).
// A subtree is settled when nothing in it can still change how it behaves later: every
// holder in it holds the message since before the last start (so it may send at the same
// moments as any other such holder), and no link in it or to its parent is reserved past the
// last start (no transfer can start earlier than that). Settled subtrees are labelled
// bottom-up (participant or not, holder or not, children's labels with the bandwidths and
// latencies of their links both ways and the duplex kind); an unsettled one gets a label of
// its own. At every node, children with equal labels and links form a group: permuting them
// maps the state onto itself. So a transfer is tried only in its group-canonical form: the
// sender in the group's first member (or outside it), the receiver in the first member, or in
// the second when the sender is in the first.
class SymmetryCut {
 public:
  explicit SymmetryCut(const BroadcastNetwork& network)
      : network_(network),
        label_(network.graph().nodes.size()),
        member_(network.graph().nodes.size()) {}

  void prepare(const BroadcastState& state) {
    const auto& arcs = network_.graph().arcs;
    const double floor = state.lastStart();
    const auto key = [&](const BroadcastNetwork::Child& c) {
      const GraphArc &down = arcs[c.down], &up = arcs[c.up];
      return std::make_tuple(label_[c.node], down.bandwidth, down.latency, up.bandwidth, up.latency,
                             down.capacity == up.capacity);
    };
    const std::vector<int>& order = network_.order();
    for (std::size_t k = order.size(); k-- > 0;) {
      const int v = order[k];
      const int p = network_.participantAt(v);
      bool settled = !(p >= 0 && state.holds(p) && state.heldSince(p) > floor + tolerance(floor));
      std::vector<std::tuple<int, double, double, double, double, bool>> parts;
      for (const auto& c : network_.children(v)) {
        // A child whose link to v is still reserved (a holder sending through it, say) is
        // not interchangeable with its siblings: it and v are unsettled.
        if (state.reservedAfter(arcs[c.down].capacity, floor) ||
            state.reservedAfter(arcs[c.up].capacity, floor))
          label_[c.node] = -1 - c.node;
        settled = settled && label_[c.node] >= 0;
        parts.push_back(key(c));
      }
      if (!settled) {
        label_[v] = -1 - v;
        continue;
      }
      std::sort(parts.begin(), parts.end());
      const int kind = (p >= 0 ? 1 : 0) + (p >= 0 && state.holds(p) ? 2 : 0);
      label_[v] = labels_.emplace(std::make_pair(kind, parts), static_cast<int>(labels_.size()))
                      .first->second;
    }
    // Top down: each node's (group, member index) list, extended at every group it enters.
    int groups = 0;
    member_[order.front()].clear();
    for (int v : order) {
      const auto& children = network_.children(v);
      std::vector<int> groupOf(children.size(), -1), indexOf(children.size(), 0);
      for (std::size_t i = 0; i < children.size(); ++i) {
        if (label_[children[i].node] < 0) continue;
        for (std::size_t j = 0; j < i && groupOf[i] < 0; ++j)
          if (key(children[j]) == key(children[i])) {
            if (groupOf[j] < 0) groupOf[j] = groups++;
            groupOf[i] = groupOf[j];
            for (std::size_t m = 0; m < i; ++m) indexOf[i] += groupOf[m] == groupOf[i];
          }
      }
      for (std::size_t i = 0; i < children.size(); ++i) {
        member_[children[i].node] = member_[v];
        if (groupOf[i] >= 0) member_[children[i].node].push_back({groupOf[i], indexOf[i]});
      }
    }
  }

  // Whether src -> dst is in canonical form for every group.
  bool allowed(int src, int dst) const {
    const auto& a = member_[network_.nodeOf(src)];
    const auto& b = member_[network_.nodeOf(dst)];
    const auto indexIn = [](const std::vector<std::pair<int, int>>& list, int group) {
      for (const auto& [g, i] : list)
        if (g == group) return i;
      return -1;
    };
    for (const auto& [g, i] : a)
      if (i > 0) return false;  // the sender in a later member
    for (const auto& [g, j] : b) {
      const int i = indexIn(a, g);
      if (i < 0 ? j > 0 : j > 1) return false;
    }
    return true;
  }

 private:
  const BroadcastNetwork& network_;
  std::vector<int> label_;
  std::vector<std::vector<std::pair<int, int>>> member_;  // per node: (group, member index)
  std::map<std::pair<int, std::vector<std::tuple<int, double, double, double, double, bool>>>, int>
      labels_;
};

}  // namespace

BroadcastSchedule optimalBroadcast(const BroadcastNetwork& network, int root, double bytes,
                                   bool useBound, double timeLimit, bool useIsomorphism) {
  const auto began = std::chrono::steady_clock::now();
  const int n = network.participants();
  // Start from the better of the two rank-order schedules: the search must beat it.
  BroadcastSchedule best = flatBroadcast(network, root, bytes);
  const BroadcastSchedule binomial = binomialBroadcast(network, root, bytes);
  if (binomial.time < best.time) best = binomial;
  BroadcastState state(network, root, bytes);
  SymmetryCut symmetry(network);
  std::uint64_t visited = 0;
  std::unordered_set<BroadcastState::Fingerprint, BroadcastState::FingerprintHash> seen;
  bool cut = false;
  const BroadcastBound bound(network, bytes);
  const auto alone = [&](int src, int dst) {
    const BroadcastNetwork::Path& path = network.path(src, dst);
    return path.latency + bytes / path.bandwidth;
  };
  const auto worse = [&](double t) { return t >= best.time - tolerance(best.time); };
  struct Move {
    Transfer t;
    double bound;
  };
  // lowerBound: the bound of the current state (0 without the bound).
  std::function<void(double)> search = [&](double lowerBound) {
    if (cut) return;
    if (++visited % 1024 == 0 && timeLimit > 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count() >
            timeLimit) {
      cut = true;
      return;
    }
    if (state.holders() == n) {
      if (!worse(state.makespan())) {
        best.time = state.makespan();
        best.transfers = state.transfers();
      }
      return;
    }
    if (worse(lowerBound)) return;
    // A state met before (the same transfers at the same times, reached in another order)
    // was searched then, against a best time no better than now's: nothing new below it.
    if (seen.size() < kMaxSeenStates && !seen.insert(state.fingerprint()).second) return;
    // Every holder to every participant without the message, each with the bound of the
    // state it leads to: the lowest bound first (the move that promises most), then the
    // soonest start, the farther receiver (it needs the longest), rank order.
    std::vector<Move> moves;
    if (useIsomorphism) symmetry.prepare(state);
    for (int s = 0; s < n; ++s) {
      if (!state.holds(s)) continue;
      for (int r = 0; r < n; ++r)
        if (!state.holds(r) && (!useIsomorphism || symmetry.allowed(s, r))) {
          const Transfer t = state.plan(s, r);
          if (worse(t.end)) continue;
          double b = 0;
          if (useBound) {
            state.add(t);
            // A bound of a state bounds every state below it too: keep the larger.
            b = std::max(lowerBound, bound(state));
            state.undo();
            if (worse(b)) continue;
          }
          moves.push_back({t, b});
        }
    }
    std::stable_sort(moves.begin(), moves.end(), [&](const Move& x, const Move& y) {
      const Transfer &a = x.t, &b = y.t;
      if (std::abs(x.bound - y.bound) > tolerance(x.bound)) return x.bound < y.bound;
      if (std::abs(a.start - b.start) > tolerance(a.start)) return a.start < b.start;
      const double da = alone(a.src, a.dst), db = alone(b.src, b.dst);
      if (da != db) return da > db;
      return a.src != b.src ? a.src < b.src : a.dst < b.dst;
    });
    for (const Move& m : moves) {
      state.add(m.t);
      search(m.bound);
      state.undo();
    }
  };
  search(useBound ? bound(state) : 0);
  best.optimal = !cut;
  best.searchNodes = visited;
  best.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  return best;
}

}  // namespace tac3map
