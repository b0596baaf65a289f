#include "tac3map/model/timeline.hpp"

#include <algorithm>

#include "tac3map/model/link_loads.hpp"

namespace tac3map {

TimelinePlan::TimelinePlan(const Problem& problem)
    : problem_(problem), members_(problem.realCcsCount), period_(findPeriod(orderKeys(problem))) {
  for (std::size_t c = 0; c < problem.realCommunications; ++c)
    members_[problem.ccs[c]].push_back(c);
}

template <class T>
T TimelinePlan::walk(const std::vector<T>& duration, bool skip) const {
  const std::vector<int>& order = problem_.ccsOfSet;
  const std::size_t n = order.size();
  std::vector<T> clock(problem_.tasks, T{0});
  std::vector<T> ends;
  // A barrier raises every clock to the latest: kept as a floor under all clocks, so that a
  // barrier costs nothing per rank.
  T floor{0}, latest{0};
  const auto step = [&](std::size_t k) {
    if (!problem_.barrierBefore.empty() && problem_.barrierBefore[k]) floor = latest;
    const std::vector<std::size_t>& members = members_[order[k]];
    ends.resize(members.size());
    // Every message of the set starts from the clocks as they were before it.
    for (std::size_t i = 0; i < members.size(); ++i) {
      const std::size_t c = members[i];
      const T start = std::max({clock[problem_.src[c]], clock[problem_.dst[c]], floor});
      ends[i] = start + duration[c];
    }
    for (std::size_t i = 0; i < members.size(); ++i) {
      const std::size_t c = members[i];
      // An eager send leaves its sender's clock alone: the sender goes on once it is posted.
      if (problem_.eager.empty() || !problem_.eager[c])
        clock[problem_.src[c]] = std::max(clock[problem_.src[c]], ends[i]);
      clock[problem_.dst[c]] = std::max(clock[problem_.dst[c]], ends[i]);
      latest = std::max(latest, ends[i]);
    }
  };
  std::size_t k = 0;
  if (skip && period_.repeats >= 3) {
    for (; k < period_.start; ++k) step(k);
    // Before each iteration: every clock's distance to the latest. When an iteration leaves
    // them as it found them, each one left adds what that one added (the header's comment).
    std::vector<T> distance(clock.size()), before;
    T latestBefore{0};
    for (std::size_t done = 0; done < period_.repeats; ++done) {
      for (std::size_t r = 0; r < clock.size(); ++r) {
        clock[r] = std::max(clock[r], floor);
        distance[r] = latest - clock[r];
      }
      if (done > 0 && distance == before) {
        const T added = (latest - latestBefore) * static_cast<T>(period_.repeats - done);
        for (T& c : clock) c += added;
        latest += added;
        floor += added;
        break;
      }
      before.swap(distance);
      distance.resize(clock.size());
      latestBefore = latest;
      for (std::size_t j = 0; j < period_.length; ++j) step(k + j);
      k += period_.length;
    }
    k = period_.start + period_.repeats * period_.length;
  }
  for (; k < n; ++k) step(k);
  return latest;
}

std::uint64_t TimelinePlan::length(const std::vector<std::uint64_t>& duration) const {
  return walk(duration, true);
}
double TimelinePlan::length(const std::vector<double>& duration) const {
  return walk(duration, true);
}
std::uint64_t TimelinePlan::walkAll(const std::vector<std::uint64_t>& duration) const {
  return walk(duration, false);
}

std::vector<std::uint64_t> messageDurations(const Problem& problem, const Network& router,
                                            const Mapping& mapping) {
  const LinkLoads loads(problem, router, mapping);
  std::vector<std::uint64_t> duration(problem.communicationCount(), 0);
  for (std::size_t c = 0; c < problem.realCommunications; ++c)
    for (LinkId l : loads.links(c)) {
      const LinkLoad& load = loads.ofCcs(problem.ccs[c]).at(l);
      duration[c] = std::max(duration[c], load.weighted * load.largest);
    }
  return duration;
}

std::uint64_t timelineExact(const Problem& problem, const TimelinePlan& plan, const Network& router,
                            const Mapping& mapping) {
  return plan.length(messageDurations(problem, router, mapping));
}

}  // namespace tac3map
