// libtac3trace's other send modes (tac3trace.hpp): synchronous, buffered and ready sends are
// written as send and isend lines; the protocol a run uses follows the size, as tac3map models
// it (CcsOptions::eagerLimit; docs/tracer.md).
#include "tac3trace.hpp"

using namespace tac3trace;

extern "C" {

int MPI_Ssend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  if (on() && dest != MPI_PROC_NULL)
    emit(line({"send", str(worldRank(comm, dest)), str(bytesOf(count, type)), str(tag)}));
  return PMPI_Ssend(buf, count, type, dest, tag, comm);
}

int MPI_Bsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  if (on() && dest != MPI_PROC_NULL)
    emit(line({"send", str(worldRank(comm, dest)), str(bytesOf(count, type)), str(tag)}));
  return PMPI_Bsend(buf, count, type, dest, tag, comm);
}

int MPI_Rsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  if (on() && dest != MPI_PROC_NULL)
    emit(line({"send", str(worldRank(comm, dest)), str(bytesOf(count, type)), str(tag)}));
  return PMPI_Rsend(buf, count, type, dest, tag, comm);
}

int MPI_Issend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
               MPI_Request* request) {
  const int result = PMPI_Issend(buf, count, type, dest, tag, comm, request);
  if (on() && dest != MPI_PROC_NULL)
    posted(*request, false, worldRank(comm, dest), bytesOf(count, type), tag, comm);
  return result;
}

int MPI_Ibsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
               MPI_Request* request) {
  const int result = PMPI_Ibsend(buf, count, type, dest, tag, comm, request);
  if (on() && dest != MPI_PROC_NULL)
    posted(*request, false, worldRank(comm, dest), bytesOf(count, type), tag, comm);
  return result;
}

int MPI_Irsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
               MPI_Request* request) {
  const int result = PMPI_Irsend(buf, count, type, dest, tag, comm, request);
  if (on() && dest != MPI_PROC_NULL)
    posted(*request, false, worldRank(comm, dest), bytesOf(count, type), tag, comm);
  return result;
}

}  // extern "C"
