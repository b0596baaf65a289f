// What the tracer's two files share (tac3trace.cpp: state, point-to-point calls and requests;
// tac3trace_collectives.cpp: collective calls). docs/tracer.md.
#pragma once

#include <mpi.h>

#include <initializer_list>
#include <string>

namespace tac3trace {

// Whether this rank records now (between MPI_Init and MPI_Finalize, not after Pcontrol(0)).
bool on();
// Appends a line to the rank's trace, in program order; returns its slot.
std::size_t emit(const std::string& line);
// "<rank> word word ...\n".
std::string line(std::initializer_list<std::string> words);
std::string str(long long value);
long long bytesOf(int count, MPI_Datatype type);
// The world rank of `rank` of `comm` (MPI_ANY_SOURCE and MPI_PROC_NULL as they are).
int worldRank(MPI_Comm comm, int rank);
// A request posted: its isend/irecv line (an irecv of open source or tag once completed).
void posted(MPI_Request request, bool recv, int peer, long long bytes, int tag, MPI_Comm comm);
// '<rank> <collective> <bytes> [root=<r>] [comm=<id>]'; bytes agreed over the communicator
// (the largest any rank gives) where the v-variants let them differ.
void collective(const char* name, long long bytes, int root, MPI_Comm comm, bool agree);
// The communicator's id in the trace ("" for all ranks), declared on first use.
std::string commId(MPI_Comm comm);
long long largestOf(const int counts[], int n, MPI_Datatype type);
int sizeOf(MPI_Comm comm);

}  // namespace tac3trace
