// The timeline model (docs/model.md, "The timeline"): how long the trace takes when each
// message starts as soon as both its ranks are ready, instead of the sum over CCSs of each
// CCS's slowest message (tac3).
//
// Every rank has a clock. The CCSs are walked in trace order (Problem::ccsOfSet); a message
// of CCS t starts when its sender's and its receiver's clocks have both reached it (their
// earlier messages done), takes its duration, and moves both clocks to its end (an eager
// send, Problem::eager, only its receiver's: its sender goes on once it is posted); the messages
// of one CCS start from the clocks as they were before the CCS (they travel together). A
// barrier between two CCSs (Problem::barrierBefore) moves every clock to the latest. The
// length is the latest clock at the end.
//
// A message's duration is what its CCS makes of it: the largest, over the links it loads, of
// the link's weighted load x the link's largest message in that CCS (the unit of ExactScores),
// or a caller's seconds (predict). With a barrier between every two CCSs every CCS starts when
// the one before has ended and lasts as long as its slowest message: the length is then tac3
// exactly. Without barriers, a rank whose messages are done goes on to its next ones while
// others still wait, as ranks do in a run.
//
// A whole run is its kernel's iteration many times over: the walk finds the iteration
// (findPeriod) and, once one iteration moves every clock by the same amount as the iteration
// before it (the clocks' differences no longer change), adds that amount for each iteration
// left instead of walking them; exact, because the walk of an iteration is the same
// max-plus map each time.
#pragma once

#include <cstdint>
#include <vector>

#include "tac3map/mapping/mapping.hpp"
#include "tac3map/model/problem.hpp"
#include "tac3map/network/network.hpp"

namespace tac3map {

// What a problem's order needs, found once: the members of each CCS and the iteration.
class TimelinePlan {
 public:
  explicit TimelinePlan(const Problem& problem);

  // The length for per-communication durations (indexed like the problem's communications;
  // only the trace's own, [0, realCommunications), are read). Exact for integers.
  std::uint64_t length(const std::vector<std::uint64_t>& duration) const;
  double length(const std::vector<double>& duration) const;
  // The same, walking every set of the trace (no iteration skipped): the reference.
  std::uint64_t walkAll(const std::vector<std::uint64_t>& duration) const;

  const Period& period() const { return period_; }

 private:
  template <class T>
  T walk(const std::vector<T>& duration, bool skip) const;

  const Problem& problem_;
  std::vector<std::vector<std::size_t>> members_;  // per CCS, its communications
  Period period_;
};

// Per communication: its duration in its CCS under the mapping, in ExactScores' tac3 unit
// (weighted link bytes): max over its links of weighted load x largest message.
std::vector<std::uint64_t> messageDurations(const Problem& problem, const Network& router,
                                            const Mapping& mapping);

// The timeline length of the mapping in ExactScores' tac3 unit (divide by tac3Scale x B for
// seconds).
std::uint64_t timelineExact(const Problem& problem, const TimelinePlan& plan, const Network& router,
                            const Mapping& mapping);

}  // namespace tac3map
