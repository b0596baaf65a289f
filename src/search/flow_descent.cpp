#include "tac3map/search/flow_descent.hpp"

#include <utility>

namespace tac3map {

std::optional<FlowDescent> flowSwapDescent(const Problem& problem, const Network& router,
                                           const Mapping& start, std::uint64_t maxMessages,
                                           std::uint64_t maxWork, FlowClock::time_point until) {
  const int n = start.tasks();
  const std::uint64_t pairs = static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(n - 1) / 2;
  const std::uint64_t messages = flowMessageCount(problem);
  if (n < 2 || messages == 0 || messages > maxMessages / pairs) return std::nullopt;
  const std::optional<double> first =
      flowSeconds(problem, router, start, kFlowMaxMessages, maxWork, until);
  if (!first) return std::nullopt;
  FlowDescent d{start, *first, 0};
  std::uint64_t spent = 0;
  Mapping trial = start;
  if (trial.slotOfTask.empty()) trial.slotOfTask.assign(static_cast<std::size_t>(n), 0);
  d.mapping.slotOfTask = trial.slotOfTask;
  const auto swap = [&](Mapping& m, int a, int b) {
    std::swap(m.nodeOfTask[a], m.nodeOfTask[b]);
    std::swap(m.slotOfTask[a], m.slotOfTask[b]);
  };
  while (spent + messages * pairs <= maxMessages) {
    spent += messages * pairs;
    int bestA = -1, bestB = -1;
    double best = d.seconds * (1 - kFlowDescentGain);
    bool cut = false;
    for (int a = 0; a < n && !cut; ++a)
      for (int b = a + 1; b < n; ++b) {
        if (trial.nodeOfTask[a] == trial.nodeOfTask[b]) continue;  // the same run
        swap(trial, a, b);
        const std::optional<double> s =
            flowSeconds(problem, router, trial, kFlowMaxMessages, maxWork, until);
        swap(trial, a, b);
        if (!s && FlowClock::now() >= until) {
          cut = true;  // the time limit: the swaps of the passes before stand
          break;
        }
        if (s && *s < best) {
          best = *s;
          bestA = a;
          bestB = b;
        }
      }
    if (cut || bestA < 0) break;
    swap(trial, bestA, bestB);
    swap(d.mapping, bestA, bestB);
    d.seconds = best;
    ++d.swaps;
  }
  if (start.slotOfTask.empty()) d.mapping.slotOfTask.clear();  // all slot 0 still
  return d;
}

}  // namespace tac3map
