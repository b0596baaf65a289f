// Test program for the tracer's collectives: on all ranks a bcast from rank 1 and an
// allreduce; on the even ranks (a split communicator) an allgather and a barrier; then a
// global barrier. tracer_collectives_test.sh compares the recorded trace's CCSs with those of
// the same calls written by hand in the native syntax.
#include <mpi.h>

#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Pcontrol(1);
  std::vector<double> data(125, rank), sum(125);
  MPI_Bcast(data.data(), 125, MPI_DOUBLE, 1, MPI_COMM_WORLD);                        // 1000 bytes
  MPI_Allreduce(data.data(), sum.data(), 100, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);  // 800
  MPI_Comm even;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &even);
  if (rank % 2 == 0) {
    int evens = 0;
    MPI_Comm_size(even, &evens);
    std::vector<int> all(16 * evens);
    std::vector<int> mine(16, rank);
    MPI_Allgather(mine.data(), 16, MPI_INT, all.data(), 16, MPI_INT, even);  // 64 bytes
    MPI_Barrier(even);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Comm_free(&even);
  MPI_Finalize();
  return 0;
}
