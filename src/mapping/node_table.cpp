// The node table (rankmap.hpp: NodeTable): the job's nodes in the launcher's order with their
// host names and logical coordinates, which the codecs write and read by.
#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "rankmap_codec.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/io/json_input.hpp"
#include "tac3map/mapping/rankmap.hpp"

namespace tac3map {
namespace {

// Box node of machine coordinates, or -1 outside the box.
int boxNodeOf(const Machine& machine, const Box& box, const std::vector<int>& coordinates) {
  std::vector<int> relative(coordinates.size());
  for (int a = 0; a < box.axisCount(); ++a) {
    const int size = machine.axes[a].size;
    if (coordinates[a] < 0 || coordinates[a] >= size) return -1;
    relative[a] = (coordinates[a] - box.offset[a] + size) % size;
    if (relative[a] >= box.shape[a]) return -1;
  }
  return box.nodeAt(relative);
}

}  // namespace

NodeTable readNodeTable(const std::string& path, const Machine& machine, const Box& box) {
  std::ifstream in = openInputFile(path, "node table");
  NodeTable table;
  table.source = path;
  table.host.assign(box.nodeCount, "");
  table.logical.assign(box.nodeCount, {});
  table.position.assign(box.nodeCount, -1);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // The line of each listed node, host name and logical coordinates: a launcher file naming
  // one twice would make the rank file written from it wrong, so it is refused.
  std::vector<std::size_t> lineOf;  // per table entry
  std::map<std::string, std::size_t> hostLine;
  std::map<std::vector<int>, std::size_t> logicalLine;
  for (const mapfile::Line& line : mapfile::meaningfulLines(text)) {
    std::istringstream words(line.text);
    std::vector<int> coordinates;
    std::string word, host, logicalText;
    std::vector<int> logical;
    while (words >> word) {
      long long value = 0;
      if (machine.namesNodes() && coordinates.empty() && word.find('=') == std::string::npos) {
        // A machine that names its nodes (a graph's compute nodes): the table names them.
        const int named = machine.nodeNamed(word);
        if (named < 0)
          failAt(path, line.number, "'" + word + "' is not a compute node of " + machine.source);
        coordinates.push_back(named);
      } else if (static_cast<int>(coordinates.size()) < machine.axisCount() &&
                 mapfile::parseInt(word, value)) {
        // Outside the machine (checked before narrowing, so 4294967296 is not 0): not in the
        // box either, which boxNodeOf reports below.
        const bool onMachine = value >= 0 && value < machine.axes[coordinates.size()].size;
        coordinates.push_back(onMachine ? static_cast<int>(value) : -1);
      } else if (word.rfind("host=", 0) == 0 && word.size() > 5) {
        host = word.substr(5);
      } else if (word.rfind("logical=", 0) == 0) {
        logicalText = word.substr(8);
        logical = mapfile::parseInts(logicalText, ',', path, line.number, "logical coordinates");
      } else {
        failAt(path, line.number,
               "unexpected '" + word + "' (expected " + std::to_string(machine.axisCount()) +
                   " machine coordinates, then host=NAME and logical=X,Y,Z)");
      }
    }
    if (static_cast<int>(coordinates.size()) != machine.axisCount())
      failAt(path, line.number,
             "expected " + std::to_string(machine.axisCount()) + " machine coordinates");
    const int node = boxNodeOf(machine, box, coordinates);
    if (node < 0)
      failAt(path, line.number,
             "node is not in the box " + box.shapeText() + " at offset " + box.offsetText());
    if (table.position[node] >= 0)
      failAt(path, line.number,
             "node listed twice (also line " + std::to_string(lineOf[table.position[node]]) + ")");
    if (!host.empty()) {
      const auto [it, added] = hostLine.emplace(host, line.number);
      if (!added)
        failAt(
            path, line.number,
            "host name " + host + " listed twice (also line " + std::to_string(it->second) + ")");
    }
    if (!logical.empty()) {
      const auto [it, added] = logicalLine.emplace(logical, line.number);
      if (!added)
        failAt(path, line.number,
               "logical coordinates " + logicalText + " listed twice (also line " +
                   std::to_string(it->second) + ")");
    }
    lineOf.push_back(line.number);
    table.position[node] = static_cast<int>(table.nodes.size());
    table.nodes.push_back(node);
    table.host[node] = host;
    table.logical[node] = logical;
  }
  if (table.nodes.empty()) failIn(path, "no nodes");
  return table;
}

}  // namespace tac3map
