// Writing a trace as SimGrid SMPI time-independent (TI) actions, the input of `smpirun
// -replay`, so that SimGrid can simulate the very program tac3map maps (docs/validation.md).
// The output is one file per rank plus an index listing them (SMPI's layout); tac3map's own
// TI reader (trace_formats.hpp) reads it back into the same CCSs. Collectives are first
// expanded into tac3map's point-to-point steps, so SimGrid moves the same messages tac3map
// scores rather than running its own collective algorithms.
#pragma once

#include <string>
#include <vector>

#include "tac3map/io/trace.hpp"
#include "tac3map/model/collectives.hpp"

namespace tac3map {

// The actions of each rank, one string per rank (lines '<rank> <action> ...'):
// init; send/recv/isend/irecv '<peer> <tag> <bytes>'; wait '<src> <dst> <tag>'; waitall;
// sendRecv '<bytes> <dst> <bytes> <src>' (a sendrecv whose tag is 0: SMPI's sendRecv always
// uses tag 0), else the sendrecv as isend + irecv + two waits; barrier; sleep '<seconds>'
// (compute); finalize. Copy events are left out (no TI action; they never affect CCSs).
// Tags are renumbered into 0 .. 2^31-1 one-to-one (SMPI tags are non-negative ints; the
// expanded collectives' tags are negative). Throws InputError naming the trace line where a
// wait cannot be expressed (SMPI's replay waits for the oldest pending request with the same
// source, destination and tag).
std::vector<std::string> simgridTiActions(const Trace& trace,
                                          const CollectiveAlgorithms& algorithms = {});

// The names of the per-rank files beside an index `indexPath`: "<index file name>.rank<r>".
std::string simgridTiRankFile(const std::string& indexPath, int rank);

// Writes the per-rank files and the index (their names, relative to the index's folder: run
// smpirun from that folder), all or none (temporary files renamed at the end).
void writeSimgridTi(const Trace& trace, const std::string& indexPath,
                    const CollectiveAlgorithms& algorithms = {});

}  // namespace tac3map
