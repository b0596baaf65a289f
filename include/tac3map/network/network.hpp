// The network every layer sees: the job's nodes, directed links with integer ids, and the
// route (a list of link ids) between any two nodes. The machine's Topology (topology.hpp: one
// per kind of network) lays it out in one of two flat forms: a dimension-order walk over box
// coordinates (a mesh/torus: link id = node * 2 * axes + 2 * axis + direction, direction 0 =
// +, 1 = -; ids of links that do not exist are never produced), walked on flat integer
// coordinates or read from a precomputed table; or a table of routes with a bandwidth and
// latency per link (a graph machine: link ids are its capacities, a half-duplex link is one
// id for both ways). Outside this class no layer does axis arithmetic: moves ask for
// nearby(), link loads walk forEachLink(); what depends on the kind (link names, the
// platform's note, halving) is asked of the topology. Hot path: the link walk is a template
// over a callback, with no allocation and no virtual call.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tac3map/network/machine.hpp"
#include "tac3map/network/topology.hpp"

namespace tac3map {

using LinkId = std::int32_t;

class Network {
 public:
  // Routes are precomputed into one flat array when all of them fit in `cacheBudgetBytes`
  // (small boxes: the walk's branches cost more than the lookups); otherwise walked each time.
  static constexpr std::size_t kDefaultCacheBudget = std::size_t{64} << 20;
  Network(const Machine& machine, const Box& box,
          std::size_t cacheBudgetBytes = kDefaultCacheBudget);

  bool routesCached() const { return !routeStart_.empty(); }

  int nodeCount() const { return nodes_; }
  // The kind of network this is (topology.hpp), which answers what depends on the kind.
  const Topology& topology() const { return *topology_; }
  // The network as nodes and links, switches included, where the machine file gives it so (a
  // graph machine: box node i is compute node i of the file); else null.
  const GraphNetwork* graph() const { return topology_->graph(); }
  // Axes of a mesh/torus box; 0 where routes come from a table.
  int axisCount() const { return axes_; }
  // The box routes run on: extents (node ids are X fastest), which axes close into rings, and
  // the order axes are routed in.
  const std::vector<int>& shape() const { return shape_; }
  const std::vector<bool>& wraps() const { return wrap_; }
  const std::vector<int>& routingOrder() const { return order_; }
  // One past the largest link id: the size of a per-link array.
  LinkId linkIdLimit() const { return linkLimit_; }
  int coordinate(int node, int axis) const { return coords_[node * axes_ + axis]; }
  // As the box's coordinatesOf and nodeAt (box-relative coordinates).
  std::vector<int> coordinatesOf(int node) const {
    return {coords_.begin() + node * axes_, coords_.begin() + (node + 1) * axes_};
  }
  int nodeAt(const std::vector<int>& coordinates) const {
    int node = 0;
    for (int a = 0; a < axes_; ++a) node += coordinates[a] * stride_[a];
    return node;
  }

  // Calls visit(LinkId) for each link of the route from node p to node q, in order.
  template <class Visit>
  [[gnu::always_inline]] inline void forEachLink(int p, int q, Visit&& visit) const {
    if (!routeStart_.empty()) {
      const std::size_t pair = static_cast<std::size_t>(p) * nodes_ + q;
      const LinkId* link = routeLinks_.data() + routeStart_[pair];
      const LinkId* end = routeLinks_.data() + routeStart_[pair + 1];
      for (; link != end; ++link) visit(*link);
      return;
    }
    walk(p, q, visit);
  }

  // A link's bandwidth (bytes/s) and latency (s): the machine file's link_bandwidth and
  // hop_latency for every link of a box, the link's own where the routes are a table.
  double bandwidthOf(LinkId link) const {
    return linkBandwidth_.empty() ? bandwidth_ : linkBandwidth_[link];
  }
  double latencyOf(LinkId link) const {
    return linkLatency_.empty() ? latency_ : linkLatency_[link];
  }

  std::vector<LinkId> route(int p, int q) const;
  int hops(int p, int q) const;
  // The most hops any route of the box takes.
  int longestRoute() const { return longest_; }

  // Nodes near `node`, where a search tries a rank next to a partner: slot s of nearbySlots()
  // is a node or -1. On a mesh/torus the one-hop neighbours (slot 2 * axis + 0 the + way,
  // + 1 the - way); on a graph, where compute nodes are rarely adjacent, the kGraphNearby
  // other nodes with the fewest hops from it (ties: the next ids after it, cyclically).
  static constexpr int kGraphNearby = 8;
  int nearbySlots() const { return nearbySlots_; }
  int nearby(int node, int slot) const {
    if (!nearby_.empty()) return nearby_[static_cast<std::size_t>(node) * nearbySlots_ + slot];
    return neighbour(node, slot / 2, slot % 2 == 0);
  }

  // A link's two ends: box nodes on a mesh/torus; on a graph, graph node ids (ids in
  // GraphNetwork::nodes; for a half-duplex link the file's forward direction).
  std::pair<int, int> linkEnds(LinkId link) const { return topology_->linkEnds(*this, link); }
  // Whether link id `link` (below linkIdLimit()) is a link of the network: a box's ids of
  // links past a mesh edge or along an axis of extent 1 are not; a route table's ids all are.
  bool linkExists(LinkId link) const {
    return axes_ == 0 || neighbour(linkSource(link), linkAxis(link), linkIsPlus(link)) >= 0;
  }
  // A link's name in reports and platform files: on a box "<node>:<axis><+|->" with the
  // node named by its box coordinates (coordinatesName: "n0-1-2:X+"), on a graph
  // "sw0->n1", or "sw0<->n1" for a half-duplex link.
  std::string linkName(LinkId link) const { return topology_->linkName(*this, link); }
  // How hosts, links and routes are named and what the links carry, for a SimGrid platform
  // file's header comment (platform.hpp), each line indented as the comment's; `axisNames`
  // are the box's axis names as the file may show them.
  std::string platformNote(const std::vector<std::string>& axisNames) const {
    return topology_->platformNote(*this, axisNames);
  }

  // Why the multilevel search cannot halve this network's box (empty: it is a box, whose
  // extents the search then checks): the text shown to the user.
  std::string whyNotHalvable() const { return topology_->whyNotHalvable(); }

  // What a Topology's build() lays out, one of the two (once, on a Network under
  // construction). A dimension-order walk over the box's coordinates, with the machine's one
  // link bandwidth and latency; routes are cached in one flat table when they fit in
  // `cacheBudgetBytes` (small boxes: the walk's branches cost more than the lookups).
  void layDimensionOrder(const Box& box, const std::vector<int>& routingOrder,
                         std::vector<std::string> axisNames, std::size_t cacheBudgetBytes);
  // A table of routes: the links of route p -> q are links[start[p * n + q] ..
  // start[p * n + q + 1]), each link below `linkLimit` with its own bandwidth and latency.
  // Nearby nodes are the kGraphNearby with the fewest hops (ties: the next ids, cyclically).
  void layRouteTable(LinkId linkLimit, std::vector<std::uint32_t> start, std::vector<LinkId> links,
                     std::vector<double> bandwidth, std::vector<double> latency);
  // A mesh/torus box's axis names (layDimensionOrder), for link names.
  const std::string& axisName(int axis) const { return axisNames_[axis]; }
  // The machine file's link bandwidth and hop latency, the same for every link of a box.
  double uniformBandwidth() const { return bandwidth_; }
  double uniformLatency() const { return latency_; }

  // Mesh/torus only: where a link starts and which way it goes, e.g. for reports: "node 5 X+".
  int linkSource(LinkId link) const { return link / (2 * axes_); }
  int linkAxis(LinkId link) const { return (link / 2) % axes_; }
  bool linkIsPlus(LinkId link) const { return link % 2 == 0; }
  // The node a link leads to.
  int linkTarget(LinkId link) const;
  // The node one hop from `node` along `axis` (+ or - way), or -1 where the box has no link.
  int neighbour(int node, int axis, bool plus) const;

 private:
  template <class Visit>
  [[gnu::always_inline]] inline void walk(int p, int q, Visit&& visit) const;
  void buildCache(std::size_t budgetBytes);

  // Signed number of steps along `axis` from coordinate c to t (negative: the - way).
  int leg(int axis, int c, int t) const { return legs_[legStart_[axis] + c * shape_[axis] + t]; }

  int axes_ = 0;
  int nodes_ = 0;
  LinkId linkLimit_ = 0;
  int nearbySlots_ = 0;
  int longest_ = 0;          // the longest route's hops
  std::vector<int> nearby_;  // route table: node * nearbySlots_ + slot
  std::vector<int> shape_, stride_, order_;
  std::vector<bool> wrap_;
  double bandwidth_ = 0, latency_ = 0;  // a box's links (route tables: per link, below)
  std::vector<int> coords_;             // node * axes + axis
  // Per axis a size x size table of leg(); computed once so the hot path has no division.
  std::vector<int> legStart_;
  std::vector<std::int16_t> legs_;
  // Route cache: links of route p -> q are routeLinks_[routeStart_[p*n+q] .. routeStart_[p*n+q+1]).
  std::vector<std::uint32_t> routeStart_;
  std::vector<LinkId> routeLinks_;
  // Cold: only for reports (linkName) and route tables' links. Last, so that the hot members
  // keep their places.
  std::vector<std::string> axisNames_;  // a box's
  std::vector<double> linkBandwidth_, linkLatency_;
  std::shared_ptr<const Topology> topology_;
};

template <class Visit>
void Network::walk(int p, int q, Visit&& visit) const {
  // Locals, so that the callback's integer stores cannot force these to be reloaded.
  const int axes = axes_;
  const int* coords = coords_.data();
  const int* from = coords + p * axes;
  const int* target = coords + q * axes;
  int current = p;
  for (int axis : order_) {
    int c = from[axis];
    const int t = target[axis];
    if (c == t) continue;
    const int signedSteps = leg(axis, c, t);
    const int direction = signedSteps > 0 ? 1 : -1;
    const int steps = signedSteps > 0 ? signedSteps : -signedSteps;
    const int size = shape_[axis], stride = stride_[axis];
    const LinkId base = 2 * axis + (direction > 0 ? 0 : 1);
    for (int s = 0; s < steps; ++s) {
      visit(static_cast<LinkId>(current) * 2 * axes + base);
      c += direction;
      if (c == size) {
        c = 0;
        current -= (size - 1) * stride;
      } else if (c < 0) {
        c = size - 1;
        current += (size - 1) * stride;
      } else {
        current += direction * stride;
      }
    }
  }
}

inline int Network::hops(int p, int q) const {
  if (!routeStart_.empty()) {
    const std::size_t pair = static_cast<std::size_t>(p) * nodes_ + q;
    return static_cast<int>(routeStart_[pair + 1] - routeStart_[pair]);
  }
  int total = 0;
  for (int axis = 0; axis < axes_; ++axis) {
    const int steps = leg(axis, coords_[p * axes_ + axis], coords_[q * axes_ + axis]);
    total += steps >= 0 ? steps : -steps;
  }
  return total;
}

}  // namespace tac3map
