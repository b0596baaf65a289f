// A network given as a graph: machine files of kind "graph" (trees, fat-trees, dragonflies;
// docs/graph-networks.md). Nodes are compute nodes or relay-only switches; each link joins two
// nodes with a bandwidth and latency per direction, full duplex (one capacity per direction)
// or half duplex (one capacity shared by both). Routes between compute nodes are fewest hops
// ("shortest", deterministic: the path a breadth-first search finds taking each node's links
// in file order, forward before back) or listed ("table"); they are kept as one CSR table of
// arcs. Errors name the file and the JSON path.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tac3map {

struct GraphNode {
  std::string name;
  bool compute = true;
};

// One direction of a link. `capacity` is what contention counts: the two arcs of a
// full-duplex link have capacities of their own, those of a half-duplex link share one.
struct GraphArc {
  int from = 0, to = 0;
  double bandwidth = 0;  // bytes per second
  double latency = 0;    // seconds
  int capacity = 0;
};

struct GraphNetwork {
  std::string name, source;
  std::vector<GraphNode> nodes;
  std::vector<GraphArc> arcs;  // link i of the file: arc 2i forward, 2i + 1 back
  int capacities = 0;
  std::vector<int> compute;  // node ids of the compute nodes, in file order
  // Route from compute node i to compute node j (indices into `compute`): arcs
  // routeArcs[routeStart[i * n + j] .. routeStart[i * n + j + 1]), n = compute.size().
  std::vector<std::uint64_t> routeStart;
  std::vector<int> routeArcs;

  int computeCount() const { return static_cast<int>(compute.size()); }
  const int* routeBegin(int i, int j) const {
    return routeArcs.data() + routeStart[static_cast<std::size_t>(i) * compute.size() + j];
  }
  const int* routeEnd(int i, int j) const {
    return routeArcs.data() + routeStart[static_cast<std::size_t>(i) * compute.size() + j + 1];
  }
  int nodeId(const std::string& name) const;  // -1 if none has this name
  std::map<std::string, int> idOf;            // node ids by name
};

// At most this many compute nodes: the route table holds every ordered pair.
inline constexpr int kMaxGraphComputeNodes = 4096;
// At most this many arcs over all routes (512 MiB), so a small file cannot take gigabytes.
inline constexpr std::size_t kMaxGraphRouteArcs = std::size_t{1} << 27;

GraphNetwork parseGraphNetwork(const std::string& text, const std::string& source);
GraphNetwork loadGraphNetwork(const std::string& path);

}  // namespace tac3map
