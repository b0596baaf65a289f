// The seam between kinds of network. A machine file's "kind" (absent: "torus") picks a
// Topology from the registry (topology_kinds.cpp: one line per kind); the Topology reads the
// rest of the file and then answers every question whose answer depends on the kind: how
// nodes are named, what a job's nodes are, how routes and links are laid out for the hot
// path, what links are called, what a partitioner maps onto, what can be drawn or halved.
// Machine and Network forward to it, so no layer above network/ ever asks which kind it has.
//
// Two implementations: a mesh/torus with dimension-order routing (torus_topology.cpp) and a
// graph of compute nodes and switches with tabled routes (graph_topology.cpp). Everything
// here is cold: the hot path reads the flat tables build() leaves in Network.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tac3map {

struct Box;
struct Machine;
class Network;
struct TargetTorus;
struct DistanceTorus;
struct GraphNetwork;

class Topology {
 public:
  virtual ~Topology() = default;

  // The machine file's "kind" this topology was read from.
  virtual const char* kind() const = 0;

  // --- Nodes and the job's nodes -----------------------------------------------------------
  // The file's own name of box node `node`; empty where the file names no nodes.
  virtual const std::string& hostName(int /*node*/) const {
    static const std::string none;
    return none;
  }
  // Whether the file names its nodes (a node table then lists them by name).
  virtual bool namesNodes() const { return false; }
  // The box node of the node called `name`; -1 if none has it.
  virtual int nodeNamed(const std::string& /*name*/) const { return -1; }
  // Whether a job's nodes are a box the user cuts with --shape/--offset; a topology that
  // takes no shape is always used whole.
  virtual bool takesShape() const { return true; }
  // The job's nodes in words, for titles: "box 2x3 (6 nodes)", "16 compute nodes".
  virtual std::string nodesText(const Box& box) const = 0;
  // Why the machine has no axes to pick or draw a plane of (empty: it has).
  virtual std::string whyNoAxes() const { return ""; }
  // Why ranks cannot be laid out along the machine's axes as a mesh/torus (empty: they can).
  virtual std::string whyNotMeshOrTorus() const { return ""; }

  // --- The network the engines read ---------------------------------------------------------
  // Fills `network`'s tables for the job's box: either a dimension-order walk over box
  // coordinates (Network::layDimensionOrder) or a table of routes (Network::layRouteTable).
  virtual void build(const Machine& machine, const Box& box, std::size_t cacheBudgetBytes,
                     Network& network) const = 0;
  // A link's name in reports and platform files.
  virtual std::string linkName(const Network& network, std::int32_t link) const = 0;
  // A link's two ends (box nodes on a mesh/torus, graph node ids on a graph).
  virtual std::pair<int, int> linkEnds(const Network& network, std::int32_t link) const = 0;
  // How hosts, links and routes are named, for a SimGrid platform file's header comment.
  virtual std::string platformNote(const Network& network,
                                   const std::vector<std::string>& axisNames) const = 0;
  // Why the multilevel search cannot halve this network's box (empty: it can try).
  virtual std::string whyNotHalvable() const { return ""; }

  // --- What other layers map onto or draw ---------------------------------------------------
  // The torus (or graph) a start lays ranks onto (target_torus.hpp).
  virtual TargetTorus targetTorus(const Machine& machine, const Box& box) const = 0;
  // A torus whose hops between the box's nodes are the network's (target_torus.hpp); none
  // by default (target_torus.cpp).
  virtual std::optional<DistanceTorus> distanceTorus(const Box& box, int maxAxes) const;
  // The network as nodes and links, switches included, where the file gives it so (the
  // layered picture and `bcast` read it); null where it does not (a mesh/torus).
  virtual const GraphNetwork* graph() const { return nullptr; }
};

// The mesh/torus every machine is unless its file says otherwise (a default Machine's).
std::shared_ptr<const Topology> meshTorusTopology();

}  // namespace tac3map
