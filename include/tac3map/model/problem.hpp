// A Problem is the CCS list compiled for evaluation: flat per-communication arrays (only
// communications between two different tasks, since a task's messages to itself never touch
// the network), the contention model, each CCS's lower bound, and the union sets of phase
// overlap. Every evaluator and engine reads it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tac3map/model/ccs.hpp"
#include "tac3map/model/model.hpp"

namespace tac3map {

struct Problem {
  int tasks = 0;
  int ccsCount = 0;
  std::vector<int> src, dst, ccs;  // per communication
  std::vector<std::uint64_t> bytes;
  Model model;  // engines, ranks per node (model.hpp); default: the paper's setting
  // Per CCS, a lower bound of its cost whatever the mapping, in weighted link bytes (the
  // largest message x linkWeight, or a node's messages on its engines if more; 0 with several
  // ranks per node, where any message may stay inside a node).
  std::vector<std::uint64_t> bound;
  // Phase overlap (model.overlap): after the trace's CCSs [0, realCcsCount) and their
  // communications [0, realCommunications) come one union set per overlapping pair of
  // consecutive CCSs t, t + 1, holding copies of both CCSs' messages; overlapFirst[u] = t for
  // such a union u, -1 for the trace's CCSs. A union loads network links only: a rank's
  // messages in t and t + 1 are ordered, and its engines are charged in t and t + 1 alone.
  // tac3 = sum of the CCSs' costs + sum over unions u of cost(u) - max(cost(t), cost(t + 1)):
  // what the two CCSs' messages add to each other's busiest links when they run together.
  int realCcsCount = 0;
  std::size_t realCommunications = 0;
  std::vector<int> overlapFirst;

  std::size_t communicationCount() const { return src.size(); }
  bool isUnion(int t) const { return t >= realCcsCount; }
};

Problem makeProblem(const CcsSet& sets, const Model& model = {});

// Every exact score is a 64-bit sum (objective.hpp): tac3 adds per CCS its messages x the
// largest route weight x its largest message, tahb the bytes x hops, the tie-break the squared
// weighted loads. With messages below 2^62 and up to 2^24 of them these can pass 2^64, so the
// worst case of each is bounded here in 128 bits (unions of overlapping CCSs included) and the
// input is refused, naming `source` and the CCS's largest message, when one could pass 2^63 - 1
// (the engines' signed deltas). `longestRoute`: the most network links of one route.
void checkScoreArithmetic(const CcsSet& sets, const Model& model, int longestRoute,
                          const std::string& source);

}  // namespace tac3map
