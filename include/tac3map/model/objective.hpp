// The objectives of the paper and the plain reference evaluator that computes them from
// scratch, on a Problem (problem.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tac3map/mapping/mapping.hpp"
#include "tac3map/model/problem.hpp"
#include "tac3map/network/network.hpp"

namespace tac3map {

// The objectives; each is declared with its name, value and engine in objectives.hpp.
enum class ObjectiveKind { Tac3, Tahb, RmattO2f };

// Exact integer forms of the objectives; seconds and byte-hops are derived from these.
struct ExactScores {
  // sum_t max_c M_c * coll_t(c), coll in weighted loads (model.hpp): seconds x B x tac3Scale
  std::uint64_t tac3ByteCounts = 0;
  std::uint64_t lowerBoundBytes = 0;  // sum_t bound_t, same unit
  std::uint64_t tac3Scale = 1;        // the model's linkWeight
  std::uint64_t sharedPairs = 0;      // sum_t,l w_l^2 C(n_t(l), 2): the annealer's tie-break
  std::uint64_t tahbByteHops = 0;     // sum_c M_c * hops(c)
  std::uint64_t maxLinkBytes = 0;     // largest total bytes over one link, whole iteration
  std::uint64_t totalBytes = 0;       // sum_c M_c
  int maxLinkMessages = 0;            // max_t,l load_t(l)
};

struct Scores {
  double tac3 = 0;            // seconds
  double tac3LowerBound = 0;  // seconds
  // The timeline model's length in seconds (timeline.hpp), where the caller computed it
  // (Job::score): equal to tac3 with barriers between all steps.
  std::optional<double> timeline;
  // The flow model's length in seconds (flow.hpp): messages in flight share links max-min
  // fairly, as the validation's simulator shares them; where the caller computed it and the
  // trace is within the model's size cap.
  std::optional<double> flow;
  // The flow figure is sampledFlowSeconds' (the whole trace too costly to simulate).
  bool flowSampled = false;
  double tahb = 0;      // byte-hops
  double rmattO2f = 0;  // byte-hops x bytes
  int maxLinkMessages = 0;
  double avgHops = 0;  // bytes-weighted
};

// The reference: routes every communication under the problem's model, counts link loads per
// CCS in plain containers.
ExactScores evaluateExact(const Problem& problem, const Network& router, const Mapping& mapping);
Scores toScores(const ExactScores& exact, double linkBandwidth);
Scores evaluate(const Problem& problem, const Network& router, const Mapping& mapping,
                double linkBandwidth);

// sum over CCSs of their bounds: no mapping has a lower tac3 (in ExactScores' unit).
std::uint64_t tac3LowerBoundBytes(const Problem& problem);

}  // namespace tac3map
