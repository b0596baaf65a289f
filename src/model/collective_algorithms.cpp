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

Algorithm CollectiveAlgorithms::of(CollectiveOp op) const {
  const auto it = choice.find(op);
  return it == choice.end() ? defaultAlgorithm(op) : it->second;
}

const char* algorithmName(Algorithm algorithm) {
  for (const AlgorithmName& a : kAlgorithms)
    if (a.algorithm == algorithm) return a.name;
  return "?";
}

CollectiveAlgorithms parseCollectiveAlgorithms(const std::string& text) {
  CollectiveAlgorithms result;
  std::stringstream in(text);
  std::string entry;
  const CollectiveOp ops[] = {
      CollectiveOp::Bcast,     CollectiveOp::Reduce,        CollectiveOp::Allreduce,
      CollectiveOp::Allgather, CollectiveOp::Alltoall,      CollectiveOp::Gather,
      CollectiveOp::Scatter,   CollectiveOp::ReduceScatter, CollectiveOp::Barrier,
      CollectiveOp::Gatherv,   CollectiveOp::Scatterv,      CollectiveOp::Allgatherv,
      CollectiveOp::Alltoallv, CollectiveOp::Scan,          CollectiveOp::Exscan};
  while (std::getline(in, entry, ',')) {
    if (entry.empty()) continue;
    const auto equals = entry.find('=');
    const std::string name = entry.substr(0, equals);
    const std::string algorithm = equals == std::string::npos ? "" : entry.substr(equals + 1);
    const CollectiveOp* op = std::find_if(
        std::begin(ops), std::end(ops), [&](CollectiveOp o) { return name == collectiveName(o); });
    if (op == std::end(ops))
      throw SettingError("collectives", " '" + entry + "': unknown collective '" + name + "'");
    const AlgorithmName* a =
        std::find_if(std::begin(kAlgorithms), std::end(kAlgorithms),
                     [&](const AlgorithmName& k) { return algorithm == k.name; });
    if (a == std::end(kAlgorithms) || !supported(*op, a->algorithm))
      throw SettingError("collectives", " '" + entry + "': '" + algorithm +
                                            "' is not an algorithm of " + name +
                                            " (see docs/trace-format.md)");
    result.choice[*op] = a->algorithm;
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
