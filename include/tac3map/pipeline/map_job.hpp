// Mapping a job and scoring mappings of it: what `tac3map map` and `score` do, for any program
// (sweep, examples/consumer, a runtime that embeds the library). The caller builds the Job
// (job.hpp) and reads the result; writing files and printing stay with the caller.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "tac3map/mapping/mapping.hpp"
#include "tac3map/model/objective.hpp"
#include "tac3map/pipeline/choose_start.hpp"
#include "tac3map/pipeline/job.hpp"
#include "tac3map/search/annealer.hpp"
#include "tac3map/search/deadline.hpp"
#include "tac3map/search/schedule.hpp"

namespace tac3map {

// Runs the annealing chains from a start: annealChains in this process by default; `tac3map
// map` under mpirun passes its spread over the processes (cli/distributed.hpp).
using ChainsRunner = std::function<ChainsResult(
    const Problem&, const Network&, ObjectiveKind, const Mapping& initial, const Schedule&,
    std::uint64_t seed, int chains, int threads, Progress*, const ExactScores* initialScores)>;

struct MapJobOptions {
  ObjectiveKind objective = ObjectiveKind::Tac3;
  // Moves, trials, early stop, tie-break; `timeLimit` (seconds, 0: none) counts from the call
  // and bounds the starts, the search and the flow ranking together.
  Schedule schedule;
  std::uint64_t seed = 1;
  // A start: auto, random, a mapping name or file, or a start of initial_mapper.hpp's list.
  std::string init = "auto";
  std::vector<int> grid;  // the ranks' process grid for the geometric start; empty: detect
  int coresPerNode = 0;   // to read a rank file given as `init`
  int chains = 1;
  int threads = 1;
  // With tac3 and init auto, the result is the fastest by the flow model (flow.hpp) of the
  // search's map and the starts, where the flow model can simulate the trace (docs/search.md).
  bool rankByFlow = true;
  // False in the processes of an MPI run other than the one that reports: they run their
  // chains and return; the result is not theirs to read.
  bool reports = true;
  Progress* progress = nullptr;  // optional: phases, starts tried and trials, for a display
  // Called once the search's deadline is known (after the flow ranking's reserve).
  std::function<void(const Deadline&)> onDeadline;
  ChainsRunner runChains;  // empty: annealChains
};

struct MapResult {
  Mapping mapping;   // the result
  Scores scores;     // the result's, with the timeline's and (where it runs) the flow model's
  std::string from;  // "search", or the start the flow model found faster
  std::size_t rankedByFlow = 0;  // how many maps the flow model ranked (0: none)
  int flowSwaps = 0;             // swaps the flow model's descent took after (flow_descent.hpp)
  Mapping initial;               // the search's start
  ExactScores initialExact;
  // The start's scores; with rankByFlow, with the timeline's and the flow model's too.
  Scores initialScores;
  std::optional<ChosenStart> chosen;  // with init auto: every start and its scores
  ChainsResult run;                   // every chain
  double startsSeconds = 0;           // from the call to the search's start
  double limitedSeconds = 0;  // from the call to the search's end (what the time limit bounds)
  bool timeLimited = false;   // the deadline cut a start, a chain or a tie-break
  const SearchResult& winner() const { return run.chains[run.best]; }
};

// Chooses the start, runs the search and (see rankByFlow) the flow ranking. With
// `options.reports` false only `run` is meaningful.
MapResult mapJob(const Job& job, const MapJobOptions& options);

// Every mapping scored: the objectives, the timeline's length and the flow model's (Job::score).
// Job::mapping reads a mapping from a name or a file.
std::vector<Scores> scoreJob(const Job& job, const std::vector<Mapping>& mappings);

}  // namespace tac3map
