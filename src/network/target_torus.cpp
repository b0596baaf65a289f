#include "tac3map/network/target_torus.hpp"

#include "tac3map/io/error.hpp"
#include "tac3map/network/tofu_view.hpp"

namespace tac3map {

TargetTorus targetTorusOf(const Machine& machine, const Box& box) {
  try {
    const LogicalTorus view = tofuLogicalTorus(machine, box);
    return {{view.size[0], view.size[1], view.size[2]},
            {view.closed[0], view.closed[1], view.closed[2]},
            view.node};
  } catch (const InputError&) {
    // not a Tofu machine: the box's axes are the torus
  }
  TargetTorus torus{box.shape, box.wrap, {}};
  for (int cell = 0; cell < box.nodeCount; ++cell) {
    std::vector<int> coordinates;
    int rest = cell;
    for (int extent : box.shape) {
      coordinates.push_back(rest % extent);
      rest /= extent;
    }
    torus.node.push_back(box.nodeAt(coordinates));
  }
  return torus;
}

}  // namespace tac3map
