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
  // The uncontended time src -> dst, for the lower bound.
  const auto alone = [&](int src, int dst) {
    const BroadcastNetwork::Path& path = network.path(src, dst);
    return path.latency + bytes / path.bandwidth;
  };
  const auto lowerBound = [&] {
    double bound = state.makespan();
    for (int r = 0; r < n; ++r) {
      if (state.holds(r)) continue;
      double soonest = std::numeric_limits<double>::infinity();
      for (int s = 0; s < n; ++s)
        if (state.holds(s))
          soonest =
              std::min(soonest, std::max(state.heldSince(s), state.lastStart()) + alone(s, r));
      bound = std::max(bound, soonest);
    }
    return bound;
  };
  std::function<void()> search = [&] {
    if (cut) return;
    if (++visited % 1024 == 0 && timeLimit > 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count() >
            timeLimit) {
      cut = true;
      return;
    }
    if (state.holders() == n) {
      if (state.makespan() < best.time - tolerance(best.time)) {
        best.time = state.makespan();
        best.transfers = state.transfers();
      }
      return;
    }
    if (useBound && lowerBound() >= best.time - tolerance(best.time)) return;
    // A state met before (the same transfers at the same times, reached in another order)
    // was searched then, against a best time no better than now's: nothing new below it.
    if (seen.size() < kMaxSeenStates && !seen.insert(state.fingerprint()).second) return;
    // Every holder to every participant without the message: soonest start first, then the
    // farther receiver (it needs the longest), then rank order.
    std::vector<Transfer> moves;
    if (useIsomorphism) symmetry.prepare(state);
    for (int s = 0; s < n; ++s) {
      if (!state.holds(s)) continue;
      for (int r = 0; r < n; ++r)
        if (!state.holds(r) && (!useIsomorphism || symmetry.allowed(s, r))) {
          const Transfer t = state.plan(s, r);
          if (t.end < best.time - tolerance(best.time)) moves.push_back(t);
        }
    }
    std::sort(moves.begin(), moves.end(), [&](const Transfer& a, const Transfer& b) {
      if (std::abs(a.start - b.start) > tolerance(a.start)) return a.start < b.start;
      const double da = alone(a.src, a.dst), db = alone(b.src, b.dst);
      if (da != db) return da > db;
      return a.src != b.src ? a.src < b.src : a.dst < b.dst;
    });
    for (const Transfer& t : moves) {
      state.add(t);
      search();
      state.undo();
    }
  };
  search();
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
