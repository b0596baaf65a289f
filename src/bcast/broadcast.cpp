// Broadcast schedules on tree networks (bcast/broadcast.hpp): the model's state, and the
// flat, binomial and optimal (branch and bound) schedules.
#include "tac3map/bcast/broadcast.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <tuple>
#include <unordered_set>

#include "tac3map/io/error.hpp"

namespace tac3map {
namespace {

// States the optimal search remembers (16 bytes each, about 130 MiB with the set's overhead);
// past it, new states are not remembered (the search stays exact, only slower).
constexpr std::size_t kMaxSeenStates = std::size_t{1} << 21;

// Times are sums of latencies and quotients; compare them with a relative tolerance.
double tolerance(double t) {
  return 1e-12 + 1e-9 * std::abs(t);
}

int findRoot(std::vector<int>& parent, int v) {
  while (parent[v] != v) v = parent[v] = parent[parent[v]];
  return v;
}

}  // namespace

BroadcastNetwork::BroadcastNetwork(const GraphNetwork& net,
                                   const std::vector<std::string>& participants)
    : net_(net) {
  // A tree: n - 1 links joining every node.
  const std::size_t n = net.nodes.size(), links = net.arcs.size() / 2;
  std::vector<int> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  std::size_t joined = 0;
  for (std::size_t l = 0; l < links; ++l) {
    const int a = findRoot(parent, net.arcs[2 * l].from), b = findRoot(parent, net.arcs[2 * l].to);
    if (a != b) parent[a] = b, ++joined;
  }
  if (links != n - 1 || joined != n - 1)
    failIn(net.source, "bcast needs a tree network: " + std::to_string(n) + " nodes and " +
                           std::to_string(links) + " links (a tree has one link fewer than " +
                           "nodes, and joins them all)");
  std::vector<int> computeIndex(n, -1);
  for (int i = 0; i < net.computeCount(); ++i) computeIndex[net.compute[i]] = i;
  if (participants.empty()) {
    node_ = net.compute;
  } else {
    for (const std::string& name : participants) {
      const int id = net.nodeId(name);
      if (id < 0) failIn(net.source, "--participants: no node '" + name + "'");
      if (computeIndex[id] < 0)
        failIn(net.source, "--participants: '" + name + "' is a relay-only node");
      if (std::find(node_.begin(), node_.end(), id) != node_.end())
        failIn(net.source, "--participants: '" + name + "' twice");
      node_.push_back(id);
    }
  }
  if (node_.size() < 2) failIn(net.source, "bcast needs at least two participants");
  // The tree rooted at node 0, breadth first.
  children_.resize(n);
  participantOf_.assign(n, -1);
  for (std::size_t p = 0; p < node_.size(); ++p) participantOf_[node_[p]] = static_cast<int>(p);
  std::vector<bool> seen(n, false);
  order_.push_back(0);
  seen[0] = true;
  for (std::size_t k = 0; k < order_.size(); ++k) {
    const int v = order_[k];
    for (std::size_t a = 0; a < net.arcs.size(); ++a)
      if (net.arcs[a].from == v && !seen[net.arcs[a].to]) {
        const int c = net.arcs[a].to;
        seen[c] = true;
        order_.push_back(c);
        children_[v].push_back({c, static_cast<int>(a), static_cast<int>(a ^ 1)});
      }
  }
  capacity_.assign(static_cast<std::size_t>(net.capacities), 0);
  for (const GraphArc& arc : net.arcs) capacity_[arc.capacity] = arc.bandwidth;
  const int p = static_cast<int>(node_.size());
  paths_.resize(static_cast<std::size_t>(p) * p);
  for (int a = 0; a < p; ++a)
    for (int b = 0; b < p; ++b) {
      Path& path = paths_[a * p + b];
      const int i = computeIndex[node_[a]], j = computeIndex[node_[b]];
      path.bandwidth = std::numeric_limits<double>::infinity();
      for (const int* arc = net.routeBegin(i, j); arc != net.routeEnd(i, j); ++arc) {
        path.latency += net.arcs[*arc].latency;
        path.capacities.push_back(net.arcs[*arc].capacity);
        path.offsets.push_back(path.latency);
        path.bandwidth = std::min(path.bandwidth, net.arcs[*arc].bandwidth);
      }
    }
}

int BroadcastNetwork::indexOf(const std::string& wanted) const {
  for (int p = 0; p < participants(); ++p)
    if (name(p) == wanted) return p;
  return -1;
}

BroadcastState::BroadcastState(const BroadcastNetwork& network, int root, double bytes)
    : network_(network),
      bytes_(bytes),
      hold_(static_cast<std::size_t>(network.participants()), -1.0),
      reserved_(static_cast<std::size_t>(network.capacities())) {
  hold_[root] = 0;
}

bool BroadcastState::fits(const BroadcastNetwork::Path& path, double start, double duration,
                          double rate) const {
  for (std::size_t i = 0; i < path.capacities.size(); ++i) {
    const double from = start + path.offsets[i], to = from + duration;
    const std::vector<Reservation>& list = reserved_[path.capacities[i]];
    const double limit = network_.capacity(path.capacities[i]);
    // The reserved rate is piecewise constant: look where the window opens and wherever a
    // reservation opens inside it.
    const auto usageAt = [&](double t) {
      double used = 0;
      for (const Reservation& r : list)
        if (r.start <= t + tolerance(t) && t < r.end - tolerance(r.end)) used += r.rate;
      return used;
    };
    if (usageAt(from) + rate > limit * (1 + 1e-9)) return false;
    for (const Reservation& r : list)
      if (r.start > from + tolerance(from) && r.start < to - tolerance(to) &&
          usageAt(r.start) + rate > limit * (1 + 1e-9))
        return false;
  }
  return true;
}

bool BroadcastState::reservedAfter(int capacity, double t) const {
  for (const Reservation& r : reserved_[capacity])
    if (r.end > t + tolerance(t)) return true;
  return false;
}

Transfer BroadcastState::plan(int src, int dst) const {
  const BroadcastNetwork::Path& path = network_.path(src, dst);
  const double duration = bytes_ / path.bandwidth;
  const double earliest = std::max(hold_[src], lastStart_);
  // The earliest fit is the earliest start itself or a moment a reservation on the path ends
  // (seen from that arc's offset); the last of these always fits.
  std::vector<double>& candidates = candidates_;  // scratch: plan() runs once per search move
  candidates.assign(1, earliest);
  for (std::size_t i = 0; i < path.capacities.size(); ++i)
    for (const Reservation& r : reserved_[path.capacities[i]])
      if (r.end - path.offsets[i] > earliest) candidates.push_back(r.end - path.offsets[i]);
  std::sort(candidates.begin(), candidates.end());
  double start = candidates.back();
  for (double t : candidates)
    if (fits(path, t, duration, path.bandwidth)) {
      start = t;
      break;
    }
  return {src, dst, start, start + path.latency + duration};
}

void BroadcastState::add(const Transfer& t) {
  const BroadcastNetwork::Path& path = network_.path(t.src, t.dst);
  const double duration = bytes_ / path.bandwidth;
  for (std::size_t i = 0; i < path.capacities.size(); ++i)
    reserved_[path.capacities[i]].push_back(
        {t.start + path.offsets[i], t.start + path.offsets[i] + duration, path.bandwidth});
  hold_[t.dst] = t.end;
  ++holders_;
  makespans_.push_back(makespan_);
  makespans_.push_back(lastStart_);
  makespan_ = std::max(makespan_, t.end);
  lastStart_ = t.start;
  done_.push_back(t);
  const Fingerprint f = fingerprintOf(t);
  sum_.first ^= f.first;
  sum_.second ^= f.second;
}

namespace {

std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

std::uint64_t bitsOf(double t) {
  std::uint64_t bits;
  std::memcpy(&bits, &t, sizeof bits);
  return bits;
}

}  // namespace

BroadcastState::Fingerprint BroadcastState::fingerprintOf(const Transfer& t) {
  const std::uint64_t key = mix(bitsOf(t.start) ^ mix((static_cast<std::uint64_t>(t.src) << 32) |
                                                      static_cast<std::uint32_t>(t.dst)));
  return {mix(key ^ 0x5bd1e995ull), mix(key + 0x27d4eb2f165667c5ull)};
}

BroadcastState::Fingerprint BroadcastState::fingerprint() const {
  // Transfers in any order (XOR), then the last start (the chronological rule's floor).
  return {sum_.first ^ mix(bitsOf(lastStart_)), sum_.second ^ mix(bitsOf(lastStart_) + 1)};
}

void BroadcastState::undo() {
  const Transfer t = done_.back();
  done_.pop_back();
  const Fingerprint f = fingerprintOf(t);
  sum_.first ^= f.first;
  sum_.second ^= f.second;
  for (int c : network_.path(t.src, t.dst).capacities) reserved_[c].pop_back();
  hold_[t.dst] = -1;
  --holders_;
  lastStart_ = makespans_.back();
  makespans_.pop_back();
  makespan_ = makespans_.back();
  makespans_.pop_back();
}

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

namespace {

BroadcastSchedule finish(const BroadcastState& state, int root, double bytes) {
  BroadcastSchedule s;
  s.root = root;
  s.bytes = bytes;
  s.time = state.makespan();
  s.transfers = state.transfers();
  return s;
}

}  // namespace

BroadcastSchedule flatBroadcast(const BroadcastNetwork& network, int root, double bytes) {
  BroadcastState state(network, root, bytes);
  for (int p = 0; p < network.participants(); ++p)
    if (p != root) state.add(state.plan(root, p));
  return finish(state, root, bytes);
}

BroadcastSchedule binomialBroadcast(const BroadcastNetwork& network, int root, double bytes) {
  const int n = network.participants();
  // Children of each relative rank, largest subtree first (MPICH's MPIR_Bcast_binomial).
  std::vector<std::vector<int>> children(n);
  for (int r = 0; r < n; ++r) {
    int lowbit = 1;
    while (lowbit < n && !(r & lowbit)) lowbit <<= 1;
    for (int mask = lowbit >> 1; mask >= 1; mask >>= 1)
      if (r + mask < n) children[r].push_back(r + mask);
  }
  const auto rank = [&](int relative) { return (relative + root) % n; };
  BroadcastState state(network, root, bytes);
  std::vector<std::size_t> next(n, 0);
  // Among the holders' next transfers, the one that can start first (then the lower rank).
  while (state.holders() < n) {
    Transfer best{};
    bool found = false;
    for (int r = 0; r < n; ++r) {
      if (!state.holds(rank(r)) || next[r] == children[r].size()) continue;
      const Transfer t = state.plan(rank(r), rank(children[r][next[r]]));
      if (!found || t.start < best.start - tolerance(best.start)) best = t, found = true;
    }
    state.add(best);
    ++next[(best.src - root + n) % n];
  }
  return finish(state, root, bytes);
}

namespace {

// The cut by subtree isomorphism (the paper's receiver- and sender-side cuts, in one rule).
// A subtree is settled when nothing in it can still change how it behaves later: every
// holder in it holds the message since before the last start (so it may send at the same
// moments as any other such holder), and no link in it or to its parent is reserved past the
// last start (no transfer can start earlier than that). Settled subtrees are labelled
// bottom-up (participant or not, holder or not, children's labels with the bandwidths and
// latencies of their links both ways and the duplex kind); an unsettled one gets a label of
// its own. At every node, children with equal labels and links form a group: permuting them
// maps the state onto itself. So a transfer is tried only in its group-canonical form: the
// sender in the group's first member (or outside it), the receiver in the first member, or in
// the second when the sender is in the first.
class SymmetryCut {
 public:
  explicit SymmetryCut(const BroadcastNetwork& network)
      : network_(network),
        label_(network.graph().nodes.size()),
        member_(network.graph().nodes.size()) {}

  void prepare(const BroadcastState& state) {
    const auto& arcs = network_.graph().arcs;
    const double floor = state.lastStart();
    const auto key = [&](const BroadcastNetwork::Child& c) {
      const GraphArc &down = arcs[c.down], &up = arcs[c.up];
      return std::make_tuple(label_[c.node], down.bandwidth, down.latency, up.bandwidth, up.latency,
                             down.capacity == up.capacity);
    };
    const std::vector<int>& order = network_.order();
    for (std::size_t k = order.size(); k-- > 0;) {
      const int v = order[k];
      const int p = network_.participantAt(v);
      bool settled = !(p >= 0 && state.holds(p) && state.heldSince(p) > floor + tolerance(floor));
      std::vector<std::tuple<int, double, double, double, double, bool>> parts;
      for (const auto& c : network_.children(v)) {
        // A child whose link to v is still reserved (a holder sending through it, say) is
        // not interchangeable with its siblings: it and v are unsettled.
        if (state.reservedAfter(arcs[c.down].capacity, floor) ||
            state.reservedAfter(arcs[c.up].capacity, floor))
          label_[c.node] = -1 - c.node;
        settled = settled && label_[c.node] >= 0;
        parts.push_back(key(c));
      }
      if (!settled) {
        label_[v] = -1 - v;
        continue;
      }
      std::sort(parts.begin(), parts.end());
      const int kind = (p >= 0 ? 1 : 0) + (p >= 0 && state.holds(p) ? 2 : 0);
      label_[v] = labels_.emplace(std::make_pair(kind, parts), static_cast<int>(labels_.size()))
                      .first->second;
    }
    // Top down: each node's (group, member index) list, extended at every group it enters.
    int groups = 0;
    member_[order.front()].clear();
    for (int v : order) {
      const auto& children = network_.children(v);
      std::vector<int> groupOf(children.size(), -1), indexOf(children.size(), 0);
      for (std::size_t i = 0; i < children.size(); ++i) {
        if (label_[children[i].node] < 0) continue;
        for (std::size_t j = 0; j < i && groupOf[i] < 0; ++j)
          if (key(children[j]) == key(children[i])) {
            if (groupOf[j] < 0) groupOf[j] = groups++;
            groupOf[i] = groupOf[j];
            for (std::size_t m = 0; m < i; ++m) indexOf[i] += groupOf[m] == groupOf[i];
          }
      }
      for (std::size_t i = 0; i < children.size(); ++i) {
        member_[children[i].node] = member_[v];
        if (groupOf[i] >= 0) member_[children[i].node].push_back({groupOf[i], indexOf[i]});
      }
    }
  }

  // Whether src -> dst is in canonical form for every group.
  bool allowed(int src, int dst) const {
    const auto& a = member_[network_.nodeOf(src)];
    const auto& b = member_[network_.nodeOf(dst)];
    const auto indexIn = [](const std::vector<std::pair<int, int>>& list, int group) {
      for (const auto& [g, i] : list)
        if (g == group) return i;
      return -1;
    };
    for (const auto& [g, i] : a)
      if (i > 0) return false;  // the sender in a later member
    for (const auto& [g, j] : b) {
      const int i = indexIn(a, g);
      if (i < 0 ? j > 0 : j > 1) return false;
    }
    return true;
  }

 private:
  const BroadcastNetwork& network_;
  std::vector<int> label_;
  std::vector<std::vector<std::pair<int, int>>> member_;  // per node: (group, member index)
  std::map<std::pair<int, std::vector<std::tuple<int, double, double, double, double, bool>>>, int>
      labels_;
};

}  // namespace

BroadcastSchedule optimalBroadcast(const BroadcastNetwork& network, int root, double bytes,
                                   bool useBound, double timeLimit, bool useIsomorphism) {
  const auto began = std::chrono::steady_clock::now();
  const int n = network.participants();
  // Start from the better of the two rank-order schedules: the search must beat it.
  BroadcastSchedule best = flatBroadcast(network, root, bytes);
  const BroadcastSchedule binomial = binomialBroadcast(network, root, bytes);
  if (binomial.time < best.time) best = binomial;
  BroadcastState state(network, root, bytes);
  SymmetryCut symmetry(network);
  std::uint64_t visited = 0;
  std::unordered_set<BroadcastState::Fingerprint, BroadcastState::FingerprintHash> seen;
  bool cut = false;
  const BroadcastBound bound(network, bytes);
  const auto alone = [&](int src, int dst) {
    const BroadcastNetwork::Path& path = network.path(src, dst);
    return path.latency + bytes / path.bandwidth;
  };
  const auto worse = [&](double t) { return t >= best.time - tolerance(best.time); };
  struct Move {
    Transfer t;
    double bound;
  };
  // lowerBound: the bound of the current state (0 without the bound).
  std::function<void(double)> search = [&](double lowerBound) {
    if (cut) return;
    if (++visited % 1024 == 0 && timeLimit > 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count() >
            timeLimit) {
      cut = true;
      return;
    }
    if (state.holders() == n) {
      if (!worse(state.makespan())) {
        best.time = state.makespan();
        best.transfers = state.transfers();
      }
      return;
    }
    if (worse(lowerBound)) return;
    // A state met before (the same transfers at the same times, reached in another order)
    // was searched then, against a best time no better than now's: nothing new below it.
    if (seen.size() < kMaxSeenStates && !seen.insert(state.fingerprint()).second) return;
    // Every holder to every participant without the message, each with the bound of the
    // state it leads to: the lowest bound first (the move that promises most), then the
    // soonest start, the farther receiver (it needs the longest), rank order.
    std::vector<Move> moves;
    if (useIsomorphism) symmetry.prepare(state);
    for (int s = 0; s < n; ++s) {
      if (!state.holds(s)) continue;
      for (int r = 0; r < n; ++r)
        if (!state.holds(r) && (!useIsomorphism || symmetry.allowed(s, r))) {
          const Transfer t = state.plan(s, r);
          if (worse(t.end)) continue;
          double b = 0;
          if (useBound) {
            state.add(t);
            // A bound of a state bounds every state below it too: keep the larger.
            b = std::max(lowerBound, bound(state));
            state.undo();
            if (worse(b)) continue;
          }
          moves.push_back({t, b});
        }
    }
    std::stable_sort(moves.begin(), moves.end(), [&](const Move& x, const Move& y) {
      const Transfer &a = x.t, &b = y.t;
      if (std::abs(x.bound - y.bound) > tolerance(x.bound)) return x.bound < y.bound;
      if (std::abs(a.start - b.start) > tolerance(a.start)) return a.start < b.start;
      const double da = alone(a.src, a.dst), db = alone(b.src, b.dst);
      if (da != db) return da > db;
      return a.src != b.src ? a.src < b.src : a.dst < b.dst;
    });
    for (const Move& m : moves) {
      state.add(m.t);
      search(m.bound);
      state.undo();
    }
  };
  search(useBound ? bound(state) : 0);
  best.optimal = !cut;
  best.searchNodes = visited;
  best.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  return best;
}

std::string broadcastTrace(const BroadcastNetwork& network, const BroadcastSchedule& schedule) {
  const int n = network.participants();
  std::vector<std::string> lines(n);
  for (const Transfer& t : schedule.transfers)
    lines[t.dst] += std::to_string(t.dst) + " irecv " + std::to_string(t.src) + " " +
                    std::to_string(static_cast<std::uint64_t>(schedule.bytes)) + " 0 r\n" +
                    std::to_string(t.dst) + " wait r\n";
  int request = 0;
  for (const Transfer& t : schedule.transfers)
    lines[t.src] += std::to_string(t.src) + " isend " + std::to_string(t.dst) + " " +
                    std::to_string(static_cast<std::uint64_t>(schedule.bytes)) + " 0 s" +
                    std::to_string(request++) + "\n";
  std::string trace = "tac3map-trace 1\n# broadcast from " + network.name(schedule.root) +
                      " (rank " + std::to_string(schedule.root) + "), ranks in participant order:";
  for (int p = 0; p < n; ++p) trace += " " + network.name(p);
  trace += "\nranks " + std::to_string(n) + "\n";
  for (int p = 0; p < n; ++p) trace += lines[p] + std::to_string(p) + " waitall\n";
  return trace;
}

}  // namespace tac3map
