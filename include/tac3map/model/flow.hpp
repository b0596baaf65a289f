// The flow model (docs/model.md, "The flow model"): the trace's length when its messages
// share bandwidth as a flow-level network simulator shares it, the referee of
// docs/validation.md (SimGrid's CM02 model on the platform `tac3map platform` writes).
//
// Messages start as in the timeline model (timeline.hpp): a message of a set starts when both
// its ranks' messages of their previous sets are done (and, after a barrier, every earlier
// message). Unlike the timeline, whose durations are fixed per set, every message in flight
// shares every link of its route with every other message in flight, whichever set it
// belongs to, by max-min fairness (progressive filling) weighted as SimGrid weighs flows (in
// inverse proportion to their route latencies, flow_sharing.hpp), the rates recomputed
// whenever a message starts or ends. A message first waits its route's latency (the machine's
// message_latency plus each network link's latency), then moves its bytes. A barrier holds
// each rank until the barrier's zero-byte messages (Problem::barrierAlgorithm) would let it
// go, each after its route's latency.
//
// The links are the platform's: each network link at its bandwidth; per node an injection
// and an ejection link of E x the engine bandwidth that every route leaving, resp. entering,
// the node crosses; each message at most one engine's bandwidth when an engine is slower than
// a link; messages between two ranks of one node over the node's memory link at
// intra_node_bandwidth (none given: only their latency).
//
// With a barrier between every two sets, messages of one size, no latency and engines no
// slower than links, the length is tac3 exactly (tests/model/flow_test.cpp): the busiest link of a
// set, n messages over capacity c, holds each of them at c / n until all end, and no message
// elsewhere gets less. Otherwise it charges what tac3 leaves out: latency, steps that overlap
// and load each other's links, messages of different sizes.
//
// Cost: an event per message start and end, each recomputing the shares of the messages in
// flight (O(flows x route x log) with a heap of links); for scoring and for re-ranking a
// search's candidates, not for the search's trials. Traces of more than kFlowMaxMessages
// message instances are simulated over their first iterations when they repeat one (below),
// else not at all; a simulation whose sharings visit more than kFlowMaxWork links (about a
// second), or whose first events project to far more, gives up: counted in work, so the
// answer never depends on the machine.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "tac3map/mapping/mapping.hpp"
#include "tac3map/model/problem.hpp"
#include "tac3map/network/network.hpp"

namespace tac3map {

inline constexpr std::size_t kFlowMaxMessages = std::size_t{1} << 20;
inline constexpr std::uint64_t kFlowMaxWork = std::uint64_t{1} << 25;
// A trace above kFlowMaxMessages whose sets repeat (the kernel's iteration, findPeriod) is
// simulated over its head, as many iterations as fit (at least this many) and its tail.
inline constexpr std::size_t kFlowMinPeriods = 2;

// The messages the flow model would simulate: the sum over the trace's sets of their sizes.
std::size_t flowMessageCount(const Problem& problem);

// The length in seconds, or nothing when the trace has more than `maxMessages` message
// instances (flowMessageCount), the simulation more than `maxWork` work, or the clock passes
// `until` (a search's deadline: within a search the simulation shares it).
using FlowClock = std::chrono::steady_clock;
std::optional<double> flowSeconds(const Problem& problem, const Network& router,
                                  const Mapping& mapping,
                                  std::size_t maxMessages = kFlowMaxMessages,
                                  std::uint64_t maxWork = kFlowMaxWork,
                                  FlowClock::time_point until = FlowClock::time_point::max());

// A message's time alone as a measured ping-pong profile gives it (predict, docs/predict.md),
// per communication of the problem (its index; messages inside a node keep the machine's
// figures): `latency` before its bytes move, `transfer` the seconds its bytes take alone. The
// simulation moves `transfer` x its route's narrowest capacity in place of its bytes, so that
// alone it takes latency + transfer and, sharing a link with n messages like it, n x transfer:
// the profile's overhead moves with the bytes (protocol headers, packetising).
struct FlowMessageTimes {
  std::vector<double> latency, transfer;
};
std::optional<double> flowSeconds(const Problem& problem, const Network& router,
                                  const Mapping& mapping, const FlowMessageTimes& times,
                                  std::size_t maxMessages = kFlowMaxMessages,
                                  std::uint64_t maxWork = kFlowMaxWork);

// The length estimated from the shortest periodic walk (the head, kFlowMinPeriods iterations,
// the tail, each iteration left at the pace of the last simulated one), or nothing when the
// trace does not repeat an iteration kFlowMinPeriods + 1 times or the walk is too costly: the
// figure score, map's report and predict give a trace too costly to simulate whole (NPB SP
// class W, 64 ranks: within 0.3% of the whole simulation and of SimGrid's, docs/model.md).
std::optional<double> sampledFlowSeconds(
    const Problem& problem, const Network& router, const Mapping& mapping,
    std::size_t maxMessages = kFlowMaxMessages, std::uint64_t maxWork = kFlowMaxWork,
    FlowClock::time_point until = FlowClock::time_point::max());
// The same with a profile's message times (predict).
std::optional<double> sampledFlowSeconds(const Problem& problem, const Network& router,
                                         const Mapping& mapping, const FlowMessageTimes& times,
                                         std::size_t maxMessages = kFlowMaxMessages,
                                         std::uint64_t maxWork = kFlowMaxWork);

// Of `mappings`, the index of the one the flow model finds fastest, or nothing when the flow
// model cannot simulate the trace: how map re-ranks its candidates. Times within
// kFlowTieTolerance of each other are a tie, which goes to the lower `tieKeys` entry (map
// gives each mapping's tac3: where the flow model sees no difference, the one with less
// contention per set; CG-64 with K = 2 on FX10 2x2x2x2x1x2 without barriers: two maps of one
// flow time, tac3 1.678 and 1.382 ms, ran 1.412 and 1.386 ms in SimGrid), then to the first.
// Past `until`, only the mappings simulated by then are ranked (at least the first).
// A trace whose whole simulation is too costly is ranked on its shortest periodic walk
// (`sampled`): the head, kFlowMinPeriods iterations and the tail, extrapolated to the whole.
struct FlowRanking {
  std::size_t fastest = 0;
  std::size_t ranked = 0;  // mappings simulated: all of them unless `until` passed
  bool sampled = false;
};
inline constexpr double kFlowTieTolerance = 1e-9;  // relative
std::optional<FlowRanking> fastestByFlow(const Problem& problem, const Network& router,
                                         const std::vector<const Mapping*>& mappings,
                                         std::size_t maxMessages = kFlowMaxMessages,
                                         FlowClock::time_point until = FlowClock::time_point::max(),
                                         const std::vector<std::uint64_t>& tieKeys = {},
                                         std::uint64_t maxWork = kFlowMaxWork);

}  // namespace tac3map
