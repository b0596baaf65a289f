// The NAS CG kernel's communication pattern as a real MPI program: the same exchanges as
// `tac3map gen cg` (row steps with partner column col XOR npcols/2^(s+1), tag s+1, then the
// transpose exchange with tag 1), MPI_Sendrecv of BYTES bytes, ITERATIONS times, each iteration
// announced with MPI_Pcontrol(1) so that a tracer marks it.
//
//   mpirun -n 64 ./cg-mpi [BYTES [ITERATIONS]]
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const long bytes = argc > 1 ? std::atol(argv[1]) : 1 << 20;
  const int iterations = argc > 2 ? std::atoi(argv[2]) : 2;
  int k = 0;
  while ((1 << k) < size) ++k;
  if ((1 << k) != size) {
    if (rank == 0) std::fprintf(stderr, "cg-mpi: the number of ranks must be a power of two\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  // NPB CG's process grid: nprows x npcols, npcols = nprows or 2 nprows.
  const int rows = 1 << (k / 2), cols = k % 2 ? 2 * rows : rows;
  int steps = 0;
  while ((1 << steps) < cols) ++steps;
  const int row = rank / cols, col = rank % cols;
  const int transpose = rows == cols
                            ? (rank % rows) * rows + rank / rows
                            : 2 * (((rank / 2) % rows) * rows + rank / 2 / rows) + rank % 2;
  std::vector<char> out(bytes, static_cast<char>(rank)), in(bytes);
  for (int it = 0; it < iterations; ++it) {
    MPI_Pcontrol(1);
    for (int s = 0; s < steps; ++s) {
      const int partner = row * cols + (col ^ (cols >> (s + 1)));
      MPI_Sendrecv(out.data(), static_cast<int>(bytes), MPI_BYTE, partner, s + 1, in.data(),
                   static_cast<int>(bytes), MPI_BYTE, partner, s + 1, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
    }
    if (steps > 0)
      MPI_Sendrecv(out.data(), static_cast<int>(bytes), MPI_BYTE, transpose, 1, in.data(),
                   static_cast<int>(bytes), MPI_BYTE, transpose, 1, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
  }
  MPI_Pcontrol(0);
  MPI_Finalize();
  return 0;
}
