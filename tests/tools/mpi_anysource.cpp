// Test program for the tracer: rank 0 receives one message from every other rank with
// MPI_ANY_SOURCE / MPI_ANY_TAG (irecv + waitall, then a blocking recv round), on a split
// communicator in reverse rank order, so that the tracer must resolve sources from statuses
// and translate communicator ranks to world ranks.
#include <mpi.h>

#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm reversed;
  MPI_Comm_split(MPI_COMM_WORLD, 0, size - 1 - rank, &reversed);  // world rank r is size-1-r
  int local = 0;
  MPI_Comm_rank(reversed, &local);
  MPI_Pcontrol(1);
  std::vector<int> data(size, rank);
  if (local == 0) {
    std::vector<MPI_Request> requests(size - 1);
    for (int i = 0; i < size - 1; ++i)
      MPI_Irecv(&data[i], 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, reversed, &requests[i]);
    MPI_Waitall(size - 1, requests.data(), MPI_STATUSES_IGNORE);
    for (int i = 0; i < size - 1; ++i)
      MPI_Recv(&data[i], 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, reversed, MPI_STATUS_IGNORE);
  } else {
    MPI_Send(&rank, 1, MPI_INT, 0, 100 + local, reversed);
    MPI_Send(&rank, 1, MPI_INT, 0, 200 + local, reversed);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Comm_free(&reversed);
  MPI_Finalize();
  return 0;
}
