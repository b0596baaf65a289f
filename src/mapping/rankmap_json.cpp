// json: {"tac3map_mapping": 1, "ranks": [{"rank", "coordinates", "node", "slot", "host"}]}
// with the job's machine, box and K, for scripts.
#include <algorithm>
#include <limits>
#include <nlohmann/json.hpp>

#include "rankmap_codec.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/io/json_input.hpp"
#include "tac3map/io/limits.hpp"

namespace tac3map::mapfile {
namespace {

using nlohmann::json;

std::string writeJson(const Mapping& mapping, const Machine& machine, const Box& box,
                      const NodeTable* table, const RankMapOptions& options) {
  const int k = options.slotsPerNode;
  json ranks = json::array();
  for (int task = 0; task < mapping.tasks(); ++task) {
    const int node = mapping.nodeOfTask[task];
    json rank = {{"rank", task}, {"coordinates", box.coordinatesOf(node)}, {"node", node}};
    if (k > 1) rank["slot"] = mapping.slotOf(task);
    if (table && !table->host[node].empty()) rank["host"] = table->host[node];
    ranks.push_back(rank);
  }
  json doc = {{"tac3map_mapping", 1},
              {"machine", machine.name},
              {"shape", box.shapeText()},
              {"offset", box.offsetText()}};
  if (!machine.source.empty()) doc["machine_file"] = machine.source;
  doc["ranks_per_node"] = k;
  doc["ranks"] = ranks;
  return doc.dump(1) + "\n";
}

bool isJson(const MapFile& file) {
  return file.head()[0] == '{';
}

Mapping readJson(const MapFile& file, const Machine&, const Box& box, int tasks, const NodeTable*,
                 const RankMapOptions& options) {
  const std::string& source = file.path;
  const int slotsPerNode = options.slotsPerNode;
  const json doc = parseJson(file.text, source);
  const json& ranks = jsonField(doc, "ranks", "top level", source);
  if (!ranks.is_array()) failIn(source, "ranks: expected an array");
  MappingBuilder builder(source, box, tasks, slotsPerNode);
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    const std::string where = "ranks[" + std::to_string(i) + "]";
    const json& rank = jsonField(ranks[i], "rank", where, source);
    const json& c = jsonField(ranks[i], "coordinates", where, source);
    if (!rank.is_number_integer()) failIn(source, where + ".rank: expected an integer");
    if (!c.is_array() || c.size() != static_cast<std::size_t>(box.axisCount()))
      failIn(source,
             where + ".coordinates: expected " + std::to_string(box.axisCount()) + " integers");
    std::vector<int> coordinates;
    for (std::size_t a = 0; a < c.size(); ++a) {
      // Read in 64 bits: 4294967296 must not wrap to 0 ("...: expected an integer from 0
      // to 3, got 4294967296"; the box's shape bounds each coordinate).
      std::string at = where;
      at += ".coordinates[";
      at += std::to_string(a);
      at += "]";
      coordinates.push_back(static_cast<int>(jsonInteger(c[a], 0, box.shape[a] - 1, at, source)));
    }
    long long slot = -1;  // absent: the node's lowest free slot
    if (ranks[i].contains("slot"))
      slot = jsonInteger(ranks[i]["slot"], 0, std::numeric_limits<int>::max(), where + ".slot",
                         source);
    builder.place(jsonInteger(rank, 0, std::numeric_limits<int>::max(), where + ".rank", source),
                  box.nodeAt(coordinates), i + 1, slot);
  }
  return builder.finish();
}

int jsonRanks(const MapFile& file) {
  const json doc = parseJson(file.text, file.path);
  const json& ranks = jsonField(doc, "ranks", "top level", file.path);
  if (!ranks.is_array()) failIn(file.path, "ranks: expected an array");
  return static_cast<int>(std::min<std::size_t>(ranks.size(), limits::kMaxJobRanks + 1));
}

}  // namespace

const Codec kJson = {MapFormat::Json, "json", writeJson, isJson, readJson, jsonRanks};

}  // namespace tac3map::mapfile
