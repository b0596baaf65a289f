#include "tac3map/network/network.hpp"

#include <algorithm>

namespace tac3map {
namespace {

// Signed steps from c to t on an axis of `size`: on a torus the shorter way round, ties the
// + way (as the machine routes); on a mesh the only way.
int signedSteps(int c, int t, int size, bool wrap) {
  if (!wrap) return t - c;
  const int forward = (t - c + size) % size;
  const int backward = size - forward;
  return forward <= backward ? forward : -backward;
}

}  // namespace

Network::Network(const Machine& machine, const Box& box, std::size_t cacheBudgetBytes)
    : nodes_(box.nodeCount),
      bandwidth_(machine.linkBandwidth),
      latency_(machine.hopLatency),
      topology_(machine.topology) {
  topology_->build(machine, box, cacheBudgetBytes, *this);
}

void Network::layDimensionOrder(const Box& box, const std::vector<int>& routingOrder,
                                std::vector<std::string> axisNames, std::size_t cacheBudgetBytes) {
  axes_ = box.axisCount();
  shape_ = box.shape;
  stride_ = box.stride;
  order_ = routingOrder;
  wrap_ = box.wrap;
  axisNames_ = std::move(axisNames);
  linkLimit_ = static_cast<LinkId>(nodes_) * 2 * axes_;
  nearbySlots_ = 2 * axes_;
  longest_ = 0;
  for (int a = 0; a < axes_; ++a) {
    const int size = shape_[a];
    longest_ += wrap_[a] ? size / 2 : size - 1;
    legStart_.push_back(static_cast<int>(legs_.size()));
    for (int c = 0; c < size; ++c)
      for (int t = 0; t < size; ++t)
        legs_.push_back(static_cast<std::int16_t>(signedSteps(c, t, size, box.wrap[a])));
  }
  coords_.reserve(static_cast<std::size_t>(nodes_) * axes_);
  for (int node = 0; node < nodes_; ++node)
    for (int c : box.coordinatesOf(node)) coords_.push_back(c);
  buildCache(cacheBudgetBytes);
}

void Network::buildCache(std::size_t budgetBytes) {
  const std::size_t pairs = static_cast<std::size_t>(nodes_) * nodes_;
  if ((pairs + 1) * sizeof(std::uint32_t) > budgetBytes) return;
  std::size_t links = 0;
  for (int p = 0; p < nodes_; ++p)
    for (int q = 0; q < nodes_; ++q) links += hops(p, q);
  if ((pairs + 1) * sizeof(std::uint32_t) + links * sizeof(LinkId) > budgetBytes ||
      links > UINT32_MAX)
    return;
  routeLinks_.reserve(links);
  std::vector<std::uint32_t> start;
  start.reserve(pairs + 1);
  for (int p = 0; p < nodes_; ++p)
    for (int q = 0; q < nodes_; ++q) {
      start.push_back(static_cast<std::uint32_t>(routeLinks_.size()));
      walk(p, q, [&](LinkId link) { routeLinks_.push_back(link); });
    }
  start.push_back(static_cast<std::uint32_t>(routeLinks_.size()));
  routeStart_ = std::move(start);  // from here on forEachLink reads the cache
}

void Network::layRouteTable(LinkId linkLimit, std::vector<std::uint32_t> start,
                            std::vector<LinkId> links, std::vector<double> bandwidth,
                            std::vector<double> latency) {
  axes_ = 0;
  linkLimit_ = linkLimit;
  routeStart_ = std::move(start);
  routeLinks_ = std::move(links);
  linkBandwidth_ = std::move(bandwidth);
  linkLatency_ = std::move(latency);
  longest_ = 0;
  for (std::size_t pair = 0; pair + 1 < routeStart_.size(); ++pair)
    longest_ = std::max(longest_, static_cast<int>(routeStart_[pair + 1] - routeStart_[pair]));
  // Nearby nodes: fewest hops, then the next ids cyclically (so ties spread over the machine
  // rather than all pointing at node 0).
  nearbySlots_ = std::min(kGraphNearby, nodes_ - 1);
  nearby_.assign(static_cast<std::size_t>(nodes_) * std::max(0, nearbySlots_), -1);
  std::vector<std::pair<int, int>> order;  // (hops, cyclic offset)
  for (int node = 0; node < nodes_ && nearbySlots_ > 0; ++node) {
    order.clear();
    for (int offset = 1; offset < nodes_; ++offset)
      order.push_back({hops(node, (node + offset) % nodes_), offset});
    std::partial_sort(order.begin(), order.begin() + nearbySlots_, order.end());
    for (int s = 0; s < nearbySlots_; ++s)
      nearby_[static_cast<std::size_t>(node) * nearbySlots_ + s] =
          (node + order[s].second) % nodes_;
  }
}

std::vector<LinkId> Network::route(int p, int q) const {
  std::vector<LinkId> links;
  forEachLink(p, q, [&](LinkId link) { links.push_back(link); });
  return links;
}

int Network::linkTarget(LinkId link) const {
  const int source = linkSource(link), axis = linkAxis(link);
  const int c = coordinate(source, axis), size = shape_[axis];
  if (linkIsPlus(link))
    return c + 1 == size ? source - (size - 1) * stride_[axis] : source + stride_[axis];
  return c == 0 ? source + (size - 1) * stride_[axis] : source - stride_[axis];
}

int Network::neighbour(int node, int axis, bool plus) const {
  const int c = coordinate(node, axis), size = shape_[axis];
  if (size == 1) return -1;
  if (plus ? c + 1 < size : c > 0) return node + (plus ? stride_[axis] : -stride_[axis]);
  if (!wrap_[axis]) return -1;
  return linkTarget(static_cast<LinkId>(node) * 2 * axes_ + 2 * axis + (plus ? 0 : 1));
}

}  // namespace tac3map
