// The refiners (refiner.hpp): the list, the choice for a job, and the annealer as a refiner.
#include "tac3map/search/refiner.hpp"

#include "tac3map/io/error.hpp"
#include "tac3map/search/objectives.hpp"

namespace tac3map {

// Here rather than in schedule.cpp: the refiner named must be one of refiners().
void checkSchedule(const Schedule& s) {
  if (!(s.t0 > 0)) throw SettingError("initial temperature", " must be positive");
  if (!(s.tEnd > 0) || s.tEnd > s.t0)
    throw SettingError("final temperature", " must be positive and at most the initial one");
  if (!(s.cooling > 0 && s.cooling < 1)) throw SettingError("cooling", " must be between 0 and 1");
  if (s.trialsPerTemperature == 0)
    throw SettingError("trials per temperature", " must be at least 1");
  if (s.timeLimit < 0) throw SettingError("time limit", " must be >= 0");
  refinerNames().parse(s.refiner);
}

const EnumNames<std::string>& refinerNames() {
  static const EnumNames<std::string> names = [] {
    std::vector<EnumNames<std::string>::Entry> entries;
    for (const auto& r : refiners())
      entries.push_back({r->name(), r->name(), std::string("(") + r->description() + ")"});
    // Per objective: "tac3 2048 up to 8192 ranks", "tahb never".
    std::string above;
    for (const ObjectiveSpec& spec : objectiveSpecs()) {
      const SearchDefaults& d = spec.defaults;
      std::string when = "never";
      if (d.multilevelAbove != SearchDefaults::kNever) {
        when = std::to_string(d.multilevelAbove);
        if (d.coldAbove > 0) when += " up to " + std::to_string(d.coldAbove) + " ranks";
      }
      above += (above.empty() ? "" : ", ") + std::string(spec.name) + " " + when;
    }
    entries.push_back(
        {"auto", "auto", "(multilevel above so many nodes where it applies: " + above + ")"});
    return EnumNames<std::string>("refiner", std::move(entries));
  }();
  return names;
}

namespace {

// The paper's simulated annealing with the objective's engine, then its tie-break descent.
class AnnealingRefiner : public Refiner {
 public:
  const char* name() const override { return "annealing"; }
  const char* description() const override {
    return "simulated annealing of single-rank moves from the start (the paper's solver)";
  }
  std::string whyNot(const RefineTask&) const override { return {}; }
  SearchResult refine(const RefineTask& task, const Mapping& start) const override {
    double reference = referenceValue(task.problem, task.objective);
    if (reference <= 0) reference = 1;
    SearchResult result = objectiveSpec(task.objective)
                              .search(task.problem, task.router, start, task.schedule, task.seed,
                                      reference, task.progress);
    // A search that kept its start (stopped at once) has the start's scores, when known.
    const bool kept =
        result.best.nodeOfTask == start.nodeOfTask && result.best.slotOfTask == start.slotOfTask;
    result.bestScores = kept && task.startScores
                            ? *task.startScores
                            : evaluateExact(task.problem, task.router, result.best);
    result.refiner = name();
    return result;
  }
};

}  // namespace

std::unique_ptr<Refiner> makeAnnealingRefiner() {
  return std::make_unique<AnnealingRefiner>();
}

const std::vector<std::unique_ptr<Refiner>>& refiners() {
  static const std::vector<std::unique_ptr<Refiner>> all = [] {
    std::vector<std::unique_ptr<Refiner>> list;
    list.push_back(makeAnnealingRefiner());
    list.push_back(makeMultilevelRefiner());
    return list;
  }();
  return all;
}

const Refiner* findRefiner(const std::string& name) {
  for (const auto& refiner : refiners())
    if (name == refiner->name()) return refiner.get();
  return nullptr;
}

const Refiner& refinerFor(const RefineTask& task) {
  const std::string& name = task.schedule.refiner;
  if (name == "auto") {
    const Refiner* multilevel = findRefiner("multilevel");
    const SearchDefaults& defaults = objectiveSpec(task.objective).defaults;
    if (task.router.nodeCount() > defaults.multilevelAbove &&
        !defaults.startsCold(task.problem.tasks) && multilevel->whyNot(task).empty())
      return *multilevel;
    return *refiners().front();
  }
  checkSchedule(task.schedule);  // an unknown name is an InputError there
  const Refiner* refiner = findRefiner(name);
  const std::string why = refiner->whyNot(task);
  if (!why.empty()) throw SettingError("refiner", " " + name + ": " + why);
  return *refiner;
}

}  // namespace tac3map
