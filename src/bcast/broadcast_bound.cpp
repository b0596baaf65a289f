// BroadcastBound (bcast/broadcast.hpp): the lower bound the optimal search prunes with.
#include <algorithm>
#include <limits>

#include "tac3map/bcast/broadcast.hpp"

namespace tac3map {

BroadcastBound::BroadcastBound(const BroadcastNetwork& network, double bytes)
    : network_(network), bytes_(bytes), ready_(static_cast<std::size_t>(network.participants())) {
  const GraphNetwork& net = network.graph();
  const int n = network.participants();
  std::vector<std::vector<int>> out(net.nodes.size());  // arcs leaving each node
  for (std::size_t a = 0; a < net.arcs.size(); ++a)
    out[net.arcs[a].from].push_back(static_cast<int>(a));
  const auto alone = [&](int s, int r) {
    const BroadcastNetwork::Path& path = network.path(s, r);
    return path.latency + bytes / path.bandwidth;
  };
  std::vector<double> up(net.nodes.size()), down(net.nodes.size());
  std::vector<int> from(net.nodes.size());
  for (std::size_t y = 0; y < net.nodes.size(); ++y) {
    if (network.participantAt(static_cast<int>(y)) >= 0) continue;
    Relay relay;
    for (int arc : out[y]) {
      // The subtree behind arc y -> z: each member's latency to y and from y.
      const GraphArc &d = net.arcs[arc], &u = net.arcs[arc ^ 1];
      Branch b;
      std::vector<int> queue{d.to};
      from[d.to] = arc;
      up[d.to] = u.latency;
      down[d.to] = d.latency;
      for (std::size_t k = 0; k < queue.size(); ++k) {
        const int v = queue[k];
        if (network.participantAt(v) >= 0)
          b.members.push_back({network.participantAt(v), up[v], down[v]});
        for (int next : out[v]) {
          if (next == (from[v] ^ 1)) continue;
          const int c = net.arcs[next].to;
          from[c] = next;
          up[c] = up[v] + net.arcs[next ^ 1].latency;
          down[c] = down[v] + net.arcs[next].latency;
          queue.push_back(c);
        }
      }
      if (b.members.empty()) continue;
      b.upTransfer = bytes / u.bandwidth;
      b.upWork = bytes / network.capacity(u.capacity);
      b.upCapacity = u.capacity;
      b.toY = b.fromY = std::numeric_limits<double>::infinity();
      double inside = std::numeric_limits<double>::infinity();   // fastest transfer inside
      double slowest = std::numeric_limits<double>::infinity();  // into it, from outside
      double latest = 0;                                         // the latencies from y
      std::vector<bool> member(static_cast<std::size_t>(n), false);
      for (const Member& m : b.members) {
        b.toY = std::min(b.toY, m.up);
        b.fromY = std::min(b.fromY, m.down);
        latest = std::max(latest, m.down);
        member[m.participant] = true;
      }
      for (const Member& m : b.members)
        for (int s = 0; s < n; ++s)
          if (!member[s])
            slowest = std::min(slowest, network.path(s, m.participant).bandwidth);
          else if (s != m.participant)
            inside = std::min(inside, alone(s, m.participant));
      // After its first member holds, a second one gets the message from inside (a transfer
      // from a member, all of which hold it no sooner) or through y -> z; two transfers that
      // cannot share that link (their rates add up past its capacity) follow each other
      // there, so the second ends at least D / bandwidth later, less the spread of latencies
      // from y.
      if (b.members.size() > 1) {
        double second = 0;
        if (2 * slowest > network.capacity(d.capacity) * (1 + 1e-8))
          second = bytes / d.bandwidth - (latest - b.fromY);
        b.tail = std::max(0.0, std::min(inside, second));
      }
      relay.branches.push_back(std::move(b));
    }
    if (relay.branches.size() >= 2) relays_.push_back(std::move(relay));
  }
}

void BroadcastBound::readyTimes(const BroadcastState& state, std::vector<double>& ready) const {
  // Holders: when they may start (the chronological rule's floor); the others: when they may
  // hold it at best (uncontended from the holder that could start soonest; a relay through
  // a third participant is never faster on a tree).
  const int n = network_.participants();
  for (int s = 0; s < n; ++s)
    ready[s] = state.holds(s) ? std::max(state.heldSince(s), state.lastStart())
                              : std::numeric_limits<double>::infinity();
  for (int r = 0; r < n; ++r) {
    if (state.holds(r)) continue;
    for (int s = 0; s < n; ++s)
      if (state.holds(s)) {
        const BroadcastNetwork::Path& path = network_.path(s, r);
        ready[r] = std::min(ready[r], ready[s] + path.latency + bytes_ / path.bandwidth);
      }
  }
}

double BroadcastBound::perReceiver(const BroadcastState& state) const {
  readyTimes(state, ready_);
  double bound = state.makespan();
  for (int r = 0; r < network_.participants(); ++r)
    if (!state.holds(r)) bound = std::max(bound, ready_[r]);
  return bound;
}

double BroadcastBound::operator()(const BroadcastState& state) const {
  double bound = perReceiver(state);
  for (const Relay& relay : relays_) bound = std::max(bound, subtreeBound(relay, state));
  return bound;
}

double BroadcastBound::portEnd(const Port& port, const BroadcastState& state) const {
  // k transfers out of the port, each D = rate x time on its link, all reserved after open:
  // the k-th ends no sooner than when the capacity left over by what is reserved already
  // adds up to k * D (and than one transfer's least time).
  double end = port.open + port.k * port.work;
  if (port.capacity >= 0) {
    const auto& reserved = state.reservations(port.capacity);
    const double capacity = network_.capacity(port.capacity);
    double need = port.k * port.work * capacity, at = port.open;
    std::vector<double>& edges = edges_;
    edges.clear();
    for (const BroadcastState::Reservation& r : reserved) {
      if (r.end <= at) continue;
      if (r.start > at) edges.push_back(r.start);
      edges.push_back(r.end);
    }
    if (!edges.empty()) {
      std::sort(edges.begin(), edges.end());
      end = -1;
      for (double edge : edges) {
        if (edge <= at) continue;
        double used = 0;
        const double middle = 0.5 * (at + edge);
        for (const BroadcastState::Reservation& r : reserved)
          if (r.start <= middle && middle < r.end) used += r.rate;
        const double free = std::max(0.0, capacity - used);
        if (free * (edge - at) >= need) {
          end = at + need / free;
          break;
        }
        need -= free * (edge - at);
        at = edge;
      }
      if (end < 0) end = at + need / capacity;
    }
  }
  return std::max(end, port.open + port.transfer);
}

double BroadcastBound::subtreeBound(const Relay& relay, const BroadcastState& state) const {
  // A port: the link up to y of a subtree; its k-th transfer out (counted by when its
  // reservation on that link ends) ends there no sooner than open + max(k * work, transfer),
  // and its receiver, in a subtree that holds nothing yet, holds the message fromY later.
  std::vector<Port>& ports = ports_;
  ports.clear();
  int missing = 0;  // subtrees that hold nothing yet
  const double infinity = std::numeric_limits<double>::infinity();
  double toY = infinity, fromY = infinity, tail = infinity;
  double work = infinity, transfer = infinity;  // the fastest port among those subtrees
  for (const Branch& b : relay.branches) {
    bool holds = false;
    double open = infinity;
    for (const Member& m : b.members) {
      holds = holds || state.holds(m.participant);
      open = std::min(open, ready_[m.participant] + m.up);
    }
    if (holds) {
      ports.push_back({open, b.upWork, b.upTransfer, 1, b.upCapacity});
      continue;
    }
    ++missing;
    toY = std::min(toY, b.toY);
    fromY = std::min(fromY, b.fromY);
    tail = std::min(tail, b.tail);
    work = std::min(work, b.upWork);
    transfer = std::min(transfer, b.upTransfer);
  }
  if (missing == 0 || ports.empty()) return 0;
  // Reach the missing subtrees one by one, each as soon as any port could: a subtree reached
  // at t opens a port of its own at t + toY (the fastest such port, to stay a lower bound).
  const auto next = [&](const Port& p) { return portEnd(p, state) + fromY; };
  double reached = 0;
  for (int m = 0; m < missing; ++m) {
    std::size_t first = 0;
    for (std::size_t p = 1; p < ports.size(); ++p)
      if (next(ports[p]) < next(ports[first])) first = p;
    reached = next(ports[first]);
    ++ports[first].k;
    ports.push_back({reached + toY, work, transfer, 1, -1});
  }
  // Less a rounding error's worth: the search treats times within tolerance() as equal.
  const double bound = reached + tail;
  return bound - 1e-12 * bound;
}

}  // namespace tac3map
