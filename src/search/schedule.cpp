#include "tac3map/search/schedule.hpp"

#include <string>

#include "tac3map/io/error.hpp"

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

const EnumNames<MoveKind>& moveKindNames() {
  static const EnumNames<MoveKind> names(
      "moves",
      {{MoveKind::Global, "global", "(any node)"},
       {MoveKind::Local, "local", "(near a partner)"},
       {MoveKind::Auto, "auto", "(local above " + std::to_string(kLocalMovesAbove) + " nodes)"}});
  return names;
}

MoveKind parseMoveKind(const std::string& name) {
  return moveKindNames().parse(name);
}

std::uint64_t Schedule::totalTrials() const {
  std::uint64_t temperatures = 0;
  for (double t = t0; t >= tEnd; t *= cooling) ++temperatures;
  return temperatures * trialsPerTemperature;
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
