// fujitsu-vcoord: Fujitsu mpiexec's --vcoordfile, line i the logical coordinates '(x,y,z)' of
// rank i's node: the node table's logical=X,Y,Z, else the Tofu logical view's.
#include <algorithm>
#include <map>
#include <sstream>

#include "rankmap_codec.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/network/tofu_view.hpp"

namespace tac3map::mapfile {
namespace {

// Logical coordinates of every box node: from the table when it has them (then on every
// line), else the Tofu logical view.
std::vector<std::vector<int>> logicalCoordinates(const Machine& machine, const Box& box,
                                                 const NodeTable* table) {
  const bool fromTable =
      table && std::any_of(table->nodes.begin(), table->nodes.end(),
                           [&](int node) { return !table->logical[node].empty(); });
  if (fromTable) {
    for (int node : table->nodes)
      if (table->logical[node].empty())
        failIn(table->source, "fujitsu-vcoord needs logical=X,Y,Z on every node line");
    return table->logical;
  }
  const LogicalTorus view = tofuLogicalTorus(machine, box);
  std::vector<std::vector<int>> logical(box.nodeCount);
  for (std::size_t p = 0; p < view.node.size(); ++p) {
    const int x = static_cast<int>(p) % view.size[0];
    const int y = static_cast<int>(p) / view.size[0] % view.size[1];
    const int z = static_cast<int>(p) / (view.size[0] * view.size[1]);
    logical[view.node[p]] = {x, y, z};
  }
  return logical;
}

std::string writeVcoord(const Mapping& mapping, const Machine& machine, const Box& box,
                        const NodeTable* table, const RankMapOptions&) {
  // A node's coordinates once per rank on it.
  std::ostringstream out;
  const auto logical = logicalCoordinates(machine, box, table);
  for (int task = 0; task < mapping.tasks(); ++task) {
    const std::vector<int>& c = logical[mapping.nodeOfTask[task]];
    out << "(";
    for (std::size_t a = 0; a < c.size(); ++a) out << (a ? "," : "") << c[a];
    out << ")\n";
  }
  return out.str();
}

bool isVcoord(const MapFile& file) {
  return file.head()[0] == '(';
}

// A rank per line, in the lowest free slot of its node.
Mapping readVcoord(const MapFile& file, const Machine& machine, const Box& box, int tasks,
                   const NodeTable* table, const RankMapOptions& options) {
  const std::string& path = file.path;
  MappingBuilder builder(path, box, tasks, options.slotsPerNode);
  const auto logical = logicalCoordinates(machine, box, table);
  std::map<std::vector<int>, int> nodeAt;
  for (int node = 0; node < box.nodeCount; ++node)
    if (!logical[node].empty()) nodeAt[logical[node]] = node;
  long long rank = 0;
  for (const Line& line : file.lines) {
    if (line.text.front() != '(' || line.text.back() != ')')
      failAt(path, line.number, "expected '(x,y,z)'");
    const auto c = parseInts(line.text.substr(1, line.text.size() - 2), ',', path, line.number,
                             "logical coordinates");
    const auto it = nodeAt.find(c);
    if (it == nodeAt.end())
      failAt(path, line.number, "no node of the box has logical coordinates " + line.text);
    builder.place(rank++, it->second, line.number);
  }
  return builder.finish();
}

}  // namespace

const Codec kFujitsuVcoord = {
    MapFormat::FujitsuVcoord, "fujitsu-vcoord", writeVcoord, isVcoord, readVcoord, nullptr};

}  // namespace tac3map::mapfile
