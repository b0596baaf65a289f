// What the trace targets do with a trace a reader accepted: extract its CCSs, as every command
// does next, so that events a reader lets through but the model cannot take (a wrapped root,
// a peer out of range) are found too. Only small traces: a large one is valid input whose
// cost is the search's, not a reader's.
#pragma once

#include <cstddef>

#include "tac3map/io/trace.hpp"
#include "tac3map/model/ccs.hpp"

namespace tac3map::fuzz {

inline void extractSmallTrace(const Trace& trace) {
  if (trace.ranks > 64) return;
  std::size_t events = 0;
  for (const auto& rank : trace.events) events += rank.size();
  if (events > 4096) return;
  extractCcs(trace);
}

}  // namespace tac3map::fuzz
