// Static dimension-order routing inside a box. Every directed link has an integer id
// (node * 2 * axes + 2 * axis + direction, direction 0 = +, 1 = -); ids of links that do not
// exist (mesh edges, axes of size 1) are never produced. Hot path: the link walk is a template
// over a callback, on flat integer coordinates, with no allocation.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tac3map/machine.hpp"

namespace tac3map {

using LinkId = std::int32_t;

class Router {
 public:
  Router(const Machine& machine, const Box& box);

  int nodeCount() const { return nodes_; }
  int axisCount() const { return axes_; }
  // One past the largest link id: the size of a per-link array.
  LinkId linkIdLimit() const { return static_cast<LinkId>(nodes_) * 2 * axes_; }
  int coordinate(int node, int axis) const { return coords_[node * axes_ + axis]; }

  // Calls visit(LinkId) for each link of the route from node p to node q, in order.
  template <class Visit>
  void forEachLink(int p, int q, Visit&& visit) const;

  std::vector<LinkId> route(int p, int q) const;
  int hops(int p, int q) const;

  // Where a link starts and which way it goes, e.g. for reports: "node 5 X+".
  int linkSource(LinkId link) const { return link / (2 * axes_); }
  int linkAxis(LinkId link) const { return (link / 2) % axes_; }
  bool linkIsPlus(LinkId link) const { return link % 2 == 0; }
  // The node a link leads to.
  int linkTarget(LinkId link) const;

 private:
  // Direction (+1/-1) and number of steps along `axis` from coordinate c to t.
  void axisLeg(int axis, int c, int t, int& direction, int& steps) const;

  int axes_ = 0;
  int nodes_ = 0;
  std::vector<int> shape_, stride_, order_;
  std::vector<char> wrap_;
  std::vector<int> coords_;  // node * axes + axis
};

inline void Router::axisLeg(int axis, int c, int t, int& direction, int& steps) const {
  if (wrap_[axis]) {
    const int size = shape_[axis];
    const int forward = (t - c + size) % size;
    const int backward = size - forward;
    // Ties go the + way, as the machine's routing does.
    if (forward <= backward) {
      direction = 1;
      steps = forward;
    } else {
      direction = -1;
      steps = backward;
    }
  } else {
    direction = t >= c ? 1 : -1;
    steps = t >= c ? t - c : c - t;
  }
}

template <class Visit>
void Router::forEachLink(int p, int q, Visit&& visit) const {
  int current = p;
  const int* target = &coords_[q * axes_];
  for (int axis : order_) {
    int c = coords_[current * axes_ + axis];
    const int t = target[axis];
    if (c == t) continue;
    int direction = 0, steps = 0;
    axisLeg(axis, c, t, direction, steps);
    const int size = shape_[axis], stride = stride_[axis];
    const LinkId base = 2 * axis + (direction > 0 ? 0 : 1);
    for (int s = 0; s < steps; ++s) {
      visit(static_cast<LinkId>(current) * 2 * axes_ + base);
      c += direction;
      if (c == size) {
        c = 0;
        current -= (size - 1) * stride;
      } else if (c < 0) {
        c = size - 1;
        current += (size - 1) * stride;
      } else {
        current += direction * stride;
      }
    }
  }
}

inline int Router::hops(int p, int q) const {
  int total = 0;
  for (int axis = 0; axis < axes_; ++axis) {
    const int c = coords_[p * axes_ + axis], t = coords_[q * axes_ + axis];
    if (c == t) continue;
    int direction = 0, steps = 0;
    axisLeg(axis, c, t, direction, steps);
    total += steps;
  }
  return total;
}

}  // namespace tac3map
