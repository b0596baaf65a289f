// Test program for libtac3remap: remaps MPI_COMM_WORLD with the mapping file given as the
// first argument and prints, per process, "world <old rank> new <new rank>".
#include <cstdio>

#include "tac3map/tac3map_remap.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm remapped;
  const int result = tac3map_comm_remap(MPI_COMM_WORLD, argc > 1 ? argv[1] : "", &remapped);
  int status = 0;
  if (result != MPI_SUCCESS) {
    status = 3;
  } else {
    int newRank = 0;
    MPI_Comm_rank(remapped, &newRank);
    std::printf("world %d new %d\n", rank, newRank);
    MPI_Comm_free(&remapped);
  }
  MPI_Finalize();
  return status;
}
