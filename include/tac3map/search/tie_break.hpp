// The tie-break after a tac3 search (issue 11): among mappings of equal objective, fewer
// shared-link pairs, then fewer byte-hops. The annealer already prefers fewer pairs at equal
// objective, but it never sees hops: CG-64's search stops at the lower bound with 3.12
// average hops where maps at the same bound take 1.69 (docs/model.md). This refiner is a
// greedy descent on the key (objective, pairs, byte-hops) from the search's result: it tries
// each task, in rank order, on the positions near its partners (every position on small
// boxes), makes a move only when the key falls, and stops after a pass that moves nothing or
// when its budget of candidate moves is spent. It draws no random number and counts work, not
// time, so a seeded result depends only on its start and budget.
//
// At scale (a search that starts cold, objectives.hpp) the key is (objective, byte-hops,
// pairs) and the budget larger: there the issue asks for a map that keeps hop-bytes while it
// lowers contention, and a cold single-level search leaves many moves that shorten routes
// without touching any set's busiest link (20,000-rank mesh: 20% fewer byte-hops, same tac3).
#pragma once

#include <cstdint>
#include <vector>

#include "tac3map/mapping/mapping.hpp"
#include "tac3map/model/objective.hpp"
#include "tac3map/network/network.hpp"
#include "tac3map/search/deadline.hpp"
#include "tac3map/search/schedule.hpp"

namespace tac3map {

// Which term the descent compares after the objective.
enum class TieOrder {
  PairsFirst,  // (objective, shared-link pairs, byte-hops): the key chains rank by
  HopsFirst,   // (objective, byte-hops, shared-link pairs)
};

struct TieBreakResult {
  Mapping mapping;
  std::uint64_t moves = 0;     // moves made
  std::uint64_t examined = 0;  // candidate moves looked at (their hops counted)
  std::uint64_t trials = 0;    // of those, moves evaluated by the engine
  std::uint64_t work = 0;      // communications visited: hop counts and engine evaluations
  int passes = 0;
  bool timedOut = false;  // stopped at the deadline, before its budget or its last pass
};

// Boxes with at most this many positions (nodes x ranks per node) try every position;
// larger ones try the nodes of a task's partners and their neighbours, every slot.
inline constexpr int kTieBreakAllPositions = 512;
inline constexpr int kTieBreakMaxPasses = 16;
// The descent stops once its work — communications visited, counting each candidate's hop
// count and each engine evaluation as the moving tasks' communications — reaches `budget`.
// After a search the budget is what the search's trials visited (each trial touches two
// tasks' communications), and at least kTieBreakMinWork: the descent at most about doubles a
// search's work (without a budget, a 1,024-rank all-to-all on a K box took 311 s after a 2 s
// search: every pass examines a million candidates of 2,000 messages each).
// HopsFirst: at least kHopsFirstWorkPerCommunication x the problem's communications. On the
// 20,000-rank mesh of docs/performance.md this is 8x the search's budget and buys 20% fewer
// byte-hops for 2 s; 4x more work again buys 0.8% more.
inline constexpr std::uint64_t kTieBreakMinWork = std::uint64_t{1} << 24;
inline constexpr std::uint64_t kHopsFirstWorkPerCommunication = 1024;
std::uint64_t tieBreakBudget(const Problem& problem, std::uint64_t searchTrials,
                             TieOrder order = TieOrder::PairsFirst);

// `schedule` gives the engine (Tac3Engine) and the allocation; its temperature and time
// fields are not used. The result's tac3 is never above the start's. The descent also stops at
// `deadline` (it looks at the clock every kTieBreakCheckWork of work), keeping the moves made:
// only then does its result depend on more than its start and budget.
inline constexpr std::uint64_t kTieBreakCheckWork = std::uint64_t{1} << 16;
TieBreakResult breakTac3Ties(const Problem& problem, const Network& router, const Mapping& start,
                             const Schedule& schedule, std::uint64_t budget,
                             const Deadline& deadline = {}, TieOrder order = TieOrder::PairsFirst);

}  // namespace tac3map
