#include "tac3map/model/model.hpp"

#include <algorithm>
#include <cmath>

#include "tac3map/io/error.hpp"

namespace tac3map {

const EnumNames<Overlap>& overlapNames() {
  static const EnumNames<Overlap> names(
      "overlap",
      {{Overlap::None, "none", "(the paper; measured best, docs/model.md)"},
       {Overlap::Adjacent, "adjacent", "(charge collisions of every two consecutive CCSs)"},
       {Overlap::Auto, "auto", "(adjacent unless a barrier separates them)"}});
  return names;
}

Overlap parseOverlap(const std::string& name) {
  return overlapNames().parse(name);
}

const char* overlapName(Overlap overlap) {
  return overlapNames().name(overlap).c_str();
}

namespace {

// memoryWeight / linkWeight = B / B_intra: all three weights are scaled by the smallest k in
// 1..64 that makes k x linkWeight x B / B_intra a whole number (or, if none does, the k whose
// rounding is closest), each weight at most 4096 like the engine fraction above. Scaling all
// three keeps every cost in seconds; only the integers change. Exact for the shipped machines
// (docs/model.md lists them): FX10 with 4 engines and 17 GB/s in a node is 68 : 17 : 20.
void scaleForMemory(Model& model) {
  constexpr std::uint32_t kMost = 4096;
  const double ratio = model.linkBandwidth / model.intraNodeBandwidth;  // w_mem / w_link
  std::uint32_t bestK = 1, bestWeight = 1;
  double bestError = INFINITY;
  for (std::uint32_t k = 1; k <= 64; ++k) {
    if (k * model.linkWeight > kMost || k * model.nodeWeight > kMost) break;
    const double exact = ratio * k * model.linkWeight;
    const double weight = std::min<double>(std::max(std::round(exact), 1.0), kMost);
    const double error = std::fabs(weight - exact) / exact;
    if (error < bestError * (1 - 1e-12)) {
      bestError = error;
      bestK = k;
      bestWeight = static_cast<std::uint32_t>(weight);
    }
    if (error <= 1e-12) break;
  }
  model.linkWeight *= bestK;
  model.nodeWeight *= bestK;
  model.memoryWeight = bestWeight;
}

}  // namespace

Model makeModel(const Machine& machine, int engines, int ranksPerNode, Overlap overlap) {
  if (engines < 0 || engines > 64) throw SettingError("engines", " must be from 1 to 64");
  if (ranksPerNode < 1 || ranksPerNode > 4096)
    throw SettingError("ranks per node", " must be from 1 to 4096");
  Model model;
  model.engines = engines > 0 ? engines : machine.injectionEngines;
  model.ranksPerNode = ranksPerNode;
  model.linkBandwidth = machine.linkBandwidth;
  model.injectionBandwidth =
      machine.injectionBandwidth > 0 ? machine.injectionBandwidth : machine.linkBandwidth;
  model.intraNodeBandwidth = machine.intraNodeBandwidth;
  model.hopLatency = machine.hopLatency;
  model.messageLatency = machine.messageLatency;
  model.linkSharing = machine.linkSharing;
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
  if (model.memoryLinks()) scaleForMemory(model);
  return model;
}

}  // namespace tac3map
