// Predicted time of one kernel iteration under a mapping (the seed papers' model, the exact
// definition in docs/predict.md): a communication of M bytes whose busiest route link carries
// C messages of its CCS (link_loads.hpp: the score's loads, where engines may make C fractional)
// takes t(C x M) plus a hop latency per hop beyond the first; inside a node it takes the start-up
// latency plus n x M / intra-node bandwidth (n: its CCS's messages in that node, which share
// it); a CCS takes as long as its slowest communication; communication time is the sum over
// CCSs. Local work (compute and copy events of the trace) adds the largest per-rank total.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tac3map/io/trace.hpp"
#include "tac3map/mapping/mapping.hpp"
#include "tac3map/model/ccs.hpp"
#include "tac3map/model/collectives.hpp"
#include "tac3map/model/objective.hpp"
#include "tac3map/model/profile.hpp"
#include "tac3map/model/timeline.hpp"
#include "tac3map/network/network.hpp"

namespace tac3map {

struct CcsTime {
  double seconds = 0;
  int slowest = -1;           // communication index in the Problem
  double contention = 0;      // C of the slowest communication (engines may make it fractional)
  int busiestLink = 0;        // most messages of the CCS on one network link
  std::uint64_t repeats = 1;  // how often the CCS occurs in the trace (problem.hpp)
};

struct Prediction {
  std::vector<CcsTime> ccs;  // per CCS of the problem (repeated sets once, with their count)
  double communication = 0;  // the sum over CCSs of each CCS's slowest communication
  // The timeline model's communication time (timeline.hpp): each communication starts when
  // both its ranks are ready. Equal to `communication` with barriers between all steps.
  double timeline = 0;
  // The flow model's (flow.hpp) with the profile's message times: messages in flight share
  // links, whichever step they belong to. Nothing when not asked for (PredictModel::flow) or
  // when the trace is above the flow model's limits.
  std::optional<double> flow;
  bool flowSampled = false;  // the flow figure is sampledFlowSeconds' (flow.hpp)
  double computation = 0;    // largest per-rank compute + copy time
  double total = 0;          // flow (else timeline) + computation
};

struct PredictModel {
  const TimeModel& message;
  const TimeModel& copy;
  double hopLatency = 0;
  // Engines and ranks per node, for problems predict builds itself (collectives alone); a
  // problem's own messages inside a node take problem.model.messageLatency + n x M /
  // problem.model.intraNodeBandwidth (0: free).
  Model network;
  // Also simulate the trace with the flow model, and take its length for the total.
  bool flow = true;
};

// Largest over ranks of the rank's compute seconds plus its copies' modelled times.
double localWorkSeconds(const Trace& trace, const TimeModel& copy);

// `plan`: the problem's timeline plan when the caller keeps one (Job), else one is made.
Prediction predict(const Problem& problem, const Network& router, const Mapping& mapping,
                   const PredictModel& model, double localWork, const TimelinePlan* plan = nullptr);

// Whether a barrier between CCS t and t+1 pays: without it, t+1's messages may start while
// t's are still in flight and share their links. `penalty` is how much longer t+1 takes when
// each of its messages meets the loads of both CCSs, against `barrier`, the profile's cost.
struct BarrierAdvice {
  int after = 0;  // the boundary after CCS `after` of the trace (in trace order)
  int contentionAlone = 0, contentionOverlapped = 0;
  double penalty = 0, barrier = 0;
  bool pays = false;
  // Filled by placeBarriers: where the barrier goes in the trace and what it gains.
  std::string file;        // the trace file of the next CCS's first send
  std::size_t line = 0;    // its line; 0: the next CCS has no message
  int src = -1, dst = -1;  // that message
  bool sameLevel = false;  // CCS after and after+1 are one program step, split for the engines
  double gain = 0;         // seconds an iteration saves with the barrier: penalty - barrier
  double gainPercent = 0;  // gain in percent of the iteration's time without the barrier
};
std::vector<BarrierAdvice> barrierAdvice(const Problem& problem, const Network& router,
                                         const Mapping& mapping, const PredictModel& model,
                                         double barrierSeconds);

// Makes the advice actionable. A barrier before CCS t+1 goes before the send that starts its
// first message: of t+1's communications, the one whose send event comes first in the trace
// (file index, then line; a collective's steps carry the collective's line). The iteration
// takes `iterationSeconds` (predict's total) + penalty without the barrier and
// `iterationSeconds` + barrier with it: gain = penalty - barrier, gainPercent = 100 x gain /
// (iterationSeconds + penalty). Two CCSs of one level (one engine splits a level's messages
// into several sets) are one program step: no barrier can go between them, so it never pays.
void placeBarriers(std::vector<BarrierAdvice>& advice, const CcsSet& sets, const Trace& trace,
                   double iterationSeconds);

// One collective call of the trace (as its communicator's first member makes it) and the
// predicted time of each algorithm that can run it, alone, under the mapping.
struct CollectiveCall {
  CollectiveOp op = CollectiveOp::Barrier;
  std::uint64_t bytes = 0;
  int root = 0;
  std::vector<int> members;  // world ranks, communicator order
  std::size_t line = 0;
};
std::vector<CollectiveCall> collectiveCalls(const Trace& trace);

struct AlgorithmTime {
  Algorithm algorithm;
  double seconds = 0;
};
std::vector<AlgorithmTime> compareAlgorithms(const CollectiveCall& call, int ranks,
                                             const Network& router, const Mapping& mapping,
                                             const PredictModel& model);

// Message sizes 8 B .. 16 MiB (powers of two): the best algorithm of each range of sizes
// where it stays the best.
struct BestRange {
  std::uint64_t from = 0, to = 0;
  Algorithm algorithm;
};
std::vector<BestRange> bestBySize(CollectiveCall call, int ranks, const Network& router,
                                  const Mapping& mapping, const PredictModel& model);

}  // namespace tac3map
