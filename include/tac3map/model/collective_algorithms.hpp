// Which algorithm each collective is expanded with (collectives.hpp expands them; the steps
// of each algorithm are in src/model/collective_steps.cpp): the names `--collectives` takes,
// the defaults, and which algorithms apply to which collective.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tac3map/io/trace.hpp"

namespace tac3map {

enum class Algorithm {
  Binomial,           // bcast, reduce, gather, scatter
  RecursiveDoubling,  // allreduce, allgather (power-of-two sizes; else Bruck for allgather)
  Ring,               // allreduce (reduce-scatter + allgather), allgather, reduce_scatter
  Bruck,              // allgather, alltoall
  ShiftRing,          // allgather: step s sends the own block to v + s (SimGrid's "ring")
  Pairwise,           // alltoall
  Dissemination,      // barrier
  Linear,             // every message posted at once (SimGrid's default selector); barrier:
                      // every rank to rank 0, which answers each once all have come
  ReduceBcast,        // allreduce: reduce to rank 0, then bcast (SimGrid's default selector)
};

// An MPI's choice by size (mpi_profile.hpp): the rule applies to a call on fewer than
// `ranksBelow` ranks (a power of two only, with `powerOfTwo`), of fewer than `bytesBelow`
// bytes (the call's Event::bytes: the vector, or one rank's block) and fewer than
// `totalBelow` bytes x ranks.
struct CollectiveRule {
  int ranksBelow = std::numeric_limits<int>::max();
  std::uint64_t bytesBelow = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t totalBelow = std::numeric_limits<std::uint64_t>::max();
  bool powerOfTwo = false;
  Algorithm algorithm = Algorithm::Binomial;
  bool applies(std::uint64_t bytes, int ranks) const;
};

struct CollectiveAlgorithms {
  // Fixed choices (--collectives): whatever the size. Missing: the first of `rules` that
  // applies, else tac3map's default.
  std::map<CollectiveOp, Algorithm> choice;
  std::map<CollectiveOp, std::vector<CollectiveRule>> rules;
  // The algorithm of a call of `bytes` (Event::bytes) on `ranks` ranks. Every member of a
  // call gives the same figures, so all choose alike.
  Algorithm of(CollectiveOp op, std::uint64_t bytes, int ranks) const;
};

// "allreduce=ring,allgather=bruck"; InputError naming the option on a bad entry. Fixed choices
// on top of `base` (an MPI profile's rules).
CollectiveAlgorithms parseCollectiveAlgorithms(const std::string& text,
                                               CollectiveAlgorithms base = {});
// The algorithm called `name` for `op` (as --collectives and profiles spell them), or nothing.
std::optional<Algorithm> algorithmNamed(CollectiveOp op, const std::string& name);
// The collective called `name` ("allreduce", "gatherv", ...), or nothing.
std::optional<CollectiveOp> collectiveNamed(const std::string& name);
Algorithm defaultAlgorithm(CollectiveOp op);
const char* algorithmName(Algorithm algorithm);

// The algorithms tac3map can decompose `op` with, the default first.
std::vector<Algorithm> algorithmsOf(CollectiveOp op);

}  // namespace tac3map
