#include "tac3map/search/incremental.hpp"

#include <algorithm>
#include <map>
#include <string>

#include "tac3map/io/error.hpp"

namespace tac3map {

Placement::Placement(const Problem& problem, int nodes, const Mapping& mapping)
    : src_(problem.src.data()),
      dst_(problem.dst.data()),
      slots_(problem.model.ranksPerNode),
      nodeOfTask_(mapping.nodeOfTask),
      positionOfTask_(mapping.tasks()),
      taskAtPosition_(static_cast<std::size_t>(nodes) * slots_, -1),
      start_(problem.tasks + 1, 0) {
  // A mapping without slots puts a node's ranks in its lowest slots, in rank order.
  std::vector<int> used(mapping.slotOfTask.empty() ? nodes : 0, 0);
  for (int task = 0; task < mapping.tasks(); ++task) {
    const int node = nodeOfTask_[task];
    const int slot = mapping.slotOfTask.empty() ? used[node]++ : mapping.slotOfTask[task];
    if (slot < 0 || slot >= slots_ || taskAtPosition_[node * slots_ + slot] >= 0)
      throw InputError("the start mapping puts rank " + std::to_string(task) +
                       " in a slot its node does not have free (" + std::to_string(slots_) +
                       " ranks per node)");
    positionOfTask_[task] = node * slots_ + slot;
    taskAtPosition_[positionOfTask_[task]] = task;
  }
  const std::size_t n = problem.communicationCount();
  for (std::size_t c = 0; c < n; ++c) {
    ++start_[problem.src[c] + 1];
    ++start_[problem.dst[c] + 1];
  }
  for (int task = 0; task < problem.tasks; ++task) start_[task + 1] += start_[task];
  incident_.resize(start_[problem.tasks]);
  std::vector<int> fill(start_.begin(), start_.end() - 1);
  for (std::size_t c = 0; c < n; ++c) {
    incident_[fill[problem.src[c]]++] = static_cast<int>(c);
    incident_[fill[problem.dst[c]]++] = static_cast<int>(c);
  }
  // By CCS, so that a move's communications can be taken one CCS at a time.
  for (int task = 0; task < problem.tasks; ++task)
    std::stable_sort(incident_.begin() + start_[task], incident_.begin() + start_[task + 1],
                     [&](int a, int b) { return problem.ccs[a] < problem.ccs[b]; });
}

Mapping Placement::mapping() const {
  Mapping m(nodeOfTask_);
  if (slots_ > 1)
    for (int position : positionOfTask_) m.slotOfTask.push_back(position % slots_);
  return m;
}

std::size_t Placement::mostIncident() const {
  std::size_t most = 0;
  for (std::size_t task = 0; task + 1 < start_.size(); ++task)
    most = std::max<std::size_t>(most, static_cast<std::size_t>(start_[task + 1] - start_[task]));
  return most;
}

Tac3Totals::Tac3Totals(const Problem& problem)
    : cost_(problem.ccsCount, 0),
      bound_(problem.bound),
      repeats_(problem.repeats),
      overlap_(problem.ccsCount > problem.realCcsCount),
      first_(problem.overlapFirst) {
  for (std::size_t t = 0; t < bound_.size(); ++t) boundTotal_ += repeats_[t] * bound_[t];
}

void Tac3Totals::sumCosts() {
  total_ = 0;
  for (std::size_t t = 0; t < cost_.size(); ++t) total_ += repeats_[t] * cost_[t];
  for (std::size_t u = 0; u < first_.size(); ++u)
    if (first_[u] >= 0) total_ -= std::max(cost_[first_[u]], cost_[first_[u] + 1]);
  proposed_ = cost_;
}

TahbObjective::TahbObjective(const Problem& problem, const Network& router, const Mapping& mapping)
    : HopBytesGraph(problem), IncrementalObjective(graph, router, mapping) {
  for (std::size_t c = 0; c < graph.realCommunications; ++c) {
    const Ends e = endsNow(static_cast<int>(c));
    total_ += graph.volume[c] * static_cast<std::uint64_t>(router.hops(e.p, e.q));
  }
}

RmattObjective::RmattObjective(const Problem& problem, const Network& router,
                               const Mapping& mapping)
    : IncrementalObjective(problem, router, mapping), linkBytes_(router.linkIdLimit(), 0) {
  for (std::size_t c = 0; c < problem.communicationCount(); ++c)
    addRoute(static_cast<int>(c), endsNow(static_cast<int>(c)));
}

void RmattObjective::apply(const Move& move) {
  placement_.forEachAffected(move, [&](int c) { removeRoute(c, endsNow(c)); });
  placement_.apply(move);
  placement_.forEachAffected(move, [&](int c) { addRoute(c, endsNow(c)); });
  if (atMax_ > 0) return;
  maxBytes_ = 0;
  atMax_ = 0;
  for (std::uint64_t bytes : linkBytes_) {
    if (bytes > maxBytes_) {
      maxBytes_ = bytes;
      atMax_ = 1;
    } else if (bytes == maxBytes_) {
      ++atMax_;
    }
  }
}

}  // namespace tac3map
