// Which algorithm each collective is expanded with (collectives.hpp expands them; the steps
// of each algorithm are in src/model/collective_steps.cpp): the names `--collectives` takes,
// the defaults, and which algorithms apply to which collective.
#pragma once

#include <map>
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

struct CollectiveAlgorithms {
  std::map<CollectiveOp, Algorithm> choice;  // missing: the default
  Algorithm of(CollectiveOp op) const;
};

// "allreduce=ring,allgather=bruck"; InputError naming the option on a bad entry.
CollectiveAlgorithms parseCollectiveAlgorithms(const std::string& text);
Algorithm defaultAlgorithm(CollectiveOp op);
const char* algorithmName(Algorithm algorithm);

// The algorithms tac3map can decompose `op` with, the default first.
std::vector<Algorithm> algorithmsOf(CollectiveOp op);

}  // namespace tac3map
