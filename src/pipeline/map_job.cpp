#include "tac3map/pipeline/map_job.hpp"

#include <algorithm>
#include <chrono>

#include "tac3map/model/flow.hpp"
#include "tac3map/search/flow_descent.hpp"
#include "tac3map/search/objectives.hpp"

namespace tac3map {
namespace {

// The flow simulations kept from a limited search for the ranking after it: about one per
// candidate of init auto, and at most this share of the limit.
constexpr double kFlowRankingReserve = 16;
constexpr double kFlowRankingShare = 0.25;

double secondsSince(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

}  // namespace

MapResult mapJob(const Job& job, const MapJobOptions& o) {
  const auto began = std::chrono::steady_clock::now();
  MapResult result;
  Schedule schedule = o.schedule;
  // One deadline that the starts, the search and the tie-break share (deadline.hpp).
  schedule.deadline =
      Deadline::earlier(schedule.deadline, Deadline::after(schedule.timeLimit, began));
  schedule.timeLimit = 0;
  // The flow model's ranking of the search's map and init auto's candidates comes after the
  // search, within the same limit: the time of one simulation (of the block placement) for
  // each, at most a quarter of the limit, is kept from the starts and the search. The ranking
  // ends at the limit itself, with the maps simulated by then (docs/model.md, "Cost and
  // limits"). A job whose one simulation does not even fit in the limit has no flow figures.
  const Deadline limit = schedule.deadline;
  if (limit.limited() && o.objective == ObjectiveKind::Tac3 && o.rankByFlow) {
    const auto simulating = std::chrono::steady_clock::now();
    if (job.flow(job.mapping("identity"), limit.atOrNever()))
      schedule.deadline = limit.reserve(std::min(kFlowRankingReserve * secondsSince(simulating),
                                                 kFlowRankingShare * limit.left()));
    else
      job.forgoFlow();
  } else if (o.objective == ObjectiveKind::Tac3 && o.rankByFlow && o.init == "auto" &&
             !objectiveSpec(ObjectiveKind::Tac3).defaults.startsCold(job.problem.tasks)) {
    // Without a limit, --init auto's flow-only candidates (choose_start.hpp) where the flow
    // model can rank the job: one simulation of the identity placement says (NPB IS, past the
    // work limit and too few iterations for a sample, would spend minutes on them for nothing).
    schedule.flowCandidates = job.flow(job.mapping("identity")).has_value();
  }
  if (o.onDeadline) o.onDeadline(schedule.deadline);
  schedule.allocation = job.allocation;
  if (o.progress) o.progress->phase = Phase::Starts;
  result.initial = job.start(o.init, o.objective, schedule, o.seed, o.coresPerNode, &result.chosen,
                             o.grid, o.progress);
  // The start's scores (the report's), and how long scoring the job takes: each chain stops
  // that much before its share of the deadline, so that scoring its result still fits.
  // The searches reuse the start's scores rather than score it again.
  const ExactScores* initialScores = nullptr;
  if (result.chosen) {
    result.initialExact = result.chosen->best().scores;
    schedule.scoringSeconds = result.chosen->scoringSeconds;
    initialScores = &result.initialExact;
  } else if (o.reports || schedule.deadline.limited()) {
    const auto scoring = std::chrono::steady_clock::now();
    result.initialExact = evaluateExact(job.problem, job.router, result.initial);
    schedule.scoringSeconds = secondsSince(scoring);
    initialScores = &result.initialExact;
  }
  result.startsSeconds = secondsSince(began);
  if (o.progress) o.progress->phase = Phase::Search;
  result.run = o.runChains
                   ? o.runChains(job.problem, job.router, o.objective, result.initial, schedule,
                                 o.seed, o.chains, o.threads, o.progress, initialScores)
                   : annealChains(job.problem, job.router, o.objective, result.initial, schedule,
                                  o.seed, o.chains, o.threads, o.progress, initialScores);
  result.limitedSeconds = secondsSince(began);
  result.timeLimited = result.chosen && result.chosen->timeLimited;
  for (const SearchResult& chain : result.run.chains)
    result.timeLimited |= chain.stopped == "time-limit";
  if (!o.reports) return result;
  const SearchResult& winner = result.winner();
  const Mapping* best = &winner.best;
  const ExactScores* bestScores = &winner.bestScores;
  result.from = "search";
  result.initialScores = o.rankByFlow ? job.withTimeline(result.initialExact, result.initial)
                                      : toScores(result.initialExact, job.machine.linkBandwidth);
  // Where the flow model can simulate the trace (whole, or too costly whole, a periodic sample
  // of it: fastestByFlow): the search's map or a start, the faster.
  if (o.objective == ObjectiveKind::Tac3 && o.rankByFlow && result.chosen) {
    std::vector<const Mapping*> maps{&winner.best};
    std::vector<std::uint64_t> tac3{winner.bestScores.tac3ByteCounts};
    for (const StartCandidate& c : result.chosen->candidates) {
      maps.push_back(&c.mapping);
      tac3.push_back(c.scores.tac3ByteCounts);
    }
    if (const auto ranking = fastestByFlow(job.problem, job.router, maps, kFlowMaxMessages,
                                           limit.atOrNever(), tac3, job.flowMaxWork)) {
      result.rankedByFlow = ranking->ranked;
      if (ranking->fastest > 0) {
        const StartCandidate& c = result.chosen->candidates[ranking->fastest - 1];
        best = &c.mapping;
        bestScores = &c.scores;
        result.from = c.name;
      }
      // Then, on full nodes, swaps the flow model finds faster, where it simulated the whole
      // trace and a pass of them is affordable (flow_descent.hpp). With one rank per node no
      // swap of the peers bench's tac3 maps gains 0.1% (docs/validation.md).
      if (!ranking->sampled && job.model.ranksPerNode > 1)
        if (std::optional<FlowDescent> d =
                flowSwapDescent(job.problem, job.router, *best, kFlowDescentMessages,
                                job.flowMaxWork, limit.atOrNever());
            d && d->swaps > 0) {
          result.flowSwaps = d->swaps;
          result.mapping = std::move(d->mapping);
          result.scores = job.score(result.mapping);
          return result;
        }
    }
  }
  result.mapping = *best;
  result.scores = job.withTimeline(*bestScores, *best);
  return result;
}

std::vector<Scores> scoreJob(const Job& job, const std::vector<Mapping>& mappings) {
  std::vector<Scores> scores;
  scores.reserve(mappings.size());
  for (const Mapping& mapping : mappings) scores.push_back(job.score(mapping));
  return scores;
}

}  // namespace tac3map
