// The flow model (model/flow.hpp): the simulation's events over the program (which message
// waits for which, when each starts, moves and ends); how the links are shared at each event
// is flow_sharing.hpp's.
#include "tac3map/model/flow.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "flow_barrier.hpp"
#include "flow_sharing.hpp"

namespace tac3map {
namespace {

using flow::BarrierTimes;
using flow::FairShare;
using flow::kInfinity;
using flow::Links;
using flow::Routes;

// Events closer than this (relative) happen together: a flow whose end falls within it of the
// next event ends there instead of leaving a residue of rounding error to a later event.
constexpr double kTogether = 1e-12;
// A simulation with a deadline looks at the clock every this many events, or sooner once it
// has visited this many links since (with 12,288 messages in flight, 64 events took 6 s under
// the sanitizers).
constexpr std::uint64_t kClockEvents = 64;
constexpr std::uint64_t kClockWork = std::uint64_t{1} << 16;
// After this many messages a simulation whose work so far, projected over all of its
// messages, passes this many times its budget gives up (FlowSimulation::run).
constexpr std::uint64_t kProjectAfter = 16;
constexpr double kProjectSlack = 4;

// The order the flows wait in: each message instance (a communication of one set of the
// trace) waits for the groups (a rank's messages of one set) of its two ranks' previous sets
// and, after a barrier, for the whole epoch (the messages since the barrier before) before it.
// An eager message (Problem::eager) is in its receiver's group only: its sender goes on.
constexpr std::uint32_t kNoGroup = std::numeric_limits<std::uint32_t>::max();
struct Order {
  std::vector<std::uint32_t> comm;     // per instance: its communication
  std::vector<std::uint32_t> groupOf;  // per instance: 2 groups (its src's, its dst's; kNoGroup)
  std::vector<std::uint32_t> needs;    // per instance: what it still waits for
  std::vector<std::vector<std::uint32_t>> waiters;  // per group: instances waiting for it
  std::vector<std::uint32_t> groupLeft;             // per group: its messages not done
  std::vector<std::uint32_t> epochStart;  // instances of epoch e: [start[e], start[e + 1])
  std::vector<std::uint32_t> epochLeft;
  std::vector<std::uint32_t> epochOf;
  std::vector<std::int32_t> periodOf;  // per instance: its simulated period (Walk), or -1
};

// The sets a simulation walks, as positions in problem.ccsOfSet: all of them, or for a
// periodic trace too long to simulate whole, its head, the first `periods` of its iterations
// and its tail; the length then grows by `periodsLeft` times the last simulated iteration's.
struct Walk {
  std::vector<std::size_t> positions;
  std::vector<std::int32_t> periodOf;  // per position: its iteration among those simulated, or -1
  int periods = 0;
  std::size_t periodsLeft = 0;
};

// Messages of each CCS of the problem.
std::vector<std::size_t> setSizes(const Problem& problem) {
  std::vector<std::size_t> size(problem.realCcsCount, 0);
  for (std::size_t c = 0; c < problem.realCommunications; ++c) ++size[problem.ccs[c]];
  return size;
}

// The walk of at most `maxMessages` message instances: the whole trace when it fits (unless
// `shortest`), else the periodic walk with as many iterations as fit, or with `shortest` the
// fewest (kFlowMinPeriods).
std::optional<Walk> makeWalk(const Problem& problem, std::size_t maxMessages,
                             bool shortest = false) {
  const std::vector<std::size_t> size = setSizes(problem);
  const std::size_t n = problem.ccsOfSet.size();
  const auto messages = [&](std::size_t from, std::size_t to) {
    std::size_t total = 0;
    for (std::size_t k = from; k < to; ++k) total += size[problem.ccsOfSet[k]];
    return total;
  };
  Walk walk;
  if (!shortest && messages(0, n) <= maxMessages) {
    walk.positions.resize(n);
    for (std::size_t k = 0; k < n; ++k) walk.positions[k] = k;
    walk.periodOf.assign(n, -1);
    return walk;
  }
  const Period period = findPeriod(orderKeys(problem));
  if (period.length == 0 || period.repeats < kFlowMinPeriods + 1) return std::nullopt;
  const std::size_t end = period.start + period.repeats * period.length;
  const std::size_t fixed = messages(0, period.start) + messages(end, n);
  const std::size_t each = messages(period.start, period.start + period.length);
  if (fixed + kFlowMinPeriods * each > maxMessages) return std::nullopt;
  walk.periods =
      shortest
          ? static_cast<int>(kFlowMinPeriods)
          : static_cast<int>(std::min<std::size_t>(
                period.repeats - 1, each > 0 ? (maxMessages - fixed) / each : period.repeats - 1));
  walk.periodsLeft = period.repeats - static_cast<std::size_t>(walk.periods);
  const auto add = [&](std::size_t from, std::size_t to, int p) {
    for (std::size_t k = from; k < to; ++k) {
      walk.positions.push_back(k);
      walk.periodOf.push_back(p);
    }
  };
  add(0, period.start, -1);
  for (int p = 0; p < walk.periods; ++p)
    add(period.start + p * period.length, period.start + (p + 1) * period.length, p);
  add(end, n, -1);
  return walk;
}

Order makeOrder(const Problem& problem, const Walk& walk) {
  std::vector<std::vector<std::uint32_t>> members(problem.realCcsCount);
  for (std::size_t c = 0; c < problem.realCommunications; ++c)
    members[problem.ccs[c]].push_back(static_cast<std::uint32_t>(c));
  Order o;
  const std::uint32_t none = kNoGroup;
  std::vector<std::uint32_t> last(problem.tasks, none), current(problem.tasks, none);
  std::vector<std::size_t> stamp(problem.tasks, static_cast<std::size_t>(-1));
  std::vector<int> touched;
  o.epochStart.push_back(0);
  std::size_t step = 0;
  for (std::size_t w = 0; w < walk.positions.size(); ++w) {
    const std::size_t k = walk.positions[w];
    if (w > 0 && !problem.barrierBefore.empty() && problem.barrierBefore[k])
      o.epochStart.push_back(static_cast<std::uint32_t>(o.comm.size()));
    const std::uint32_t epoch = static_cast<std::uint32_t>(o.epochStart.size() - 1);
    // Sets of one program step, split for the engines, are one group per rank: the program
    // posts all their messages at once (a stencil's six halo sends on one engine), and the
    // links share them as they go.
    const bool continues =
        w > 0 && walk.positions[w - 1] + 1 == k && !problem.sameStep.empty() && problem.sameStep[k];
    if (!continues) {
      for (const int rank : touched) last[rank] = current[rank];
      touched.clear();
      ++step;
    }
    for (std::uint32_t c : members[problem.ccsOfSet[k]]) {
      const auto i = static_cast<std::uint32_t>(o.comm.size());
      o.comm.push_back(c);
      o.epochOf.push_back(epoch);
      o.periodOf.push_back(walk.periodOf[w]);
      o.needs.push_back(epoch > 0 ? 1 : 0);
      const bool eager = !problem.eager.empty() && problem.eager[c];
      for (const int rank : {problem.src[c], problem.dst[c]}) {
        if (last[rank] != none) {  // the rank's group of its previous set
          o.waiters[last[rank]].push_back(i);
          ++o.needs.back();
        }
        // An eager send is posted after its sender's previous set but holds nothing after it.
        if (eager && rank == problem.src[c]) {
          o.groupOf.push_back(none);
          continue;
        }
        if (stamp[rank] != step) {  // the rank's group of this step
          stamp[rank] = step;
          current[rank] = static_cast<std::uint32_t>(o.groupLeft.size());
          o.groupLeft.push_back(0);
          o.waiters.emplace_back();
          touched.push_back(rank);
        }
        ++o.groupLeft[current[rank]];
        o.groupOf.push_back(current[rank]);
      }
    }
  }
  o.epochStart.push_back(static_cast<std::uint32_t>(o.comm.size()));
  for (std::size_t e = 0; e + 1 < o.epochStart.size(); ++e)
    o.epochLeft.push_back(o.epochStart[e + 1] - o.epochStart[e]);
  return o;
}

class FlowSimulation {
 public:
  // `barriers`: null when the trace has none.
  FlowSimulation(const Problem& problem, const Links& links, const Routes& routes, Order order,
                 const Walk& walk, const BarrierTimes* barriers)
      : problem_(problem),
        routes_(routes),
        o_(std::move(order)),
        walk_(walk),
        barriers_(barriers),
        share_(links, routes) {
    periodEnd_.assign(static_cast<std::size_t>(walk.periods), 0.0);
    const std::size_t n = o_.comm.size();
    remaining_.assign(n, 0.0);
    rate_.assign(n, 0.0);
    latencyEnd_.assign(n, 0.0);
    if (barriers_) {
      reached_.assign(static_cast<std::size_t>(problem.tasks), 0.0);
      left_ = reached_;
    }
    overhead_ = problem.model.messageOverhead;
    if (overhead_ > 0) senderFree_.assign(static_cast<std::size_t>(problem.tasks), 0.0);
  }

  // The length, or nothing once the sharings have visited more than `maxWork` links.
  std::optional<double> run(std::uint64_t maxWork, FlowClock::time_point until) {
    maxWork_ = maxWork;
    std::uint64_t events = 0;
    if (barriers_ && problem_.barrierFirst) passBarrier();
    for (std::uint32_t i = o_.epochStart[0]; i < o_.epochStart[1]; ++i)
      if (o_.needs[i] == 0) ready_.push_back(i);
    if (o_.epochLeft.front() == 0) epochDone(0);
    startReady();
    while (!transfer_.empty() || !latent_.empty()) {
      if (share_.work() > maxWork_) return std::nullopt;
      // A trace whose first messages already cost as much as the whole budget spread over all
      // of them gives up at once, rather than after the whole budget: a random pattern of 4,096
      // ranks keeps 12,288 messages in flight, ending one at a time. (Messages that end
      // together, as an all-to-all's, cost one event between them: counted by message, not by
      // event.)
      ++events;
      if (completed_ >= kProjectAfter && static_cast<double>(share_.work()) /
                                                 static_cast<double>(completed_) *
                                                 static_cast<double>(o_.comm.size()) >
                                             kProjectSlack * static_cast<double>(maxWork_))
        return std::nullopt;
      if (until != FlowClock::time_point::max() &&
          (events % kClockEvents == 0 || share_.work() - clockWork_ >= kClockWork)) {
        clockWork_ = share_.work();
        if (FlowClock::now() >= until) return std::nullopt;
      }
      share_.share(transfer_, o_.comm.data(), rate_.data());
      double next = kInfinity;
      for (std::uint32_t i : latent_) next = std::min(next, latencyEnd_[i]);
      for (std::uint32_t i : transfer_) next = std::min(next, now_ + remaining_[i] / rate_[i]);
      const double dt = next - now_, close = next * kTogether;
      now_ = next;
      // Flows whose end falls at the event end there; the others move on.
      std::size_t kept = 0;
      for (std::uint32_t i : transfer_) {
        if (now_ - dt + remaining_[i] / rate_[i] <= next + close) {
          done_.push_back(i);
        } else {
          remaining_[i] = std::max(0.0, remaining_[i] - rate_[i] * dt);
          transfer_[kept++] = i;
        }
      }
      transfer_.resize(kept);
      kept = 0;
      for (std::uint32_t i : latent_) {
        if (latencyEnd_[i] <= next + close)
          beginTransfer(i);
        else
          latent_[kept++] = i;
      }
      latent_.resize(kept);
      for (std::size_t d = 0; d < done_.size(); ++d) complete(done_[d]);
      done_.clear();
      startReady();
    }
    if (barriers_ && problem_.barrierLast) {  // the run ends when its ranks leave it
      passBarrier();
      for (const double t : left_) end_ = std::max(end_, t);
    }
    // A walk of part of a periodic trace: each iteration left takes as long as the last one
    // simulated, the time between the ends of the last two (their messages all done).
    if (walk_.periodsLeft == 0) return end_;
    const double pace = periodEnd_[walk_.periods - 1] - periodEnd_[walk_.periods - 2];
    return end_ + static_cast<double>(walk_.periodsLeft) * std::max(0.0, pace);
  }

 private:
  void startReady() {
    while (!ready_.empty()) {
      const std::uint32_t i = ready_.back();
      ready_.pop_back();
      const std::uint32_t c = o_.comm[i];
      double start = now_;
      if (barriers_) {  // not before both ranks left the last barrier
        const int a = problem_.src[c], b = problem_.dst[c];
        start = std::max({start, left_[a], left_[b]});
        if (isEager(c)) reached_[a] = std::max(reached_[a], start);  // its sender is done
      }
      if (overhead_ > 0) {
        // The MPI's software cost (LogP's o): the sender hands its messages to the network
        // one o after another, each once it is ready.
        double& free = senderFree_[static_cast<std::size_t>(problem_.src[c])];
        start = std::max(start, free) + overhead_;
        free = start;
      }
      if (routes_.latency[c] > 0 || start > now_) {
        latencyEnd_[i] = start + routes_.latency[c];
        latent_.push_back(i);
      } else {
        beginTransfer(i);
      }
      for (std::size_t d = 0; d < done_.size(); ++d) complete(done_[d]);
      done_.clear();
    }
  }

  // The bytes start moving; a message with nothing to move or no link to move it on (inside
  // a node whose bandwidth is not given) is done at once.
  void beginTransfer(std::uint32_t i) {
    const std::uint32_t c = o_.comm[i];
    remaining_[i] = routes_.bytes[c];
    if (remaining_[i] <= 0 || routes_.start[c] == routes_.start[c + 1]) {
      done_.push_back(i);
      return;
    }
    transfer_.push_back(i);
  }

  void complete(std::uint32_t i) {
    end_ = std::max(end_, now_);
    ++completed_;
    if (barriers_) {  // its ranks are done with it (an eager sender was at its start)
      const std::uint32_t c = o_.comm[i];
      reached_[problem_.dst[c]] = std::max(reached_[problem_.dst[c]], now_);
      if (!isEager(c)) reached_[problem_.src[c]] = std::max(reached_[problem_.src[c]], now_);
    }
    if (const std::int32_t p = o_.periodOf[i]; p >= 0)
      periodEnd_[p] = std::max(periodEnd_[p], now_);
    for (int side = 0; side < 2; ++side) {
      const std::uint32_t g = o_.groupOf[2 * static_cast<std::size_t>(i) + side];
      if (g == kNoGroup) continue;  // an eager message's sender
      if (--o_.groupLeft[g] == 0)
        for (std::uint32_t w : o_.waiters[g])
          if (--o_.needs[w] == 0) ready_.push_back(w);
    }
    const std::uint32_t e = o_.epochOf[i];
    if (--o_.epochLeft[e] == 0) epochDone(e);
  }

  // Every message of epoch e is done: the barrier after it opens (empty epochs pass at once).
  void epochDone(std::uint32_t e) {
    while (e + 1 < o_.epochLeft.size()) {
      ++e;
      if (barriers_) passBarrier();
      for (std::uint32_t i = o_.epochStart[e]; i < o_.epochStart[e + 1]; ++i)
        if (--o_.needs[i] == 0) ready_.push_back(i);
      if (o_.epochLeft[e] > 0) return;
    }
  }

  bool isEager(std::uint32_t c) const { return !problem_.eager.empty() && problem_.eager[c]; }

  // Every rank has reached the barrier (reached_): when each leaves it.
  void passBarrier() {
    left_ = reached_;
    barriers_->release(left_);
    reached_ = left_;
  }

  const Problem& problem_;
  const Routes& routes_;
  Order o_;
  const Walk& walk_;
  const BarrierTimes* barriers_;
  // Per rank, with barriers: when it was last done with its messages, when it last left a
  // barrier.
  std::vector<double> reached_, left_;
  std::vector<double> periodEnd_;  // per simulated iteration: when its last message ended
  FairShare share_;
  std::vector<double> remaining_, rate_, latencyEnd_;
  double overhead_ = 0;              // Model::messageOverhead
  std::vector<double> senderFree_;   // per rank: when its software has handed its last message
  std::vector<std::uint32_t> transfer_, latent_, ready_, done_;
  std::uint64_t maxWork_ = 0;
  std::uint64_t completed_ = 0;  // messages done
  std::uint64_t clockWork_ = 0;  // the sharings' work when the clock was last looked at
  double now_ = 0, end_ = 0;
};

}  // namespace

std::size_t flowMessageCount(const Problem& problem) {
  const std::vector<std::size_t> size = setSizes(problem);
  std::size_t total = 0;
  for (int t : problem.ccsOfSet) total += size[t];
  return total;
}

namespace {
std::optional<double> simulateWalk(const Problem& problem, const Network& router,
                                   const Mapping& mapping, const FlowMessageTimes* times,
                                   const Walk& walk, std::uint64_t maxWork,
                                   FlowClock::time_point until) {
  const Links links = flow::makeLinks(router, problem.model);
  const Routes routes =
      flow::makeRoutes(problem, router, mapping, links, times ? &times->latency : nullptr,
                       times ? &times->transfer : nullptr);
  bool anyBarrier = problem.barrierFirst || problem.barrierLast;
  for (const std::size_t k : walk.positions)
    anyBarrier = anyBarrier || (!problem.barrierBefore.empty() && problem.barrierBefore[k]);
  std::optional<BarrierTimes> barriers;
  if (anyBarrier) barriers.emplace(problem, router, mapping);
  return FlowSimulation(problem, links, routes, makeOrder(problem, walk), walk,
                        barriers ? &*barriers : nullptr)
      .run(maxWork, until);
}

// The whole trace's walk, or with `shortest` the shortest periodic one (makeWalk).
std::optional<double> simulate(const Problem& problem, const Network& router,
                               const Mapping& mapping, const FlowMessageTimes* times,
                               std::size_t maxMessages, std::uint64_t maxWork,
                               FlowClock::time_point until, bool shortest = false) {
  const std::optional<Walk> walk = makeWalk(problem, maxMessages, shortest);
  if (!walk) return std::nullopt;
  return simulateWalk(problem, router, mapping, times, *walk, maxWork, until);
}
}  // namespace

std::optional<double> flowSeconds(const Problem& problem, const Network& router,
                                  const Mapping& mapping, std::size_t maxMessages,
                                  std::uint64_t maxWork, FlowClock::time_point until) {
  return simulate(problem, router, mapping, nullptr, maxMessages, maxWork, until);
}

std::optional<double> flowSeconds(const Problem& problem, const Network& router,
                                  const Mapping& mapping, const FlowMessageTimes& times,
                                  std::size_t maxMessages, std::uint64_t maxWork) {
  return simulate(problem, router, mapping, &times, maxMessages, maxWork,
                  FlowClock::time_point::max());
}

std::optional<double> sampledFlowSeconds(const Problem& problem, const Network& router,
                                         const Mapping& mapping, std::size_t maxMessages,
                                         std::uint64_t maxWork, FlowClock::time_point until) {
  return simulate(problem, router, mapping, nullptr, maxMessages, maxWork, until, true);
}

std::optional<double> sampledFlowSeconds(const Problem& problem, const Network& router,
                                         const Mapping& mapping, const FlowMessageTimes& times,
                                         std::size_t maxMessages, std::uint64_t maxWork) {
  return simulate(problem, router, mapping, &times, maxMessages, maxWork,
                  FlowClock::time_point::max(), true);
}

std::optional<FlowRanking> fastestByFlow(const Problem& problem, const Network& router,
                                         const std::vector<const Mapping*>& mappings,
                                         std::size_t maxMessages, FlowClock::time_point until,
                                         const std::vector<std::uint64_t>& tieKeys,
                                         std::uint64_t maxWork) {
  if (mappings.empty()) return std::nullopt;
  std::optional<Walk> walk = makeWalk(problem, maxMessages);  // once for every mapping
  if (!walk) return std::nullopt;
  FlowRanking ranking;
  double bestSeconds = kInfinity;
  const auto key = [&](std::size_t i) { return i < tieKeys.size() ? tieKeys[i] : 0; };
  for (std::size_t i = 0; i < mappings.size(); ++i) {
    std::optional<double> seconds =
        simulateWalk(problem, router, *mappings[i], nullptr, *walk, maxWork, until);
    // The whole trace is too costly (work, not time: NPB BT, SP and LU class W, 64 ranks):
    // every mapping is ranked on the shortest periodic walk instead, the head, two iterations
    // and the tail, extrapolated alike. On BT and LU it picks what the whole simulation with
    // 2^29 of work (~4 s each) picks (docs/validation.md).
    if (!seconds && i == 0 && FlowClock::now() < until) {
      std::optional<Walk> shortest = makeWalk(problem, maxMessages, true);
      if (shortest && shortest->positions.size() < walk->positions.size()) {
        walk = std::move(shortest);
        ranking.sampled = true;
        seconds = simulateWalk(problem, router, *mappings[i], nullptr, *walk, maxWork, until);
      }
    }
    if (!seconds && i > 0 && FlowClock::now() >= until) break;  // the ones simulated in time
    if (!seconds) return std::nullopt;                          // too costly to simulate
    ranking.ranked = i + 1;
    const bool tie = bestSeconds < kInfinity &&
                     std::abs(*seconds - bestSeconds) <= kFlowTieTolerance * bestSeconds;
    if (tie ? key(i) < key(ranking.fastest) : *seconds < bestSeconds) {
      bestSeconds = std::min(bestSeconds, *seconds);
      ranking.fastest = i;
    }
  }
  return ranking;
}

}  // namespace tac3map
