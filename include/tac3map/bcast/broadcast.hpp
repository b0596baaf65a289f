// Broadcast schedules on tree networks (`tac3map bcast`; Hourai et al., the seed paper
// `optimal-broadcast-tree-networks`, section 2's model; docs/bcast.md).
//
// The network is a tree: a machine whose topology gives its nodes and links as a graph
// (network/topology.hpp; machine files of kind "graph"). Participants (default: the compute
// nodes, in file order = rank order) may hold the message; every other node only relays. A
// transfer goes from a holder to a participant that does not hold the message yet; a
// receiver forwards only once it holds all of it; a node may send to several at once. A
// transfer of D bytes over arcs (b_1, d_1) .. (b_n, d_n) runs at b = min b_i; arc i's
// capacity is reserved at rate b over [start + d_1 + .. + d_i, that + D/b); a transfer
// starts at the earliest time at or after its sender holds the message at which every
// reservation fits under its capacity (intervals half-open, times compared with a relative
// tolerance), and never before the previous transfer's start (the paper's chronological
// rule). The receiver holds the message at start + sum d_i + D/b.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tac3map/network/graph_network.hpp"
#include "tac3map/network/machine.hpp"

namespace tac3map {

struct Transfer {
  int src = 0, dst = 0;  // participant indices (rank order)
  double start = 0, end = 0;
};

struct BroadcastSchedule {
  int root = 0;
  double bytes = 0;
  double time = 0;       // when the last participant holds the message
  bool optimal = false;  // the search proved it minimal (optimal algorithm, not cut short)
  std::uint64_t searchNodes = 0;
  double seconds = 0;
  std::vector<Transfer> transfers;  // in start order
};

// The tree and its participants, with each ordered pair's path parameters precomputed.
class BroadcastNetwork {
 public:
  // InputError (naming the file) when the network is not a tree or a participant is unknown.
  BroadcastNetwork(const GraphNetwork& net, const std::vector<std::string>& participants);
  // The machine's network as nodes and links (Topology::graph); InputError where the machine
  // gives none (a mesh/torus). The machine must outlive this.
  BroadcastNetwork(const Machine& machine, const std::vector<std::string>& participants);
  BroadcastNetwork(Machine&&, const std::vector<std::string>&) = delete;  // it would dangle

  int participants() const { return static_cast<int>(node_.size()); }
  const std::string& name(int p) const { return net_.nodes[node_[p]].name; }
  int indexOf(const std::string& name) const;  // -1 if not a participant

  struct Path {
    std::vector<int> capacities;  // per arc
    std::vector<double> offsets;  // per arc: sum of latencies up to and including it
    double bandwidth = 0;         // min over arcs
    double latency = 0;           // sum over arcs
  };
  const Path& path(int from, int to) const { return paths_[from * participants() + to]; }
  double capacity(int c) const { return capacity_[c]; }
  // The tree rooted at node 0: per node its children with the arc down to each and back,
  // nodes in breadth-first order (parents first), and each node's participant index (-1).
  struct Child {
    int node, down, up;
  };
  const std::vector<Child>& children(int node) const { return children_[node]; }
  const std::vector<int>& order() const { return order_; }
  int participantAt(int node) const { return participantOf_[node]; }
  int nodeOf(int p) const { return node_[p]; }
  int capacities() const { return static_cast<int>(capacity_.size()); }
  const GraphNetwork& graph() const { return net_; }

 private:
  const GraphNetwork& net_;
  std::vector<int> node_;  // per participant: its node id
  std::vector<Path> paths_;
  std::vector<double> capacity_;  // per capacity id: bytes per second
  std::vector<std::vector<Child>> children_;
  std::vector<int> order_, participantOf_;
};

// The state a schedule builds up: who holds the message since when, each capacity's
// reservations, and the last start. Transfers are added with add() and removed (last first)
// with undo(), as a depth-first search needs.
class BroadcastState {
 public:
  BroadcastState(const BroadcastNetwork& network, int root, double bytes);

  bool holds(int p) const { return hold_[p] >= 0; }
  double heldSince(int p) const { return hold_[p]; }
  int holders() const { return holders_; }
  double lastStart() const { return lastStart_; }
  double makespan() const { return makespan_; }
  // The transfer src -> dst as the model would schedule it now (src holds, dst does not).
  Transfer plan(int src, int dst) const;
  // Whether capacity c is reserved past time t.
  bool reservedAfter(int capacity, double t) const;
  void add(const Transfer& t);
  void undo();
  const std::vector<Transfer>& transfers() const { return done_; }
  // 128 bits that identify the state whatever order its transfers were added in (the set of
  // transfers with their exact times, and the last start); equal states, equal fingerprints.
  using Fingerprint = std::pair<std::uint64_t, std::uint64_t>;
  struct FingerprintHash {
    std::size_t operator()(const Fingerprint& f) const { return f.first; }
  };
  Fingerprint fingerprint() const;
  struct Reservation {
    double start, end, rate;
  };
  const std::vector<Reservation>& reservations(int capacity) const { return reserved_[capacity]; }

 private:
  bool fits(const BroadcastNetwork::Path& path, double start, double duration, double rate) const;
  static Fingerprint fingerprintOf(const Transfer& t);

  const BroadcastNetwork& network_;
  double bytes_;
  std::vector<double> hold_;  // per participant: when it holds the message, -1: not yet
  int holders_ = 1;
  double lastStart_ = 0, makespan_ = 0;
  std::vector<std::vector<Reservation>> reserved_;  // per capacity
  std::vector<Transfer> done_;
  std::vector<double> makespans_;           // before each transfer, for undo
  Fingerprint sum_{0, 0};                   // XOR of the transfers' fingerprints
  mutable std::vector<double> candidates_;  // plan()'s start times to try
};

// A lower bound on when a broadcast can end from a state of it (for the optimal search;
// docs/bcast.md, "Algorithms"). The larger of: the makespan so far; per participant without
// the message, the uncontended time from the holder that could start soonest; and per relay
// node y, the bound from the subtrees hanging off y that hold nothing yet (the paper's
// disconnected subtrees): each needs a transfer into it through y, which leaves its source's
// subtree through that subtree's link to y; a link of capacity C carries at most C * t / D
// transfers' worth in a time t, less what is reserved on it already (each transfer reserves
// rate x D / rate = D on it), and a subtree can
// send out only once it holds the message, so the subtrees reached by a time grow at most as
// in a doubling process with those link rates; the last one reached still needs its other
// participants served (the time of a transfer inside it, or of a second one through its link
// when two cannot share it). Every term holds for every chronological schedule from the
// state, so the bound never exceeds the best time reachable from it.
class BroadcastBound {
 public:
  BroadcastBound(const BroadcastNetwork& network, double bytes);
  double operator()(const BroadcastState& state) const;
  // Only the first two terms (the bound the search had before the subtree term).
  double perReceiver(const BroadcastState& state) const;

 private:
  struct Member {
    int participant;
    double up, down;  // latency to y and from y
  };
  struct Branch {
    std::vector<Member> members;
    double upTransfer = 0;      // D / bandwidth of the link up to y: a transfer's least time on it
    double upWork = 0;          // D / capacity of that link: the time it needs per transfer
    int upCapacity = 0;         // that link's capacity id
    double toY = 0, fromY = 0;  // least latency of a member to y, and from y
    double tail = 0;            // the least time, after its first, until a second member holds
  };
  struct Relay {
    std::vector<Branch> branches;  // the subtrees off y that hold participants
  };
  // perReceiver() first: it fills ready_.
  double subtreeBound(const Relay& relay, const BroadcastState& state) const;
  void readyTimes(const BroadcastState& state, std::vector<double>& ready) const;

  const BroadcastNetwork& network_;
  double bytes_;
  std::vector<Relay> relays_;
  mutable std::vector<double> ready_;  // scratch: per participant, when it can send at best
  // A subtree's link up to y as a source of transfers: open = when the first can be
  // reserved on it, work = D / capacity, transfer = D / bandwidth, k = which transfer out of
  // it comes next, capacity = its capacity id (-1: a subtree not reached yet, nothing on it).
  struct Port {
    double open, work, transfer;
    int k;
    int capacity;
  };
  double portEnd(const Port& port, const BroadcastState& state) const;
  mutable std::vector<Port> ports_;    // scratch for subtreeBound()
  mutable std::vector<double> edges_;  // scratch for portEnd()
};

// `flat`: the root sends to every other participant in rank order. `binomial`: MPICH's
// binomial tree relative to the root (a node sends to its children, largest subtree first,
// in the order the transfers can start). `optimal`: depth-first branch and bound over every
// chronological schedule, pruned by the best time found and (unless noBound) BroadcastBound,
// trying the transfers whose states have the lowest bound first. With isomorphism (the paper's
// receiver- and sender-side cuts as one rule, broadcast_search.cpp's SymmetryCut), of sibling
// subtrees that are settled and identical a transfer is tried in one canonical form only: permuting
// them maps the state onto itself. timeLimit 0 = none. The schedule as a native trace
// (docs/trace-format.md; rank = participant index): each receiver posts an irecv from its sender
// and waits for it, then every rank posts an isend per transfer it makes, in start order, and waits
// for all; so `predict` and a SimGrid replay can time it.
std::string broadcastTrace(const BroadcastNetwork& network, const BroadcastSchedule& schedule);

BroadcastSchedule flatBroadcast(const BroadcastNetwork& network, int root, double bytes);
BroadcastSchedule binomialBroadcast(const BroadcastNetwork& network, int root, double bytes);
BroadcastSchedule optimalBroadcast(const BroadcastNetwork& network, int root, double bytes,
                                   bool useBound = true, double timeLimit = 0,
                                   bool useIsomorphism = true);

}  // namespace tac3map
