#include "tac3map/network/network.hpp"

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
    : axes_(box.axisCount()),
      nodes_(box.nodeCount),
      shape_(box.shape),
      stride_(box.stride),
      order_(machine.routingOrder),
      wrap_(box.wrap) {
  for (int a = 0; a < axes_; ++a) {
    const int size = shape_[a];
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

int Network::longestRoute() const {
  int longest = 0;
  for (int a = 0; a < axes_; ++a) longest += wrap_[a] ? shape_[a] / 2 : shape_[a] - 1;
  return longest;
}

int Network::neighbour(int node, int axis, bool plus) const {
  const int c = coordinate(node, axis), size = shape_[axis];
  if (size == 1) return -1;
  if (plus ? c + 1 < size : c > 0) return node + (plus ? stride_[axis] : -stride_[axis]);
  if (!wrap_[axis]) return -1;
  return linkTarget(static_cast<LinkId>(node) * 2 * axes_ + 2 * axis + (plus ? 0 : 1));
}

}  // namespace tac3map
