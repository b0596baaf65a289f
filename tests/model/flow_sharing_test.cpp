// The flow model's sharing (src/model/flow_sharing.hpp): FairShare, with its heap of links
// and its bounds sorted by the share at which they bind, against a plain weighted
// progressive filling on random links, routes, weights and bounds.
#include "flow_sharing.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "tac3map/base/random.hpp"

namespace tac3map::flow {
namespace {

// Weighted max-min by the definition: raise one share for every flow not yet fixed; the first
// link whose capacity runs out, or the first flow whose bound it reaches, fixes what it holds.
std::vector<double> plainShares(const Links& links, const Routes& routes,
                                const std::vector<std::uint32_t>& comm) {
  const std::size_t n = comm.size();
  std::vector<double> rate(n, -1), residual = links.capacity;
  for (std::size_t fixed = 0; fixed < n;) {
    double level = kInfinity;
    for (std::size_t l = 0; l < residual.size(); ++l) {
      double weight = 0;
      for (std::size_t i = 0; i < n; ++i)
        for (std::uint32_t k = routes.start[comm[i]]; k < routes.start[comm[i] + 1]; ++k)
          if (rate[i] < 0 && routes.link[k] == l) weight += routes.weight[comm[i]];
      if (weight > 0) level = std::min(level, residual[l] / weight);
    }
    for (std::size_t i = 0; i < n; ++i)
      if (rate[i] < 0) level = std::min(level, routes.cap[comm[i]] / routes.weight[comm[i]]);
    // What binds at this level: the flows at their bound, then the links that are full.
    std::vector<std::size_t> now;
    for (std::size_t i = 0; i < n; ++i)
      if (rate[i] < 0 && routes.cap[comm[i]] / routes.weight[comm[i]] <= level * (1 + 1e-12))
        now.push_back(i);
    if (now.empty())
      for (std::size_t l = 0; l < residual.size(); ++l) {
        double weight = 0;
        for (std::size_t i = 0; i < n; ++i)
          for (std::uint32_t k = routes.start[comm[i]]; k < routes.start[comm[i] + 1]; ++k)
            if (rate[i] < 0 && routes.link[k] == l) weight += routes.weight[comm[i]];
        if (weight > 0 && residual[l] / weight <= level * (1 + 1e-12))
          for (std::size_t i = 0; i < n; ++i)
            for (std::uint32_t k = routes.start[comm[i]]; k < routes.start[comm[i] + 1]; ++k)
              if (rate[i] < 0 && routes.link[k] == l &&
                  std::find(now.begin(), now.end(), i) == now.end())
                now.push_back(i);
      }
    for (const std::size_t i : now) {
      const std::uint32_t c = comm[i];
      rate[i] = std::min(routes.cap[c], level * routes.weight[c]);
      for (std::uint32_t k = routes.start[c]; k < routes.start[c + 1]; ++k)
        residual[routes.link[k]] = std::max(0.0, residual[routes.link[k]] - rate[i]);
      ++fixed;
    }
  }
  return rate;
}

TEST(FairShare, IsWeightedMaxMinOnRandomCases) {
  Rng rng(11);
  for (int draw = 0; draw < 300; ++draw) {
    Links links;
    const int linkCount = 2 + static_cast<int>(rng.below(10));
    for (int l = 0; l < linkCount; ++l)
      links.capacity.push_back(1.0 + static_cast<double>(rng.below(8)));
    Routes routes;
    routes.start.push_back(0);
    const int comms = 1 + static_cast<int>(rng.below(12));
    const bool weighted = draw % 3 != 0, bounded = draw % 4 == 1;
    for (int c = 0; c < comms; ++c) {
      const int length = 1 + static_cast<int>(rng.below(4));
      for (int k = 0; k < length; ++k) {
        const auto l = static_cast<std::uint32_t>(rng.below(linkCount));
        if (std::find(routes.link.begin() + routes.start.back(), routes.link.end(), l) ==
            routes.link.end())
          routes.link.push_back(l);
      }
      routes.start.push_back(static_cast<std::uint32_t>(routes.link.size()));
      routes.weight.push_back(weighted ? 1.0 / (1.0 + static_cast<double>(rng.below(5))) : 1.0);
      routes.cap.push_back(bounded && rng.below(2) ? 0.5 + static_cast<double>(rng.below(3))
                                                   : kInfinity);
      routes.latency.push_back(0);
      routes.bytes.push_back(1);
    }
    // Message instances: some communications twice, some not at all.
    std::vector<std::uint32_t> comm, transfer;
    for (int i = 0; i < comms + 3; ++i) {
      comm.push_back(static_cast<std::uint32_t>(rng.below(comms)));
      transfer.push_back(static_cast<std::uint32_t>(i));
    }
    FairShare share(links, routes);
    std::vector<double> rate(comm.size());
    share.share(transfer, comm.data(), rate.data());
    const std::vector<double> expected = plainShares(links, routes, comm);
    for (std::size_t i = 0; i < comm.size(); ++i)
      EXPECT_NEAR(rate[i], expected[i], 1e-9 * expected[i]) << "draw " << draw << " flow " << i;
    // Shared again (the state it keeps between events), the same rates.
    std::vector<double> again(comm.size());
    share.share(transfer, comm.data(), again.data());
    EXPECT_EQ(again, rate) << draw;
  }
}

}  // namespace
}  // namespace tac3map::flow
