// The flow model's barriers (flow_barrier.hpp).
#include "flow_barrier.hpp"

#include <algorithm>

namespace tac3map::flow {

BarrierTimes::BarrierTimes(const Problem& problem, const Network& router, const Mapping& mapping)
    : algorithm_(problem.barrierAlgorithm) {
  const int n = problem.tasks;
  const auto latency = [&](int a, int b) {
    const int p = mapping.nodeOfTask[a], q = mapping.nodeOfTask[b];
    double t = problem.model.messageLatency;
    if (p != q) router.forEachLink(p, q, [&](LinkId l) { t += router.latencyOf(l); });
    return t;
  };
  if (algorithm_ == Algorithm::Linear) {  // every rank to rank 0, which answers each
    up_.resize(n);
    down_.resize(n);
    for (int r = 1; r < n; ++r) {
      up_[r] = latency(r, 0);
      down_[r] = latency(0, r);
    }
    return;
  }
  for (int pof = 1; pof < n; pof *= 2) {  // dissemination: round k from v - 2^k to v
    rounds_.emplace_back(n);
    for (int v = 0; v < n; ++v) rounds_.back()[v] = latency((v - pof + n) % n, v);
  }
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
  int pof = 1;
  for (const std::vector<double>& round : rounds_) {  // sent at once, heard after the latency
    next_.resize(t.size());
    for (int v = 0; v < n; ++v) next_[v] = std::max(t[v], t[(v - pof + n) % n] + round[v]);
    t.swap(next_);
    pof *= 2;
  }
}

}  // namespace tac3map::flow
