// Step 2 of the CCS extraction (docs/trace-format.md, "Levels"): runs the ranks forward as far
// as MPI's completion rules allow and gives every communication its level. Private to
// src/model (ccs.cpp runs it).
//
// Two ways to know which send meets which receive:
//  - given (static): ccs.cpp matched the k-th send of a key with the k-th receive of it
//    before the run, which is MPI's rule when no receive takes any source or any tag;
//  - found as the ranks post (dynamic, for traces with such receives): each side goes to
//    matching::Matcher when its rank posts it, and the ranks run in the order of their
//    floors, so that a wildcard receive takes the message that would arrive first.
// Levels do not depend on the order the ranks run in once the matching is fixed, so the
// first way gives the same levels as the second on a trace without wildcards (tested).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tac3map/io/trace.hpp"
#include "tac3map/model/communication.hpp"

namespace tac3map::levels {

inline constexpr int kNone = -1;

// Per event, the communications it posts (up to two for sendrecv).
struct Posted {
  int send = kNone;  // communication whose send side this event posts
  int recv = kNone;  // communication whose receive side this event posts
};

// "send 3 1024 0": an event as a message names it.
std::string describe(const Trace& trace, const Event& e);

// Whether any receive of the trace takes any source or any tag.
bool hasWildcards(const Trace& trace);

struct LevelResult {
  std::vector<int> barrierLevels;  // floors at which a barrier released every rank, ascending
};

// Static matching: `posted` and `comms` as ccs.cpp matched them (Communication::eager set);
// fills each communication's level.
LevelResult runLevels(const Trace& trace, std::vector<std::vector<Posted>>& posted,
                      std::vector<Communication>& comms);

// Dynamic matching: `comms` is filled as the ranks post, eager by `eager(bytes)`; `posted`,
// when given, receives which communications each event posted (a wildcard receive's match).
LevelResult runLevelsMatching(const Trace& trace, std::vector<Communication>& comms,
                              const std::function<bool(std::uint64_t)>& eager,
                              std::vector<std::vector<Posted>>* posted = nullptr);

}  // namespace tac3map::levels
