#include "tac3map/search/node_swap.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <vector>

#include "tac3map/base/random.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/model/flow.hpp"
#include "tac3map/search/incremental.hpp"
#include "tac3map/search/incremental_compact.hpp"
#include "tac3map/search/incremental_general.hpp"

namespace tac3map {
namespace {

// The descent and the kicks on one engine. Every committed rank move is logged as (task, the
// position it left), so that a trial or a whole round is undone by replaying the log
// backwards (each move is a swap of two positions: undone in reverse order they restore the
// placement exactly), without copying the mapping or rebuilding the engine.
template <class Objective>
class NodeRefinement {
 public:
  NodeRefinement(const Problem& problem, const Network& router, const Mapping& start,
                 const Allocation& allocation, std::uint64_t budget, const Deadline& deadline,
                 std::uint64_t seed, NodeKicks kicks)
      : problem_(problem),
        router_(router),
        allocation_(allocation),
        budget_(budget),
        deadline_(deadline),
        state_(problem, router, start),
        placement_(state_.placement()),
        slots_(placement_.slotsPerNode()),
        rng_(seed),
        kicks_(kicks) {
    for (int node = 0; node < router.nodeCount(); ++node)
      if (allocation.holds(node)) held_.push_back(node);
    allPairs_ = static_cast<int>(held_.size()) <= kNodeSwapAllPairs;
    rankFlow_ = flowMessageCount(problem) <= kPlateauFlowMessages;
    seen_.assign(static_cast<std::size_t>(router.nodeCount()), 0);
  }

  NodeSwapResult run() {
    result_.mapping = placement_.mapping();
    if (slots_ < 2 || held_.size() < 2 || stopped()) return result_;
    descend();
    log_.clear();
    // Kicks: a few ranks swapped across nodes at random, a descent, and the round kept when
    // the key is no higher (equal keys too: that is how it crosses plateaus), else undone.
    auto bestValue = state_.value();
    std::uint64_t bestPairs = state_.secondary();
    consider();
    while (!stopped() && result_.rounds < kNodeSwapMaxRounds) {
      ++result_.rounds;
      kick();
      descend();
      const auto value = state_.value();
      const std::uint64_t pairs = state_.secondary();
      if (value < bestValue || (value == bestValue && pairs <= bestPairs)) {
        if (value < bestValue) plateau_.reset();  // a lower plateau: its maps only
        bestValue = value;
        bestPairs = pairs;
        log_.clear();
        consider();
      } else {
        rollback(0);
      }
    }
    result_.mapping = plateau_ ? *plateau_ : placement_.mapping();
    return result_;
  }

 private:
  struct Undo {
    int task, from;
  };

  // The map the rounds stand on, one of the lowest plateau's: the flow model (flow.hpp) ranks
  // the first kPlateauFlowSamples of them, and the fastest is the result. tac3 is a max over
  // links and does not tell these maps apart; the run does (CG-64, K = 4: three seeds' maps
  // of one tac3 ran 1.76, 1.87 and 2.24 ms in the simulation).
  void consider() {
    if (!rankFlow_ || result_.plateauMaps >= kPlateauFlowSamples) return;
    ++result_.plateauMaps;
    Mapping current = placement_.mapping();
    const std::optional<double> seconds = flowSeconds(
        problem_, router_, current, kPlateauFlowMessages, kPlateauFlowWork, deadline_.atOrNever());
    if (!seconds) {  // too costly to simulate: the rounds' last map, as without the model
      rankFlow_ = false;
      plateau_.reset();
      return;
    }
    if (!plateau_ || *seconds < plateauSeconds_) {
      plateau_ = std::move(current);
      plateauSeconds_ = *seconds;
    }
  }

  bool stopped() {
    if (result_.work >= nextCheck_) {
      nextCheck_ = result_.work + kNodeSwapCheckWork;
      if (deadline_.expired()) result_.timedOut = true;
    }
    return result_.timedOut || result_.work >= budget_;
  }
  std::uint64_t incident(int task) const {
    return task < 0 ? 0
                    : static_cast<std::uint64_t>(placement_.incidentEnd(task) -
                                                 placement_.incidentBegin(task));
  }
  // Moves `task` to `to` (a swap with the rank there) and logs it.
  bool move(int task, int to) {
    const int from = placement_.positionOf(task);
    result_.work += incident(task) + incident(placement_.taskAt(to));
    if (!state_.propose(task, to, [] { return std::numeric_limits<double>::infinity(); }))
      return false;
    state_.commit();
    log_.push_back({task, from});
    return true;
  }
  void rollback(std::size_t mark) {
    while (log_.size() > mark) {
      const Undo u = log_.back();
      log_.pop_back();
      result_.work += incident(u.task) + incident(placement_.taskAt(u.from));
      state_.propose(u.task, u.from, [] { return std::numeric_limits<double>::infinity(); });
      state_.commit();
    }
  }
  template <class V>
  static bool lower(V value, std::uint64_t pairs, V before, std::uint64_t pairsBefore) {
    return value < before || (value == before && pairs < pairsBefore);
  }

  // Exchanges the contents of nodes a and b, slot s with slot s (logged); false if the engine
  // refused a move (the slots before it are then exchanged).
  bool swapContents(int a, int b) {
    for (int s = 0; s < slots_; ++s) {
      int task = placement_.taskAt(a * slots_ + s), to = b * slots_ + s;
      if (task < 0) {  // a free slot on a: move b's rank there
        task = placement_.taskAt(b * slots_ + s);
        to = a * slots_ + s;
      }
      if (task >= 0 && !move(task, to)) return false;
    }
    return true;
  }

  // The whole contents of nodes a and b exchanged; kept if the key falls.
  bool tryNodes(int a, int b) {
    const auto before = state_.value();
    const std::uint64_t pairsBefore = state_.secondary();
    ++result_.trials;
    const std::size_t mark = log_.size();
    if (swapContents(a, b) && lower(state_.value(), state_.secondary(), before, pairsBefore)) {
      ++result_.swaps;
      return true;
    }
    rollback(mark);
    return false;
  }

  // `task` swapped with a rank (or moved to a free slot) on another node: the first position
  // that lowers the key.
  bool tryRank(int task) {
    const int from = placement_.nodeOf(task);
    for (int node : nodesNear(from, task)) {
      if (node == from) continue;
      for (int s = 0; s < slots_; ++s) {
        if (stopped()) return false;
        const int to = node * slots_ + s;
        const auto before = state_.value();
        const std::uint64_t pairsBefore = state_.secondary();
        result_.work += incident(task) + incident(placement_.taskAt(to));
        if (!state_.propose(task, to, [] { return 0.0; })) continue;  // a rise: never taken
        if (!lower(state_.proposedValue(), state_.proposedSecondary(), before, pairsBefore)) {
          state_.discard();
          continue;
        }
        const int position = placement_.positionOf(task);
        state_.commit();
        log_.push_back({task, position});
        ++result_.rankMoves;
        return true;
      }
    }
    return false;
  }

  // The nodes tried with `node` (node swaps) or with `task` (rank moves): every allocated
  // node on small allocations, else the nodes of the partners and their neighbours.
  const std::vector<int>& nodesNear(int node, int task) {
    if (allPairs_) return held_;
    near_.clear();
    if (++stamp_ == 0) {
      std::fill(seen_.begin(), seen_.end(), 0);
      stamp_ = 1;
    }
    const auto add = [&](int n) {
      if (n < 0 || n == node || !allocation_.holds(n) || seen_[n] == stamp_) return;
      seen_[n] = stamp_;
      near_.push_back(n);
    };
    const auto partnersOf = [&](int t) {
      for (const int* c = placement_.incidentBegin(t); c != placement_.incidentEnd(t); ++c) {
        const int partner = problem_.src[*c] == t ? problem_.dst[*c] : problem_.src[*c];
        const int at = placement_.nodeOf(partner);
        add(at);
        for (int k = 0; k < router_.nearbySlots(); ++k) add(router_.nearby(at, k));
      }
    };
    if (task >= 0) {
      partnersOf(task);
    } else {
      for (int s = 0; s < slots_; ++s)
        if (const int t = placement_.taskAt(node * slots_ + s); t >= 0) partnersOf(t);
    }
    std::sort(near_.begin(), near_.end());  // a fixed order
    return near_;
  }

  // Passes of node swaps, then rank moves, until one changes nothing.
  void descend() {
    bool moved = true;
    for (int pass = 0; moved && pass < kNodeSwapMaxPasses && !stopped(); ++pass) {
      moved = false;
      ++result_.passes;
      for (std::size_t i = 0; i < held_.size() && !stopped(); ++i) {
        const int a = held_[i];
        if (allPairs_) {
          for (std::size_t j = i + 1; j < held_.size() && !stopped(); ++j)
            moved |= tryNodes(a, held_[j]);
        } else {
          const std::vector<int>& near = nodesNear(a, -1);
          pairs_.assign(near.begin(), near.end());  // nodesNear's array is reused below
          for (std::size_t j = 0; j < pairs_.size() && !stopped(); ++j)
            moved |= tryNodes(a, pairs_[j]);
        }
      }
      for (int task = 0; task < problem_.tasks && !stopped(); ++task) moved |= tryRank(task);
    }
  }

  // kNodeSwapKick changes at random: each the contents of two nodes exchanged (the groups
  // of K ranks move between nodes: the node-level plateau) or, one time in three (every time
  // with NodeKicks::RankSwaps), one rank swapped with a slot of another node (the groups
  // themselves change).
  void kick() {
    for (int k = 0; k < kNodeSwapKick; ++k) {
      const int a = held_[rng_.below(held_.size())];
      int b = held_[rng_.below(held_.size() - 1)];
      if (b == a) b = held_.back();
      if (kicks_ == NodeKicks::RankSwaps || rng_.below(3) == 0) {
        const int task = placement_.taskAt(a * slots_ + static_cast<int>(rng_.below(slots_)));
        if (task >= 0) move(task, b * slots_ + static_cast<int>(rng_.below(slots_)));
      } else {
        swapContents(a, b);
      }
    }
  }

  const Problem& problem_;
  const Network& router_;
  const Allocation& allocation_;
  std::uint64_t budget_;
  const Deadline& deadline_;
  Objective state_;
  const Placement& placement_;
  int slots_;
  Rng rng_;
  NodeKicks kicks_;
  NodeSwapResult result_;
  std::uint64_t nextCheck_ = kNodeSwapCheckWork;
  std::vector<int> held_, near_, pairs_;
  std::vector<Undo> log_;
  std::vector<std::uint32_t> seen_;
  std::uint32_t stamp_ = 0;
  bool allPairs_ = false, rankFlow_ = false;
  std::optional<Mapping> plateau_;
  double plateauSeconds_ = 0;
};

}  // namespace

std::uint64_t nodeRefinementBudget(const Problem& problem, const Schedule& schedule) {
  const double perTrial =
      problem.tasks > 0 ? 2.0 * static_cast<double>(problem.communicationCount()) / problem.tasks
                        : 1.0;
  return static_cast<std::uint64_t>(static_cast<double>(schedule.totalTrials()) *
                                    std::max(perTrial, kNodeSwapWorkPerTrial));
}

NodeSwapResult swapNodeContents(const Problem& problem, const Network& router, const Mapping& start,
                                const Schedule& schedule, std::uint64_t budget, std::uint64_t seed,
                                const Deadline& deadline, NodeKicks kicks) {
  const bool fits = CompactTac3Objective::fits(problem, router);
  if (schedule.tac3Engine == Tac3Engine::Compact && !fits)
    throw InputError("the compact tac3 engine cannot evaluate this problem on this box");
  if (fits && schedule.tac3Engine != Tac3Engine::General)
    return NodeRefinement<CompactTac3Objective>(problem, router, start, schedule.allocation, budget,
                                                deadline, seed, kicks)
        .run();
  return NodeRefinement<Tac3Objective>(problem, router, start, schedule.allocation, budget,
                                       deadline, seed, kicks)
      .run();
}

}  // namespace tac3map
