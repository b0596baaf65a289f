// The machine read from topologies/*.json — a multi-dimensional mesh/torus, or a graph
// (kind "graph": trees, fat-trees, dragonflies; graph_network.hpp) — and the job's box on it.
// The box is what routing and mapping work on: node ids are box-relative, X fastest. What
// depends on the kind of network is the machine's Topology (topology.hpp; one file per kind
// and a line in network/topology_kinds.cpp), which the members below forward to, so that the
// layers above never ask which kind it is. A graph's job is all of its compute nodes, numbered
// in file order along one coordinate "node" (what mapping files record as "shape N"); its
// routes, links and neighbours come from the graph (network.hpp), never from that numbering.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tac3map/network/topology.hpp"

namespace tac3map {

struct Box;

struct Axis {
  std::string name;
  int size = 1;
  bool wrap = false;  // torus links around the end of the axis
};

// How messages in flight share a link (the machine file's "link_sharing"): `Equal`, each
// message on a link gets the same share (a link's fair arbitration; the default), or
// `LatencyWeighted`, in inverse proportion to its route's latency, as SimGrid's CM02 model
// shares a link (its flows' sharing penalty is their route latency, TCP's unfairness).
enum class LinkSharing { Equal, LatencyWeighted };
const char* linkSharingName(LinkSharing sharing);

struct Machine {
  std::string name;
  std::string source;  // file it was read from, for messages
  std::vector<Axis> axes;
  std::vector<int> routingOrder;  // axis indices, first routed first
  double linkBandwidth = 0;       // bytes per second of one directed link
  double hopLatency = 0;          // seconds per hop
  // Seconds every message costs at its start, whatever its route ("message_latency"; absent:
  // 0): software and end-point start-up, e.g. the interconnect's one-way put latency.
  double messageLatency = 0;
  // A node sends (and receives) up to `injectionEngines` messages at once, each at most
  // `injectionBandwidth` bytes/s ("injection": {"engines", "bandwidth"}; absent: one engine
  // at link bandwidth, the paper's setting). Tofu: K and FX10 4 engines, Fugaku 6.
  int injectionEngines = 1;
  double injectionBandwidth = 0;
  // Bytes/s of the messages between ranks of one node, which share it ("intra_node_bandwidth";
  // absent: 0, which the model reads as "free").
  double intraNodeBandwidth = 0;
  // A node's cores and sockets ("cores_per_node", "sockets_per_node"; absent: 0, unknown):
  // what an Open MPI rank file binds ranks to (rankmap.hpp) when the command line does not say.
  int coresPerNode = 0;
  int socketsPerNode = 0;
  LinkSharing linkSharing = LinkSharing::Equal;
  // The MPI the machine runs ("mpi": a profile name or a file beside the machine file;
  // absent: "openmpi"): docs/mpi-profiles.md.
  std::string mpi = "openmpi";
  // The kind of network (the file's "kind", absent: a mesh/torus): what depends on it. A
  // graph's linkBandwidth is the slowest bandwidth on any route between compute nodes and
  // its hopLatency the largest latency on one (scores in seconds are then upper bounds where
  // links differ; docs/graph-networks.md).
  std::shared_ptr<const Topology> topology = meshTorusTopology();

  int axisCount() const { return static_cast<int>(axes.size()); }
  std::string shapeText() const;
  // The axes' names, space-separated ("X Y Z A B C"), for messages.
  std::string axisNamesText() const;
  // All nodes of the machine (a graph's compute nodes): the product of the axes' sizes.
  int nodeCount() const;

  // The file's own name of box node `node` (a graph's compute node name, which host files,
  // rank files and node tables use); empty where the file names no nodes (a mesh/torus,
  // whose hosts only a node table's host=NAME gives).
  const std::string& hostName(int node) const { return topology->hostName(node); }
  // Whether the file names its nodes: then a node table lists nodes by name (nodeNamed), and
  // every node has a host name without one.
  bool namesNodes() const { return topology->namesNodes(); }
  // The box node of the compute node called `name`; -1 if no compute node has that name.
  int nodeNamed(const std::string& name) const { return topology->nodeNamed(name); }
  // A name for box node `node` in files other programs read (SimGrid hosts): the file's own
  // name, else n<box coordinates>, as "n0-1-2".
  std::string nodeName(const Box& box, int node) const;

  // Whether a job's nodes are a box the user cuts with --shape/--offset (a mapping file's
  // recorded shape then matters); a graph's job is always all of its compute nodes.
  bool takesShape() const { return topology->takesShape(); }
  // The job's nodes as a box. With shape: the box `shape` at `offset` (makeBox). Without: the
  // whole machine if `wholeWithoutShape` (a node table then picks the nodes), else
  // InputError(shapeRequired). A machine that takes no shape is always whole, and refuses a
  // shape or offset with InputError("<file> is a <kind> machine: " + noShapeHint).
  Box boxFor(const std::string& shape, const std::string& offset, bool wholeWithoutShape,
             const std::string& shapeRequired, const std::string& noShapeHint) const;
  // The job's nodes in words, for titles: "box 2x3 (6 nodes)", "16 compute nodes".
  std::string nodesText(const Box& box) const { return topology->nodesText(box); }

  // Why the machine has no axes to pick or draw a plane of (empty: it has): the text shown.
  std::string whyNoAxes() const { return topology->whyNoAxes(); }
  // Why ranks cannot be laid out along the machine's axes as a mesh/torus (empty: they can):
  // the text the starts that fold a grid onto the box give.
  std::string whyNotMeshOrTorus() const { return topology->whyNotMeshOrTorus(); }
};

// Reads and checks a machine description; errors name the file and line or JSON field.
Machine loadMachine(const std::string& path);
Machine parseMachine(const std::string& text, const std::string& source);

// The job's allocation: a box of the machine. An axis of the box wraps only if the machine
// axis wraps and the box spans all of it; otherwise the box is a mesh along that axis, because
// the wrap-around link would leave the box.
struct Box {
  std::vector<int> shape;
  std::vector<int> offset;
  std::vector<bool> wrap;
  std::vector<int> stride;  // node id step per axis (X fastest)
  int nodeCount = 0;

  int axisCount() const { return static_cast<int>(shape.size()); }
  std::vector<int> coordinatesOf(int node) const;
  int nodeAt(const std::vector<int>& coordinates) const;
  std::string shapeText() const;
  std::string offsetText() const;
};

// A node's name from its box coordinates: "n0-1-2" (Machine::nodeName, Network::linkName).
std::string coordinatesName(const std::vector<int>& coordinates);

// "2x2x3" with separator 'x', "0,0,1" with ','; InputError names `what` (an option).
std::vector<int> parseIntegerList(const std::string& text, char separator, const std::string& what);
// The same for numbers ("1.25e8,1e9").
std::vector<double> parseNumberList(const std::string& text, char separator,
                                    const std::string& what);

// `shape` like "2x2x2x2x3x2", `offset` like "0,0,0,0,0,0" (empty: all zeros).
Box makeBox(const Machine& machine, const std::string& shape, const std::string& offset = "");

}  // namespace tac3map
