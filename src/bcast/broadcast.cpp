// Broadcast schedules on tree networks (bcast/broadcast.hpp): the model (the tree and the
// state a schedule builds up) and a schedule as a trace. The schedules are in
// simple_schedules.cpp (flat, binomial) and broadcast_search.cpp (optimal), the search's
// lower bound in broadcast_bound.cpp.
#include "tac3map/bcast/broadcast.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <numeric>

#include "broadcast_support.hpp"
#include "tac3map/io/error.hpp"

namespace tac3map {
namespace {

int findRoot(std::vector<int>& parent, int v) {
  while (parent[v] != v) v = parent[v] = parent[parent[v]];
  return v;
}

}  // namespace

namespace {

const GraphNetwork& treeOf(const Machine& machine) {
  const GraphNetwork* graph = machine.topology->graph();
  if (graph == nullptr)
    failIn(machine.source, std::string("bcast needs a tree network: a ") +
                               machine.topology->kind() +
                               " machine is not one (a machine file of kind \"graph\" whose "
                               "links form a tree is)");
  return *graph;
}

}  // namespace

BroadcastNetwork::BroadcastNetwork(const Machine& machine,
                                   const std::vector<std::string>& participants)
    : BroadcastNetwork(treeOf(machine), participants) {}

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
    const std::string setting = settingName("participants");
    for (const std::string& name : participants) {
      const int id = net.nodeId(name);
      if (id < 0) failIn(net.source, setting + ": no node '" + name + "'");
      if (computeIndex[id] < 0)
        failIn(net.source, setting + ": '" + name + "' is a relay-only node");
      if (std::find(node_.begin(), node_.end(), id) != node_.end())
        failIn(net.source, setting + ": '" + name + "' twice");
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
