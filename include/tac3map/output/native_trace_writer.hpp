// Writing a trace in tac3map's native text format (docs/trace-format.md), so that a trace read
// from SimGrid TI or DUMPI can be kept, edited and read back as `tac3map-trace 1`. The native
// format expresses nearly every event tac3map reads: collectives stay collectives (with their
// root and communicator, whose members are declared with `comm` lines), local work stays
// `compute`/`copy`; only SimGrid's v-collectives (per-rank count lists) are written as their
// point-to-point steps. The kernel iteration chosen when reading is written without markers.
#pragma once

#include <set>
#include <string>

#include "tac3map/io/trace.hpp"
#include "tac3map/model/collectives.hpp"

namespace tac3map {

// The collectives the native format writes as such (all but gatherv, scatterv, allgatherv and
// alltoallv).
extern const std::set<CollectiveOp> kNativeCollectives;

// The trace as native text: header, `ranks N`, one `comm` line per communicator (declared by
// its first member), then each rank's events in program order, rank after rank. Tags and
// sizes are written in full, so parseTrace gives back the same events. Collectives outside
// kNativeCollectives are expanded with `algorithms` (collectives.hpp); their steps' tags are
// negative and never collide with the kept collectives' steps.
std::string nativeTraceText(const Trace& trace, const CollectiveAlgorithms& algorithms = {});

// Writes nativeTraceText(trace) to `path`, atomically.
void writeNativeTrace(const Trace& trace, const std::string& path,
                      const CollectiveAlgorithms& algorithms = {});

}  // namespace tac3map
