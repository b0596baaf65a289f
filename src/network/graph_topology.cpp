// The graph (topology.hpp): compute nodes and relay-only switches joined by links of their own
// bandwidth and latency, routes shortest or listed (graph_network.hpp reads them). Trees,
// fat-trees and dragonflies are of this kind (machine files with "kind": "graph"). The job is
// always all compute nodes, numbered in file order: box node i is compute node i, the one
// coordinate mapping files record ("shape N"); routes, links and nearby nodes come from the
// graph, never from that numbering.
#include <algorithm>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "tac3map/network/graph_network.hpp"
#include "tac3map/network/machine.hpp"
#include "tac3map/network/network.hpp"
#include "tac3map/network/target_torus.hpp"
#include "tac3map/network/topology.hpp"
#include "topology_kinds.hpp"

namespace tac3map {
namespace {

class Graph final : public Topology {
 public:
  explicit Graph(std::shared_ptr<const GraphNetwork> graph) : graph_(std::move(graph)) {
    arcOfLink_.assign(graph_->capacities, -1);
    for (std::size_t a = graph_->arcs.size(); a-- > 0;)
      arcOfLink_[graph_->arcs[a].capacity] = static_cast<int>(a);
  }

  const char* kind() const override { return "graph"; }

  const std::string& hostName(int node) const override {
    return graph_->nodes[graph_->compute[node]].name;
  }
  bool namesNodes() const override { return true; }
  int nodeNamed(const std::string& name) const override {
    const std::vector<int>& compute = graph_->compute;
    const auto it = std::find(compute.begin(), compute.end(), graph_->nodeId(name));
    return it == compute.end() ? -1 : static_cast<int>(it - compute.begin());
  }
  bool takesShape() const override { return false; }
  // A graph has no box shape: its compute nodes are counted instead.
  std::string nodesText(const Box& box) const override {
    return std::to_string(box.nodeCount) + " compute nodes";
  }
  // Its one coordinate (the compute nodes in file order) is no direction of the network.
  std::string whyNoAxes() const override { return "a graph machine has no axes"; }
  std::string whyNotMeshOrTorus() const override {
    return "the machine is a graph, not a mesh/torus";
  }
  std::string whyNotHalvable() const override {
    return "the network is a graph, not a mesh/torus box to halve";
  }

  // The graph's route table with arcs turned into link ids (capacities: what contention
  // counts). The reader caps the arcs at kMaxGraphRouteArcs, so 32-bit offsets hold them.
  void build(const Machine& /*machine*/, const Box& box, std::size_t /*cacheBudgetBytes*/,
             Network& network) const override {
    const GraphNetwork& g = *graph_;
    const int nodes = g.computeCount();
    if (box.nodeCount != nodes)
      throw std::logic_error("a graph machine's box is all of its compute nodes");
    const std::size_t pairs = static_cast<std::size_t>(nodes) * nodes;
    std::vector<std::uint32_t> start(pairs + 1, 0);
    std::vector<LinkId> links;
    links.reserve(g.routeArcs.size());
    for (std::size_t pair = 0; pair < pairs; ++pair) {
      const int i = static_cast<int>(pair / nodes), j = static_cast<int>(pair % nodes);
      for (const int* arc = g.routeBegin(i, j); arc != g.routeEnd(i, j); ++arc)
        links.push_back(g.arcs[*arc].capacity);
      start[pair + 1] = static_cast<std::uint32_t>(links.size());
    }
    // A half-duplex link's figures are its forward arc's.
    std::vector<double> bandwidth(g.capacities), latency(g.capacities);
    for (int link = 0; link < g.capacities; ++link) {
      bandwidth[link] = g.arcs[arcOfLink_[link]].bandwidth;
      latency[link] = g.arcs[arcOfLink_[link]].latency;
    }
    network.layRouteTable(g.capacities, std::move(start), std::move(links), std::move(bandwidth),
                          std::move(latency));
  }

  std::pair<int, int> linkEnds(const Network& /*network*/, std::int32_t link) const override {
    const GraphArc& arc = graph_->arcs[arcOfLink_[link]];
    return {arc.from, arc.to};
  }

  std::string linkName(const Network& network, std::int32_t link) const override {
    const auto [from, to] = linkEnds(network, link);
    const int arc = arcOfLink_[link];
    // Half duplex: the back arc shares this capacity.
    const bool half = static_cast<std::size_t>(arc + 1) < graph_->arcs.size() && arc % 2 == 0 &&
                      graph_->arcs[arc + 1].capacity == link;
    std::string name = graph_->nodes[from].name;
    name += half ? "<->" : "->";
    name += graph_->nodes[to].name;
    return name;
  }

  std::string platformNote(const Network& /*network*/,
                           const std::vector<std::string>& /*axisNames*/) const override {
    return "       Hosts are the machine's compute nodes by name; one SHARED link per link "
           "capacity of the graph, with its own bandwidth and latency, named as tac3map names it "
           "(from->to, or a<->b for a half-duplex link) with angle brackets written _.\n"
           "       Routes are tac3map's routes of the graph (Network::route), one per ordered "
           "pair of hosts:\n";
  }

  // No grid: the graph itself, for a partitioner's graph target.
  TargetTorus targetTorus(const Machine& machine, const Box& box) const override {
    const GraphNetwork& net = *graph_;
    TargetTorus graph;
    graph.whyNoGrid = machine.source + " is a graph machine";
    for (int k = 0; k < box.nodeCount; ++k) graph.node.push_back(k);
    graph.vertexOfCell = net.compute;
    graph.adjacent.resize(net.nodes.size());
    // One edge per linked pair (a link's two arcs, and parallel links, are one edge).
    for (std::size_t a = 0; a < net.arcs.size(); a += 2) {
      const int u = net.arcs[a].from, v = net.arcs[a].to;
      std::vector<int>& uAdjacent = graph.adjacent[u];
      if (std::find(uAdjacent.begin(), uAdjacent.end(), v) != uAdjacent.end()) continue;
      uAdjacent.push_back(v);
      graph.adjacent[v].push_back(u);
    }
    return graph;
  }

  const GraphNetwork* graph() const override { return graph_.get(); }

 private:
  std::shared_ptr<const GraphNetwork> graph_;
  std::vector<int> arcOfLink_;  // the first arc of each link id (capacity)
};

// One coordinate of compute nodes; the machine's bandwidth and latency are the routes'
// worst (scores in seconds are then upper bounds where links differ; docs/graph-networks.md).
std::shared_ptr<const Topology> readGraph(const nlohmann::json& /*doc*/, const std::string& text,
                                          Machine& machine) {
  auto graph = std::make_shared<const GraphNetwork>(parseGraphNetwork(text, machine.source));
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
  return std::make_shared<const Graph>(std::move(graph));
}

}  // namespace

extern const TopologyKind kGraphKind;
const TopologyKind kGraphKind = {
    "graph", "compute nodes and switches joined by links; routes shortest or listed", &readGraph,
    R"({"kind": "graph", "name": "example star of 3",
        "nodes": [{"name": "sw", "compute": false}, {"name": "a"}, {"name": "b"}, {"name": "c"}],
        "links": [{"between": ["sw", "a"], "bandwidth": 1e9, "latency": 1e-6},
                  {"between": ["sw", "b"], "bandwidth": 1e9, "latency": 1e-6},
                  {"between": ["sw", "c"], "bandwidth": 2e9, "latency": 1e-6, "duplex": "half"}]})"};

}  // namespace tac3map
