// Rank-map files for job launchers, and the node table that ties the box's nodes to host
// names and logical coordinates (docs/rankmap-formats.md). Every format can be written and
// read back; reading recognises the format from the content.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tac3map/machine.hpp"
#include "tac3map/mapping.hpp"

namespace tac3map {

enum class MapFormat {
  Coords,           // tac3map's own: '<rank> <box coordinates>'
  Json,             // {"tac3map_mapping": 1, "ranks": [{"rank", "coordinates", ...}]}
  FujitsuVcoord,    // mpiexec --vcoordfile: line i = '(x,y,z)' logical coordinates of rank i
  OpenmpiRankfile,  // mpirun --rankfile: 'rank <i>=<host> slot=0'
  SlurmHostfile,    // SLURM_HOSTFILE + srun --distribution=arbitrary: a host per line
  CrayRankOrder,    // MPICH_RANK_ORDER (MPICH_RANK_REORDER_METHOD=3): ranks in node order
  BgqMapfile,       // Blue Gene/Q runjob --mapping: 'a b c d e t' per rank (5D machines)
};

MapFormat parseMapFormat(const std::string& name);
const char* mapFormatName(MapFormat format);

// The job's nodes in the launcher's order, each with its machine coordinates and, where known,
// its host name and logical coordinates. Lines: '<machine coordinates...> [host=NAME]
// [logical=X,Y,Z]'; '#' comments.
struct NodeTable {
  std::string source;
  std::vector<int> nodes;                 // box node ids, in table order
  std::vector<std::string> host;          // per box node, "" if unknown
  std::vector<std::vector<int>> logical;  // per box node, empty if unknown
  std::vector<int> position;              // per box node: its table line index, -1
};

NodeTable readNodeTable(const std::string& path, const Machine& machine, const Box& box);

std::string writeRankMap(MapFormat format, const Mapping& mapping, const Machine& machine,
                         const Box& box, const NodeTable* table);

// Reads any of the formats (recognised from the content); file:line errors.
Mapping readRankMap(const std::string& path, const Machine& machine, const Box& box, int tasks,
                    const NodeTable* table);

}  // namespace tac3map
