// Writing a trace as the text `dumpi2ascii` prints for a DUMPI trace (SST DUMPI), one file per
// rank, so that tools that read DUMPI (and tac3map's own DUMPI reader, trace_formats.hpp) see
// the program tac3map maps. Each call is a block 'MPI_X entering at walltime ...', one
// 'type name=value' line per argument in dumpi2ascii's order and spelling, 'MPI_X returning at
// walltime ...'. What is written for each event: docs/convert.md.
#pragma once

#include <string>
#include <vector>

#include "tac3map/io/trace.hpp"

namespace tac3map {

// The per-rank texts. Point-to-point calls, waits, barriers and the collectives DUMPI has
// (bcast, reduce, allreduce, allgather, alltoall, gather, scatter, reduce_scatter) are written
// as those calls; sub-communicators as one MPI_Comm_split of MPI_COMM_WORLD each (members:
// colour 0, key = their rank in it; the others MPI_UNDEFINED), made by every rank before its
// first call; local work (compute, copy) as the time between two calls. Sizes are counts of
// MPI_BYTE (of MPI_DOUBLE above 2^31-1 bytes); tags and counts must fit DUMPI's ints, else an
// InputError naming the trace line.
std::vector<std::string> dumpiRankTexts(const Trace& trace);

// The per-rank file beside an index `indexPath`: "<index file name>-<rank>.txt", the rank in
// 4 digits or more (dumpi's own naming, so the folder also reads as a DUMPI folder).
std::string dumpiRankFile(const std::string& indexPath, int rank, int ranks);

// Writes the per-rank files and the index (their names, one per line, relative to the index's
// folder), all or none.
void writeDumpi(const Trace& trace, const std::string& indexPath);

}  // namespace tac3map
