// What the flow model's files share (model/flow.hpp): the links a simulation shares, each
// communication's route over them, and the max-min fair sharing of those links among the
// messages in flight. flow.cpp drives the simulation over the program; flow_sharing.cpp builds
// the links and routes. The sharing runs at every event, so it is here, inline, for
// flow.cpp's event loop.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "tac3map/mapping/mapping.hpp"
#include "tac3map/model/model.hpp"
#include "tac3map/model/problem.hpp"
#include "tac3map/network/network.hpp"

namespace tac3map::flow {

inline constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Each communication of the problem (one per distinct set member) with its route under the
// mapping: the links it crosses (local ids, Links below), its latency, its rate bound and its
// weight in the sharing.
struct Routes {
  std::vector<std::uint32_t> start;  // links of c: link[start[c] .. start[c + 1])
  std::vector<std::uint32_t> link;
  std::vector<double> latency, cap;
  // 1 with the machine's equal sharing. Latency-weighted: inversely proportional to c's route
  // latency under the machine's figures (the shortest route's latency over c's; 1 for every
  // route when the latencies are all equal or zero):
  // a link's flows get its bandwidth in proportion to it, as SimGrid's flow models share a
  // link (each flow's sharing penalty is its route latency, TCP's round-trip unfairness).
  std::vector<double> weight;
  std::vector<double> bytes;  // what c moves: its bytes, or as a profile has it (FlowMessageTimes)
};

// Local link ids: the network's, then per node its injection, ejection and memory link.
struct Links {
  std::vector<double> capacity;
  std::uint32_t network = 0, nodes = 0;
  std::uint32_t injection(int node) const { return network + static_cast<std::uint32_t>(node); }
  std::uint32_t ejection(int node) const {
    return network + nodes + static_cast<std::uint32_t>(node);
  }
  std::uint32_t memory(int node) const {
    return network + 2 * nodes + static_cast<std::uint32_t>(node);
  }
};

Links makeLinks(const Network& router, const Model& model);
// `latency` and `transfer`: a measured profile's times per communication (FlowMessageTimes),
// or null for the machine's figures.
Routes makeRoutes(const Problem& problem, const Network& router, const Mapping& mapping,
                  const Links& links, const std::vector<double>* latency,
                  const std::vector<double>* transfer);

class FairShare {
 public:
  FairShare(const Links& links, const Routes& routes) : links_(links), routes_(routes) {
    count_.assign(links.capacity.size(), 0);
    residual_.assign(links.capacity.size(), 0.0);
    weight_.assign(links.capacity.size(), 0.0);
    slot_.assign(links.capacity.size(), 0);
    version_.assign(links.capacity.size(), 0);
    for (double cap : routes.cap) flowCap_ = std::min(flowCap_, cap);
  }

  // Sets rate[i] for each flow i of `transfer` (message instances, comm[i] their
  // communications). Weighted max-min fair rates of the flows moving bytes (progressive
  // filling): the link whose capacity left per unit of weight of its flows not yet fixed is
  // smallest fixes those flows at that share times their weight; a flow whose bound (one
  // engine) binds at a lower share is fixed at its bound first. Until every flow is fixed.
  // With equal weights this is plain max-min, every figure as without weights.
  // The links wait in a heap by share, so one sharing costs O(flows x route + links x log)
  // rather than a scan of every link per level. Fixing a flow at the smallest share only
  // raises the shares of its other links (up to rounding), so their entries are not replaced
  // as they change: an entry found out of date when it reaches the top goes back in at the
  // link's share then (an all-to-all of 64 ranks posted at once: 7x faster than pushing every
  // change, the same figures).
  // comm and rate as raw pointers: vectors passed by reference could be touched_ itself for
  // all the compiler knows, and every push_back would make it reload them. Inlined into the
  // event loop as it was when both were one class in flow.cpp (not inlined: 1.5% more
  // instructions in the simulation).
  [[gnu::always_inline]] void share(const std::vector<std::uint32_t>& transfer,
                                    const std::uint32_t* comm, double* rate) {
    touched_.clear();
    for (std::uint32_t i : transfer) {
      const std::uint32_t c = comm[i];
      work_ += routes_.start[c + 1] - routes_.start[c];
      for (std::uint32_t k = routes_.start[c]; k < routes_.start[c + 1]; ++k) {
        const std::uint32_t l = routes_.link[k];
        if (count_[l]++ == 0) {
          touched_.push_back(l);
          residual_[l] = links_.capacity[l];
          weight_[l] = 0.0;
        }
        weight_[l] += routes_.weight[c];
      }
      rate[i] = -1;  // not fixed
    }
    // The flows a bound may fix, by the share at which it binds (stable: in transfer's order
    // at equal shares).
    capped_.clear();
    if (flowCap_ < kInfinity)
      for (std::uint32_t i : transfer)
        if (routes_.cap[comm[i]] < kInfinity) capped_.push_back(i);
    std::stable_sort(capped_.begin(), capped_.end(), [&](std::uint32_t a, std::uint32_t b) {
      return capLevel(comm[a]) < capLevel(comm[b]);
    });
    std::size_t nextCapped = 0;
    // The flows of each touched link (CSR over touched_ order).
    offset_.resize(touched_.size() + 1);
    offset_[0] = 0;
    for (std::size_t j = 0; j < touched_.size(); ++j) {
      slot_[touched_[j]] = static_cast<std::uint32_t>(j);
      offset_[j + 1] = offset_[j] + count_[touched_[j]];
    }
    flowsOfLink_.resize(offset_.back());
    fill_.assign(offset_.begin(), offset_.end() - 1);
    for (std::uint32_t i : transfer) {
      const std::uint32_t c = comm[i];
      for (std::uint32_t k = routes_.start[c]; k < routes_.start[c + 1]; ++k)
        flowsOfLink_[fill_[slot_[routes_.link[k]]]++] = i;
    }
    heap_.clear();
    for (std::uint32_t l : touched_) heap_.push_back({residual_[l] / weight_[l], l, ++version_[l]});
    std::make_heap(heap_.begin(), heap_.end(), Later{});
    std::size_t unfixed = transfer.size();
    while (unfixed > 0 && !heap_.empty()) {
      std::pop_heap(heap_.begin(), heap_.end(), Later{});
      const Entry top = heap_.back();
      heap_.pop_back();
      if (count_[top.link] == 0) continue;
      if (top.version != version_[top.link]) {
        heap_.push_back({residual_[top.link] / weight_[top.link], top.link, version_[top.link]});
        std::push_heap(heap_.begin(), heap_.end(), Later{});
        continue;
      }
      if (nextCapped < capped_.size() && capLevel(comm[capped_[nextCapped]]) < top.share) {
        // Bounds bind first: every flow whose bound binds below this share, at its bound.
        heap_.push_back(top);
        std::push_heap(heap_.begin(), heap_.end(), Later{});
        for (; nextCapped < capped_.size() && capLevel(comm[capped_[nextCapped]]) < top.share;
             ++nextCapped) {
          const std::uint32_t i = capped_[nextCapped];
          if (rate[i] < 0) fix(i, routes_.cap[comm[i]], unfixed, comm, rate);
        }
        continue;
      }
      const std::uint32_t j = slot_[top.link];
      for (std::uint32_t f = offset_[j]; f < offset_[j + 1]; ++f) {
        const std::uint32_t i = flowsOfLink_[f];
        if (rate[i] < 0) fix(i, top.share * routes_.weight[comm[i]], unfixed, comm, rate);
      }
    }
  }

  std::uint64_t work() const { return work_; }

 private:
  // The share at which c's bound binds.
  double capLevel(std::uint32_t c) const { return routes_.cap[c] / routes_.weight[c]; }

  void fix(std::uint32_t i, double flowRate, std::size_t& unfixed, const std::uint32_t* comm,
           double* rate) {
    rate[i] = flowRate;
    --unfixed;
    const std::uint32_t c = comm[i];
    work_ += routes_.start[c + 1] - routes_.start[c];
    for (std::uint32_t k = routes_.start[c]; k < routes_.start[c + 1]; ++k) {
      const std::uint32_t l = routes_.link[k];
      residual_[l] = std::max(0.0, residual_[l] - flowRate);
      // The last flow leaves exactly nothing (no rounding left over to divide by).
      weight_[l] = --count_[l] == 0 ? 0.0 : weight_[l] - routes_.weight[c];
      ++version_[l];
    }
  }

  struct Entry {
    double share;
    std::uint32_t link, version;
  };
  struct Later {  // a min-heap by share, then link id: a fixed order
    bool operator()(const Entry& a, const Entry& b) const {
      return a.share > b.share || (a.share == b.share && a.link > b.link);
    }
  };

  const Links& links_;
  const Routes& routes_;
  std::vector<double> residual_, weight_;  // per link: capacity and weight not yet fixed
  std::vector<std::uint32_t> count_, touched_, capped_;
  std::vector<std::uint32_t> slot_, offset_, fill_, flowsOfLink_, version_;
  std::vector<Entry> heap_;
  double flowCap_ = kInfinity;
  std::uint64_t work_ = 0;  // links visited by the sharings: the simulation's cost
};

}  // namespace tac3map::flow
