#include "tac3map/model/predict.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "tac3map/model/ccs.hpp"
#include "tac3map/model/flow.hpp"
#include "tac3map/model/link_loads.hpp"

namespace tac3map {
namespace {

double messageSeconds(const PredictModel& model, std::uint64_t bytes, double contention, int hops) {
  return model.message.seconds(contention * static_cast<double>(bytes)) +
         std::max(0, hops - 1) * model.hopLatency;
}

// Communication c under its CCS's loads (contention = its busiest link's). Between nodes the
// profile's time already holds the per-message start-up (its ping-pong is measured end to
// end: the 8-byte time is the latency), so the machine's message_latency is not added again.
// Inside a node the profile says nothing: the start-up latency plus the node's memory shared
// by the CCS's in-node messages there, as the score's memory link (model.hpp) and the
// platform's loop link charge it (free when the machine gives no intra_node_bandwidth).
double communicationSeconds(const PredictModel& model, const LinkLoads& loads,
                            const Problem& problem, std::size_t c, double contention) {
  const double intraNode = problem.model.intraNodeBandwidth;
  if (loads.insideNode(c)) {
    const double sharing = std::max(1, loads.memoryMessages(c));
    return problem.model.messageLatency +
           (intraNode > 0 ? sharing * static_cast<double>(problem.bytes[c]) / intraNode : 0.0);
  }
  return messageSeconds(model, problem.bytes[c], contention, loads.hops(c));
}

// What the flow model takes of the profile (flow.hpp, FlowMessageTimes): a message between
// nodes alone takes t(M) plus a hop latency per hop beyond the first, as above; of that, the
// profile's start-up (its fitted line's latency, at most t(M)) and the hop latencies come
// before the bytes move, the rest is the bytes' transfer, which sharing stretches.
FlowMessageTimes profileTimes(const Problem& problem, const LinkLoads& loads,
                              const PredictModel& model) {
  FlowMessageTimes times;
  times.latency.resize(problem.realCommunications, 0.0);
  times.transfer.resize(problem.realCommunications, 0.0);
  for (std::size_t c = 0; c < problem.realCommunications; ++c) {
    if (loads.insideNode(c)) continue;
    const double alone = model.message.seconds(static_cast<double>(problem.bytes[c]));
    const double startup = std::clamp(model.message.latency(), 0.0, alone);
    times.latency[c] = startup + std::max(0, loads.hops(c) - 1) * model.hopLatency;
    times.transfer[c] = alone - startup;
  }
  return times;
}

}  // namespace

double localWorkSeconds(const Trace& trace, const TimeModel& copy) {
  double worst = 0;
  for (const auto& events : trace.events) {
    double seconds = 0;
    for (const Event& e : events) {
      if (e.kind == EventKind::Compute) seconds += e.seconds;
      if (e.kind == EventKind::Copy) seconds += copy.seconds(static_cast<double>(e.bytes));
    }
    worst = std::max(worst, seconds);
  }
  return worst;
}

Prediction predict(const Problem& problem, const Network& router, const Mapping& mapping,
                   const PredictModel& model, double localWork, const TimelinePlan* plan) {
  const LinkLoads loads(problem, router, mapping);
  Prediction p;
  p.ccs.resize(problem.realCcsCount);
  std::vector<double> duration(problem.communicationCount(), 0.0);
  for (std::size_t c = 0; c < problem.realCommunications; ++c) {
    const int t = problem.ccs[c];
    const double contention = loads.contention(c);
    const double seconds = communicationSeconds(model, loads, problem, c, contention);
    duration[c] = seconds;
    CcsTime& ccs = p.ccs[t];
    ccs.busiestLink = std::max(ccs.busiestLink, loads.linkMessages(c));
    if (ccs.slowest < 0 || seconds > ccs.seconds) {
      ccs.seconds = seconds;
      ccs.slowest = static_cast<int>(c);
      ccs.contention = contention;
    }
  }
  for (std::size_t t = 0; t < p.ccs.size(); ++t) {
    p.ccs[t].repeats = problem.repeats[t];
    p.communication += static_cast<double>(problem.repeats[t]) * p.ccs[t].seconds;
  }
  p.timeline = plan ? plan->length(duration) : TimelinePlan(problem).length(duration);
  if (model.flow) {
    const FlowMessageTimes times = profileTimes(problem, loads, model);
    p.flow = flowSeconds(problem, router, mapping, times);
    // Too costly whole (a work limit, not a clock): the estimate from a periodic sample.
    if (!p.flow) {
      p.flow = sampledFlowSeconds(problem, router, mapping, times);
      p.flowSampled = p.flow.has_value();
    }
  }
  p.computation = localWork;
  p.total = p.flow.value_or(p.timeline) + p.computation;
  return p;
}

std::vector<BarrierAdvice> barrierAdvice(const Problem& problem, const Network& router,
                                         const Mapping& mapping, const PredictModel& model,
                                         double barrierSeconds) {
  const LinkLoads loads(problem, router, mapping);
  const double weight = problem.model.linkWeight;
  std::vector<std::vector<std::size_t>> members(problem.realCcsCount);
  for (std::size_t c = 0; c < problem.realCommunications; ++c) members[problem.ccs[c]].push_back(c);
  std::vector<BarrierAdvice> advice;
  // Boundaries in trace order; a repeated set is the problem's one CCS each time it occurs.
  for (std::size_t k = 0; k + 1 < problem.ccsOfSet.size(); ++k) {
    const int t = problem.ccsOfSet[k], next = problem.ccsOfSet[k + 1];
    BarrierAdvice a;
    a.after = static_cast<int>(k);
    a.barrier = barrierSeconds;
    double alone = 0, overlapped = 0;
    for (std::size_t c : members[next]) {
      std::uint64_t own = 0, both = 0;
      for (LinkId l : loads.links(c)) {
        const std::uint64_t load = loads.ofCcs(next).at(l).weighted;
        const auto current = loads.ofCcs(t).find(l);
        own = std::max(own, load);
        both =
            std::max(both, load + (current == loads.ofCcs(t).end() ? 0 : current->second.weighted));
      }
      alone = std::max(alone, communicationSeconds(model, loads, problem, c, own / weight));
      overlapped =
          std::max(overlapped, communicationSeconds(model, loads, problem, c, both / weight));
      a.contentionAlone =
          std::max(a.contentionAlone, static_cast<int>((own + weight - 1) / weight));
      a.contentionOverlapped =
          std::max(a.contentionOverlapped, static_cast<int>((both + weight - 1) / weight));
    }
    a.penalty = overlapped - alone;
    a.pays = a.penalty > barrierSeconds;
    advice.push_back(a);
  }
  return advice;
}

void placeBarriers(std::vector<BarrierAdvice>& advice, const CcsSet& sets, const Trace& trace,
                   double iterationSeconds) {
  for (BarrierAdvice& a : advice) {
    const std::size_t next = static_cast<std::size_t>(a.after) + 1;
    if (next >= sets.sets.size() || sets.sets[next].empty()) continue;
    const std::vector<Communication>& set = sets.sets[next];
    const Communication* first = &set.front();
    for (const Communication& c : set)
      if (std::tie(c.sendFile, c.sendLine) < std::tie(first->sendFile, first->sendLine)) first = &c;
    a.file = trace.fileAt(first->sendFile);
    a.line = first->sendLine;
    a.src = first->src;
    a.dst = first->dst;
    const std::vector<Communication>& before = sets.sets[next - 1];
    a.sameLevel = !before.empty() && before.front().level == set.front().level;
    if (a.sameLevel) a.pays = false;
    a.gain = a.penalty - a.barrier;
    const double without = iterationSeconds + a.penalty;
    a.gainPercent = without > 0 ? 100.0 * a.gain / without : 0.0;
  }
}

std::vector<CollectiveCall> collectiveCalls(const Trace& trace) {
  std::vector<CollectiveCall> calls;
  for (int rank = 0; rank < trace.ranks; ++rank)
    for (const Event& e : trace.events[rank]) {
      if (e.kind != EventKind::Collective) continue;
      std::vector<int> members;
      if (e.comm == 0) {
        for (int r = 0; r < trace.ranks; ++r) members.push_back(r);
      } else {
        const auto known = trace.comms.find(trace.commOf(e));
        if (known == trace.comms.end()) continue;  // extractCcs reports it
        members = known->second;
      }
      if (members.empty() || *std::min_element(members.begin(), members.end()) != rank) continue;
      calls.push_back({e.op, e.bytes, e.root, members, e.line});
    }
  return calls;
}

namespace {

// The call alone, decomposed by `algorithm`, as a problem to predict.
double predictAlone(const CollectiveCall& call, Algorithm algorithm, int ranks,
                    const Network& router, const Mapping& mapping, const PredictModel& model) {
  Trace trace;
  trace.source = "collective";
  trace.ranks = ranks;
  trace.events.resize(ranks);
  trace.comms["c"] = call.members;
  for (int member : call.members) {
    Event e;
    e.kind = EventKind::Collective;
    e.op = call.op;
    e.bytes = call.bytes;
    e.root = call.root;
    e.comm = trace.commIds.intern("c");
    e.line = call.line;
    trace.events[member].push_back(e);
  }
  CcsOptions options;
  options.collectives.choice[call.op] = algorithm;
  options.engines = model.network.engines;
  const Problem problem = makeProblem(extractCcs(trace, options), model.network);
  PredictModel alone = model;  // the steps' sum: what the comparison has always used
  alone.flow = false;
  return predict(problem, router, mapping, alone, 0).communication;
}

}  // namespace

std::vector<AlgorithmTime> compareAlgorithms(const CollectiveCall& call, int ranks,
                                             const Network& router, const Mapping& mapping,
                                             const PredictModel& model) {
  std::vector<AlgorithmTime> times;
  for (Algorithm a : algorithmsOf(call.op))
    times.push_back({a, predictAlone(call, a, ranks, router, mapping, model)});
  return times;
}

std::vector<BestRange> bestBySize(CollectiveCall call, int ranks, const Network& router,
                                  const Mapping& mapping, const PredictModel& model) {
  std::vector<BestRange> ranges;
  for (std::uint64_t bytes = 8; bytes <= (std::uint64_t{1} << 24); bytes *= 2) {
    call.bytes = bytes;
    const auto times = compareAlgorithms(call, ranks, router, mapping, model);
    const auto best =
        std::min_element(times.begin(), times.end(),
                         [](const auto& a, const auto& b) { return a.seconds < b.seconds; });
    if (!ranges.empty() && ranges.back().algorithm == best->algorithm)
      ranges.back().to = bytes;
    else
      ranges.push_back({bytes, bytes, best->algorithm});
  }
  return ranges;
}

}  // namespace tac3map
