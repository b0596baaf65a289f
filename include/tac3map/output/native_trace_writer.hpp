// Writing a trace in tac3map's native text format (docs/trace-format.md), so that a trace read
// from SimGrid TI or DUMPI can be kept, edited and read back as `tac3map-trace 1`. The native
// format expresses every event tac3map reads: collectives stay collectives (with their root
// and communicator, whose members are declared with `comm` lines), local work stays
// `compute`/`copy`. The kernel iteration chosen when reading is written without markers.
#pragma once

#include <string>

#include "tac3map/io/trace.hpp"

namespace tac3map {

// The trace as native text: header, `ranks N`, one `comm` line per communicator (declared by
// its first member), then each rank's events in program order, rank after rank. Tags and
// sizes are written in full, so parseTrace gives back the same events.
std::string nativeTraceText(const Trace& trace);

// Writes nativeTraceText(trace) to `path`, atomically.
void writeNativeTrace(const Trace& trace, const std::string& path);

}  // namespace tac3map
