// Simulated annealing over mappings (the paper's solver). The energy is the exact objective
// divided by objectives.hpp's referenceValue, so one schedule suits every objective. Ties of
// the exact objective are broken by the engine's secondary term (tac3: link-sharing pairs),
// which never makes a mapping with a worse objective look better.
#pragma once

#include <cstdint>
#include <vector>

#include "tac3map/mapping/mapping.hpp"
#include "tac3map/model/objective.hpp"
#include "tac3map/network/network.hpp"
#include "tac3map/search/schedule.hpp"

namespace tac3map {

// `initialScores`, when given, are evaluateExact's scores of `initial` (the caller had them):
// a search that keeps its start, or needs the start's scores, then does not score it again.
SearchResult anneal(const Problem& problem, const Network& router, ObjectiveKind objective,
                    const Mapping& initial, const Schedule& schedule, std::uint64_t seed,
                    Progress* progress = nullptr, const ExactScores* initialScores = nullptr);

// Independent chains from the same start. Chain i uses seed + i (so one chain is exactly
// anneal() with `seed`); `threads` workers take chains in turn. The chains share the
// schedule's time (Schedule::until(), from the call): a chain gets an equal share of what is
// left for the rounds of `threads` chains still to run. The winner is the chain whose
// best mapping has the lowest exact objective, the lowest chain index on ties, so the result
// depends on the seed and the number of chains, never on the number of threads. "Lowest" is
// objectives.hpp's isBetter: the objective, then shared-link pairs (tac3), then byte-hops.
struct ChainsResult {
  std::vector<SearchResult> chains;  // in chain order
  std::size_t best = 0;              // index of the winning chain
  double seconds = 0.0;              // wall-clock time of the whole run
};

ChainsResult annealChains(const Problem& problem, const Network& router, ObjectiveKind objective,
                          const Mapping& initial, const Schedule& schedule, std::uint64_t seed,
                          int chains, int threads, Progress* progress = nullptr,
                          const ExactScores* initialScores = nullptr);

// The building blocks of annealChains, for running a share of the chains in each of several
// processes: the chains with the given indices (chain i uses seed + i), results in that
// order; and the winner among chains' best scores (lowest objective, then lowest index).
std::vector<SearchResult> annealChainSubset(const Problem& problem, const Network& router,
                                            ObjectiveKind objective, const Mapping& initial,
                                            const Schedule& schedule, std::uint64_t seed,
                                            const std::vector<int>& indices, int threads,
                                            Progress* progress = nullptr,
                                            const ExactScores* initialScores = nullptr);
std::size_t winningChain(const std::vector<ExactScores>& bestScores, ObjectiveKind objective);

}  // namespace tac3map
