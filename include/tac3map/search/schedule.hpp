// What a search is told and what it reports: how trials pick nodes, which tac3 engine runs,
// the temperature schedule, the allocation, the shared progress counters, and the result. The
// vocabulary of the annealing loop (annealing_loop.hpp), the objective table (objectives.hpp)
// and the annealer's entry points (annealer.hpp), which all build on it.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "tac3map/io/enum_names.hpp"
#include "tac3map/mapping/allocation.hpp"
#include "tac3map/mapping/mapping.hpp"
#include "tac3map/model/objective.hpp"
#include "tac3map/search/deadline.hpp"

namespace tac3map {

// How a trial picks the node it tries a task on: any node of the box (global), or a node at
// most one hop from one of the task's partners (local); auto = local above kLocalMovesAbove
// nodes, where a random node is nearly always a useless choice.
enum class MoveKind { Auto, Global, Local };
inline constexpr int kLocalMovesAbove = 2048;
// The names of moves values (enum_names.hpp): parse, name, --help and choice checks.
const EnumNames<MoveKind>& moveKindNames();
MoveKind parseMoveKind(const std::string& name);

// Which incremental engine evaluates tac3: auto = the compact one whenever it fits (see
// incremental_compact.hpp), else the general one. Both give the same search; tests and
// benchmarks pick one to compare them.
enum class Tac3Engine { Auto, General, Compact };

struct Schedule {
  double t0 = 10.0;
  double tEnd = 1e-8;
  std::uint64_t trialsPerTemperature = 2500;
  double cooling = 0.9;
  bool earlyStop = true;  // tac3: stop once the lower bound is reached
  // Seconds a search may take, from the entry point it is given to (anneal, annealChains,
  // chooseStart), which turns it into `deadline`; 0 = none. map sets `deadline` itself once,
  // when its search phase begins, so that every phase shares one bound (deadline.hpp).
  double timeLimit = 0.0;
  // The instant every search under this schedule stops at (default: none). The searches
  // read only this; sub-searches get shares of it.
  Deadline deadline;
  MoveKind moves = MoveKind::Auto;
  Tac3Engine tac3Engine = Tac3Engine::Auto;
  // tac3: after the schedule, the tie-break descent of tie_break.hpp (fewer shared-link pairs,
  // then fewer byte-hops, at an objective never higher).
  bool breakTies = true;
  // The nodes tasks may occupy (allocation.hpp); default: every node of the box. The initial
  // mapping must use only these.
  Allocation allocation;
  // The search (refiner.hpp): auto | annealing | multilevel.
  std::string refiner = "auto";
  // --init auto adds candidates for map's flow ranking only (choose_start.hpp): mapJob sets it
  // when the flow model can rank the job's maps.
  bool flowCandidates = false;

  // Trials of the whole schedule (temperatures from t0 down to tEnd, times trials each).
  std::uint64_t totalTrials() const;
  // How long scoring one mapping of the job with the reference evaluator takes (map measures
  // it on its start): each chain's search ends that much before its share of the deadline,
  // so that scoring its result still fits. 0: nothing reserved.
  double scoringSeconds = 0.0;

  // `deadline`, or `timeLimit` seconds from now when that ends first.
  Deadline until() const { return Deadline::earlier(deadline, Deadline::after(timeLimit)); }
};

bool usesLocalMoves(const Schedule& schedule, int nodes);

// What map is doing, for its progress line: reading the trace (and building routes), trying
// the starts of --init auto, the search, the tie-break descent after it.
enum class Phase : int { Reading, Starts, Search, TieBreak };
const char* phaseName(Phase phase);  // reading | starts | search | tie-break

// Shared with a reporter (e.g. the command's progress line) while chains run. Chains publish
// every few thousand trials with relaxed atomics, so the hot loop pays almost nothing.
struct Progress {
  std::atomic<std::uint64_t> trials{0};
  std::atomic<double> temperature{0.0};
  std::atomic<double> bestEnergy{0.0};  // best objective / reference value, over all chains
  std::atomic<bool> started{false};
  std::atomic<Phase> phase{Phase::Reading};
  // During Phase::Starts: starts tried so far (built, or searched from) of `startSteps`.
  std::atomic<int> startStep{0}, startSteps{0};

  void publish(std::uint64_t newTrials, double t, double energy);
};

struct SearchResult {
  Mapping best;
  ExactScores bestScores;  // of `best`, from the reference evaluator
  std::uint64_t trials = 0;
  std::uint64_t accepted = 0;
  double seconds = 0.0;  // of the trials (not of building the engine's state)
  // "schedule", "lower-bound", "time-limit" (the deadline ended the trials or the tie-break
  // after them), "nothing-to-optimize"
  std::string stopped;
  std::uint64_t tieBreakMoves = 0;  // moves of the tie-break descent after the schedule
  std::string refiner;              // the search that ran (refiner.hpp)
  int levels = 1;                   // of the multilevel search (1: the job alone)
};

}  // namespace tac3map
