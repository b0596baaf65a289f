// Where this MPI process runs, for tac3map-probe and libtac3remap: its node's machine
// coordinates, host name and (Fujitsu) logical coordinates, from the first source available:
//   1. Fujitsu MPI's FJMPI_Topology_get_coords (built with Fujitsu MPI: FJMPI_TOFU_REL and
//      FJMPI_LOGICAL views);
//   2. TAC3MAP_NODE_COORDS="x,y,z,a,b,c" (set per node by the site, e.g. in a prologue);
//   3. TAC3MAP_COORDS_BY_RANK=FILE: line r holds the coordinates of world rank r;
//   4. TAC3MAP_NODES=FILE: a node table (docs/rankmap-formats.md) looked up by host name.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

namespace tac3map::tools {

struct NodeInfo {
  std::vector<int> coordinates;  // empty: unknown
  std::vector<int> logical;      // empty: unknown
  std::string host;
  std::string source;  // which of the sources above answered, or why none did
};

NodeInfo discoverNode(MPI_Comm world);

std::vector<int> parseCoordinates(const std::string& text);  // "1,0,2" or "1 0 2"; empty if bad

}  // namespace tac3map::tools
