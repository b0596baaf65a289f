#include "tac3map/mapping/allocation.hpp"

#include <utility>

#include "tac3map/io/error.hpp"

namespace tac3map {

Allocation Allocation::wholeBox(int boxNodes, int slotsPerNode) {
  Allocation a;
  a.boxNodes_ = boxNodes;
  a.slots_ = slotsPerNode;
  return a;
}

Allocation Allocation::ofNodes(std::vector<int> nodes, int boxNodes, int slotsPerNode) {
  Allocation a = wholeBox(boxNodes, slotsPerNode);
  if (static_cast<int>(nodes.size()) == boxNodes) {
    // Every node, perhaps in another order: keep the order (placements follow it).
    bool inOrder = true;
    for (int i = 0; i < boxNodes && inOrder; ++i) inOrder = nodes[i] == i;
    if (inOrder) return a;
  }
  a.holds_.assign(boxNodes, 0);
  for (int node : nodes) {
    if (node < 0 || node >= boxNodes || a.holds_[node])
      throw InputError("an allocation lists node " + std::to_string(node) +
                       " twice or outside the box");
    a.holds_[node] = 1;
  }
  a.held_ = std::move(nodes);
  return a;
}

Mapping Allocation::onHeldNodes(Mapping placement) const {
  if (!isWholeBox())
    for (int& node : placement.nodeOfTask) node = held_[node];
  return placement;
}

void Allocation::checkFits(long long tasks, const std::string& source) const {
  if (tasks > slotCount())
    failIn(source, std::to_string(tasks) + " tasks do not fit on its " +
                       std::to_string(nodeCount()) + " nodes (" + std::to_string(slots_) +
                       " per node)");
}

Mapping Allocation::block(int tasks) const {
  checkFits(tasks, "block placement");
  return onHeldNodes(blockPlacement(tasks, slots_));
}

Mapping Allocation::roundRobin(int tasks) const {
  checkFits(tasks, "round-robin placement");
  return onHeldNodes(roundRobinPlacement(tasks, slots_));
}

Mapping Allocation::random(int tasks, std::uint64_t seed) const {
  checkFits(tasks, "random placement");
  return onHeldNodes(randomPlacement(tasks, nodeCount(), seed, slots_));
}

void Allocation::checkHolds(const Mapping& mapping, const std::string& source,
                            const std::string& held) const {
  for (int task = 0; task < mapping.tasks(); ++task)
    if (!holds(mapping.nodeOfTask[task]))
      failIn(source, "task " + std::to_string(task) + " is on a node that is not in " + held);
}

}  // namespace tac3map
