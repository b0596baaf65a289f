// The flow model's barriers (model/flow.hpp): what a barrier costs under a mapping, the
// latencies of its zero-byte messages. They move no bytes (no link is shared) but each waits
// its route's latency (message_latency plus the hops'), as the flows do.
#pragma once

#include <cstddef>
#include <vector>

#include "tac3map/mapping/mapping.hpp"
#include "tac3map/model/problem.hpp"
#include "tac3map/network/network.hpp"

namespace tac3map::flow {

class BarrierTimes {
 public:
  // Dissemination's latencies are kept while they take at most this many doubles (32 MiB);
  // above, each barrier walks its routes again, rather than a small trace of very many ranks
  // taking hundreds of megabytes.
  static constexpr std::size_t kMaxKeptLatencies = std::size_t{1} << 22;

  // The latencies the problem's barrier algorithm needs under `mapping`: linear, each rank's
  // to and from rank 0; dissemination, each round's from v - 2^k to v (up to `maxKept`).
  BarrierTimes(const Problem& problem, const Network& router, const Mapping& mapping,
               std::size_t maxKept = kMaxKeptLatencies);

  // `t`: when each rank reaches the barrier; on return, when each leaves it.
  void release(std::vector<double>& t) const;

 private:
  double latency(int a, int b) const;  // a zero-byte message's, rank a to rank b

  Algorithm algorithm_;
  const Network& router_;
  const Mapping& mapping_;
  double messageLatency_;
  std::vector<double> up_, down_;
  std::vector<std::vector<double>> rounds_;  // dissemination's, unless too many to keep
  mutable std::vector<double> next_;
};

}  // namespace tac3map::flow
