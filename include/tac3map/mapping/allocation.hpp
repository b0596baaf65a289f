// The job's allocation: the nodes of the box its ranks may occupy (every node, or the nodes of
// a node table in the table's order: a non-contiguous allocation) and K slots on each (K =
// --ranks-per-node). A mapping (mapping.hpp) puts each rank in one slot of the allocation; the
// search (annealer, tie-break) moves ranks only between its slots; launcher files write the
// slot as cores. Positions number slots across the box: node * K + slot.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tac3map/mapping/mapping.hpp"

namespace tac3map {

class Allocation {
 public:
  // Every node of whatever box the search runs on, one slot each (a default Schedule's).
  Allocation() = default;
  // Every node of a box of `boxNodes` nodes.
  static Allocation wholeBox(int boxNodes, int slotsPerNode = 1);
  // `nodes` (distinct box node ids, in this order) of a box of `boxNodes` nodes.
  static Allocation ofNodes(std::vector<int> nodes, int boxNodes, int slotsPerNode = 1);

  bool isWholeBox() const { return held_.empty(); }
  int slotsPerNode() const { return slots_; }
  // Nodes held; with isWholeBox() and no box given, 0 (the caller's box decides).
  int nodeCount() const { return isWholeBox() ? boxNodes_ : static_cast<int>(held_.size()); }
  // The i-th node held: table order, or box order for a whole box.
  int node(int i) const { return isWholeBox() ? i : held_[i]; }
  bool holds(int node) const { return isWholeBox() || holds_[node]; }
  long long slotCount() const { return static_cast<long long>(nodeCount()) * slots_; }

  // Launcher placements over the held nodes in order (block = identity: rank k on the
  // (k / K)-th node, slot k mod K; round-robin over the first ceil(tasks / K) nodes; random:
  // uniform over every slot, reproducible from the seed). Throw if the tasks do not fit.
  Mapping block(int tasks) const;
  Mapping roundRobin(int tasks) const;
  Mapping random(int tasks, std::uint64_t seed) const;

  // Throws InputError naming `source` when `tasks` do not fit in slotCount().
  void checkFits(long long tasks, const std::string& source) const;
  // Throws InputError naming `source` (the mapping) when a task is on a node not held;
  // `held` names the allocation (e.g. the node table's file).
  void checkHolds(const Mapping& mapping, const std::string& source, const std::string& held) const;

 private:
  Mapping onHeldNodes(Mapping placement) const;

  int boxNodes_ = 0;
  int slots_ = 1;
  std::vector<int> held_;    // empty: every node
  std::vector<char> holds_;  // per box node, when not the whole box
};

}  // namespace tac3map
