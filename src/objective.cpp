#include "tac3map/objective.hpp"

#include <algorithm>
#include <map>

#include "tac3map/error.hpp"

namespace tac3map {

ObjectiveKind parseObjective(const std::string& name) {
  if (name == "tac3") return ObjectiveKind::Tac3;
  if (name == "tahb") return ObjectiveKind::Tahb;
  if (name == "rmatt-o2f") return ObjectiveKind::RmattO2f;
  throw InputError("--objective '" + name + "': expected tac3, tahb or rmatt-o2f");
}

const char* objectiveName(ObjectiveKind kind) {
  switch (kind) {
    case ObjectiveKind::Tac3:
      return "tac3";
    case ObjectiveKind::Tahb:
      return "tahb";
    case ObjectiveKind::RmattO2f:
      return "rmatt-o2f";
  }
  return "?";
}

Problem makeProblem(const CcsSet& sets) {
  Problem p;
  p.tasks = sets.tasks;
  p.ccsCount = static_cast<int>(sets.sets.size());
  for (std::size_t t = 0; t < sets.sets.size(); ++t)
    for (const Communication& c : sets.sets[t]) {
      if (c.src == c.dst) continue;
      p.src.push_back(c.src);
      p.dst.push_back(c.dst);
      p.ccs.push_back(static_cast<int>(t));
      p.bytes.push_back(c.bytes);
    }
  return p;
}

ExactScores evaluateExact(const Problem& problem, const Router& router, const Mapping& mapping) {
  ExactScores s;
  const std::size_t n = problem.communicationCount();
  std::vector<std::vector<LinkId>> routes(n);
  std::vector<std::map<LinkId, int>> load(problem.ccsCount);
  std::map<LinkId, std::uint64_t> linkBytes;
  for (std::size_t c = 0; c < n; ++c) {
    routes[c] =
        router.route(mapping.nodeOfTask[problem.src[c]], mapping.nodeOfTask[problem.dst[c]]);
    for (LinkId l : routes[c]) {
      ++load[problem.ccs[c]][l];
      linkBytes[l] += problem.bytes[c];
    }
    s.tahbByteHops += problem.bytes[c] * routes[c].size();
    s.totalBytes += problem.bytes[c];
  }
  std::vector<std::uint64_t> worst(problem.ccsCount, 0);
  for (std::size_t c = 0; c < n; ++c) {
    const int t = problem.ccs[c];
    int coll = 0;
    for (LinkId l : routes[c]) coll = std::max(coll, load[t][l]);
    worst[t] = std::max(worst[t], problem.bytes[c] * static_cast<std::uint64_t>(coll));
    s.maxLinkMessages = std::max(s.maxLinkMessages, coll);
  }
  for (std::uint64_t w : worst) s.tac3ByteCounts += w;
  s.lowerBoundBytes = tac3LowerBoundBytes(problem);
  for (const auto& [link, bytes] : linkBytes) s.maxLinkBytes = std::max(s.maxLinkBytes, bytes);
  return s;
}

Scores toScores(const ExactScores& e, double linkBandwidth) {
  Scores s;
  s.tac3 = static_cast<double>(e.tac3ByteCounts) / linkBandwidth;
  s.tac3LowerBound = static_cast<double>(e.lowerBoundBytes) / linkBandwidth;
  s.tahb = static_cast<double>(e.tahbByteHops);
  s.rmattO2f = static_cast<double>(e.tahbByteHops) * static_cast<double>(e.maxLinkBytes);
  s.maxLinkMessages = e.maxLinkMessages;
  s.avgHops = e.totalBytes ? static_cast<double>(e.tahbByteHops) / e.totalBytes : 0.0;
  return s;
}

unsigned __int128 objectiveValue(const ExactScores& e, ObjectiveKind kind) {
  switch (kind) {
    case ObjectiveKind::Tac3: return e.tac3ByteCounts;
    case ObjectiveKind::Tahb: return e.tahbByteHops;
    case ObjectiveKind::RmattO2f:
      return static_cast<unsigned __int128>(e.tahbByteHops) * e.maxLinkBytes;
  }
  return 0;
}

Scores evaluate(const Problem& problem, const Router& router, const Mapping& mapping,
                double linkBandwidth) {
  return toScores(evaluateExact(problem, router, mapping), linkBandwidth);
}

std::uint64_t tac3LowerBoundBytes(const Problem& problem) {
  std::vector<std::uint64_t> largest(problem.ccsCount, 0);
  for (std::size_t c = 0; c < problem.communicationCount(); ++c)
    largest[problem.ccs[c]] = std::max(largest[problem.ccs[c]], problem.bytes[c]);
  std::uint64_t bound = 0;
  for (std::uint64_t b : largest) bound += b;
  return bound;
}

double referenceValue(const Problem& problem, ObjectiveKind kind) {
  double total = 0, biggest = 0;
  for (std::size_t c = 0; c < problem.communicationCount(); ++c) {
    total += static_cast<double>(problem.bytes[c]);
    biggest = std::max(biggest, static_cast<double>(problem.bytes[c]));
  }
  switch (kind) {
    case ObjectiveKind::Tac3:
      return static_cast<double>(tac3LowerBoundBytes(problem));
    case ObjectiveKind::Tahb:
      return total;
    case ObjectiveKind::RmattO2f:
      return total * biggest;
  }
  return 1;
}

}  // namespace tac3map
