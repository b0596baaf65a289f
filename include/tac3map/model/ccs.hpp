// Concurrent Communication Sets: from a trace's events, the communications (matched send and
// receive sides) grouped into sets that start transferring together. The exact definition is
// in docs/trace-format.md ("From events to CCSs"); this is its only implementation.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tac3map/io/trace.hpp"
#include "tac3map/model/collectives.hpp"
#include "tac3map/model/communication.hpp"

namespace tac3map {

struct CcsOptions {
  // Sends complete at once on the sender (buffered/eager protocol) instead of when the
  // message has been transferred (rendezvous): a blocking send returns, an isend's wait does
  // not wait for it.
  bool eagerSends = false;
  // Sends of fewer bytes than this are eager too (an MPI's eager limit; SimGrid's
  // smpi/send-is-detached-thresh, which detaches isends as well); 0: none.
  std::uint64_t eagerLimit = 0;
  bool eagerSend(std::uint64_t bytes) const { return eagerSends || bytes < eagerLimit; }
  // How collective events become point-to-point steps (collectives.hpp).
  CollectiveAlgorithms collectives;
  // Injection engines per node. One: the paper's sets (each level split first-fit into sets
  // of pairwise distinct senders and receivers, which one engine sends one after the other).
  // More: a level's messages all start together and share the engines, so each level is one
  // set and the model charges the engines in its cost (model.hpp).
  int engines = 1;
  // The alternative rule for several engines, kept to compare against the simulation
  // (docs/model.md): split a level first fit into sets in which each rank sends and receives
  // at most `engines` messages.
  bool splitBeyondEngines = false;
};

struct CcsSet {
  int tasks = 0;
  std::vector<std::vector<Communication>> sets;  // ordered by level, then split order
  // Levels at which a barrier released every rank: a set of level >= f cannot start before
  // every set of level < f has finished.
  std::vector<int> barrierLevels;
  // How the trace's barriers run (--collectives barrier=...): the flow model charges each
  // barrier its zero-byte messages' latencies (flow.hpp).
  Algorithm barrierAlgorithm = Algorithm::Dissemination;
  // How many times each set occurs (empty: each once). The trace's sets are in order and
  // leave this empty; a derived list (the coarse levels of multilevel search) that already
  // merged repeated sets keeps their counts here.
  std::vector<std::uint64_t> repeats;

  // Whether a barrier separates set t from set t + 1.
  bool barrierBetween(std::size_t t) const;

  std::size_t communicationCount() const;
};

CcsSet extractCcs(const Trace& trace, const CcsOptions& options = {});
// The same from a trace no longer needed: its collectives are expanded in place, one rank at
// a time, instead of into a copy, and its events are released (every rank's list left empty)
// once matched and levelled: a whole-run trace's events are most of the memory.
CcsSet extractCcs(Trace&& trace, const CcsOptions& options = {});

}  // namespace tac3map
