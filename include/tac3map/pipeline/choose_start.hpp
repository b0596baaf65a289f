// The start of the search. `--init auto` scores every start that applies (the starts of
// initial_mapper.hpp, and a hop-bytes (tahb) search from each of them, whose short routes are
// a good start for a contention search) with the chosen objective and starts from the best:
// a single-move
// search cannot leave a start whose every neighbour is worse, so the start decides where it
// ends up.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "tac3map/mapping/mapping.hpp"
#include "tac3map/model/objective.hpp"
#include "tac3map/search/annealer.hpp"

namespace tac3map {

struct StartCandidate {
  std::string name;
  Mapping mapping;
  ExactScores scores;
  // False for a candidate of map's flow ranking only (the extra seeds below): never the start.
  bool mayStart = true;
};

struct ChosenStart {
  std::vector<StartCandidate> candidates;  // in the order tried
  // Starts left out because the time was up (named starts not built, searches not run).
  std::vector<std::string> skipped;
  bool timeLimited = false;     // the deadline cut a search or left a start out
  double seconds = 0.0;         // building, scoring and searching the starts
  double scoringSeconds = 0.0;  // the longest scoring of one start (reference evaluator)
  // Lowest objective, the first on ties: not objectives.hpp's isBetter. At an equal score
  // the launcher's placements (tried first) simulate faster than a start with fewer shared
  // links or byte-hops (bench/simgrid/peers.sh: stencil 4x2x1x2x3x2 1.118x identity's time,
  // packed K = 4 CG-64 up to 1.257x block's), so the tie-break is for the search's result.
  std::size_t chosen = 0;

  const StartCandidate& best() const { return candidates[chosen]; }
};

// Builds and scores the `named` starts in order and, unless the objective is tahb itself, a
// hop-bytes search from each of them (same schedule, `seed`; named "tahb-search from NAME")
// and then one with tahb's own SearchDefaults (t0 for the job's size, t-end; cooling at most
// kDeepHopBytesCooling; `seed`, one chain) from the candidate with the fewest byte-hops (first
// on ties; "deep tahb-search from NAME"); picks the lowest. With tac3 and early stop, the first
// start at tac3's lower bound ends the choice: nothing can beat it, and the starts after it (a
// Scotch run on 159k ranks) and the searches are not worth their time. Time (Schedule::until(),
// from the call): once it is up, or shorter than the last start took to build and score, no further
// start is built (the first always is); no search runs once it is up, and the searches share it,
// each an equal part of what is left when it begins less the time its result takes to score (the
// deep search counts as one more). `progress` (optional) counts the starts tried; it gets no trials
// (the searches are of another objective than the main search's).
// With tac3, Schedule::flowCandidates and no time limit, the quick hop-bytes searches then run
// again with seeds seed + 1 .. seed + kFlowOnlySeeds ("tahb-search from NAME (seed S)"),
// candidates for map's flow ranking only: they never become the start.
using StartBuilder = std::function<Mapping()>;
inline constexpr std::uint64_t kFlowOnlySeeds = 3;
inline constexpr double kDeepHopBytesCooling = 0.98;
ChosenStart chooseStart(const Problem& problem, const Network& router, ObjectiveKind objective,
                        const std::vector<std::pair<std::string, StartBuilder>>& named,
                        const Schedule& schedule, std::uint64_t seed, Progress* progress = nullptr);

}  // namespace tac3map
