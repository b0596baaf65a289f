// Incremental evaluation of the three objectives under single moves (a task swaps nodes with
// another task or moves to a free node). A move re-routes only the communications of the two
// tasks; every other number is kept up to date in flat integer arrays, so a move costs work
// proportional to the routes it changes. objective.hpp's evaluateExact is the reference these
// must equal after every move (tests/incremental_test.cpp checks it on random moves).
#pragma once

#include <cstdint>
#include <vector>

#include "tac3map/mapping.hpp"
#include "tac3map/objective.hpp"
#include "tac3map/routing.hpp"

namespace tac3map {

// Where every task is, which task is on every node, and which communications touch a task.
class Placement {
 public:
  Placement(const Problem& problem, int nodes, const Mapping& mapping);

  int nodeOf(int task) const { return nodeOfTask_[task]; }
  int taskAt(int node) const { return taskAtNode_[node]; }
  const std::vector<int>& nodeOfTask() const { return nodeOfTask_; }

  // Calls f(comm) once for every communication of task a or task b (b may be -1).
  template <class F>
  void forEachAffected(int a, int b, F&& f) const {
    for (int i = start_[a]; i < start_[a + 1]; ++i) f(incident_[i]);
    if (b < 0) return;
    for (int i = start_[b]; i < start_[b + 1]; ++i) {
      const int c = incident_[i];
      if (src_[c] != a && dst_[c] != a) f(c);  // a<->b communications were visited above
    }
  }

  // Puts task a on `node`; the task there (if any) goes to a's old node.
  void place(int a, int node) {
    const int from = nodeOfTask_[a], b = taskAtNode_[node];
    nodeOfTask_[a] = node;
    taskAtNode_[node] = a;
    taskAtNode_[from] = b;
    if (b >= 0) nodeOfTask_[b] = from;
  }

 private:
  const int* src_;
  const int* dst_;
  std::vector<int> nodeOfTask_, taskAtNode_;
  std::vector<int> start_, incident_;  // CSR: communications of each task
};

// Common move logic: take the affected routes out, move, put them back, let the engine
// settle its maxima. Engines supply removeRoute/addRoute/settle.
template <class Engine>
class IncrementalObjective {
 public:
  IncrementalObjective(const Problem& problem, const Router& router, const Mapping& mapping)
      : problem_(problem), router_(router), placement_(problem, router.nodeCount(), mapping) {}

  const Placement& placement() const { return placement_; }

  // Moves `task` to `node`, swapping with the task there if there is one. Undo a move by
  // moving the same task back to its old node.
  void relocate(int task, int node) {
    Engine& self = static_cast<Engine&>(*this);
    const int other = placement_.taskAt(node);
    placement_.forEachAffected(task, other, [&](int c) { self.removeRoute(c, endpoints(c)); });
    placement_.place(task, node);
    placement_.forEachAffected(task, other, [&](int c) { self.addRoute(c, endpoints(c)); });
    self.settle();
  }

 protected:
  struct Ends {
    int p, q;
  };
  Ends endpoints(int c) const {
    return {placement_.nodeOf(problem_.src[c]), placement_.nodeOf(problem_.dst[c])};
  }
  // Builds the state from nothing: every route added once.
  void addAll() {
    Engine& self = static_cast<Engine&>(*this);
    for (std::size_t c = 0; c < problem_.communicationCount(); ++c)
      self.addRoute(static_cast<int>(c), endpoints(static_cast<int>(c)));
    self.settle();
  }

  const Problem& problem_;
  const Router& router_;
  Placement placement_;
};

// tac3: per CCS t, cost_t = max over links of load_t(l) x (largest message of t on l).
// Messages of a CCS are grouped by size ("classes"); per class a histogram counts its links
// by load, so the class's busiest link is found without scanning links. Secondary term:
// sharedPairs = sum over t, l of load_t(l) choose 2 (pairs of messages of one CCS sharing a
// link), which the annealer uses only to break ties of the exact objective.
class Tac3Objective : public IncrementalObjective<Tac3Objective> {
 public:
  using Value = std::uint64_t;
  Tac3Objective(const Problem& problem, const Router& router, const Mapping& mapping);

  Value value() const { return total_; }
  std::uint64_t secondary() const { return sharedPairs_; }

  void removeRoute(int c, Ends e);
  void addRoute(int c, Ends e);
  void settle();

 private:
  void touch(int t) {
    if (stamp_[t] != moveStamp_) {
      stamp_[t] = moveStamp_;
      touched_.push_back(t);
    }
  }

  LinkId links_;
  std::vector<std::uint32_t> load_;  // t * links + l
  std::vector<int> groupOf_;         // per communication
  std::vector<int> groupBegin_;      // CCS t owns groups groupBegin_[t] .. groupBegin_[t+1]
  std::vector<std::uint64_t> groupBytes_;
  std::vector<std::int64_t> useOffset_;  // per group into use_, or -1 when t has one class
  std::vector<std::uint32_t> use_;       // messages of the group on each link
  std::vector<std::int64_t> histOffset_;
  std::vector<std::int32_t> hist_;  // per group: links by load (index 0 unused)
  std::vector<std::uint32_t> maxLoad_;
  std::vector<std::uint64_t> cost_;
  std::vector<std::uint64_t> stamp_;
  std::vector<int> touched_;
  std::uint64_t moveStamp_ = 1;
  std::uint64_t total_ = 0;
  std::uint64_t sharedPairs_ = 0;
};

// tahb: sum of bytes x hops; hops come from coordinates, no route walk needed.
class TahbObjective : public IncrementalObjective<TahbObjective> {
 public:
  using Value = std::uint64_t;
  TahbObjective(const Problem& problem, const Router& router, const Mapping& mapping);

  Value value() const { return total_; }
  std::uint64_t secondary() const { return 0; }

  void removeRoute(int c, Ends e) {
    total_ -= problem_.bytes[c] * static_cast<std::uint64_t>(router_.hops(e.p, e.q));
  }
  void addRoute(int c, Ends e) {
    total_ += problem_.bytes[c] * static_cast<std::uint64_t>(router_.hops(e.p, e.q));
  }
  void settle() {}

 private:
  std::uint64_t total_ = 0;
};

// rmatt-o2f: tahb x the largest total bytes on one link over the iteration. The largest value
// is tracked with the number of links holding it; only when all of them drop is it rescanned.
class RmattObjective : public IncrementalObjective<RmattObjective> {
 public:
  using Value = unsigned __int128;
  RmattObjective(const Problem& problem, const Router& router, const Mapping& mapping);

  Value value() const { return static_cast<Value>(hopBytes_) * maxBytes_; }
  std::uint64_t secondary() const { return 0; }
  std::uint64_t hopBytes() const { return hopBytes_; }
  std::uint64_t maxLinkBytes() const { return maxBytes_; }

  void removeRoute(int c, Ends e);
  void addRoute(int c, Ends e);
  void settle();

 private:
  std::vector<std::uint64_t> linkBytes_;
  std::uint64_t hopBytes_ = 0;
  std::uint64_t maxBytes_ = 0;
  std::int64_t atMax_ = 0;  // links whose bytes equal maxBytes_ (0: maxBytes_ may be stale)
};

inline void Tac3Objective::addRoute(int c, Ends e) {
  const int t = problem_.ccs[c];
  const int g = groupOf_[c];
  std::uint32_t* load = &load_[static_cast<std::size_t>(t) * links_];
  touch(t);
  if (useOffset_[g] < 0) {
    std::int32_t* h = &hist_[histOffset_[g]];
    std::uint32_t top = maxLoad_[g];
    std::uint64_t pairs = 0;
    router_.forEachLink(e.p, e.q, [&](LinkId l) {
      const std::uint32_t before = load[l];
      --h[before];
      ++h[before + 1];
      load[l] = before + 1;
      pairs += before;
      if (before + 1 > top) top = before + 1;
    });
    maxLoad_[g] = top;
    sharedPairs_ += pairs;
    return;
  }
  const int first = groupBegin_[t], last = groupBegin_[t + 1];
  router_.forEachLink(e.p, e.q, [&](LinkId l) {
    const std::uint32_t before = load[l];
    for (int k = first; k < last; ++k)
      if (use_[useOffset_[k] + l] > 0) {
        --hist_[histOffset_[k] + before];
        ++hist_[histOffset_[k] + before + 1];
        if (before + 1 > maxLoad_[k]) maxLoad_[k] = before + 1;
      }
    if (use_[useOffset_[g] + l]++ == 0) {
      ++hist_[histOffset_[g] + before + 1];
      if (before + 1 > maxLoad_[g]) maxLoad_[g] = before + 1;
    }
    load[l] = before + 1;
    sharedPairs_ += before;
  });
}

inline void Tac3Objective::removeRoute(int c, Ends e) {
  const int t = problem_.ccs[c];
  const int g = groupOf_[c];
  std::uint32_t* load = &load_[static_cast<std::size_t>(t) * links_];
  touch(t);
  if (useOffset_[g] < 0) {
    std::int32_t* h = &hist_[histOffset_[g]];
    std::uint64_t pairs = 0;
    router_.forEachLink(e.p, e.q, [&](LinkId l) {
      const std::uint32_t before = load[l];
      --h[before];
      ++h[before - 1];
      load[l] = before - 1;
      pairs += before - 1;
    });
    sharedPairs_ -= pairs;
    return;
  }
  const int first = groupBegin_[t], last = groupBegin_[t + 1];
  router_.forEachLink(e.p, e.q, [&](LinkId l) {
    const std::uint32_t before = load[l];
    for (int k = first; k < last; ++k)
      if (use_[useOffset_[k] + l] > 0) --hist_[histOffset_[k] + before];
    --use_[useOffset_[g] + l];
    load[l] = before - 1;
    sharedPairs_ -= before - 1;
    for (int k = first; k < last; ++k)
      if (use_[useOffset_[k] + l] > 0) ++hist_[histOffset_[k] + before - 1];
  });
}

inline void Tac3Objective::settle() {
  for (int t : touched_) {
    std::uint64_t cost = 0;
    for (int g = groupBegin_[t]; g < groupBegin_[t + 1]; ++g) {
      const std::int32_t* h = &hist_[histOffset_[g]];
      std::uint32_t& top = maxLoad_[g];
      while (top > 0 && h[top] == 0) --top;
      const std::uint64_t value = groupBytes_[g] * top;
      if (value > cost) cost = value;
    }
    total_ += cost - cost_[t];  // unsigned wrap-around keeps the sum exact
    cost_[t] = cost;
  }
  touched_.clear();
  ++moveStamp_;
}

inline void RmattObjective::removeRoute(int c, Ends e) {
  const std::uint64_t bytes = problem_.bytes[c];
  int hops = 0;
  router_.forEachLink(e.p, e.q, [&](LinkId l) {
    if (linkBytes_[l] == maxBytes_) --atMax_;
    linkBytes_[l] -= bytes;
    ++hops;
  });
  hopBytes_ -= bytes * static_cast<std::uint64_t>(hops);
}

inline void RmattObjective::addRoute(int c, Ends e) {
  const std::uint64_t bytes = problem_.bytes[c];
  int hops = 0;
  router_.forEachLink(e.p, e.q, [&](LinkId l) {
    const std::uint64_t now = linkBytes_[l] += bytes;
    if (now > maxBytes_) {
      maxBytes_ = now;
      atMax_ = 1;
    } else if (now == maxBytes_) {
      ++atMax_;
    }
    ++hops;
  });
  hopBytes_ += bytes * static_cast<std::uint64_t>(hops);
}

}  // namespace tac3map
