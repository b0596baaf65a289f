// The mesh/torus (topology.hpp): named axes, each a ring or a line, routed one axis after
// another in the file's routing_order. The K computer, FX10 and Fugaku (Tofu's six axes)
// and any 1D-6D mesh or torus are of this kind; it is what a machine file without "kind" is.
#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>

#include "tac3map/io/error.hpp"
#include "tac3map/io/json_input.hpp"
#include "tac3map/io/limits.hpp"
#include "tac3map/io/number_text.hpp"
#include "tac3map/network/machine.hpp"
#include "tac3map/network/network.hpp"
#include "tac3map/network/target_torus.hpp"
#include "tac3map/network/tofu_view.hpp"
#include "tac3map/network/topology.hpp"
#include "topology_kinds.hpp"

namespace tac3map {
namespace {

using nlohmann::json;

class MeshTorus final : public Topology {
 public:
  const char* kind() const override { return "torus"; }

  std::string nodesText(const Box& box) const override {
    return "box " + box.shapeText() + " (" + std::to_string(box.nodeCount) + " nodes)";
  }

  void build(const Machine& machine, const Box& box, std::size_t cacheBudgetBytes,
             Network& network) const override {
    std::vector<std::string> names;
    for (const Axis& axis : machine.axes) names.push_back(axis.name);
    network.layDimensionOrder(box, machine.routingOrder, std::move(names), cacheBudgetBytes);
  }

  std::string linkName(const Network& network, std::int32_t link) const override {
    std::string name = coordinatesName(network.coordinatesOf(network.linkSource(link)));
    name += ':';
    name += network.axisName(network.linkAxis(link));
    name += network.linkIsPlus(link) ? "+" : "-";
    return name;
  }

  std::pair<int, int> linkEnds(const Network& network, std::int32_t link) const override {
    return {network.linkSource(link), network.linkTarget(link)};
  }

  std::string platformNote(const Network& network,
                           const std::vector<std::string>& axisNames) const override {
    std::string names;
    for (std::size_t a = 0; a < axisNames.size(); ++a) names += (a ? " " : "") + axisNames[a];
    return "       Hosts are named n<box coordinates> (axes " + names +
           ").\n"
           "       One SHARED link per directed link of the box (<host>:<axis><+|->), "
           "bandwidth link_bandwidth " +
           exactNumber(network.uniformBandwidth()) + " B/s, latency hop_latency " +
           exactNumber(network.uniformLatency()) +
           " s.\n"
           "       Routes are tac3map's dimension-order routes (Network::route), one per "
           "ordered pair of hosts:\n";
  }

  // Dimension-order hops are the sum over axes of each axis's distance (a ring's shorter
  // way where the box wraps): one torus axis per box axis, laid out as target_torus.hpp says.
  std::optional<DistanceTorus> distanceTorus(const Box& box, int maxAxes) const override {
    // Each torus axis: the box axes it stands for (one, or two of two nodes for a ring of 4).
    std::vector<std::vector<int>> parts;
    std::vector<int> pairs;  // the box axes of two nodes, in order
    for (int a = 0; a < box.axisCount(); ++a) {
      if (box.shape[a] == 1) continue;
      if (box.shape[a] == 2) pairs.push_back(a);
      parts.push_back({a});
    }
    // Merge axes of two nodes, last pairs first, while there are too many axes.
    while (static_cast<int>(parts.size()) > maxAxes && pairs.size() >= 2) {
      const int b = pairs.back();
      pairs.pop_back();
      const int a = pairs.back();
      pairs.pop_back();
      parts.erase(std::find(parts.begin(), parts.end(), std::vector<int>{b}));
      *std::find(parts.begin(), parts.end(), std::vector<int>{a}) = {a, b};
    }
    if (parts.empty() || static_cast<int>(parts.size()) > maxAxes) return std::nullopt;
    DistanceTorus torus;
    for (const std::vector<int>& part : parts) {
      const int n = box.shape[part[0]];
      torus.extents.push_back(part.size() == 2 ? 4 : box.wrap[part[0]] ? n : 2 * (n - 1));
    }
    for (int node = 0; node < box.nodeCount; ++node) {
      const std::vector<int> c = box.coordinatesOf(node);
      int cell = 0, stride = 1;
      for (std::size_t k = 0; k < parts.size(); ++k) {
        // Around the 2x2 ring: (0,0) (1,0) (1,1) (0,1).
        const int position = parts[k].size() == 1
                                 ? c[parts[k][0]]
                                 : (c[parts[k][1]] == 0 ? c[parts[k][0]] : 3 - c[parts[k][0]]);
        cell += position * stride;
        stride *= torus.extents[k];
      }
      torus.cellOfNode.push_back(cell);
    }
    return torus;
  }

  // Tofu's logical 3D torus where the machine is Tofu, else the box's own axes.
  TargetTorus targetTorus(const Machine& machine, const Box& box) const override {
    try {
      const LogicalTorus view = tofuLogicalTorus(machine, box);
      TargetTorus logical;
      logical.extents = {view.size[0], view.size[1], view.size[2]};
      logical.closed = {view.closed[0], view.closed[1], view.closed[2]};
      logical.node = view.node;
      return logical;
    } catch (const InputError&) {
      // not a Tofu machine: the box's axes are the torus
    }
    TargetTorus torus;
    torus.extents = box.shape;
    torus.closed = box.wrap;
    for (int cell = 0; cell < box.nodeCount; ++cell) {
      std::vector<int> coordinates;
      int rest = cell;
      for (int extent : box.shape) {
        coordinates.push_back(rest % extent);
        rest /= extent;
      }
      torus.node.push_back(box.nodeAt(coordinates));
    }
    return torus;
  }
};

Axis readAxis(const json& entry, const std::string& where, long long& nodes,
              const std::string& source) {
  Axis axis;
  const json& name = jsonField(entry, "name", where, source);
  if (!name.is_string() || name.get<std::string>().empty())
    failIn(source, where + ".name: expected a non-empty string");
  axis.name = name.get<std::string>();
  const json& size = jsonField(entry, "size", where, source);
  if (!size.is_number_integer() || size.get<long long>() < 1 ||
      size.get<long long>() > limits::kMaxAxisSize)
    failIn(source,
           where + ".size: expected an integer from 1 to " + std::to_string(limits::kMaxAxisSize));
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
  const json& wrap = jsonField(entry, "wrap", where, source);
  if (!wrap.is_boolean()) failIn(source, where + ".wrap: expected true or false");
  axis.wrap = wrap.get<bool>();
  return axis;
}

}  // namespace

std::shared_ptr<const Topology> meshTorusTopology() {
  // It holds nothing of its own (the axes are the Machine's): one serves every machine.
  static const auto topology = std::make_shared<const MeshTorus>();
  return topology;
}

namespace {

std::shared_ptr<const Topology> readMeshTorus(const json& doc, const std::string& /*text*/,
                                              Machine& machine) {
  const std::string& source = machine.source;
  const json& axes = jsonField(doc, "axes", "top level", source);
  if (!axes.is_array() || axes.empty()) failIn(source, "axes: expected a non-empty array");
  long long nodes = 1;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const std::string where = "axes[" + std::to_string(i) + "]";
    const Axis axis = readAxis(axes[i], where, nodes, source);
    for (const Axis& other : machine.axes)
      if (other.name == axis.name) failIn(source, where + ".name: axis '" + axis.name + "' twice");
    machine.axes.push_back(axis);
  }
  const json& order = jsonField(doc, "routing_order", "top level", source);
  if (!order.is_array() || order.size() != machine.axes.size())
    failIn(source, "routing_order: expected each of the axes (" + machine.axisNamesText() +
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
  machine.linkBandwidth =
      jsonPositive(jsonField(doc, "link_bandwidth", "top level", source), "link_bandwidth", source);
  machine.hopLatency =
      jsonNonNegative(jsonField(doc, "hop_latency", "top level", source), "hop_latency", source);
  return meshTorusTopology();
}

}  // namespace

extern const TopologyKind kMeshTorusKind;
const TopologyKind kMeshTorusKind = {
    "torus", "a mesh/torus of named axes with dimension-order routes", &readMeshTorus,
    R"({"name": "example 3x2 torus/mesh",
        "axes": [{"name": "X", "size": 3, "wrap": true}, {"name": "Y", "size": 2, "wrap": false}],
        "routing_order": ["Y", "X"], "link_bandwidth": 5e9, "hop_latency": 1e-7})"};

}  // namespace tac3map
