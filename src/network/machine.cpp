#include "tac3map/network/machine.hpp"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tac3map/io/error.hpp"
#include "tac3map/io/integer_text.hpp"
#include "tac3map/io/json_input.hpp"
#include "tac3map/io/limits.hpp"
#include "topology_kinds.hpp"

namespace tac3map {
namespace {

using nlohmann::json;

std::string joinNumbers(const std::vector<int>& values, char separator) {
  std::string text;
  for (int value : values) {
    if (!text.empty()) text += separator;
    text += std::to_string(value);
  }
  return text;
}

std::vector<int> parseAxisList(const std::string& text, char separator, const std::string& what,
                               std::size_t expected, const std::string& axisNames) {
  std::vector<int> values = parseIntegerList(text, separator, what);
  if (values.size() != expected)
    throw InputError(what + " '" + text + "': expected " + std::to_string(expected) +
                     " values (axes " + axisNames + "), got " + std::to_string(values.size()));
  return values;
}

}  // namespace

namespace {

// The items of `text` split at `separator`, each read whole by `read` (wholeInteger, stod).
template <class T, class Read>
std::vector<T> parseList(const std::string& text, char separator, const std::string& what,
                         Read read, const char* kind) {
  std::vector<T> values;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, separator)) {
    std::size_t used = 0;
    T value{};
    try {
      value = read(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != item.size())
      throw InputError(what + " '" + text + "': '" + item + "' is not " + kind);
    values.push_back(value);
  }
  return values;
}

}  // namespace

std::vector<int> parseIntegerList(const std::string& text, char separator,
                                  const std::string& what) {
  return parseList<int>(
      text, separator, what,
      [](const std::string& item, std::size_t* used) {
        const std::optional<int> value = wholeInteger<int>(item);  // the one integer parser
        *used = value ? item.size() : 0;
        return value.value_or(0);
      },
      "an integer");
}

std::vector<double> parseNumberList(const std::string& text, char separator,
                                    const std::string& what) {
  return parseList<double>(
      text, separator, what,
      [](const std::string& item, std::size_t* used) { return std::stod(item, used); }, "a number");
}

const char* linkSharingName(LinkSharing sharing) {
  return sharing == LinkSharing::Equal ? "equal" : "latency-weighted";
}

std::string Machine::axisNamesText() const {
  std::string names;
  for (const Axis& axis : axes) names += (names.empty() ? "" : " ") + axis.name;
  return names;
}

std::string Machine::shapeText() const {
  std::vector<int> sizes;
  for (const Axis& axis : axes) sizes.push_back(axis.size);
  return joinNumbers(sizes, 'x');
}

namespace {

// What a node injects and how fast ranks of one node talk (both kinds of machine file).
void readNodeOptions(const json& doc, Machine& machine) {
  const std::string& source = machine.source;
  machine.injectionBandwidth = machine.linkBandwidth;
  if (doc.contains("injection")) {
    const json& injection = doc["injection"];
    if (!injection.is_object())
      failIn(source, "injection: expected an object {\"engines\": E, \"bandwidth\": B}");
    const json& engines = jsonField(injection, "engines", "injection", source);
    if (!engines.is_number_integer() || engines.get<long long>() < 1 ||
        engines.get<long long>() > 64)
      failIn(source, "injection.engines: expected an integer from 1 to 64");
    machine.injectionEngines = engines.get<int>();
    if (injection.contains("bandwidth"))
      machine.injectionBandwidth =
          jsonPositive(injection["bandwidth"], "injection.bandwidth", source);
  }
  if (doc.contains("intra_node_bandwidth"))
    machine.intraNodeBandwidth =
        jsonPositive(doc["intra_node_bandwidth"], "intra_node_bandwidth", source);
  if (doc.contains("message_latency"))
    machine.messageLatency = jsonNonNegative(doc["message_latency"], "message_latency", source);
  if (doc.contains("cores_per_node"))
    machine.coresPerNode = static_cast<int>(
        jsonInteger(doc["cores_per_node"], 1, limits::kMaxCoresPerNode, "cores_per_node", source));
  if (doc.contains("link_sharing")) {
    const json& sharing = doc["link_sharing"];
    const std::string name = sharing.is_string() ? sharing.get<std::string>() : sharing.dump();
    if (name == linkSharingName(LinkSharing::Equal))
      machine.linkSharing = LinkSharing::Equal;
    else if (name == linkSharingName(LinkSharing::LatencyWeighted))
      machine.linkSharing = LinkSharing::LatencyWeighted;
    else
      failIn(source, "link_sharing: expected \"equal\" or \"latency-weighted\", got " +
                         sharing.dump());
  }
  if (doc.contains("mpi")) {
    if (!doc["mpi"].is_string() || doc["mpi"].get<std::string>().empty())
      failIn(source, "mpi: expected an MPI profile's name or file (docs/mpi-profiles.md)");
    machine.mpi = doc["mpi"].get<std::string>();
  }
  if (doc.contains("sockets_per_node"))
    machine.socketsPerNode = static_cast<int>(jsonInteger(
        doc["sockets_per_node"], 1, limits::kMaxCoresPerNode, "sockets_per_node", source));
}

}  // namespace

// The common fields here; the kind's own (axes, nodes, links, routes) its TopologyKind reads.
Machine parseMachine(const std::string& text, const std::string& source) {
  const json doc = parseJson(text, source);
  if (!doc.is_object()) failIn(source, "top level: expected a JSON object");
  const std::vector<TopologyKind>& kinds = topologyKinds();
  const TopologyKind* kind = &kinds.front();
  if (doc.contains("kind")) {
    const json& name = doc["kind"];
    const auto it = std::find_if(kinds.begin(), kinds.end(), [&](const TopologyKind& k) {
      return name.is_string() && name.get<std::string>() == k.name;
    });
    if (it == kinds.end()) {
      std::string names;
      for (const TopologyKind& k : kinds)
        names += std::string(names.empty() ? "" : ", ") + "\"" + k.name + "\"";
      failIn(source, "kind: expected one of " + names);
    }
    kind = &*it;
  }
  Machine machine;
  machine.source = source;
  machine.name =
      doc.contains("name") && doc["name"].is_string() ? doc["name"].get<std::string>() : source;
  machine.topology = kind->read(doc, text, machine);
  readNodeOptions(doc, machine);
  return machine;
}

Machine loadMachine(const std::string& path) {
  return parseMachine(readWholeFile(path), path);
}

std::vector<int> Box::coordinatesOf(int node) const {
  std::vector<int> coordinates(shape.size());
  for (std::size_t a = 0; a < shape.size(); ++a) {
    coordinates[a] = node % shape[a];
    node /= shape[a];
  }
  return coordinates;
}

int Box::nodeAt(const std::vector<int>& coordinates) const {
  int node = 0;
  for (std::size_t a = 0; a < shape.size(); ++a) node += coordinates[a] * stride[a];
  return node;
}

std::string Box::shapeText() const {
  return joinNumbers(shape, 'x');
}

std::string Box::offsetText() const {
  return joinNumbers(offset, ',');
}

std::string coordinatesName(const std::vector<int>& coordinates) {
  std::string name = "n";
  for (std::size_t a = 0; a < coordinates.size(); ++a) {
    if (a > 0) name += '-';
    name += std::to_string(coordinates[a]);
  }
  return name;
}

int Machine::nodeCount() const {
  // Below limits::kMaxMachineNodes (checked when the file is read): no overflow.
  int nodes = 1;
  for (const Axis& axis : axes) nodes *= axis.size;
  return nodes;
}

std::string Machine::nodeName(const Box& box, int node) const {
  const std::string& own = hostName(node);
  return own.empty() ? coordinatesName(box.coordinatesOf(node)) : own;
}

Box Machine::boxFor(const std::string& shape, const std::string& offset, bool wholeWithoutShape,
                    const std::string& shapeRequired, const std::string& noShapeHint) const {
  if (!takesShape()) {
    if (!shape.empty() || !offset.empty())
      throw InputError(source + " is a " + topology->kind() + " machine: " + noShapeHint);
    return makeBox(*this, shapeText(), "");
  }
  if (!shape.empty()) return makeBox(*this, shape, offset);
  if (!wholeWithoutShape) throw InputError(shapeRequired);
  return makeBox(*this, shapeText(), "");
}

Box makeBox(const Machine& machine, const std::string& shape, const std::string& offset) {
  const std::size_t axes = machine.axes.size();
  const std::string names = machine.axisNamesText();
  Box box;
  const std::string shapeSetting = settingName("shape"), offsetSetting = settingName("offset");
  box.shape = parseAxisList(shape, 'x', shapeSetting, axes, names);
  box.offset = offset.empty() ? std::vector<int>(axes, 0)
                              : parseAxisList(offset, ',', offsetSetting, axes, names);
  long long nodes = 1;
  for (std::size_t a = 0; a < axes; ++a) {
    const Axis& axis = machine.axes[a];
    const int size = box.shape[a], start = box.offset[a];
    if (size < 1)
      throw InputError(shapeSetting + " " + shape + ": axis " + axis.name +
                       " size must be at least 1");
    if (size > axis.size)
      throw InputError(shapeSetting + " " + shape + ": axis " + axis.name + " size " +
                       std::to_string(size) + " exceeds the machine's " +
                       std::to_string(axis.size) + " (" + machine.source + ")");
    if (start < 0 || start >= axis.size)
      throw InputError(offsetSetting + " " + offset + ": axis " + axis.name + " offset " +
                       std::to_string(start) + " is outside 0.." + std::to_string(axis.size - 1));
    // On a torus axis a box may run over the end and continue at 0; on a mesh it may not.
    if (!axis.wrap && start + size > axis.size)
      throw InputError(shapeSetting + " " + shape + " at " + offsetSetting + " " +
                       box.offsetText() + ": axis " + axis.name +
                       " runs past the machine's edge (mesh axis of size " +
                       std::to_string(axis.size) + ")");
    box.wrap.push_back(axis.wrap && size == axis.size && size > 1);
    box.stride.push_back(static_cast<int>(nodes));
    nodes *= size;
    if (nodes > 100000000) throw InputError(shapeSetting + " " + shape + ": more than 1e8 nodes");
  }
  box.nodeCount = static_cast<int>(nodes);
  return box;
}

}  // namespace tac3map
