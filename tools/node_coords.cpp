#include "node_coords.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

#ifdef TAC3MAP_FUJITSU_MPI
#include <mpi-ext.h>
#endif

namespace tac3map::tools {

std::vector<int> parseCoordinates(const std::string& text) {
  std::vector<int> values;
  std::string cleaned = text;
  for (char& c : cleaned)
    if (c == ',') c = ' ';
  std::istringstream in(cleaned);
  std::string word;
  while (in >> word) {
    std::size_t used = 0;
    int value = 0;
    try {
      value = std::stoi(word, &used);
    } catch (const std::exception&) {
      return {};
    }
    if (used != word.size()) return {};
    values.push_back(value);
  }
  return values;
}

namespace {

// The node-table line for `host`: its leading integers and its logical= field.
bool fromNodeTable(const std::string& path, const std::string& host, NodeInfo& info) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    std::istringstream words(line);
    std::string word, coordinates, lineHost, logical;
    while (words >> word) {
      if (word.rfind("host=", 0) == 0)
        lineHost = word.substr(5);
      else if (word.rfind("logical=", 0) == 0)
        logical = word.substr(8);
      else
        coordinates += word + " ";
    }
    if (lineHost != host) continue;
    info.coordinates = parseCoordinates(coordinates);
    info.logical = parseCoordinates(logical);
    return !info.coordinates.empty();
  }
  return false;
}

}  // namespace

NodeInfo discoverNode(MPI_Comm world) {
  NodeInfo info;
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  MPI_Get_processor_name(name, &length);
  info.host.assign(name, length);
#ifdef TAC3MAP_FUJITSU_MPI
  int rank = 0, physical[6] = {}, logical[3] = {};
  MPI_Comm_rank(world, &rank);
  int dims = 0;
  if (FJMPI_Topology_get_dimension(&dims) == MPI_SUCCESS &&
      FJMPI_Topology_get_coords(world, rank, FJMPI_TOFU_REL, 6, physical) == MPI_SUCCESS) {
    info.coordinates.assign(physical, physical + 6);
    if (FJMPI_Topology_get_coords(world, rank, FJMPI_LOGICAL, dims, logical) == MPI_SUCCESS)
      info.logical.assign(logical, logical + dims);
    info.source = "FJMPI_Topology_get_coords";
    return info;
  }
#endif
  if (const char* coords = std::getenv("TAC3MAP_NODE_COORDS")) {
    info.coordinates = parseCoordinates(coords);
    info.source = "TAC3MAP_NODE_COORDS";
    if (info.coordinates.empty())
      info.source = "TAC3MAP_NODE_COORDS='" + std::string(coords) + "' is not a coordinate list";
    return info;
  }
  if (const char* file = std::getenv("TAC3MAP_COORDS_BY_RANK")) {
    int rank = 0;
    MPI_Comm_rank(world, &rank);
    std::ifstream in(file);
    std::string line;
    for (int r = 0; r <= rank && std::getline(in, line); ++r) {
    }
    info.coordinates = parseCoordinates(line);
    info.source = "TAC3MAP_COORDS_BY_RANK";
    if (info.coordinates.empty())
      info.source = std::string(file) + ": no coordinates for world rank " + std::to_string(rank);
    return info;
  }
  if (const char* table = std::getenv("TAC3MAP_NODES")) {
    info.source = fromNodeTable(table, info.host, info)
                      ? "TAC3MAP_NODES"
                      : std::string(table) + ": no line with host=" + info.host;
    return info;
  }
  info.source =
      "no node coordinates: set TAC3MAP_NODE_COORDS, TAC3MAP_COORDS_BY_RANK or TAC3MAP_NODES "
      "(or build with Fujitsu MPI)";
  return info;
}

}  // namespace tac3map::tools
