#include "tac3map/network/network.hpp"

#include <algorithm>
#include <stdexcept>

#include "tac3map/io/number_text.hpp"

namespace tac3map {
namespace {

// Signed steps from c to t on an axis of `size`: on a torus the shorter way round, ties the
// + way (as the machine routes); on a mesh the only way.
int signedSteps(int c, int t, int size, bool wrap) {
  if (!wrap) return t - c;
  const int forward = (t - c + size) % size;
  const int backward = size - forward;
  return forward <= backward ? forward : -backward;
}

}  // namespace

Network::Network(const Machine& machine, const Box& box, std::size_t cacheBudgetBytes)
    : axes_(box.axisCount()),
      nodes_(box.nodeCount),
      shape_(box.shape),
      stride_(box.stride),
      order_(machine.routingOrder),
      wrap_(box.wrap),
      bandwidth_(machine.linkBandwidth),
      latency_(machine.hopLatency) {
  for (const Axis& axis : machine.axes) axisNames_.push_back(axis.name);
  if (machine.graph) {
    if (box.nodeCount != machine.graph->computeCount())
      throw std::logic_error("a graph machine's box is all of its compute nodes");
    buildFromGraph(machine);
    return;
  }
  linkLimit_ = static_cast<LinkId>(nodes_) * 2 * axes_;
  nearbySlots_ = 2 * axes_;
  for (int a = 0; a < axes_; ++a) {
    const int size = shape_[a];
    legStart_.push_back(static_cast<int>(legs_.size()));
    for (int c = 0; c < size; ++c)
      for (int t = 0; t < size; ++t)
        legs_.push_back(static_cast<std::int16_t>(signedSteps(c, t, size, box.wrap[a])));
  }
  coords_.reserve(static_cast<std::size_t>(nodes_) * axes_);
  for (int node = 0; node < nodes_; ++node)
    for (int c : box.coordinatesOf(node)) coords_.push_back(c);
  buildCache(cacheBudgetBytes);
}

void Network::buildCache(std::size_t budgetBytes) {
  const std::size_t pairs = static_cast<std::size_t>(nodes_) * nodes_;
  if ((pairs + 1) * sizeof(std::uint32_t) > budgetBytes) return;
  std::size_t links = 0;
  for (int p = 0; p < nodes_; ++p)
    for (int q = 0; q < nodes_; ++q) links += hops(p, q);
  if ((pairs + 1) * sizeof(std::uint32_t) + links * sizeof(LinkId) > budgetBytes ||
      links > UINT32_MAX)
    return;
  routeLinks_.reserve(links);
  std::vector<std::uint32_t> start;
  start.reserve(pairs + 1);
  for (int p = 0; p < nodes_; ++p)
    for (int q = 0; q < nodes_; ++q) {
      start.push_back(static_cast<std::uint32_t>(routeLinks_.size()));
      walk(p, q, [&](LinkId link) { routeLinks_.push_back(link); });
    }
  start.push_back(static_cast<std::uint32_t>(routeLinks_.size()));
  routeStart_ = std::move(start);  // from here on forEachLink reads the cache
}

void Network::buildFromGraph(const Machine& machine) {
  graph_ = machine.graph;
  const GraphNetwork& g = *graph_;
  axes_ = 0;
  shape_.clear();
  stride_.clear();
  order_.clear();
  wrap_.clear();
  axisNames_.clear();
  linkLimit_ = g.capacities;
  arcOfCapacity_.assign(g.capacities, -1);
  for (std::size_t a = g.arcs.size(); a-- > 0;)
    arcOfCapacity_[g.arcs[a].capacity] = static_cast<LinkId>(a);
  // The graph's route table with arcs turned into link ids (capacities: what contention
  // counts). The reader caps the arcs at kMaxGraphRouteArcs, so 32-bit offsets hold them.
  const std::size_t pairs = static_cast<std::size_t>(nodes_) * nodes_;
  routeStart_.assign(pairs + 1, 0);
  routeLinks_.reserve(g.routeArcs.size());
  for (std::size_t pair = 0; pair < pairs; ++pair) {
    const int i = static_cast<int>(pair / nodes_), j = static_cast<int>(pair % nodes_);
    for (const int* arc = g.routeBegin(i, j); arc != g.routeEnd(i, j); ++arc)
      routeLinks_.push_back(g.arcs[*arc].capacity);
    routeStart_[pair + 1] = static_cast<std::uint32_t>(routeLinks_.size());
    longest_ = std::max(longest_, static_cast<int>(routeStart_[pair + 1] - routeStart_[pair]));
  }
  // Nearby nodes: fewest hops, then the next ids cyclically (so ties spread over the machine
  // rather than all pointing at node 0).
  nearbySlots_ = std::min(kGraphNearby, nodes_ - 1);
  nearby_.assign(static_cast<std::size_t>(nodes_) * std::max(0, nearbySlots_), -1);
  std::vector<std::pair<int, int>> order;  // (hops, cyclic offset)
  for (int node = 0; node < nodes_ && nearbySlots_ > 0; ++node) {
    order.clear();
    for (int offset = 1; offset < nodes_; ++offset)
      order.push_back({hops(node, (node + offset) % nodes_), offset});
    std::partial_sort(order.begin(), order.begin() + nearbySlots_, order.end());
    for (int s = 0; s < nearbySlots_; ++s)
      nearby_[static_cast<std::size_t>(node) * nearbySlots_ + s] =
          (node + order[s].second) % nodes_;
  }
}

std::pair<int, int> Network::linkEnds(LinkId link) const {
  const GraphArc& arc = linkArc(link);
  return {arc.from, arc.to};
}

std::string Network::linkName(LinkId link) const {
  if (!graph_) {
    std::string name = coordinatesName(coordinatesOf(linkSource(link)));
    name += ':';
    name += axisNames_[linkAxis(link)];
    name += linkIsPlus(link) ? "+" : "-";
    return name;
  }
  const auto [from, to] = linkEnds(link);
  const int arc = arcOfCapacity_[link];
  // Half duplex: the back arc shares this capacity.
  const bool half = static_cast<std::size_t>(arc + 1) < graph_->arcs.size() && arc % 2 == 0 &&
                    graph_->arcs[arc + 1].capacity == link;
  std::string name = graph_->nodes[from].name;
  name += half ? "<->" : "->";
  name += graph_->nodes[to].name;
  return name;
}

std::string Network::platformNote(const std::vector<std::string>& axisNames) const {
  if (graph_)
    return "       Hosts are the machine's compute nodes by name; one SHARED link per link "
           "capacity of the graph, with its own bandwidth and latency, named as tac3map names it "
           "(from->to, or a<->b for a half-duplex link) with angle brackets written _.\n"
           "       Routes are tac3map's routes of the graph (Network::route), one per ordered "
           "pair of hosts:\n";
  std::string names;
  for (std::size_t a = 0; a < axisNames.size(); ++a) names += (a ? " " : "") + axisNames[a];
  return "       Hosts are named n<box coordinates> (axes " + names +
         ").\n"
         "       One SHARED link per directed link of the box (<host>:<axis><+|->), "
         "bandwidth link_bandwidth " +
         exactNumber(bandwidth_) + " B/s, latency hop_latency " + exactNumber(latency_) +
         " s.\n"
         "       Routes are tac3map's dimension-order routes (Network::route), one per "
         "ordered pair of hosts:\n";
}

std::string Network::whyNotHalvable() const {
  return graph_ ? "the network is a graph, not a mesh/torus box to halve" : "";
}

std::vector<LinkId> Network::route(int p, int q) const {
  std::vector<LinkId> links;
  forEachLink(p, q, [&](LinkId link) { links.push_back(link); });
  return links;
}

int Network::linkTarget(LinkId link) const {
  const int source = linkSource(link), axis = linkAxis(link);
  const int c = coordinate(source, axis), size = shape_[axis];
  if (linkIsPlus(link))
    return c + 1 == size ? source - (size - 1) * stride_[axis] : source + stride_[axis];
  return c == 0 ? source + (size - 1) * stride_[axis] : source - stride_[axis];
}

int Network::longestRoute() const {
  if (graph_) return longest_;
  int longest = 0;
  for (int a = 0; a < axes_; ++a) longest += wrap_[a] ? shape_[a] / 2 : shape_[a] - 1;
  return longest;
}

int Network::neighbour(int node, int axis, bool plus) const {
  const int c = coordinate(node, axis), size = shape_[axis];
  if (size == 1) return -1;
  if (plus ? c + 1 < size : c > 0) return node + (plus ? stride_[axis] : -stride_[axis]);
  if (!wrap_[axis]) return -1;
  return linkTarget(static_cast<LinkId>(node) * 2 * axes_ + 2 * axis + (plus ? 0 : 1));
}

}  // namespace tac3map
