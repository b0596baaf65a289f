// The flow model's links and routes (flow_sharing.hpp): the network's links and each node's
// injection, ejection and memory links, and each communication's route over them under a
// mapping.
#include "flow_sharing.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace tac3map::flow {

Links makeLinks(const Network& router, const Model& model) {
  Links links;
  links.network = static_cast<std::uint32_t>(router.linkIdLimit());
  links.nodes = static_cast<std::uint32_t>(router.nodeCount());
  links.capacity.resize(links.network + 3 * static_cast<std::size_t>(links.nodes));
  for (LinkId l = 0; l < router.linkIdLimit(); ++l) links.capacity[l] = router.bandwidthOf(l);
  const double engine =
      model.injectionBandwidth > 0 ? model.injectionBandwidth : model.linkBandwidth;
  for (std::uint32_t n = 0; n < links.nodes; ++n) {
    links.capacity[links.injection(static_cast<int>(n))] = model.engines * engine;
    links.capacity[links.ejection(static_cast<int>(n))] = model.engines * engine;
    links.capacity[links.memory(static_cast<int>(n))] = model.intraNodeBandwidth;
  }
  return links;
}

Routes makeRoutes(const Problem& problem, const Network& router, const Mapping& mapping,
                  const Links& links, const std::vector<double>* latency,
                  const std::vector<double>* transfer) {
  const Model& model = problem.model;
  const double engine =
      model.injectionBandwidth > 0 ? model.injectionBandwidth : model.linkBandwidth;
  const double flowCap = engine < model.linkBandwidth ? engine : kInfinity;
  Routes routes;
  routes.start.push_back(0);
  for (std::size_t c = 0; c < problem.realCommunications; ++c) {
    const int p = mapping.nodeOfTask[problem.src[c]], q = mapping.nodeOfTask[problem.dst[c]];
    double time = model.messageLatency;
    if (p == q) {
      if (model.intraNodeBandwidth > 0) routes.link.push_back(links.memory(p));
      routes.cap.push_back(kInfinity);
    } else {
      // A model without an engine bandwidth (a bare Model) has no node links to share.
      if (engine > 0) routes.link.push_back(links.injection(p));
      router.forEachLink(p, q, [&](LinkId l) {
        routes.link.push_back(static_cast<std::uint32_t>(l));
        time += router.latencyOf(l);
      });
      if (engine > 0) routes.link.push_back(links.ejection(q));
      routes.cap.push_back(flowCap);
    }
    routes.weight.push_back(time);  // the machine's route latency; made a weight below
    double bytes = static_cast<double>(problem.bytes[c]);
    if (latency && p != q) {
      // Alone, c moves at its route's narrowest capacity; it moves as many bytes as that rate
      // carries in the profile's transfer time, so that alone it takes exactly the profile's
      // time and, sharing a link with n others like it, n times as long, as t(n x M) does.
      double narrowest = flowCap;
      for (std::uint32_t k = routes.start.back(); k < routes.link.size(); ++k)
        narrowest = std::min(narrowest, links.capacity[routes.link[k]]);
      time = (*latency)[c];
      bytes = std::max(0.0, (*transfer)[c]) * narrowest;
    }
    routes.bytes.push_back(bytes);
    routes.latency.push_back(time);
    routes.start.push_back(static_cast<std::uint32_t>(routes.link.size()));
  }
  // Equal sharing (the machine's link_sharing): every flow weighs 1.
  if (model.linkSharing == LinkSharing::Equal) {
    std::fill(routes.weight.begin(), routes.weight.end(), 1.0);
    return routes;
  }
  // Weights relative to the shortest route latency, so that they stay near 1 and equal
  // latencies give exactly 1. A route without latency (none given for it) weighs as the
  // shortest: SimGrid would give it a penalty of one second, starving it behind every flow
  // that has a latency, which no network does.
  double shortest = kInfinity;
  for (const double t : routes.weight)
    if (t > 0) shortest = std::min(shortest, t);
  for (double& w : routes.weight) w = w > 0 ? shortest / w : 1.0;
  return routes;
}

}  // namespace tac3map::flow
