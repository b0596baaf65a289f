#include "tac3map/search/objectives.hpp"

#include <algorithm>
#include <stdexcept>

#include "annealing_loop.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/io/suggest.hpp"
#include "tac3map/model/flow.hpp"
#include "tac3map/search/incremental.hpp"
#include "tac3map/search/incremental_compact.hpp"
#include "tac3map/search/incremental_general.hpp"
#include "tac3map/search/node_swap.hpp"
#include "tac3map/search/tie_break.hpp"

namespace tac3map {
namespace {

double totalBytes(const Problem& problem) {
  double total = 0;
  for (std::size_t c = 0; c < problem.realCommunications; ++c)
    total += static_cast<double>(problem.volume[c]);
  return total;
}

// tac3: sum over CCSs of max over links of weighted load x largest message (model.hpp).
// Reference: its lower bound's simplest form, each CCS's largest message once.
unsigned __int128 tac3Value(const ExactScores& e) {
  return e.tac3ByteCounts;
}
double tac3Reference(const Problem& problem) {
  std::vector<std::uint64_t> largest(problem.ccsCount, 0);
  for (std::size_t c = 0; c < problem.realCommunications; ++c)
    largest[problem.ccs[c]] = std::max(largest[problem.ccs[c]], problem.bytes[c]);
  double sum = 0;
  for (int t = 0; t < problem.ccsCount; ++t)
    sum += static_cast<double>(problem.repeats[t] * largest[t]);
  return sum * static_cast<double>(problem.model.linkWeight);
}
SearchResult tac3Search(const Problem& problem, const Network& router, const Mapping& initial,
                        const Schedule& schedule, std::uint64_t seed, double reference,
                        Progress* progress) {
  const bool fits = CompactTac3Objective::fits(problem, router);
  if (schedule.tac3Engine == Tac3Engine::Compact && !fits)
    throw InputError("the compact tac3 engine cannot evaluate this problem on this box");
  const std::uint64_t bound = tac3LowerBoundBytes(problem);
  // With the tie-break, the annealing gets kAnnealShare of the time and the descent the rest.
  const Deadline until = schedule.until();
  const Deadline annealing = schedule.breakTies ? until.share(kAnnealShare) : until;
  SearchResult result =
      fits && schedule.tac3Engine != Tac3Engine::General
          ? detail::annealWith<CompactTac3Objective>(problem, router, initial, schedule, annealing,
                                                     seed, reference, bound, schedule.earlyStop,
                                                     progress)
          : detail::annealWith<Tac3Objective>(problem, router, initial, schedule, annealing, seed,
                                              reference, bound, schedule.earlyStop, progress);
  // K > 1: whole-node swaps, rank swaps and kicks (node_swap.hpp) before the tie-break, with
  // as much work as the annealing's schedule plans. Gated on K so that one-rank-per-node searches
  // are exactly as before.
  if (schedule.breakTies && problem.model.ranksPerNode > 1 && result.stopped == "schedule" &&
      !until.expired()) {
    NodeSwapResult swaps = swapNodeContents(problem, router, result.best, schedule,
                                            nodeRefinementBudget(problem, schedule), seed, until);
    result.best = std::move(swaps.mapping);
    if (swaps.timedOut) result.stopped = "time-limit";
  }
  if (schedule.breakTies && result.stopped != "nothing-to-optimize") {
    if (until.expired()) {  // no time left for the descent
      result.stopped = "time-limit";
      return result;
    }
    if (progress) progress->phase.store(Phase::TieBreak, std::memory_order_relaxed);
    const TieOrder order = objectiveSpec(ObjectiveKind::Tac3).defaults.tieOrder(problem.tasks);
    TieBreakResult ties =
        breakTac3Ties(problem, router, result.best, schedule,
                      tieBreakBudget(problem, result.trials, order), until, order);
    // The descent lowers shared-link pairs, a proxy for what the run sees; where the flow
    // model can simulate the trace (flow.hpp) it judges, and the descent's start is kept when
    // it runs faster (same tac3: the descent never raises it).
    const auto at = until.atOrNever();
    if (const auto before =
            flowSeconds(problem, router, result.best, kPlateauFlowMessages, kPlateauFlowWork, at)) {
      const auto after =
          flowSeconds(problem, router, ties.mapping, kPlateauFlowMessages, kPlateauFlowWork, at);
      if (after && *before < *after) {
        ties.mapping = result.best;
        ties.moves = 0;
      }
    }
    result.best = std::move(ties.mapping);
    result.tieBreakMoves = ties.moves;
    if (ties.timedOut) result.stopped = "time-limit";
  }
  return result;
}

// tahb: total byte-hops. Reference: the value if every message went one hop.
unsigned __int128 tahbValue(const ExactScores& e) {
  return e.tahbByteHops;
}
SearchResult tahbSearch(const Problem& problem, const Network& router, const Mapping& initial,
                        const Schedule& schedule, std::uint64_t seed, double reference,
                        Progress* progress) {
  return detail::annealWith<TahbObjective>(problem, router, initial, schedule, schedule.until(),
                                           seed, reference, 0, false, progress);
}

// rmatt-o2f: byte-hops x the most bytes over one link (needs 128 bits). Reference: total
// bytes x the largest message.
unsigned __int128 rmattValue(const ExactScores& e) {
  return static_cast<unsigned __int128>(e.tahbByteHops) * e.maxLinkBytes;
}
double rmattReference(const Problem& problem) {
  double biggest = 0;
  for (std::size_t c = 0; c < problem.realCommunications; ++c)
    biggest = std::max(biggest, static_cast<double>(problem.bytes[c]));
  return totalBytes(problem) * biggest;
}
SearchResult rmattSearch(const Problem& problem, const Network& router, const Mapping& initial,
                         const Schedule& schedule, std::uint64_t seed, double reference,
                         Progress* progress) {
  return detail::annealWith<RmattObjective>(problem, router, initial, schedule, schedule.until(),
                                            seed, reference, 0, false, progress);
}

}  // namespace

const std::vector<ObjectiveSpec>& objectiveSpecs() {
  static const std::vector<ObjectiveSpec> specs = {
      {ObjectiveKind::Tac3, "tac3", "contention-aware communication time, the paper's eq. 1",
       "x lower bound", tac3Value, tac3Reference, true, tac3Search,
       // Above 8,192 tasks the search starts cold (t0 1 / tasks) and anneals on one level, from
       // auto's start (a deep hop-bytes search): on a 100,000-rank partitioned mesh on the whole
       // Fugaku, multilevel (its coarsest level hot) doubled the start's hop-bytes and ended at
       // 1398 us, single-level annealing from t0 1e-5 at 1102 us in a third of the search time
       // (docs/search.md, "tac3 at scale").
       SearchDefaults{10.0, 1e-8, 0.9, 1, 2048, 8192, 1.0}},
      // Hop-bytes is a quadratic assignment problem, cheap per trial: the paper's schedule
      // (tac3's) spends most of its steps far too hot or frozen for it and ends where its seed
      // leads. Cooler starts, a slower cooling over the temperatures where average hops still
      // move, and four chains reach the best maps of the peers. From auto's starts, annealing
      // matches multilevel on a box of 4,608 nodes in a sixth of the time (docs/search.md,
      // "Hop-bytes"). Above 8,192 tasks the 8 M trials of a chain are too few per task for a
      // hot phase: from the graph start of a 20,000-rank mesh on Fugaku, t0 0.1 (annealing or
      // multilevel) ends at the start's 53.46 G byte-hops; t0 1e-5 (0.2 / tasks) at 47.30 G.
      // Multilevel, whose coarsest level anneals hot, ends at the start there too, so auto
      // never picks it for tahb.
      {ObjectiveKind::Tahb, "tahb", "traffic-aware hop-bytes", "avg hops", tahbValue, totalBytes,
       false, tahbSearch, SearchDefaults{0.1, 1e-8, 0.995, 4, SearchDefaults::kNever, 8192, 0.2}},
      {ObjectiveKind::RmattO2f, "rmatt-o2f", "RMATT's hop-bytes x most bytes on a link",
       "x (total bytes x largest message)", rmattValue, rmattReference, false, rmattSearch,
       SearchDefaults{}},
  };
  return specs;
}

const ObjectiveSpec& objectiveSpec(ObjectiveKind kind) {
  for (const ObjectiveSpec& spec : objectiveSpecs())
    if (spec.kind == kind) return spec;
  throw std::logic_error("an objective without a declaration in objectives.cpp");
}

const EnumNames<ObjectiveKind>& objectiveNames() {
  static const EnumNames<ObjectiveKind> names = [] {
    std::vector<EnumNames<ObjectiveKind>::Entry> entries;
    for (const ObjectiveSpec& spec : objectiveSpecs())
      entries.push_back({spec.kind, spec.name, std::string("(") + spec.description + ")"});
    return EnumNames<ObjectiveKind>("objective", std::move(entries));
  }();
  return names;
}

const ObjectiveSpec& objectiveSpec(const std::string& name) {
  return objectiveSpec(objectiveNames().parse(name));
}

ObjectiveKind parseObjective(const std::string& name) {
  return objectiveSpec(name).kind;
}
const char* objectiveName(ObjectiveKind kind) {
  return objectiveSpec(kind).name;
}
unsigned __int128 objectiveValue(const ExactScores& exact, ObjectiveKind kind) {
  return objectiveSpec(kind).value(exact);
}
double referenceValue(const Problem& problem, ObjectiveKind kind) {
  return objectiveSpec(kind).reference(problem);
}

bool isBetter(const ExactScores& a, const ExactScores& b, ObjectiveKind kind) {
  const ObjectiveSpec& spec = objectiveSpec(kind);
  const auto va = spec.value(a), vb = spec.value(b);
  if (va != vb) return va < vb;
  if (spec.pairsBreakTies && a.sharedPairs != b.sharedPairs) return a.sharedPairs < b.sharedPairs;
  return a.tahbByteHops < b.tahbByteHops;
}

}  // namespace tac3map
