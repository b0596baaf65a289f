#include "tac3map/initial/initial_mapping.hpp"

#include "tac3map/io/error.hpp"
#include "tac3map/search/objectives.hpp"

namespace tac3map {

ChosenStart chooseStart(const Problem& problem, const Router& router, ObjectiveKind objective,
                        std::vector<std::pair<std::string, Mapping>> named,
                        const Schedule& schedule, std::uint64_t seed) {
  if (named.empty()) throw InputError("--init auto: no start applies to this job");
  ChosenStart result;
  for (auto& [name, mapping] : named)
    result.candidates.push_back({name, mapping, evaluateExact(problem, router, mapping)});
  // A hop-bytes search from each named start: cheap (tahb trials are the fastest), and on
  // plateaus of the contention objective where it ends depends on where it began.
  if (objective != ObjectiveKind::Tahb) {
    Schedule tahb = schedule;
    tahb.earlyStop = false;
    for (const auto& [name, mapping] : named) {
      const SearchResult r = anneal(problem, router, ObjectiveKind::Tahb, mapping, tahb, seed);
      result.candidates.push_back({"tahb-search from " + name, r.best, r.bestScores});
    }
  }
  for (std::size_t i = 1; i < result.candidates.size(); ++i)
    if (objectiveValue(result.candidates[i].scores, objective) <
        objectiveValue(result.candidates[result.chosen].scores, objective))
      result.chosen = i;
  return result;
}

}  // namespace tac3map
