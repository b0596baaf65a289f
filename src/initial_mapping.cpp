#include "tac3map/initial_mapping.hpp"

#include "tac3map/error.hpp"

namespace tac3map {

ChosenStart chooseStart(const Problem& problem, const Router& router, ObjectiveKind objective,
                        std::vector<std::pair<std::string, Mapping>> named,
                        const Schedule& schedule, std::uint64_t seed) {
  if (named.empty()) throw InputError("--init auto: no start applies to this job");
  ChosenStart result;
  for (auto& [name, mapping] : named)
    result.candidates.push_back({name, mapping, evaluateExact(problem, router, mapping)});
  if (objective != ObjectiveKind::Tahb) {
    Schedule tahb = schedule;
    tahb.earlyStop = false;
    const SearchResult r =
        anneal(problem, router, ObjectiveKind::Tahb, named.front().second, tahb, seed);
    result.candidates.push_back({"tahb-search", r.best, r.bestScores});
  }
  for (std::size_t i = 1; i < result.candidates.size(); ++i)
    if (objectiveValue(result.candidates[i].scores, objective) <
        objectiveValue(result.candidates[result.chosen].scores, objective))
      result.chosen = i;
  return result;
}

}  // namespace tac3map
