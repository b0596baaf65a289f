#include "tac3map/search/schedule.hpp"

#include <string>

#include "tac3map/io/error.hpp"
#include "tac3map/search/refiner.hpp"

namespace tac3map {

bool usesLocalMoves(const Schedule& schedule, int nodes) {
  switch (schedule.moves) {
    case MoveKind::Global:
      return false;
    case MoveKind::Local:
      return true;
    case MoveKind::Auto:
      break;
  }
  return nodes > kLocalMovesAbove;
}

MoveKind parseMoveKind(const std::string& name) {
  if (name == "auto") return MoveKind::Auto;
  if (name == "global") return MoveKind::Global;
  if (name == "local") return MoveKind::Local;
  throw InputError("--moves must be auto, global or local, not '" + name + "'");
}

std::uint64_t Schedule::totalTrials() const {
  std::uint64_t temperatures = 0;
  for (double t = t0; t >= tEnd; t *= cooling) ++temperatures;
  return temperatures * trialsPerTemperature;
}

void checkSchedule(const Schedule& s) {
  if (!(s.t0 > 0)) throw InputError("--t0 must be positive");
  if (!(s.tEnd > 0) || s.tEnd > s.t0) throw InputError("--t-end must be positive and at most --t0");
  if (!(s.cooling > 0 && s.cooling < 1)) throw InputError("--cooling must be between 0 and 1");
  if (s.trialsPerTemperature == 0) throw InputError("--trials must be at least 1");
  if (s.timeLimit < 0) throw InputError("--time-limit must be >= 0");
  if (s.refiner != "auto" && !findRefiner(s.refiner)) {
    std::string known = "auto";
    for (const auto& r : refiners()) known += std::string(" | ") + r->name();
    throw InputError("--refiner: unknown refiner '" + s.refiner + "' (" + known + ")");
  }
}

const char* phaseName(Phase phase) {
  switch (phase) {
    case Phase::Reading:
      return "reading";
    case Phase::Starts:
      return "starts";
    case Phase::Search:
      return "search";
    case Phase::TieBreak:
      return "tie-break";
  }
  return "?";
}

void Progress::publish(std::uint64_t newTrials, double t, double energy) {
  trials.fetch_add(newTrials, std::memory_order_relaxed);
  temperature.store(t, std::memory_order_relaxed);
  double best = bestEnergy.load(std::memory_order_relaxed);
  while ((!started.load(std::memory_order_relaxed) || energy < best) &&
         !bestEnergy.compare_exchange_weak(best, energy, std::memory_order_relaxed)) {
  }
  started.store(true, std::memory_order_relaxed);
}

}  // namespace tac3map
