#include "tac3map/model/collective_algorithms.hpp"

#include <algorithm>
#include <sstream>

#include "tac3map/io/error.hpp"

namespace tac3map {
namespace {

struct AlgorithmName {
  const char* name;
  Algorithm algorithm;
};
const AlgorithmName kAlgorithms[] = {{"binomial", Algorithm::Binomial},
                                     {"recursive-doubling", Algorithm::RecursiveDoubling},
                                     {"ring", Algorithm::Ring},
                                     {"bruck", Algorithm::Bruck},
                                     {"pairwise", Algorithm::Pairwise},
                                     {"dissemination", Algorithm::Dissemination},
                                     {"shift-ring", Algorithm::ShiftRing},
                                     {"linear", Algorithm::Linear},
                                     {"reduce-bcast", Algorithm::ReduceBcast}};

bool supported(CollectiveOp op, Algorithm a) {
  switch (op) {
    case CollectiveOp::Bcast:
    case CollectiveOp::Reduce:
    case CollectiveOp::Gather:
    case CollectiveOp::Scatter:
    case CollectiveOp::Gatherv:
    case CollectiveOp::Scatterv:
      return a == Algorithm::Binomial || a == Algorithm::Linear;
    case CollectiveOp::Allreduce:
      return a == Algorithm::RecursiveDoubling || a == Algorithm::Ring ||
             a == Algorithm::ReduceBcast;
    case CollectiveOp::Allgather:
      return a == Algorithm::Ring || a == Algorithm::RecursiveDoubling || a == Algorithm::Bruck ||
             a == Algorithm::ShiftRing || a == Algorithm::Linear;
    case CollectiveOp::Alltoall:
      return a == Algorithm::Pairwise || a == Algorithm::Linear || a == Algorithm::Bruck;
    case CollectiveOp::ReduceScatter:
      return a == Algorithm::Ring;
    case CollectiveOp::Barrier:
      return a == Algorithm::Dissemination || a == Algorithm::Linear;
    case CollectiveOp::Allgatherv:
      return a == Algorithm::Ring || a == Algorithm::Linear;
    case CollectiveOp::Alltoallv:
      return a == Algorithm::Pairwise || a == Algorithm::Linear;
    case CollectiveOp::Scan:
    case CollectiveOp::Exscan:
      return a == Algorithm::RecursiveDoubling;
  }
  return false;
}

}  // namespace

Algorithm defaultAlgorithm(CollectiveOp op) {
  switch (op) {
    case CollectiveOp::Allreduce:
      return Algorithm::RecursiveDoubling;
    case CollectiveOp::Allgather:
    case CollectiveOp::ReduceScatter:
      return Algorithm::Ring;
    case CollectiveOp::Alltoall:
    case CollectiveOp::Alltoallv:
      return Algorithm::Pairwise;
    case CollectiveOp::Allgatherv:
      return Algorithm::Ring;
    case CollectiveOp::Scan:
    case CollectiveOp::Exscan:
      return Algorithm::RecursiveDoubling;
    case CollectiveOp::Barrier:
      return Algorithm::Dissemination;
    default:
      return Algorithm::Binomial;
  }
}

bool CollectiveRule::applies(std::uint64_t bytes, int ranks) const {
  if (ranks >= ranksBelow || bytes >= bytesBelow) return false;
  if (powerOfTwo && (ranks & (ranks - 1)) != 0) return false;
  if (totalBelow == std::numeric_limits<std::uint64_t>::max()) return true;
  // bytes x ranks < totalBelow, without overflow
  return ranks <= 0 || bytes < (totalBelow + static_cast<std::uint64_t>(ranks) - 1) /
                                   static_cast<std::uint64_t>(ranks);
}

Algorithm CollectiveAlgorithms::of(CollectiveOp op, std::uint64_t bytes, int ranks) const {
  const auto fixed = choice.find(op);
  if (fixed != choice.end()) return fixed->second;
  const auto byRule = rules.find(op);
  if (byRule != rules.end())
    for (const CollectiveRule& rule : byRule->second)
      if (rule.applies(bytes, ranks)) return rule.algorithm;
  return defaultAlgorithm(op);
}

std::optional<Algorithm> algorithmNamed(CollectiveOp op, const std::string& name) {
  for (const AlgorithmName& a : kAlgorithms)
    if (name == a.name && supported(op, a.algorithm)) return a.algorithm;
  return std::nullopt;
}

namespace {
const CollectiveOp kOps[] = {
    CollectiveOp::Bcast,     CollectiveOp::Reduce,        CollectiveOp::Allreduce,
    CollectiveOp::Allgather, CollectiveOp::Alltoall,      CollectiveOp::Gather,
    CollectiveOp::Scatter,   CollectiveOp::ReduceScatter, CollectiveOp::Barrier,
    CollectiveOp::Gatherv,   CollectiveOp::Scatterv,      CollectiveOp::Allgatherv,
    CollectiveOp::Alltoallv, CollectiveOp::Scan,          CollectiveOp::Exscan};
}  // namespace

std::optional<CollectiveOp> collectiveNamed(const std::string& name) {
  for (CollectiveOp op : kOps)
    if (name == collectiveName(op)) return op;
  return std::nullopt;
}

const char* algorithmName(Algorithm algorithm) {
  for (const AlgorithmName& a : kAlgorithms)
    if (a.algorithm == algorithm) return a.name;
  return "?";
}

CollectiveAlgorithms parseCollectiveAlgorithms(const std::string& text, CollectiveAlgorithms base) {
  CollectiveAlgorithms result = std::move(base);
  std::stringstream in(text);
  std::string entry;
  while (std::getline(in, entry, ',')) {
    if (entry.empty()) continue;
    const auto equals = entry.find('=');
    const std::string name = entry.substr(0, equals);
    const std::string algorithm = equals == std::string::npos ? "" : entry.substr(equals + 1);
    const std::optional<CollectiveOp> op = collectiveNamed(name);
    if (!op)
      throw SettingError("collectives", " '" + entry + "': unknown collective '" + name + "'");
    const std::optional<Algorithm> a = algorithmNamed(*op, algorithm);
    if (!a)
      throw SettingError("collectives", " '" + entry + "': '" + algorithm +
                                            "' is not an algorithm of " + name +
                                            " (see docs/trace-format.md)");
    result.choice[*op] = *a;
  }
  return result;
}

std::vector<Algorithm> algorithmsOf(CollectiveOp op) {
  std::vector<Algorithm> result{defaultAlgorithm(op)};
  for (const AlgorithmName& a : kAlgorithms)
    if (a.algorithm != result.front() && supported(op, a.algorithm)) result.push_back(a.algorithm);
  return result;
}

}  // namespace tac3map
