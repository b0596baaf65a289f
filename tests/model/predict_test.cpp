// Profiles, the time models and the prediction: interpolation and fit on known lines, CCS
// times against a plain recount of contention, barrier advice, local work, bad profiles.
#include "tac3map/model/predict.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "tac3map/io/error.hpp"
#include "tac3map/model/ccs.hpp"
#include "tac3map/model/collectives.hpp"
#include "tac3map/base/random.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

// seconds = 2e-6 + bytes / 1e9 at every sample: both models must give the line exactly.
std::vector<Sample> line() {
  std::vector<Sample> s;
  for (std::uint64_t b : {8ull, 1024ull, 65536ull, 1048576ull}) s.push_back({b, 2e-6 + b / 1e9});
  return s;
}

TEST(Profile, PiecewiseInterpolatesAndExtrapolatesLinearModelFitsTheLine) {
  const std::vector<Sample> samples = {{100, 1.0}, {200, 3.0}, {400, 4.0}};
  const TimeModel piecewise(samples, ModelKind::Piecewise, "t");
  EXPECT_DOUBLE_EQ(piecewise.seconds(100), 1.0);
  EXPECT_DOUBLE_EQ(piecewise.seconds(150), 2.0);
  EXPECT_DOUBLE_EQ(piecewise.seconds(300), 3.5);
  EXPECT_DOUBLE_EQ(piecewise.seconds(600), 5.0);  // from the last two
  EXPECT_DOUBLE_EQ(piecewise.seconds(50), 0.0);   // from the first two, never negative
  const TimeModel linear(line(), ModelKind::Linear, "t");
  EXPECT_NEAR(linear.latency(), 2e-6, 1e-12);
  EXPECT_NEAR(linear.bandwidth(), 1e9, 1e3);
  EXPECT_NEAR(linear.seconds(5e6), 2e-6 + 5e6 / 1e9, 1e-12);
  const TimeModel onLine(line(), ModelKind::Piecewise, "t");
  EXPECT_NEAR(onLine.seconds(3e6), 2e-6 + 3e6 / 1e9, 1e-12);
}

TEST(Profile, ShippedFx10ProfileReadsBackAndBadProfilesFailWithTheField) {
  const Profile fx10 = loadProfile(testing::sourcePath("topologies/fx10-profile.json"));
  EXPECT_EQ(fx10.name, "fx10");
  EXPECT_EQ(parseProfile(formatProfile(fx10), "again").pingpong.size(), fx10.pingpong.size());
  const auto fails = [](const std::string& text, const std::string& expected) {
    try {
      parseProfile(text, "p.json");
      ADD_FAILURE() << "accepted: " << text;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  };
  const std::string ok = R"("memcpy": [{"bytes": 1, "seconds": 1}, {"bytes": 2, "seconds": 2}])";
  fails("{\n\"pingpong\": [\n", "p.json:3: invalid JSON");
  fails(R"({"pingpong": [{"bytes": 8, "seconds": 1}, {"bytes": 8, "seconds": 2}], )" + ok +
            R"(, "barrier_seconds": 0})",
        "pingpong[1].bytes: sizes must increase");
  fails(R"({"pingpong": [{"bytes": 8, "seconds": 1}, {"bytes": 9}], )" + ok +
            R"(, "barrier_seconds": 0})",
        "pingpong[1]: missing field \"seconds\"");
  fails(R"({"pingpong": [{"bytes": 8, "seconds": 1}, {"bytes": 9, "seconds": 1}], )" + ok + "}",
        "missing field \"barrier_seconds\"");
}

struct Small {
  Machine machine = testing::simpleMachine({4}, {false});
  Box box = makeBox(machine, "4");
  Network router{machine, box};
};

// CCS 0: 0->2 and 1->3 share link 1->2 (C = 2); CCS 1: 0->1 alone.
Problem sharedLinkProblem() {
  CcsSet sets;
  sets.tasks = 4;
  sets.sets = {{{0, 2, 1000}, {1, 3, 500}}, {{0, 1, 4000}}};
  sets.sets[1][0].level = 1;  // a later program step
  return makeProblem(sets);
}

TEST(Predict, CcsTimeIsTheSlowestMessageWithItsContentionAndExtraHops) {
  const Small s;
  const TimeModel model(line(), ModelKind::Piecewise, "t");
  const PredictModel m{model, model, 1e-7, {}};
  const Problem problem = sharedLinkProblem();
  const Prediction p = predict(problem, s.router, identityMapping(4, s.box), m, 0.5);
  ASSERT_EQ(p.ccs.size(), 2u);
  // 0->2: 2 hops, C 2 -> t(2000) + 1 hop latency; 1->3: t(1000) + 1e-7.
  EXPECT_DOUBLE_EQ(p.ccs[0].seconds, model.seconds(2000) + 1e-7);
  EXPECT_EQ(p.ccs[0].contention, 2);
  EXPECT_EQ(p.ccs[0].busiestLink, 2);
  EXPECT_DOUBLE_EQ(p.ccs[1].seconds, model.seconds(4000));
  EXPECT_DOUBLE_EQ(p.communication, p.ccs[0].seconds + p.ccs[1].seconds);
  // The flow model shares link 1->2 until 1->3's 500 B are through (1,000 B moved), then 0->2
  // moves its last 500 B alone: 1,500 B of transfer where the step's sum charges t(2000).
  ASSERT_TRUE(p.flow.has_value());
  const double transfer = model.seconds(1000) - model.latency();
  EXPECT_NEAR(*p.flow, model.latency() + 1.5 * transfer + 1e-7 + model.seconds(4000),
              1e-12 * *p.flow);
  EXPECT_LT(*p.flow, p.communication);
  EXPECT_DOUBLE_EQ(p.total, *p.flow + 0.5);
  PredictModel stepsOnly = m;
  stepsOnly.flow = false;
  const Prediction q = predict(problem, s.router, identityMapping(4, s.box), stepsOnly, 0.5);
  EXPECT_FALSE(q.flow.has_value());
  EXPECT_DOUBLE_EQ(q.total, q.timeline + 0.5);
}

// With a barrier between every two steps, one message size and a linear profile (no hop
// latency), the flow model with the profile's times is the steps' sum exactly wherever the
// score charges node links (engines, several ranks per node): on the busiest link of a step,
// n messages of profile transfer time x each end together at n x x, which is t(n x M) minus
// the start-up; the paper's setting leaves the node links out of the sum, never out of flow.
TEST(Predict, FlowWithBarriersOneSizeAndALinearProfileIsTheStepsSum) {
  Machine fx10 = testing::fx10();
  fx10.hopLatency = 0;
  fx10.messageLatency = 0;
  const TimeModel model(line(), ModelKind::Piecewise, "t");
  const Box box = makeBox(fx10, "2x2x2x2x3x1");
  const Network router(fx10, box);
  Rng rng(9);
  for (const auto& [engines, k] : {std::pair{1, 1}, {4, 1}, {1, 2}, {4, 4}}) {
    fx10.injectionEngines = engines;
    const PredictModel m{model, model, 0, makeModel(fx10, 0, k)};
    for (int draw = 0; draw < 6; ++draw) {
      CcsSet s;
      s.tasks = 48 * k;
      const std::uint64_t bytes = std::uint64_t{1} << (10 + rng.below(11));
      for (int t = 0; t < 1 + draw % 4; ++t) {
        std::vector<Communication> set;
        for (int i = 0; i < 1 + static_cast<int>(rng.below(2 * s.tasks)); ++i) {
          const int src = static_cast<int>(rng.below(s.tasks));
          set.push_back(
              {src, static_cast<int>((src + 1 + rng.below(s.tasks - 1)) % s.tasks), bytes});
          set.back().level = t;
        }
        if (t > 0) s.barrierLevels.push_back(t);
        s.sets.push_back(std::move(set));
      }
      const Problem problem = makeProblem(s, m.network);
      const Mapping mapping = randomMapping(s.tasks, box, rng.below(1u << 30), k);
      const Prediction p = predict(problem, router, mapping, m, 0);
      ASSERT_TRUE(p.flow.has_value());
      if (m.network.nodeLinks())
        EXPECT_NEAR(*p.flow, p.communication, 1e-9 * p.communication)
            << engines << " engines, K " << k << ", draw " << draw;
      else
        EXPECT_GE(*p.flow, p.communication * (1 - 1e-9)) << "draw " << draw;
    }
  }
}

// What the SimGrid platform charges a lone message (every link of its route has latency
// hop_latency, bandwidth link_bandwidth; docs/predict.md, "Collective crossovers against the
// simulator"): with the platform's one hop as the profile, predict must give hops x hop_latency
// + bytes / link_bandwidth on every route length, the first hop counted once.
TEST(Predict, ALoneMessageCostsWhatThePlatformChargesWithAOneHopProfile) {
  const Machine fx10 = testing::fx10();
  const Box box = makeBox(fx10, "2x2x2x2x3x2");
  const Network router(fx10, box);
  std::vector<Sample> oneHop;
  for (std::uint64_t b : {8ull, 1024ull, 1048576ull, 16777216ull})
    oneHop.push_back({b, fx10.hopLatency + static_cast<double>(b) / fx10.linkBandwidth});
  const TimeModel model(oneHop, ModelKind::Piecewise, "platform");
  const PredictModel m{model, model, fx10.hopLatency, makeModel(fx10, 0, 1)};
  const Mapping mapping = identityMapping(64, box);
  std::set<int> lengths;
  for (int dst = 1; dst < 64; ++dst)
    for (std::uint64_t bytes : {1024ull, 1048576ull}) {
      CcsSet sets;
      sets.tasks = 64;
      sets.sets = {{{0, dst, bytes}}};
      const Problem problem = makeProblem(sets, m.network);
      const int hops =
          static_cast<int>(router.route(mapping.nodeOfTask[0], mapping.nodeOfTask[dst]).size());
      lengths.insert(hops);
      const Prediction p = predict(problem, router, mapping, m, 0);
      const double platform =
          hops * fx10.hopLatency + static_cast<double>(bytes) / fx10.linkBandwidth;
      EXPECT_NEAR(p.communication, platform, 1e-15)
          << "0->" << dst << ", " << hops << " hops, " << bytes << " B";
      ASSERT_TRUE(p.flow.has_value());
      EXPECT_NEAR(*p.flow, platform, 1e-15) << "flow, 0->" << dst;
      EXPECT_EQ(p.total, *p.flow);
    }
  EXPECT_EQ(lengths, (std::set<int>{1, 2, 3, 4, 5}));
}

// The model's engines and ranks per node reach predict as they reach the score: three messages
// leaving node 0 on two engines cost 1.5 messages' time; a message inside a node takes bytes
// over the intra-node bandwidth.
TEST(Predict, EnginesAndRanksPerNodeAsTheScoreSeesThem) {
  Machine machine = testing::simpleMachine({4, 4}, {true, true});
  machine.injectionEngines = 2;
  const Box box = makeBox(machine, "4x4");
  const Network router(machine, box);
  const TimeModel model(line(), ModelKind::Piecewise, "t");
  CcsSet sets;
  sets.tasks = 16;
  sets.sets = {{{0, 1, 1000}, {0, 4, 1000}, {0, 3, 1000}}};
  machine.intraNodeBandwidth = 1e8;
  const Model network = makeModel(machine, 0, 2);
  const PredictModel m{model, model, 0, network};
  const Problem problem = makeProblem(sets, network);
  Mapping apart = identityMapping(16, box, 2);  // block: 0 and 1 share node 0
  const Prediction p = predict(problem, router, apart, m, 0);
  // 0->1 inside node 0; 0->4 (node 2) and 0->3 (node 1) leave node 0: 2 messages, 2 engines.
  EXPECT_DOUBLE_EQ(p.ccs[0].seconds, std::max(model.seconds(1000), 1000 / 1e8));
  Mapping spread = identityMapping(16, box, 1);
  spread.slotOfTask.assign(16, 0);
  const Prediction q = predict(problem, router, spread, m, 0);
  EXPECT_DOUBLE_EQ(q.ccs[0].contention, 1.5);
  EXPECT_DOUBLE_EQ(q.ccs[0].seconds, model.seconds(1500));
}

// Inside a node a message takes the machine's start-up latency plus its bytes over the
// intra-node bandwidth, shared with the CCS's other in-node messages of that node (the score's
// memory link); between nodes the profile's time, which holds the start-up latency already.
TEST(Predict, MessagesInsideANodeShareItsMemoryAndPayTheStartUpLatency) {
  Machine machine = testing::simpleMachine({4}, {false});
  machine.intraNodeBandwidth = 1e8;
  machine.messageLatency = 3e-6;
  const Box box = makeBox(machine, "4");
  const Network router(machine, box);
  const TimeModel model(line(), ModelKind::Piecewise, "t");
  CcsSet sets;
  sets.tasks = 8;
  // CCS 0: 0->1 alone in node 0. CCS 1: 0->1 and 2->3 both in node 0, 4->6 from node 1 to 2.
  sets.sets = {{{0, 1, 1000}}, {{0, 1, 1000}, {2, 3, 1000}, {4, 6, 1000}}};
  sets.sets[1][0].level = sets.sets[1][1].level = sets.sets[1][2].level = 1;
  const Model network = makeModel(machine, 0, 4);
  const PredictModel m{model, model, 0, network};
  const Problem problem = makeProblem(sets, network);
  const Mapping mapping(std::vector<int>{0, 0, 0, 0, 1, 1, 2, 2});
  const Prediction p = predict(problem, router, mapping, m, 0);
  ASSERT_EQ(p.ccs.size(), 2u);
  EXPECT_DOUBLE_EQ(p.ccs[0].seconds, 3e-6 + 1000 / 1e8);
  EXPECT_DOUBLE_EQ(p.ccs[1].seconds, 3e-6 + 2 * 1000 / 1e8);
  // The network message alone decides once memory is fast: the profile's 2 us + 1 us, and
  // no start-up latency on top of it.
  machine.intraNodeBandwidth = 1e12;
  machine.messageLatency = 1e-6;
  const Model fast = makeModel(machine, 0, 4);
  const PredictModel f{model, model, 0, fast};
  const Prediction q = predict(makeProblem(sets, fast), router, mapping, f, 0);
  EXPECT_DOUBLE_EQ(q.ccs[1].seconds, model.seconds(1000));
  EXPECT_DOUBLE_EQ(q.ccs[0].seconds, 1e-6 + 1000 / 1e12);
}

TEST(Predict, BarrierPaysWhenTheNextCcsWouldShareLinksForLongerThanABarrier) {
  const Small s;
  const TimeModel model(line(), ModelKind::Piecewise, "t");
  const PredictModel m{model, model, 0, {}};
  const Problem problem = sharedLinkProblem();  // 0->1 of CCS 1 overlaps link 0->1 of 0->2
  const Mapping identity = identityMapping(4, s.box);
  const auto cheap = barrierAdvice(problem, s.router, identity, m, 1e-9);
  ASSERT_EQ(cheap.size(), 1u);
  EXPECT_EQ(cheap[0].contentionAlone, 1);
  EXPECT_EQ(cheap[0].contentionOverlapped, 2);
  EXPECT_DOUBLE_EQ(cheap[0].penalty, model.seconds(8000) - model.seconds(4000));
  EXPECT_TRUE(cheap[0].pays);
  EXPECT_FALSE(barrierAdvice(problem, s.router, identity, m, 1.0)[0].pays);
  // Placed so that CCS 1 runs the + way and CCS 0 the - way, the CCSs share no link.
  const Mapping apart{{2, 3, 1, 0}};
  const auto none = barrierAdvice(problem, s.router, apart, m, 1e-9);
  EXPECT_EQ(none[0].contentionOverlapped, none[0].contentionAlone);
  EXPECT_FALSE(none[0].pays);
}

TEST(Predict, LocalWorkIsTheBusiestRanksComputeAndCopies) {
  const Trace t = testing::traceFromText(
      "tac3map-trace 1\nranks 2\n0 compute 0.25\n0 copy 1000\n1 compute 0.1\n0 send 1 8\n"
      "1 recv 0 8\n1 compute 0.2\n");
  const TimeModel copy({{0, 0.0}, {1000, 0.5}}, ModelKind::Piecewise, "copy");
  EXPECT_DOUBLE_EQ(localWorkSeconds(t, copy), 0.75);
  EXPECT_EQ(extractCcs(t).communicationCount(), 1u);  // local work does not change the CCSs
}

TEST(Predict, CollectiveAlgorithmsAreComparedAloneAndBySize) {
  const Machine fx10 = testing::fx10();
  const Box box = makeBox(fx10, "2x2x2x2x3x2");
  const Network router(fx10, box);
  std::string text = "tac3map-trace 1\nranks 16\n0 comm half 0 2 4 6 8 10 12 14\n";
  for (int r = 0; r < 16; ++r) {
    text += std::to_string(r) + " allreduce 65536\n";
    if (r % 2 == 0) text += std::to_string(r) + " allgather 512 comm=half\n";
  }
  const Trace trace = testing::traceFromText(text);
  const auto calls = collectiveCalls(trace);
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0].members.size(), 16u);
  EXPECT_EQ(calls[1].members, (std::vector<int>{0, 2, 4, 6, 8, 10, 12, 14}));
  const TimeModel model(line(), ModelKind::Piecewise, "t");
  const PredictModel m{model, model, 1e-7, {}};
  const Mapping mapping = randomMapping(16, box, 5);
  const auto times = compareAlgorithms(calls[0], 16, router, mapping, m);
  ASSERT_EQ(times.size(), 3u);  // recursive doubling (default), ring, reduce-bcast
  EXPECT_EQ(times[0].algorithm, Algorithm::RecursiveDoubling);
  // Each time is the prediction of the trace holding that collective alone.
  for (const AlgorithmTime& t : times) {
    const std::string alone = std::string("tac3map-trace 1\nranks 16\n") + [] {
      std::string lines;
      for (int r = 0; r < 16; ++r) lines += std::to_string(r) + " allreduce 65536\n";
      return lines;
    }();
    CcsOptions options;
    options.collectives.choice[CollectiveOp::Allreduce] = t.algorithm;
    const Problem p = makeProblem(extractCcs(testing::traceFromText(alone), options));
    EXPECT_DOUBLE_EQ(t.seconds, predict(p, router, mapping, m, 0).communication);
  }
  const auto ranges = bestBySize(calls[1], 16, router, mapping, m);
  ASSERT_FALSE(ranges.empty());
  EXPECT_EQ(ranges.front().from, 8u);
  EXPECT_EQ(ranges.back().to, std::uint64_t{1} << 24);
  for (std::size_t k = 1; k < ranges.size(); ++k) {
    EXPECT_EQ(ranges[k].from, ranges[k - 1].to * 2);
    EXPECT_NE(ranges[k].algorithm, ranges[k - 1].algorithm);
  }
}

}  // namespace
}  // namespace tac3map
