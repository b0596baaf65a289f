// A mapping puts each task (MPI rank) on its own node of the box. The file format
// (docs/mapping-format.md): '# tac3map mapping 1', comments, then '<rank> <coordinates>' with
// one box-relative coordinate per machine axis.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tac3map/machine.hpp"

namespace tac3map {

struct Mapping {
  std::vector<int> nodeOfTask;  // box node id of each task

  int tasks() const { return static_cast<int>(nodeOfTask.size()); }
};

// Throws when the tasks do not fit on the box's nodes (one task per node).
void checkTasksFit(int tasks, const Box& box, const std::string& source);

// Rank k on the k-th node of the box in X-fastest order (the paper's "no-ring").
Mapping identityMapping(int tasks, const Box& box);
// A uniformly random placement (Fisher-Yates over the nodes), reproducible from the seed.
Mapping randomMapping(int tasks, const Box& box, std::uint64_t seed);

Mapping readMapping(const std::string& path, const Box& box, int tasks);

// Collects rank -> node while a mapping file is read, with the checks every reader needs:
// each rank once, on a node of the box (node -1: not in it), alone. Errors name file and line.
class MappingBuilder {
 public:
  MappingBuilder(std::string source, const Box& box, int tasks);
  void place(long long rank, int node, std::size_t line);
  Mapping finish() const;  // every rank placed

 private:
  std::string source_;
  Mapping mapping_;
  std::vector<std::size_t> lineOf_;
  std::vector<int> rankOn_;
};
std::string formatMapping(const Mapping& mapping, const Machine& machine, const Box& box);

// Checks that every task has a node of the box and no two share one.
void checkMapping(const Mapping& mapping, const Box& box, const std::string& source);

}  // namespace tac3map
