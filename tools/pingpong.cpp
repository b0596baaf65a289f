// tac3map-pingpong: measures the profile `tac3map predict` needs, on the machine itself.
//
//   mpirun -n 2 tac3map-pingpong -o profile.json        (ranks 0 and 1 one hop apart)
//
// Ranks 0 and 1 ping-pong messages of 8 B .. --max-bytes (powers of 4) and record half the
// round trip; rank 0 times memcpy of the same sizes, each repetition into and out of buffers
// not touched since they were allocated (a pool larger than the caches, walked in turn), as
// the prediction model assumes fresh data; all ranks time MPI_Barrier. Writes JSON that
// `tac3map predict --profile` reads (docs/predict.md). Place the two ranks on neighbouring
// nodes (e.g. with a rank file from tac3map) so that the ping-pong crosses one link.
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstring>
#include <fstream>
#include <iostream>
#include <vector>

#include "tac3map/io/atomic_file.hpp"
#include "tac3map/model/profile.hpp"

namespace {

double pingpong(std::vector<char>& buffer, std::size_t bytes, int repetitions, int rank) {
  const int count = static_cast<int>(bytes);
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (int r = 0; r < repetitions; ++r) {
    if (rank == 0) {
      MPI_Send(buffer.data(), count, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(buffer.data(), count, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(buffer.data(), count, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buffer.data(), count, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
    }
  }
  return (MPI_Wtime() - start) / repetitions / 2;
}

// Copies of `bytes` between buffers cut from a pool far larger than the caches, so each
// repetition reads and writes memory it has not touched for a long while.
double freshCopy(std::vector<char>& pool, std::size_t bytes, int repetitions) {
  const std::size_t slots = std::max<std::size_t>(2, pool.size() / bytes);
  double total = 0;
  for (int r = 0; r < repetitions; ++r) {
    char* from = pool.data() + (2 * static_cast<std::size_t>(r) % slots) * bytes;
    char* to = pool.data() + ((2 * static_cast<std::size_t>(r) + 1) % slots) * bytes;
    const double start = MPI_Wtime();
    std::memcpy(to, from, bytes);
    total += MPI_Wtime() - start;
  }
  return total / repetitions;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CLI::App app{"measure a tac3map predict profile (ping-pong, memcpy, barrier)"};
  std::string output, name = "measured";
  std::size_t maxBytes = std::size_t{16} << 20;
  int repetitions = 50;
  std::size_t poolMiB = 512;
  app.add_option("--output,-o", output, "profile JSON to write")->required();
  app.add_option("--name", name, "profile name")->capture_default_str();
  app.add_option("--max-bytes", maxBytes, "largest message and copy")->capture_default_str();
  app.add_option("--repetitions", repetitions, "repetitions per size")->capture_default_str();
  app.add_option("--pool-mib", poolMiB, "memcpy pool (larger than the caches)")
      ->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = rank == 0 ? app.exit(e) : 1;
    MPI_Finalize();
    return code;
  }
  if (size < 2) {
    if (rank == 0) std::cerr << "tac3map-pingpong: error: run with at least 2 MPI processes\n";
    MPI_Finalize();
    return 1;
  }
  tac3map::Profile profile;
  profile.name = name;
  std::vector<char> buffer(maxBytes, 1);
  std::vector<char> pool(rank == 0 ? std::max(poolMiB << 20, 4 * maxBytes) : 0, 1);
  for (std::size_t bytes = 8; bytes <= maxBytes; bytes *= 4) {
    const double oneWay = pingpong(buffer, bytes, repetitions, rank);
    if (rank == 0) {
      profile.pingpong.push_back({bytes, oneWay});
      profile.memcpy.push_back({bytes, freshCopy(pool, bytes, repetitions)});
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (int r = 0; r < repetitions; ++r) MPI_Barrier(MPI_COMM_WORLD);
  profile.barrierSeconds = (MPI_Wtime() - start) / repetitions;
  int status = 0;
  if (rank == 0) {
    try {
      tac3map::StagedFile file(output, tac3map::formatProfile(profile));
      file.commit();
      std::cout << "wrote " << output << " (" << profile.pingpong.size() << " sizes, " << size
                << " processes)\n";
    } catch (const std::exception& e) {
      std::cerr << "tac3map-pingpong: error: " << e.what() << "\n";
      status = 1;
    }
  }
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return status;
}
