#include "tac3map/routing.hpp"

namespace tac3map {

Router::Router(const Machine& machine, const Box& box)
    : axes_(box.axisCount()),
      nodes_(box.nodeCount),
      shape_(box.shape),
      stride_(box.stride),
      order_(machine.routingOrder) {
  for (bool w : box.wrap) wrap_.push_back(w ? 1 : 0);
  coords_.resize(static_cast<std::size_t>(nodes_) * axes_);
  for (int node = 0; node < nodes_; ++node) {
    int rest = node;
    for (int a = 0; a < axes_; ++a) {
      coords_[node * axes_ + a] = rest % shape_[a];
      rest /= shape_[a];
    }
  }
}

std::vector<LinkId> Router::route(int p, int q) const {
  std::vector<LinkId> links;
  forEachLink(p, q, [&](LinkId link) { links.push_back(link); });
  return links;
}

int Router::linkTarget(LinkId link) const {
  const int source = linkSource(link), axis = linkAxis(link);
  const int c = coordinate(source, axis), size = shape_[axis];
  if (linkIsPlus(link)) return c + 1 == size ? source - (size - 1) * stride_[axis]
                                             : source + stride_[axis];
  return c == 0 ? source + (size - 1) * stride_[axis] : source - stride_[axis];
}

}  // namespace tac3map
