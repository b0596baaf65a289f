#include "tac3map/network/machine.hpp"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tac3map/io/error.hpp"
#include "tac3map/io/json_input.hpp"
#include "tac3map/io/limits.hpp"

namespace tac3map {
namespace {

using nlohmann::json;

double positiveNumber(const json& value, const std::string& where, const std::string& source) {
  if (!value.is_number() || value.get<double>() <= 0)
    failIn(source, where + ": expected a positive number");
  return value.get<double>();
}

double nonNegativeNumber(const json& value, const std::string& where, const std::string& source) {
  if (!value.is_number() || value.get<double>() < 0)
    failIn(source, where + ": expected a number >= 0");
  return value.get<double>();
}

std::string joinNames(const std::vector<Axis>& axes) {
  std::string names;
  for (const Axis& axis : axes) {
    if (!names.empty()) names += ' ';
    names += axis.name;
  }
  return names;
}

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

// The items of `text` split at `separator`, each read whole by `read` (std::stoi, std::stod).
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
      [](const std::string& item, std::size_t* used) { return std::stoi(item, used); },
      "an integer");
}

std::vector<double> parseNumberList(const std::string& text, char separator,
                                    const std::string& what) {
  return parseList<double>(
      text, separator, what,
      [](const std::string& item, std::size_t* used) { return std::stod(item, used); }, "a number");
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
          positiveNumber(injection["bandwidth"], "injection.bandwidth", source);
  }
  if (doc.contains("intra_node_bandwidth"))
    machine.intraNodeBandwidth =
        positiveNumber(doc["intra_node_bandwidth"], "intra_node_bandwidth", source);
  if (doc.contains("message_latency"))
    machine.messageLatency = nonNegativeNumber(doc["message_latency"], "message_latency", source);
  if (doc.contains("cores_per_node"))
    machine.coresPerNode = static_cast<int>(
        jsonInteger(doc["cores_per_node"], 1, limits::kMaxCoresPerNode, "cores_per_node", source));
  if (doc.contains("sockets_per_node"))
    machine.socketsPerNode = static_cast<int>(jsonInteger(
        doc["sockets_per_node"], 1, limits::kMaxCoresPerNode, "sockets_per_node", source));
}

// A graph machine: one axis of compute nodes; bandwidth and latency the route links' worst.
Machine graphMachine(const json& doc, const std::string& text, const std::string& source) {
  Machine machine;
  machine.source = source;
  auto graph = std::make_shared<GraphNetwork>(parseGraphNetwork(text, source));
  machine.name = graph->name;
  machine.axes = {{"node", graph->computeCount(), false}};
  machine.routingOrder = {0};
  std::vector<bool> routed(graph->arcs.size(), false);
  for (int arc : graph->routeArcs) routed[arc] = true;
  for (std::size_t a = 0; a < graph->arcs.size(); ++a) {
    if (!routed[a]) continue;
    const GraphArc& arc = graph->arcs[a];
    if (machine.linkBandwidth == 0 || arc.bandwidth < machine.linkBandwidth)
      machine.linkBandwidth = arc.bandwidth;
    machine.hopLatency = std::max(machine.hopLatency, arc.latency);
  }
  // One compute node and no routes: any positive figure (nothing ever crosses a link).
  if (machine.linkBandwidth == 0) machine.linkBandwidth = graph->arcs.front().bandwidth;
  machine.graph = std::move(graph);
  readNodeOptions(doc, machine);
  return machine;
}

}  // namespace

Machine parseMachine(const std::string& text, const std::string& source) {
  const json doc = parseJson(text, source);
  if (doc.is_object() && doc.contains("kind") && doc["kind"] != "torus") {
    if (doc["kind"] != "graph") failIn(source, "kind: expected \"graph\" or \"torus\"");
    return graphMachine(doc, text, source);
  }
  Machine machine;
  machine.source = source;
  machine.name = doc.is_object() && doc.contains("name") && doc["name"].is_string()
                     ? doc["name"].get<std::string>()
                     : source;
  const json& axes = jsonField(doc, "axes", "top level", source);
  if (!axes.is_array() || axes.empty()) failIn(source, "axes: expected a non-empty array");
  long long nodes = 1;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const std::string where = "axes[" + std::to_string(i) + "]";
    Axis axis;
    const json& name = jsonField(axes[i], "name", where, source);
    if (!name.is_string() || name.get<std::string>().empty())
      failIn(source, where + ".name: expected a non-empty string");
    axis.name = name.get<std::string>();
    const json& size = jsonField(axes[i], "size", where, source);
    if (!size.is_number_integer() || size.get<long long>() < 1 ||
        size.get<long long>() > limits::kMaxAxisSize)
      failIn(source, where + ".size: expected an integer from 1 to " +
                         std::to_string(limits::kMaxAxisSize));
    axis.size = size.get<int>();
    // The product stays below kMaxMachineNodes x kMaxAxisSize < 2^33: no overflow. Checked
    // here, before anything is sized per node (Network's tables, node tables, allocations).
    nodes *= axis.size;
    if (nodes > limits::kMaxMachineNodes)
      failLimit(source, 0,
                where + ".size: the axes make " + std::to_string(nodes) +
                    " nodes or more, beyond tac3map's limit of " +
                    std::to_string(limits::kMaxMachineNodes) +
                    " nodes (26 times Fugaku's 158,976; docs/limits.md)");
    const json& wrap = jsonField(axes[i], "wrap", where, source);
    if (!wrap.is_boolean()) failIn(source, where + ".wrap: expected true or false");
    axis.wrap = wrap.get<bool>();
    for (const Axis& other : machine.axes)
      if (other.name == axis.name) failIn(source, where + ".name: axis '" + axis.name + "' twice");
    machine.axes.push_back(axis);
  }
  const json& order = jsonField(doc, "routing_order", "top level", source);
  if (!order.is_array() || order.size() != machine.axes.size())
    failIn(source, "routing_order: expected each of the axes (" + joinNames(machine.axes) +
                       ") exactly once");
  std::vector<bool> seen(machine.axes.size(), false);
  for (std::size_t i = 0; i < order.size(); ++i) {
    const std::string where = "routing_order[" + std::to_string(i) + "]";
    if (!order[i].is_string()) failIn(source, where + ": expected an axis name");
    const std::string name = order[i].get<std::string>();
    auto it = std::find_if(machine.axes.begin(), machine.axes.end(),
                           [&](const Axis& a) { return a.name == name; });
    if (it == machine.axes.end()) failIn(source, where + ": unknown axis '" + name + "'");
    const int index = static_cast<int>(it - machine.axes.begin());
    if (seen[index]) failIn(source, where + ": axis '" + name + "' named twice");
    seen[index] = true;
    machine.routingOrder.push_back(index);
  }
  machine.linkBandwidth = positiveNumber(jsonField(doc, "link_bandwidth", "top level", source),
                                         "link_bandwidth", source);
  machine.hopLatency =
      nonNegativeNumber(jsonField(doc, "hop_latency", "top level", source), "hop_latency", source);
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

const std::string& Machine::hostName(int node) const {
  static const std::string none;
  return graph ? graph->nodes[graph->compute[node]].name : none;
}

int Machine::nodeNamed(const std::string& name) const {
  if (!graph) return -1;
  const std::vector<int>& compute = graph->compute;
  const auto it = std::find(compute.begin(), compute.end(), graph->nodeId(name));
  return it == compute.end() ? -1 : static_cast<int>(it - compute.begin());
}

std::string Machine::nodeName(const Box& box, int node) const {
  const std::string& own = hostName(node);
  return own.empty() ? coordinatesName(box.coordinatesOf(node)) : own;
}

Box Machine::boxFor(const std::string& shape, const std::string& offset, bool wholeWithoutShape,
                    const std::string& shapeRequired, const std::string& noShapeHint) const {
  if (!takesShape()) {
    if (!shape.empty() || !offset.empty())
      throw InputError(source + " is a graph machine: " + noShapeHint);
    return makeBox(*this, shapeText(), "");
  }
  if (!shape.empty()) return makeBox(*this, shape, offset);
  if (!wholeWithoutShape) throw InputError(shapeRequired);
  return makeBox(*this, shapeText(), "");
}

std::string Machine::nodesText(const Box& box) const {
  // A graph has no box shape: its compute nodes are counted instead.
  if (graph) return std::to_string(box.nodeCount) + " compute nodes";
  return "box " + box.shapeText() + " (" + std::to_string(box.nodeCount) + " nodes)";
}

std::string Machine::whyNoAxes() const {
  // Its one axis "node" (the compute nodes in file order) is no direction of the network.
  return graph ? "a graph machine has no axes" : "";
}

std::string Machine::whyNotMeshOrTorus() const {
  return graph ? "the machine is a graph, not a mesh/torus" : "";
}

Box makeBox(const Machine& machine, const std::string& shape, const std::string& offset) {
  const std::size_t axes = machine.axes.size();
  const std::string names = joinNames(machine.axes);
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
