// The objectives of the paper and the plain reference evaluator that computes them from
// scratch. A Problem is the CCS list compiled for evaluation: only communications between two
// different tasks, since a task's messages to itself never touch the network.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tac3map/ccs.hpp"
#include "tac3map/mapping.hpp"
#include "tac3map/model.hpp"
#include "tac3map/routing.hpp"

namespace tac3map {

// The objectives; each is declared with its name, value and engine in objectives.hpp.
enum class ObjectiveKind { Tac3, Tahb, RmattO2f };

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

// Exact integer forms of the objectives; seconds and byte-hops are derived from these.
struct ExactScores {
  // sum_t max_c M_c * coll_t(c), coll in weighted loads (model.hpp): seconds x B x tac3Scale
  std::uint64_t tac3ByteCounts = 0;
  std::uint64_t lowerBoundBytes = 0;  // sum_t bound_t, same unit
  std::uint64_t tac3Scale = 1;        // the model's linkWeight
  std::uint64_t sharedPairs = 0;      // sum_t,l w_l^2 C(n_t(l), 2): the annealer's tie-break
  std::uint64_t tahbByteHops = 0;     // sum_c M_c * hops(c)
  std::uint64_t maxLinkBytes = 0;     // largest total bytes over one link, whole iteration
  std::uint64_t totalBytes = 0;       // sum_c M_c
  int maxLinkMessages = 0;            // max_t,l load_t(l)
};

struct Scores {
  double tac3 = 0;            // seconds
  double tac3LowerBound = 0;  // seconds
  double tahb = 0;            // byte-hops
  double rmattO2f = 0;        // byte-hops x bytes
  int maxLinkMessages = 0;
  double avgHops = 0;  // bytes-weighted
};

// The reference: routes every communication under the problem's model, counts link loads per
// CCS in plain containers.
ExactScores evaluateExact(const Problem& problem, const Router& router, const Mapping& mapping);
Scores toScores(const ExactScores& exact, double linkBandwidth);
Scores evaluate(const Problem& problem, const Router& router, const Mapping& mapping,
                double linkBandwidth);

// sum over CCSs of their bounds: no mapping has a lower tac3 (in ExactScores' unit).
std::uint64_t tac3LowerBoundBytes(const Problem& problem);

}  // namespace tac3map
