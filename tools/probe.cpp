// tac3map-probe: run once inside a job (`mpirun -n <nodes> tac3map-probe > nodes.txt`); prints
// the job's node table (docs/rankmap-formats.md): one line per node, machine coordinates,
// host name and, with Fujitsu MPI, logical coordinates; in the order of the lowest rank on
// each node. Where the coordinates come from: tools/node_coords.hpp.
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "node_coords.hpp"

int main(int argc, char** argv) {
  // The command line first, without MPI: `tac3map-probe --help` prints its use and exits
  // instead of running the probe; it takes no other option (a wrong one is a usage error, 2).
  CLI::App app{
      "tac3map-probe: print the job's node table (docs/rankmap-formats.md).\n"
      "  Run it once inside the job (one process per node, or per rank: a node is listed "
      "once):\n"
      "    mpirun -n <nodes> tac3map-probe > nodes.txt\n"
      "  then give nodes.txt to tac3map with --nodes.",
      "tac3map-probe"};
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const tac3map::tools::NodeInfo node = tac3map::tools::discoverNode(MPI_COMM_WORLD);
  std::string line;
  if (!node.coordinates.empty()) {
    for (int c : node.coordinates) line += std::to_string(c) + " ";
    line += "host=" + node.host;
    if (!node.logical.empty()) {
      line += " logical=";
      for (std::size_t i = 0; i < node.logical.size(); ++i)
        line.append(i ? "," : "").append(std::to_string(node.logical[i]));
    }
  }
  const int length = static_cast<int>(line.size());
  std::vector<int> lengths(size), displacements(size, 0);
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  int total = 0;
  for (int r = 0; r < size; ++r) displacements[r] = total, total += lengths[r];
  std::vector<char> all(rank == 0 ? total + 1 : 1);
  MPI_Gatherv(line.data(), length, MPI_CHAR, all.data(), lengths.data(), displacements.data(),
              MPI_CHAR, 0, MPI_COMM_WORLD);
  int status = 0;
  if (rank == 0) {
    std::printf("# tac3map node table: machine coordinates, host, logical coordinates\n");
    std::set<std::string> seen;
    for (int r = 0; r < size; ++r) {
      const std::string entry(all.data() + displacements[r], lengths[r]);
      if (entry.empty()) {
        std::fprintf(stderr, "tac3map-probe: error: rank %d: %s\n", r, node.source.c_str());
        status = 1;
        continue;
      }
      const std::string coordinates = entry.substr(0, entry.find("host="));
      if (seen.insert(coordinates).second) std::printf("%s\n", entry.c_str());
    }
  }
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return status;
}
