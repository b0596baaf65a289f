// Rank-map files for job launchers, and the node table that ties the box's nodes to host
// names and logical coordinates (docs/rankmap-formats.md). Every format can be written and
// read back; reading recognises the format from the content.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tac3map/mapping/mapping.hpp"
#include "tac3map/network/machine.hpp"

namespace tac3map {

enum class MapFormat {
  Coords,           // tac3map's own: '<rank> <box coordinates>'
  Json,             // {"tac3map_mapping": 1, "ranks": [{"rank", "coordinates", ...}]}
  FujitsuVcoord,    // mpiexec --vcoordfile: line i = '(x,y,z)' logical coordinates of rank i
  OpenmpiRankfile,  // mpirun --rankfile: 'rank <i>=<host> slot=<cores of the rank's slot>'
  SlurmHostfile,    // SLURM_HOSTFILE + srun --distribution=arbitrary: a host per line
  CrayRankOrder,    // MPICH_RANK_ORDER (MPICH_RANK_REORDER_METHOD=3): ranks in node order
  BgqMapfile,       // Blue Gene/Q runjob --mapping: 'a b c d e t' per rank, t = slot (5D)
};

MapFormat parseMapFormat(const std::string& name);
const char* mapFormatName(MapFormat format);

// The job's nodes in the launcher's order, each with its machine coordinates and, where known,
// its host name and logical coordinates. Lines: '<machine coordinates...> [host=NAME]
// [logical=X,Y,Z]' ('<node name> [host=NAME]' on a graph machine, whose hosts default to the
// node names); '#' comments.
struct NodeTable {
  std::string source;
  std::vector<int> nodes;                 // box node ids, in table order
  std::vector<std::string> host;          // per box node, "" if unknown
  std::vector<std::vector<int>> logical;  // per box node, empty if unknown
  std::vector<int> position;              // per box node: its table line index, -1
};

NodeTable readNodeTable(const std::string& path, const Machine& machine, const Box& box);

// Several ranks per node (--ranks-per-node K): every node has K slots, and the Open MPI rank
// file binds slot s to its share of the node's C cores, s*C/K .. (s+1)*C/K - 1 (C unknown:
// core s). What each format writes for K > 1: docs/rankmap-formats.md.
struct RankMapOptions {
  int slotsPerNode = 1;  // K
  int coresPerNode = 0;  // C, 0 = unknown
};

// The cores slot `slot` is bound to: {first, last}.
std::pair<int, int> slotCores(int slot, const RankMapOptions& options);

// Throws when the mapping is not one of K slots per node, or (rank file) C < K.
std::string writeRankMap(MapFormat format, const Mapping& mapping, const Machine& machine,
                         const Box& box, const NodeTable* table,
                         const RankMapOptions& options = {});

// The number of ranks a rank-map file of any format places (its entries: lines, JSON ranks,
// the Cray list's items), for commands that have no trace to size it by; readRankMap then
// checks each entry. Counts beyond limits::kMaxJobRanks are returned as that + 1.
int rankMapRanks(const std::string& path);

// Reads any of the formats (recognised from the content), at most K ranks per node in
// distinct slots; formats without slots give each rank its node's lowest free slot in file
// order. file:line errors.
Mapping readRankMap(const std::string& path, const Machine& machine, const Box& box, int tasks,
                    const NodeTable* table, const RankMapOptions& options = {});

}  // namespace tac3map
