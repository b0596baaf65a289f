// Predicted time of one kernel iteration under a mapping (the seed papers' model, the exact
// definition in docs/predict.md): a communication of M bytes whose busiest route link carries
// C messages of its CCS takes t(C x M) plus a hop latency per hop beyond the first; a CCS
// takes as long as its slowest communication; communication time is the sum over CCSs.
// Local work (compute and copy events of the trace) adds the largest per-rank total.
#pragma once

#include <vector>

#include "tac3map/mapping.hpp"
#include "tac3map/objective.hpp"
#include "tac3map/profile.hpp"
#include "tac3map/routing.hpp"
#include "tac3map/trace.hpp"

namespace tac3map {

struct CcsTime {
  double seconds = 0;
  int slowest = -1;     // communication index in the Problem
  int contention = 0;   // C of the slowest communication
  int busiestLink = 0;  // largest load of the CCS
};

struct Prediction {
  std::vector<CcsTime> ccs;
  double communication = 0;
  double computation = 0;  // largest per-rank compute + copy time
  double total = 0;
};

struct PredictModel {
  const TimeModel& message;
  const TimeModel& copy;
  double hopLatency = 0;
};

// Largest over ranks of the rank's compute seconds plus its copies' modelled times.
double localWorkSeconds(const Trace& trace, const TimeModel& copy);

Prediction predict(const Problem& problem, const Router& router, const Mapping& mapping,
                   const PredictModel& model, double localWork);

// Whether a barrier between CCS t and t+1 pays: without it, t+1's messages may start while
// t's are still in flight and share their links. `penalty` is how much longer t+1 takes when
// each of its messages meets the loads of both CCSs, against `barrier`, the profile's cost.
struct BarrierAdvice {
  int after = 0;  // the boundary after CCS `after`
  int contentionAlone = 0, contentionOverlapped = 0;
  double penalty = 0, barrier = 0;
  bool pays = false;
};
std::vector<BarrierAdvice> barrierAdvice(const Problem& problem, const Router& router,
                                         const Mapping& mapping, const PredictModel& model,
                                         double barrierSeconds);

}  // namespace tac3map
