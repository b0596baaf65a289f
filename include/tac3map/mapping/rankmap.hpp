// Rank-map files for job launchers, and the node table that ties the box's nodes to host
// names and logical coordinates (docs/rankmap-formats.md). Every format can be written and
// read back; reading recognises the format from the content.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tac3map/io/enum_names.hpp"
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

// The names of mapping formats (enum_names.hpp), from the codecs' table.
const EnumNames<MapFormat>& mapFormatNames();
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

// What an Open MPI rank file binds each rank to (--bind): `core` (its slot's share of the
// node's cores), `socket` (its slot's share of the node's sockets) or `none` (the whole node:
// Open MPI 4.1 refuses a rank line without slot=, so "not bound" is "bound to every core").
enum class RankfileBind { Core, Socket, None };
// The names of rank file binding values (enum_names.hpp): parse, name, --help and choice checks.
const EnumNames<RankfileBind>& rankfileBindNames();
RankfileBind parseRankfileBind(const std::string& name);
const char* rankfileBindName(RankfileBind bind);

// Several ranks per node (--ranks-per-node K): every node has K slots. The Open MPI rank file
// binds slot s by `bind`: to cores s*C/K .. (s+1)*C/K - 1 of the node's C cores (C unknown:
// core s), or to sockets s*S/K .. max(s*S/K, (s+1)*S/K - 1) of its S sockets (unknown: one).
// C and S come from the command line, else the machine file (Machine::coresPerNode,
// socketsPerNode). What each format writes for K > 1: docs/rankmap-formats.md.
struct RankMapOptions {
  int slotsPerNode = 1;    // K
  int coresPerNode = 0;    // C, 0 = the machine file's, else unknown
  int socketsPerNode = 0;  // S, 0 = the machine file's, else one
  RankfileBind bind = RankfileBind::Core;
};

// The options with C and S the command line left open taken from the machine file.
RankMapOptions withMachineDefaults(RankMapOptions options, const Machine& machine);

// The cores slot `slot` is bound to under --bind core: {first, last}.
std::pair<int, int> slotCores(int slot, const RankMapOptions& options);

// The slot list a rank file gives slot `slot` (after "slot="), for options already completed
// by withMachineDefaults: "5", "0-11", "1:*", "0:*,1:*". Throws for --bind none without C.
std::string rankfileSlotList(int slot, const RankMapOptions& options);

// Throws when the mapping is not one of K slots per node, or (rank file) C < K, or
// --bind none with the node's cores unknown.
std::string writeRankMap(MapFormat format, const Mapping& mapping, const Machine& machine,
                         const Box& box, const NodeTable* table,
                         const RankMapOptions& options = {});

// The number of ranks a rank-map file of any format places (its entries: lines, JSON ranks,
// the Cray list's items), for commands that have no trace to size it by; readRankMap then
// checks each entry. Counts beyond limits::kMaxJobRanks are returned as that + 1.
int rankMapRanks(const std::string& path);

// Reads any of the formats (recognised from the content), at most K ranks per node in
// distinct slots; formats without slots give each rank its node's lowest free slot in file
// order (a rank file whose slot list several slots share, --bind none or socket with more
// slots than sockets: the lowest free of those slots). file:line errors.
Mapping readRankMap(const std::string& path, const Machine& machine, const Box& box, int tasks,
                    const NodeTable* table, const RankMapOptions& options = {});

}  // namespace tac3map
