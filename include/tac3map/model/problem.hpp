// A Problem is the CCS list compiled for evaluation: flat per-communication arrays (only
// communications between two different tasks, since a task's messages to itself never touch
// the network), the contention model, each CCS's lower bound, and the union sets of phase
// overlap. Every evaluator and engine reads it.
//
// Repeated sets are kept once (docs/model.md, "Whole-run traces"): a whole run is its
// kernel's iteration many times over, so two CCSs with the same messages (the same sources,
// destinations and sizes) become one CCS with a repeat count, and every objective adds each
// CCS's cost times its count. The scores are exactly those of the uncompressed list; the
// engines' work per move is proportional to the distinct sets. Only where the model needs the
// order of the sets (phase overlap) is the list kept as it is.
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
  // Per communication: bytes x the repeats of its CCS, what it moves over the whole run
  // (hop-bytes and link byte totals add these).
  std::vector<std::uint64_t> volume;
  // Per communication: 1 when its sender goes on without waiting for it (Communication::eager;
  // the timeline and flow models); empty: none is.
  std::vector<std::uint8_t> eager;
  // Per CCS: how many times it occurs in the trace (1 for every union of phase overlap).
  std::vector<std::uint64_t> repeats;
  // Per CCS of the trace, in trace order: its index here (the identity when nothing repeats).
  std::vector<int> ccsOfSet;
  // Per CCS of the trace, in trace order: 1 when a barrier separates it from the set before
  // (every rank waits for all; the timeline model reads it, timeline.hpp).
  std::vector<std::uint8_t> barrierBefore;
  // A barrier before the first set, after the last (SimGrid's run ends when its ranks leave
  // it), and how barriers run (CcsSet::barrierAlgorithm): for the flow model.
  bool barrierFirst = false, barrierLast = false;
  Algorithm barrierAlgorithm = Algorithm::Dissemination;
  // Per CCS of the trace, in trace order: 1 when it is the same program step (level) as the
  // set before, split from it for the engines (ccs.hpp): the program sends both at once.
  std::vector<std::uint8_t> sameStep;
  Model model;  // engines, ranks per node (model.hpp); default: the paper's setting
  // Per CCS, a lower bound of its cost whatever the mapping, in weighted link bytes (the
  // largest message x linkWeight, or a node's messages on its engines if more; with several
  // ranks per node, where any message may stay inside a node, the largest message x the
  // lighter of the memory link and the network route, or 0 when in-node messages are free).
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

// `mergeRepeats` false keeps every set apart (the reference the merged problem is tested
// against); phase overlap keeps them apart anyway.
Problem makeProblem(const CcsSet& sets, const Model& model = {}, bool mergeRepeats = true);

// The problem's communication graph for hop-bytes (tahb): one communication per ordered pair
// of tasks that talk, its volume the pair's whole volume, all in one CCS. Hop-bytes are the
// same under every mapping (sum of volume x hops), and a move visits the two tasks' partners
// rather than all their messages: a whole-run trace's tens of thousands of messages between
// a few partners become a few edges.
Problem hopBytesProblem(const Problem& problem);

// The kernel's iteration in a list of sets (ccsOfSet): the shortest period that covers most
// of the list, where it starts, and how many times it repeats; length 0 when nothing repeats.
struct Period {
  std::size_t start = 0, length = 0, repeats = 0;
};
Period findPeriod(const std::vector<int>& sequence);
// The sequence a problem's iteration is found in (the timeline and flow models): each set and
// whether a barrier comes before it, so that a found iteration repeats the barriers too.
std::vector<int> orderKeys(const Problem& problem);

// Every exact score is a 64-bit sum (objective.hpp): tac3 adds per CCS its messages x the
// largest route weight x its largest message, tahb the bytes x hops, the tie-break the squared
// weighted loads. With messages below 2^62 and up to 2^24 of them these can pass 2^64, so the
// worst case of each is bounded here in 128 bits (unions of overlapping CCSs included) and the
// input is refused, naming `source` and the CCS's largest message, when one could pass 2^63 - 1
// (the engines' signed deltas). `longestRoute`: the most network links of one route.
void checkScoreArithmetic(const CcsSet& sets, const Model& model, int longestRoute,
                          const std::string& source);

}  // namespace tac3map
