// The rank-order broadcast schedules (bcast/broadcast.hpp): flat and binomial.
#include <vector>

#include "broadcast_support.hpp"
#include "tac3map/bcast/broadcast.hpp"

namespace tac3map {
namespace {

BroadcastSchedule finish(const BroadcastState& state, int root, double bytes) {
  BroadcastSchedule s;
  s.root = root;
  s.bytes = bytes;
  s.time = state.makespan();
  s.transfers = state.transfers();
  return s;
}

}  // namespace

BroadcastSchedule flatBroadcast(const BroadcastNetwork& network, int root, double bytes) {
  BroadcastState state(network, root, bytes);
  for (int p = 0; p < network.participants(); ++p)
    if (p != root) state.add(state.plan(root, p));
  return finish(state, root, bytes);
}

BroadcastSchedule binomialBroadcast(const BroadcastNetwork& network, int root, double bytes) {
  const int n = network.participants();
  // Children of each relative rank, largest subtree first (MPICH's MPIR_Bcast_binomial).
  std::vector<std::vector<int>> children(n);
  for (int r = 0; r < n; ++r) {
    int lowbit = 1;
    while (lowbit < n && !(r & lowbit)) lowbit <<= 1;
    for (int mask = lowbit >> 1; mask >= 1; mask >>= 1)
      if (r + mask < n) children[r].push_back(r + mask);
  }
  const auto rank = [&](int relative) { return (relative + root) % n; };
  BroadcastState state(network, root, bytes);
  std::vector<std::size_t> next(n, 0);
  // Among the holders' next transfers, the one that can start first (then the lower rank).
  while (state.holders() < n) {
    Transfer best{};
    bool found = false;
    for (int r = 0; r < n; ++r) {
      if (!state.holds(rank(r)) || next[r] == children[r].size()) continue;
      const Transfer t = state.plan(rank(r), rank(children[r][next[r]]));
      if (!found || t.start < best.start - tolerance(best.start)) best = t, found = true;
    }
    state.add(best);
    ++next[(best.src - root + n) % n];
  }
  return finish(state, root, bytes);
}

}  // namespace tac3map
