#include "tac3map/model/model.hpp"

#include <cmath>

#include "tac3map/io/error.hpp"

namespace tac3map {

Overlap parseOverlap(const std::string& name) {
  if (name == "none") return Overlap::None;
  if (name == "adjacent") return Overlap::Adjacent;
  if (name == "auto") return Overlap::Auto;
  throw InputError("--overlap must be none, adjacent or auto, not '" + name + "'");
}

const char* overlapName(Overlap overlap) {
  switch (overlap) {
    case Overlap::None:
      return "none";
    case Overlap::Adjacent:
      return "adjacent";
    case Overlap::Auto:
      return "auto";
  }
  return "?";
}

Model makeModel(const Machine& machine, int engines, int ranksPerNode, Overlap overlap) {
  if (engines < 0 || engines > 64) throw InputError("--engines must be from 1 to 64");
  if (ranksPerNode < 1 || ranksPerNode > 4096)
    throw InputError("--ranks-per-node must be from 1 to 4096");
  Model model;
  model.engines = engines > 0 ? engines : machine.injectionEngines;
  model.ranksPerNode = ranksPerNode;
  model.linkBandwidth = machine.linkBandwidth;
  model.injectionBandwidth =
      machine.injectionBandwidth > 0 ? machine.injectionBandwidth : machine.linkBandwidth;
  model.intraNodeBandwidth = machine.intraNodeBandwidth;
  model.overlap = overlap;
  // linkWeight / nodeWeight = E x B_inj / B as the closest fraction with a denominator of at
  // most 64 (exact for every machine file shipped: the ratio is a whole number there).
  const double ratio = model.engines * model.injectionBandwidth / model.linkBandwidth;
  std::uint32_t bestNum = 1, bestDen = 1;
  double bestError = INFINITY;
  for (std::uint32_t den = 1; den <= 64; ++den) {
    const double num = std::round(ratio * den);
    if (num < 1 || num > 4096) continue;
    const double error = std::fabs(num / den - ratio);
    if (error < bestError * (1 - 1e-12)) {
      bestError = error;
      bestNum = static_cast<std::uint32_t>(num);
      bestDen = den;
    }
    if (error <= 1e-12 * ratio) break;
  }
  model.linkWeight = bestNum;
  model.nodeWeight = bestDen;
  if (!model.nodeLinks()) model.linkWeight = model.nodeWeight = 1;
  return model;
}

}  // namespace tac3map
