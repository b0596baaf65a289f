#include "tac3map/initial/initial_mapping.hpp"

#include "tac3map/io/error.hpp"
#include "tac3map/search/objectives.hpp"

namespace tac3map {

ChosenStart chooseStart(const Problem& problem, const Network& router, ObjectiveKind objective,
                        const std::vector<std::pair<std::string, StartBuilder>>& named,
                        const Schedule& schedule, std::uint64_t seed) {
  if (named.empty()) throw InputError("--init auto: no start applies to this job");
  ChosenStart result;
  for (const auto& [name, build] : named) {
    Mapping mapping = build();
    const ExactScores scores = evaluateExact(problem, router, mapping);
    result.candidates.push_back({name, std::move(mapping), scores});
    if (objective == ObjectiveKind::Tac3 && schedule.earlyStop &&
        scores.tac3ByteCounts == scores.lowerBoundBytes) {
      result.chosen = result.candidates.size() - 1;
      return result;
    }
  }
  // A hop-bytes search from each named start: cheap (tahb trials are the fastest), and on
  // plateaus of the contention objective where it ends depends on where it began.
  if (objective != ObjectiveKind::Tahb) {
    Schedule tahb = schedule;
    tahb.earlyStop = false;
    tahb.refiner = "annealing";  // a quick look from each start; the main search may go deeper
    const std::size_t starts = result.candidates.size();
    for (std::size_t i = 0; i < starts; ++i) {
      const SearchResult r =
          anneal(problem, router, ObjectiveKind::Tahb, result.candidates[i].mapping, tahb, seed);
      result.candidates.push_back(
          {"tahb-search from " + result.candidates[i].name, r.best, r.bestScores});
    }
  }
  for (std::size_t i = 1; i < result.candidates.size(); ++i)
    if (objectiveValue(result.candidates[i].scores, objective) <
        objectiveValue(result.candidates[result.chosen].scores, objective))
      result.chosen = i;
  return result;
}

}  // namespace tac3map
