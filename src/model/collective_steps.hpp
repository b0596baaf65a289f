// The steps of each collective algorithm (collectives.hpp): the point-to-point events one
// rank's part of a call expands into. Private to src/model: collectives.cpp drives the
// expansion over a trace, this file knows the algorithms.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tac3map/io/trace.hpp"
#include "tac3map/model/collective_algorithms.hpp"

namespace tac3map {

// The names of the requests a linear algorithm posts in one call: "~coll0", "~coll1", ...,
// interned into the trace's table once and used again by every call (each call waits for all
// of them before it returns).
class CallRequests {
 public:
  explicit CallRequests(NameTable& names) : names_(names) {}
  int operator()(int k) {
    while (ids_.size() <= static_cast<std::size_t>(k)) {
      std::string name = "~coll";
      name.append(std::to_string(ids_.size()));
      ids_.push_back(names_.intern(name));
    }
    return ids_[k];
  }

 private:
  NameTable& names_;
  std::vector<int> ids_;
};

// Gatherv, scatterv and allgatherv: steps that carry other ranks' blocks, whose sizes only
// their own calls give.
inline bool isVariable(CollectiveOp op) {
  return op == CollectiveOp::Gatherv || op == CollectiveOp::Scatterv ||
         op == CollectiveOp::Allgatherv;
}

// The algorithm `call` runs with on `n` ranks, chosen by its size as every member sees it:
// Event::bytes, a v-collective's mean block (`own`; 0 without it), alltoallv's none (0).
Algorithm algorithmOf(const CollectiveAlgorithms& algorithms, const Event& call, int n,
                      const std::vector<std::uint64_t>* own);

// Gather, scatter (binomial), allgather (recursive doubling, Bruck) and alltoall (Bruck) steps
// carry up to n - 1 blocks: a LimitError at the call when bytes x (n - 1) is beyond tac3map's
// message limit.
void checkStepBytes(const Trace& trace, const Event& call, int n, Algorithm algorithm);

// Appends rank v's steps of `call` (v in `members`, the communicator's world ranks) to `out`
// (none: only counts them into `sends`); returns how many events. Linear algorithms name
// their requests through `requests` (null when only counting). `own`: every communicator
// rank's own block of this call (gatherv, scatterv, allgatherv), else null.
std::size_t expandOne(std::vector<Event>* out, std::uint64_t* sends, const Trace& trace,
                      const Event& call, int v, const std::vector<int>& members, std::int64_t tag,
                      const CollectiveAlgorithms& algorithms, CallRequests* requests,
                      const std::vector<std::uint64_t>* own);

}  // namespace tac3map
