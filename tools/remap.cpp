// libtac3remap: tac3map_comm_remap (include/tac3map/tac3map_remap.h).
#include <mpi.h>

#include <algorithm>
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

// The coordinates mapping file as machine coordinates and slots: task -> coordinates, slot.
struct MapFile {
  std::vector<std::vector<int>> machineCoordinates;  // per task
  std::vector<int> slot;                             // per task: its slot on its node
  std::vector<int> sizes;                            // the machine's size on every axis
  std::string error;
};

// Reads '# tac3map mapping 1', '# machine <name> <sizes>', '# shape <S> offset <O>' and
// '<task> <box coordinates> [slot]' lines; machine coordinates = (offset + box coordinate) mod
// size; a line without a slot takes its node's lowest free slot (as tac3map reads it).
MapFile readMap(const char* path) {
  MapFile map;
  std::ifstream in(path);
  if (!in) {
    map.error = std::string(path) + ": cannot open mapping file";
    return map;
  }
  std::string line;
  std::vector<int> offset;
  std::map<int, std::pair<std::vector<int>, int>> tasks;  // task -> (coordinates, slot)
  std::map<std::vector<int>, std::vector<int>> slotsOf;   // node -> task in each slot, -1
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string where = std::string(path) + ":" + std::to_string(number) + ": ";
    if (number == 1 && line.rfind("# tac3map mapping 1", 0) != 0) {
      map.error = where +
                  "not a tac3map coordinates mapping (write it with map --output-format "
                  "coords)";
      return map;
    }
    std::istringstream words(line);
    std::string first, second, third, fourth;
    if (line.rfind("# machine ", 0) == 0) {
      words >> first >> second >> third >> fourth;
      for (char& c : fourth)
        if (c == 'x') c = ',';
      map.sizes = parseCoordinates(fourth);
      continue;
    }
    if (line.rfind("# shape ", 0) == 0) {
      words >> first >> second >> third >> fourth >> fourth;  // # shape S offset O
      offset = parseCoordinates(fourth);
      continue;
    }
    if (line.empty() || line[0] == '#') continue;
    const std::vector<int> values = parseCoordinates(line);
    const std::size_t axes = map.sizes.size();
    if (values.size() < 2 || axes == 0 ||
        (values.size() != axes + 1 && values.size() != axes + 2) || offset.size() != axes) {
      map.error =
          where + "expected '<task> <coordinates> [slot]' after the machine and shape headers";
      return map;
    }
    std::vector<int> machine(axes);
    for (std::size_t a = 0; a < axes; ++a) machine[a] = (offset[a] + values[a + 1]) % map.sizes[a];
    std::vector<int>& slots = slotsOf[machine];
    int slot = values.size() == axes + 2 ? values.back() : -1;
    if (values.size() == axes + 2 && slot < 0) {
      map.error = where + "slot " + std::to_string(slot) + " is negative";
      return map;
    }
    if (slot < 0) {  // the node's lowest free slot
      slot = 0;
      while (slot < static_cast<int>(slots.size()) && slots[slot] >= 0) ++slot;
    }
    if (slot >= static_cast<int>(slots.size())) slots.resize(slot + 1, -1);
    if (slots[slot] >= 0) {
      map.error = where + "task " + std::to_string(values[0]) + " is in slot " +
                  std::to_string(slot) + " of the node of task " + std::to_string(slots[slot]);
      return map;
    }
    if (tasks.count(values[0])) {
      map.error = where + "task " + std::to_string(values[0]) + " placed twice";
      return map;
    }
    slots[slot] = values[0];
    tasks[values[0]] = {machine, slot};
  }
  for (const auto& [task, place] : tasks) {
    if (task != static_cast<int>(map.machineCoordinates.size())) {
      map.error = std::string(path) + ": task " + std::to_string(map.machineCoordinates.size()) +
                  " has no line";
      return map;
    }
    map.machineCoordinates.push_back(place.first);
    map.slot.push_back(place.second);
  }
  return map;
}

// A node's number on the machine (coordinates in machine order, first fastest), or -1 when
// the coordinates are not a node of the map's machine.
long long nodeKey(const std::vector<int>& coordinates, const std::vector<int>& sizes) {
  if (sizes.empty() || coordinates.size() != sizes.size()) return -1;
  long long key = 0;
  for (std::size_t a = sizes.size(); a-- > 0;) {
    if (coordinates[a] < 0 || coordinates[a] >= sizes[a]) return -1;
    key = key * sizes[a] + coordinates[a];
  }
  return key;
}

std::string text(const std::vector<int>& coordinates) {
  std::string out = "(";
  for (std::size_t i = 0; i < coordinates.size(); ++i)
    out.append(i ? "," : "").append(std::to_string(coordinates[i]));
  return out + ")";
}

// "rank 3", "ranks 0-2,5": the ranks that share a problem.
std::string rankList(const std::vector<int>& ranks) {
  std::ostringstream out;
  out << (ranks.size() == 1 ? "rank " : "ranks ");
  for (std::size_t i = 0; i < ranks.size();) {
    std::size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    if (i) out << ',';
    out << ranks[i];
    if (j > i) out << '-' << ranks[j];
    i = j + 1;
  }
  return out.str();
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
  if (problem.empty() && node.coordinates.empty()) problem = node.source;
  if (problem.empty() && static_cast<int>(map.machineCoordinates.size()) > size)
    problem = std::string(mapfile) + " has " + std::to_string(map.machineCoordinates.size()) +
              " tasks but the communicator has " + std::to_string(size) + " processes";
  // Every process learns every other's node: the processes of one node, in rank order, are
  // its local ranks 0, 1, ... (MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)'s order), and local
  // rank s takes the node's task in slot s.
  const long long key = problem.empty() ? nodeKey(node.coordinates, map.sizes) : -1;
  std::vector<long long> keys(size);
  MPI_Allgather(&key, 1, MPI_LONG_LONG, keys.data(), 1, MPI_LONG_LONG, comm);
  int task = -1;
  if (key >= 0) {
    int local = 0;
    for (int r = 0; r < rank; ++r)
      if (keys[r] == key) ++local;
    for (std::size_t k = 0; k < map.machineCoordinates.size(); ++k)
      if (map.slot[k] == local && nodeKey(map.machineCoordinates[k], map.sizes) == key)
        task = static_cast<int>(k);
  }
  // Rank 0 finds the tasks that no process takes: a node without a process of the job, or
  // with fewer processes than the task's slot needs.
  std::vector<int> tasks(rank == 0 ? size : 1);
  MPI_Gather(&task, 1, MPI_INT, tasks.data(), 1, MPI_INT, 0, comm);
  if (problem.empty() && rank == 0) {
    std::vector<bool> placed(map.machineCoordinates.size(), false);
    for (int t : tasks)
      if (t >= 0) placed[t] = true;
    for (std::size_t k = 0; k < placed.size() && problem.empty(); ++k) {
      if (placed[k]) continue;
      const long long at = nodeKey(map.machineCoordinates[k], map.sizes);
      const auto processes = std::count(keys.begin(), keys.end(), at);
      problem =
          "task " + std::to_string(k) + " of " + mapfile + " is " +
          (processes == 0
               ? "on node " + text(map.machineCoordinates[k]) + ", where no process of the job runs"
               : "in slot " + std::to_string(map.slot[k]) + " of node " +
                     text(map.machineCoordinates[k]) + ", where the job has " +
                     std::to_string(processes) + (processes == 1 ? " process" : " processes"));
    }
  }
  // One verdict for all; rank 0 prints each distinct problem once (a bad file is every
  // process's problem: one line, not one per rank).
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
    if (rank == 0) {
      std::map<std::string, std::vector<int>> ranksOf;  // problem -> the ranks that have it
      std::vector<std::string> order;                   // problems by their lowest rank
      for (int r = 0; r < size; ++r) {
        if (lengths[r] == 0) continue;
        const std::string text(all.data() + displacements[r], lengths[r]);
        std::vector<int>& ranks = ranksOf[text];
        if (ranks.empty()) order.push_back(text);
        ranks.push_back(r);
      }
      for (const std::string& text : order) {
        const std::vector<int>& ranks = ranksOf[text];
        const std::string who =
            static_cast<int>(ranks.size()) == size ? "" : rankList(ranks) + ": ";
        std::fprintf(stderr, "tac3map_comm_remap: %s%s\n", who.c_str(), text.c_str());
      }
    }
    return MPI_ERR_OTHER;
  }
  // Task k gets key k; processes without a task follow in their old order.
  const int order = task >= 0 ? task : size + rank;
  return MPI_Comm_split(comm, 0, order, newcomm);
}
