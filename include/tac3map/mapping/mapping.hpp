// A mapping puts each task (MPI rank) on a node of the box and in one of the node's slots
// (several ranks per node: --ranks-per-node K gives each node K slots; two ranks of one node
// have distinct slots). The file format (docs/file-formats.md): '# tac3map mapping 1',
// comments, then '<rank> <coordinates> [slot]' with one box-relative coordinate per machine
// axis; without a slot a rank takes its node's lowest free slot.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tac3map/network/machine.hpp"

namespace tac3map {

struct Mapping {
  Mapping() = default;
  Mapping(std::vector<int> nodes, std::vector<int> slots = {})
      : nodeOfTask(std::move(nodes)), slotOfTask(std::move(slots)) {}

  std::vector<int> nodeOfTask;  // box node id of each task
  std::vector<int> slotOfTask;  // slot of each task on its node; empty: all in slot 0

  int tasks() const { return static_cast<int>(nodeOfTask.size()); }
  int slotOf(int task) const { return slotOfTask.empty() ? 0 : slotOfTask[task]; }
};

// "box 2x2 (4 nodes, one task per node)": what checkTasksFit's message says tasks go on.
std::string boxCapacityText(const Box& box, int slotsPerNode);

// Throws when the tasks do not fit on the box's nodes, `slotsPerNode` tasks per node.
void checkTasksFit(int tasks, const Box& box, const std::string& source, int slotsPerNode = 1);

// Block placement: rank k on the (k / K)-th node of the box in X-fastest order, slot k mod K
// (K = 1: the paper's "no-ring"; K > 1: what launchers do by default).
Mapping identityMapping(int tasks, const Box& box, int slotsPerNode = 1);
// Round-robin: over the first ceil(tasks / K) nodes, rank k on node k mod n, slot k / n.
Mapping roundRobinMapping(int tasks, const Box& box, int slotsPerNode);
// A uniformly random placement (Fisher-Yates over the node slots), reproducible from the seed.
Mapping randomMapping(int tasks, const Box& box, std::uint64_t seed, int slotsPerNode = 1);

// The same three placements over nodes 0 .. nodes-1 of any node set (e.g. a node table's
// nodes in table order; the caller renames them), without the fit check.
Mapping blockPlacement(int tasks, int slotsPerNode);
Mapping roundRobinPlacement(int tasks, int slotsPerNode);
Mapping randomPlacement(int tasks, int nodes, std::uint64_t seed, int slotsPerNode);

Mapping readMapping(const std::string& path, const Box& box, int tasks, int slotsPerNode = 1);

// Collects rank -> (node, slot) while a mapping file is read, with the checks every reader
// needs: each rank once, on a node of the box (node -1: not in it), at most K ranks per node
// in distinct slots 0..K-1 (slot -1: the node's lowest free slot). Errors name file and line.
class MappingBuilder {
 public:
  MappingBuilder(std::string source, const Box& box, int tasks, int slotsPerNode = 1);
  void place(long long rank, int node, std::size_t line, long long slot = -1);
  Mapping finish() const;  // every rank placed

 private:
  std::string source_;
  int slots_;
  Mapping mapping_;
  std::vector<std::size_t> lineOf_;
  std::vector<int> rankIn_;  // node * K + slot -> rank, -1 free
};
// The coordinates file of a mapping with K = `slotsPerNode` slots per node; its header records
// the job (mapping_context.hpp: the machine, its file `machine.source`, the box and K).
std::string formatMapping(const Mapping& mapping, const Machine& machine, const Box& box,
                          int slotsPerNode = 1);
// The number of rank lines of a tac3map mapping file (readMapping's format), or -1 when
// `path` is not one (another rank map format, or not a file): what a command that has no
// trace sizes the mapping by.
int mappingFileRanks(const std::string& path);

// Checks that every task has a node of the box and a slot 0..K-1 no other task has there.
void checkMapping(const Mapping& mapping, const Box& box, const std::string& source,
                  int slotsPerNode = 1);

}  // namespace tac3map
