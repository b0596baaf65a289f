// libtac3trace's collective calls (tac3trace.hpp): each written as its native collective line,
// before it runs, so that the lines come in call order.
#include "tac3trace.hpp"

using namespace tac3trace;

extern "C" {

int MPI_Barrier(MPI_Comm comm) {
  // Over all ranks: the global synchronisation; on a smaller communicator: its barrier.
  if (on()) {
    const std::string id = commId(comm);
    emit(id.empty() ? line({"barrier"}) : line({"barrier", "comm=" + id}));
  }
  return PMPI_Barrier(comm);
}

int MPI_Bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  if (on()) collective("bcast", bytesOf(count, type), root, comm, false);
  return PMPI_Bcast(buf, count, type, root, comm);
}

int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
               int root, MPI_Comm comm) {
  if (on()) collective("reduce", bytesOf(count, type), root, comm, false);
  return PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm);
}

int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm) {
  if (on()) collective("allreduce", bytesOf(count, type), -1, comm, false);
  return PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
}

int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  if (on()) collective("allgather", bytesOf(recvcount, recvtype), -1, comm, false);
  return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

int MPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                   MPI_Comm comm) {
  if (on()) collective("allgather", largestOf(recvcounts, sizeOf(comm), recvtype), -1, comm, false);
  return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
}

int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  if (on()) collective("alltoall", bytesOf(sendcount, sendtype), -1, comm, false);
  return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                  MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                  MPI_Datatype recvtype, MPI_Comm comm) {
  if (on()) collective("alltoall", largestOf(sendcounts, sizeOf(comm), sendtype), -1, comm, true);
  return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                        recvtype, comm);
}

int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  if (on()) collective("gather", bytesOf(sendcount, sendtype), root, comm, false);
  return PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}

int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  if (on()) collective("scatter", bytesOf(recvcount, recvtype), root, comm, false);
  return PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}

int MPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                       MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  if (on())
    collective("reduce_scatter", largestOf(recvcounts, sizeOf(comm), type), -1, comm, false);
  return PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, type, op, comm);
}


// Non-blocking collectives run where they are called, as the blocking ones (docs/tracer.md):
// their requests are not recorded, so their waits write nothing.
int MPI_Ibarrier(MPI_Comm comm, MPI_Request* request) {
  if (on()) {
    const std::string id = commId(comm);
    emit(id.empty() ? line({"barrier"}) : line({"barrier", "comm=" + id}));
  }
  return PMPI_Ibarrier(comm, request);
}

int MPI_Ibcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm,
               MPI_Request* request) {
  if (on()) collective("bcast", bytesOf(count, type), root, comm, false);
  return PMPI_Ibcast(buf, count, type, root, comm, request);
}

int MPI_Ireduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                int root, MPI_Comm comm, MPI_Request* request) {
  if (on()) collective("reduce", bytesOf(count, type), root, comm, false);
  return PMPI_Ireduce(sendbuf, recvbuf, count, type, op, root, comm, request);
}

int MPI_Iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                   MPI_Comm comm, MPI_Request* request) {
  if (on()) collective("allreduce", bytesOf(count, type), -1, comm, false);
  return PMPI_Iallreduce(sendbuf, recvbuf, count, type, op, comm, request);
}

int MPI_Iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  if (on()) collective("allgather", bytesOf(recvcount, recvtype), -1, comm, false);
  return PMPI_Iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                         request);
}

int MPI_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  if (on()) collective("alltoall", bytesOf(sendcount, sendtype), -1, comm, false);
  return PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                        request);
}

int MPI_Igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                MPI_Request* request) {
  if (on()) collective("gather", bytesOf(sendcount, sendtype), root, comm, false);
  return PMPI_Igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                      request);
}

int MPI_Iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request* request) {
  if (on()) collective("scatter", bytesOf(recvcount, recvtype), root, comm, false);
  return PMPI_Iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                       request);
}

int MPI_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
             MPI_Comm comm) {
  if (on()) collective("scan", bytesOf(count, type), -1, comm, false);
  return PMPI_Scan(sendbuf, recvbuf, count, type, op, comm);
}

int MPI_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
               MPI_Comm comm) {
  if (on()) collective("exscan", bytesOf(count, type), -1, comm, false);
  return PMPI_Exscan(sendbuf, recvbuf, count, type, op, comm);
}

int MPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                             MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  if (on()) collective("reduce_scatter", bytesOf(recvcount, type), -1, comm, false);
  return PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, type, op, comm);
}

}  // extern "C"
