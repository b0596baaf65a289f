// libtac3remap: tac3map_comm_remap (include/tac3map/tac3map_remap.h).
#include <mpi.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "node_coords.hpp"
#include "tac3map/tac3map_remap.h"

namespace {

using tac3map::tools::parseCoordinates;

// The coordinates mapping file as machine coordinates: task -> coordinates.
struct MapFile {
  std::vector<std::vector<int>> machineCoordinates;  // per task
  std::string error;
};

// Reads '# tac3map mapping 1', '# machine <name> <sizes>', '# shape <S> offset <O>' and
// '<task> <box coordinates>' lines; machine coordinates = (offset + box coordinate) mod size.
MapFile readMap(const char* path) {
  MapFile map;
  std::ifstream in(path);
  if (!in) {
    map.error = std::string(path) + ": cannot open mapping file";
    return map;
  }
  std::string line;
  std::vector<int> sizes, offset;
  std::map<int, std::vector<int>> tasks;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string where = std::string(path) + ":" + std::to_string(number) + ": ";
    if (number == 1 && line.rfind("# tac3map mapping 1", 0) != 0) {
      map.error = where +
                  "not a tac3map coordinates mapping (write it with map --map-format "
                  "coords)";
      return map;
    }
    std::istringstream words(line);
    std::string first, second, third, fourth;
    if (line.rfind("# machine ", 0) == 0) {
      words >> first >> second >> third >> fourth;
      for (char& c : fourth)
        if (c == 'x') c = ',';
      sizes = parseCoordinates(fourth);
      continue;
    }
    if (line.rfind("# shape ", 0) == 0) {
      words >> first >> second >> third >> fourth >> fourth;  // # shape S offset O
      offset = parseCoordinates(fourth);
      continue;
    }
    if (line.empty() || line[0] == '#') continue;
    const std::vector<int> values = parseCoordinates(line);
    if (values.size() < 2 || sizes.empty() || values.size() != sizes.size() + 1 ||
        offset.size() != sizes.size()) {
      map.error = where + "expected '<task> <coordinates>' after the machine and shape headers";
      return map;
    }
    std::vector<int> machine(sizes.size());
    for (std::size_t a = 0; a < sizes.size(); ++a)
      machine[a] = (offset[a] + values[a + 1]) % sizes[a];
    tasks[values[0]] = machine;
  }
  for (const auto& [task, coordinates] : tasks) {
    if (task != static_cast<int>(map.machineCoordinates.size())) {
      map.error = std::string(path) + ": task " + std::to_string(map.machineCoordinates.size()) +
                  " has no line";
      return map;
    }
    map.machineCoordinates.push_back(coordinates);
  }
  return map;
}

std::string text(const std::vector<int>& coordinates) {
  std::string out = "(";
  for (std::size_t i = 0; i < coordinates.size(); ++i)
    out.append(i ? "," : "").append(std::to_string(coordinates[i]));
  return out + ")";
}

}  // namespace

extern "C" int tac3map_comm_remap(MPI_Comm comm, const char* mapfile, MPI_Comm* newcomm) {
  *newcomm = MPI_COMM_NULL;
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const MapFile map = readMap(mapfile);
  const tac3map::tools::NodeInfo node = tac3map::tools::discoverNode(MPI_COMM_WORLD);
  std::string problem = map.error;
  int task = -1;
  if (problem.empty() && node.coordinates.empty()) problem = node.source;
  if (problem.empty()) {
    for (std::size_t k = 0; k < map.machineCoordinates.size(); ++k)
      if (map.machineCoordinates[k] == node.coordinates) task = static_cast<int>(k);
    if (static_cast<int>(map.machineCoordinates.size()) > size && rank == 0)
      problem = std::string(mapfile) + " has " + std::to_string(map.machineCoordinates.size()) +
                " tasks but the communicator has " + std::to_string(size) + " processes";
  }
  // Every process learns every other's task, to find tasks claimed twice or by nobody.
  std::vector<int> tasks(size);
  MPI_Allgather(&task, 1, MPI_INT, tasks.data(), 1, MPI_INT, comm);
  if (problem.empty() && task >= 0)
    for (int r = 0; r < rank; ++r)
      if (tasks[r] == task)
        problem = "ranks " + std::to_string(r) + " and " + std::to_string(rank) + " are both on " +
                  text(node.coordinates) + ", the node of task " + std::to_string(task);
  if (problem.empty() && rank == 0 && map.error.empty()) {
    std::vector<bool> placed(map.machineCoordinates.size(), false);
    for (int t : tasks)
      if (t >= 0) placed[t] = true;
    for (std::size_t k = 0; k < placed.size() && problem.empty(); ++k)
      if (!placed[k])
        problem = "task " + std::to_string(k) + " of " + mapfile + " is on node " +
                  text(map.machineCoordinates[k]) + ", where no process of the job runs";
  }
  // One verdict for all; rank 0 prints every problem, one line each.
  const int bad = problem.empty() ? 0 : 1;
  int anyBad = 0;
  MPI_Allreduce(&bad, &anyBad, 1, MPI_INT, MPI_MAX, comm);
  if (anyBad) {
    const int length = static_cast<int>(problem.size());
    std::vector<int> lengths(size);
    MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, comm);
    std::vector<int> displacements(size, 0);
    int total = 0;
    for (int r = 0; r < size; ++r) displacements[r] = total, total += lengths[r];
    std::vector<char> all(rank == 0 ? total + 1 : 1);
    MPI_Gatherv(problem.data(), length, MPI_CHAR, all.data(), lengths.data(), displacements.data(),
                MPI_CHAR, 0, comm);
    if (rank == 0)
      for (int r = 0; r < size; ++r)
        if (lengths[r] > 0)
          std::fprintf(stderr, "tac3map_comm_remap: rank %d: %.*s\n", r, lengths[r],
                       all.data() + displacements[r]);
    return MPI_ERR_OTHER;
  }
  // Task k gets key k; processes without a task follow in their old order.
  const int key = task >= 0 ? task : size + rank;
  return MPI_Comm_split(comm, 0, key, newcomm);
}
