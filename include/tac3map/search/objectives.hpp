// Every objective, declared once: its name, its exact value from the reference evaluator's
// scores, the normalisation that lets one temperature schedule suit it, what its normalised
// value reads as, whether shared-link pairs break its ties, and the search that runs its
// incremental engine. The CLI, the annealer, chains and starts all go through this table, so
// a new objective is one entry in objectives.cpp, its engine (incremental.hpp) and its test.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "tac3map/io/enum_names.hpp"
#include "tac3map/model/objective.hpp"
#include "tac3map/network/network.hpp"
#include "tac3map/search/schedule.hpp"
#include "tac3map/search/tie_break.hpp"

namespace tac3map {

// What a search of an objective runs with where the user sets nothing (map's and sweep's
// defaults): the annealing's temperatures (of the energy value / reference), the number of
// independent chains, and above how many nodes the refiner "auto" is multilevel (refiner.hpp).
struct SearchDefaults {
  double t0 = 10.0;
  double tEnd = 1e-8;
  double cooling = 0.9;
  int chains = 1;
  static constexpr int kNever = std::numeric_limits<int>::max();  // for multilevelAbove
  int multilevelAbove = 2048;
  // Above this many tasks (0: never) the search starts cold, at coldT0TimesTasks / tasks: a
  // move then changes the energy by about 1 / tasks, and the schedule's trials are too few per
  // task for a hot phase to rebuild what it scrambles (objectives.cpp, tahb). A cold search
  // also refines its start on one level: multilevel's coarsest level would scramble it
  // (refinerFor).
  int coldAbove = 0;
  double coldT0TimesTasks = 0;

  bool startsCold(int tasks) const { return coldAbove > 0 && tasks > coldAbove; }
  // The tie-break's key after a search of `tasks` tasks: a cold search is a search at scale,
  // where shorter routes come before fewer shared pairs (tie_break.hpp).
  TieOrder tieOrder(int tasks) const {
    return startsCold(tasks) ? TieOrder::HopsFirst : TieOrder::PairsFirst;
  }
  // The first temperature for a job of `tasks` tasks.
  double t0For(int tasks) const {
    return startsCold(tasks) ? std::min(t0, coldT0TimesTasks / tasks) : t0;
  }
};

struct ObjectiveSpec {
  ObjectiveKind kind;
  const char* name;         // as --objective spells it
  const char* description;  // one line for help texts
  // What the annealer's energy (value / reference) means, for the progress line.
  const char* normalisedMeaning;
  // The exact value the search minimises, from the reference evaluator's scores.
  unsigned __int128 (*value)(const ExactScores&);
  // The mapping-independent value the annealer divides by (> 0 for any problem with bytes).
  double (*reference)(const Problem&);
  // On equal value, fewer shared-link pairs first (then fewer byte-hops, for every objective).
  bool pairsBreakTies;
  // Anneals from `initial` with this objective's engine (energy = value / reference), then
  // runs the objective's tie-break descent if schedule.breakTies and it has one.
  SearchResult (*search)(const Problem&, const Network&, const Mapping& initial, const Schedule&,
                         std::uint64_t seed, double reference, Progress*);
  SearchDefaults defaults;
};

const std::vector<ObjectiveSpec>& objectiveSpecs();  // in --objective's order
const ObjectiveSpec& objectiveSpec(ObjectiveKind kind);
// The objectives' names (enum_names.hpp), from the table.
const EnumNames<ObjectiveKind>& objectiveNames();
// By name; an unknown name is an InputError that lists the known ones.
const ObjectiveSpec& objectiveSpec(const std::string& name);

// Shorthands over the table.
ObjectiveKind parseObjective(const std::string& name);
const char* objectiveName(ObjectiveKind kind);
unsigned __int128 objectiveValue(const ExactScores& exact, ObjectiveKind kind);
double referenceValue(const Problem& problem, ObjectiveKind kind);
// Whether `a` beats `b` for `kind`: a lower objective; on a tie fewer shared-link pairs (if
// the objective says so), then fewer byte-hops. How chains and starts rank mappings.
bool isBetter(const ExactScores& a, const ExactScores& b, ObjectiveKind kind);

}  // namespace tac3map
