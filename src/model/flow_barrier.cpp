// The flow model's barriers (flow_barrier.hpp).
#include "flow_barrier.hpp"

#include <algorithm>
#include <cstddef>

namespace tac3map::flow {

BarrierTimes::BarrierTimes(const Problem& problem, const Network& router, const Mapping& mapping,
                           std::size_t maxKept)
    : algorithm_(problem.barrierAlgorithm),
      router_(router),
      mapping_(mapping),
      messageLatency_(problem.model.messageLatency) {
  const int n = problem.tasks;
  if (algorithm_ == Algorithm::Linear) {  // every rank to rank 0, which answers each
    up_.resize(n);
    down_.resize(n);
    for (int r = 1; r < n; ++r) {
      up_[r] = latency(r, 0);
      down_[r] = latency(0, r);
    }
    return;
  }
  std::size_t rounds = 0;
  for (int pof = 1; pof < n; pof *= 2) ++rounds;
  if (rounds * static_cast<std::size_t>(n) > maxKept) return;
  for (int pof = 1; pof < n; pof *= 2) {  // dissemination: round k from v - 2^k to v
    rounds_.emplace_back(n);
    for (int v = 0; v < n; ++v) rounds_.back()[v] = latency((v - pof + n) % n, v);
  }
}

double BarrierTimes::latency(int a, int b) const {
  const int p = mapping_.nodeOfTask[a], q = mapping_.nodeOfTask[b];
  double t = messageLatency_;
  if (p != q) router_.forEachLink(p, q, [&](LinkId l) { t += router_.latencyOf(l); });
  return t;
}

void BarrierTimes::release(std::vector<double>& t) const {
  const int n = static_cast<int>(t.size());
  if (n == 0) return;
  if (algorithm_ == Algorithm::Linear) {
    double all = t[0];  // rank 0 has heard from every rank
    for (int r = 1; r < n; ++r) all = std::max(all, t[r] + up_[r]);
    t[0] = all;
    for (int r = 1; r < n; ++r) t[r] = all + down_[r];
    return;
  }
  std::size_t round = 0;
  for (int pof = 1; pof < n; pof *= 2, ++round) {  // sent at once, heard after the latency
    next_.resize(t.size());
    for (int v = 0; v < n; ++v) {
      const int from = (v - pof + n) % n;
      const double l = round < rounds_.size() ? rounds_[round][v] : latency(from, v);
      next_[v] = std::max(t[v], t[from] + l);
    }
    t.swap(next_);
  }
}

}  // namespace tac3map::flow
