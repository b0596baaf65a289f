// The search stage: a Refiner improves a start mapping under an objective. The annealer (the
// paper's solver, annealing_loop.hpp) is one; multilevel (multilevel.cpp) composes the
// annealer over coarsened copies of the job. anneal() (annealer.hpp) runs the refiner the
// schedule names, so chains, MPI and sweeps use any refiner alike. A new search is one file,
// its line in refiners(), and its test.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tac3map/io/enum_names.hpp"
#include "tac3map/mapping/mapping.hpp"
#include "tac3map/model/objective.hpp"
#include "tac3map/network/network.hpp"
#include "tac3map/search/schedule.hpp"

namespace tac3map {

void checkSchedule(const Schedule& schedule);  // throws InputError on nonsense values

struct RefineTask {
  const Problem& problem;
  const Network& router;
  ObjectiveKind objective;
  const Schedule& schedule;
  std::uint64_t seed;
  Progress* progress = nullptr;
  // evaluateExact's scores of the start, when the caller has them (else scored as needed).
  const ExactScores* startScores = nullptr;
};

class Refiner {
 public:
  virtual ~Refiner() = default;
  virtual const char* name() const = 0;
  virtual const char* description() const = 0;
  // Empty when this refiner can search the job, else why not.
  virtual std::string whyNot(const RefineTask& task) const = 0;
  // The best mapping found (never worse, by isBetter, than `start`), its exact scores and
  // the search's counters.
  virtual SearchResult refine(const RefineTask& task, const Mapping& start) const = 0;
};

// Every refiner, the default's fallback first: annealing, multilevel.
const std::vector<std::unique_ptr<Refiner>>& refiners();
const Refiner* findRefiner(const std::string& name);  // nullptr if none has this name
// Every refiner's name and description, and "auto" (chooseRefiner): what the schedule's
// refiner may be (enum_names.hpp).
const EnumNames<std::string>& refinerNames();
// The refiner Schedule::refiner names for this job; "auto" is multilevel on boxes of more
// nodes than the objective's SearchDefaults::multilevelAbove where it applies and the search
// does not start cold (SearchDefaults::startsCold), else annealing.
// Throws InputError when the named refiner cannot search the job.
const Refiner& refinerFor(const RefineTask& task);

std::unique_ptr<Refiner> makeAnnealingRefiner();
std::unique_ptr<Refiner> makeMultilevelRefiner();

}  // namespace tac3map
