// The contention model (model.hpp): injection engines, several ranks per node. The reference
// evaluator against a plain formula in seconds written here from the definition, and every
// incremental engine against the reference after thousands of random moves, exactly.
#include "tac3map/model/model.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <type_traits>

#include "tac3map/base/random.hpp"
#include "tac3map/gen/topologies.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/io/trace.hpp"
#include "tac3map/model/ccs.hpp"
#include "tac3map/search/annealer.hpp"
#include "tac3map/search/incremental.hpp"
#include "tac3map/search/incremental_compact.hpp"
#include "tac3map/search/incremental_general.hpp"
#include "tac3map/search/objectives.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

Machine withEngines(Machine m, int engines, double injectionBandwidth) {
  m.injectionEngines = engines;
  m.injectionBandwidth = injectionBandwidth;
  return m;
}

Machine withIntraNode(Machine m, double bandwidth) {
  m.intraNodeBandwidth = bandwidth;
  return m;
}

// The model's tac3 in seconds, straight from its definition (model.hpp), in doubles: per CCS
// the largest of link load x largest message / B, node load x largest message / (E B_inj)
// and, with several ranks per node and an intra-node bandwidth, a node's in-node messages x
// the largest of them / B_intra.
double plainTac3Seconds(const Problem& p, const Network& r, const Mapping& m, const Model& model) {
  double total = 0;
  const bool memory = model.ranksPerNode > 1 && model.intraNodeBandwidth > 0;
  for (int t = 0; t < p.ccsCount; ++t) {
    std::map<LinkId, std::pair<int, std::uint64_t>> links;      // messages, largest
    std::map<int, std::pair<int, std::uint64_t>> out, in, mem;  // per node
    for (std::size_t c = 0; c < p.communicationCount(); ++c) {
      if (p.ccs[c] != t) continue;
      const int a = m.nodeOfTask[p.src[c]], b = m.nodeOfTask[p.dst[c]];
      if (a == b) {  // inside a node: no link, no engine; the node's memory
        ++mem[a].first;
        mem[a].second = std::max(mem[a].second, p.bytes[c]);
        continue;
      }
      for (LinkId l : r.route(a, b)) {
        ++links[l].first;
        links[l].second = std::max(links[l].second, p.bytes[c]);
      }
      ++out[a].first;
      out[a].second = std::max(out[a].second, p.bytes[c]);
      ++in[b].first;
      in[b].second = std::max(in[b].second, p.bytes[c]);
    }
    double cost = 0;
    for (const auto& [l, e] : links)
      cost = std::max(cost, e.first * static_cast<double>(e.second) / model.linkBandwidth);
    if (model.engines > 1 || model.ranksPerNode > 1 ||
        model.engines * model.injectionBandwidth < model.linkBandwidth)
      for (const auto* side : {&out, &in})
        for (const auto& [node, e] : *side)
          cost = std::max(cost, e.first * static_cast<double>(e.second) /
                                    (model.engines * model.injectionBandwidth));
    if (memory)
      for (const auto& [node, e] : mem)
        cost = std::max(cost, e.first * static_cast<double>(e.second) / model.intraNodeBandwidth);
    total += static_cast<double>(p.repeats[t]) * cost;  // a merged set counts as often as it occurs
  }
  return total;
}

TEST(Model, OneEngineOneRankPerNodeIsThePapersModel) {
  const Machine fx10 = testing::fx10();
  const Model model = makeModel(fx10, 1);
  EXPECT_FALSE(model.nodeLinks());
  EXPECT_TRUE(model.isPaperSetting());
  EXPECT_EQ(model.linkWeight, 1u);
  // Engines faster than links do not change that either.
  EXPECT_FALSE(makeModel(withEngines(fx10, 1, 2 * fx10.linkBandwidth)).nodeLinks());
  EXPECT_TRUE(makeModel(fx10, 4).nodeLinks());
  EXPECT_EQ(makeModel(fx10).engines, 4);  // the shipped FX10 file: four TNIs per node
  EXPECT_TRUE(makeModel(fx10, 1, 2).nodeLinks());
}

TEST(Model, WeightsAreTheRatioOfEngineToLinkBandwidth) {
  const Machine fx10 = testing::fx10();
  const Model four = makeModel(fx10, 4);
  EXPECT_EQ(four.linkWeight, 4u);
  EXPECT_EQ(four.nodeWeight, 1u);
  const Model slow = makeModel(withEngines(fx10, 2, fx10.linkBandwidth * 0.75), 0);
  EXPECT_EQ(slow.linkWeight * 2, slow.nodeWeight * 3);  // 2 x 0.75 = 3/2
  EXPECT_THROW(makeModel(fx10, 65), InputError);
  EXPECT_THROW(makeModel(fx10, 1, 0), InputError);
}

TEST(Model, MemoryWeightIsTheRatioOfLinkToIntraNodeBandwidth) {
  // The shipped figures give exact small weights (docs/model.md lists them).
  const Model fx10 = makeModel(testing::fx10(), 0, 2);  // 5 GB/s, 4 x 5 GB/s, 17 GB/s
  EXPECT_TRUE(fx10.memoryLinks());
  EXPECT_EQ(fx10.linkWeight, 68u);
  EXPECT_EQ(fx10.nodeWeight, 17u);
  EXPECT_EQ(fx10.memoryWeight, 20u);
  const Model k = makeModel(loadMachine(testing::sourcePath("topologies/k-computer.json")), 0, 8);
  EXPECT_EQ(k.linkWeight, 64u);  // 5 GB/s against 12.8 GB/s = 25 / 64
  EXPECT_EQ(k.nodeWeight, 16u);
  EXPECT_EQ(k.memoryWeight, 25u);
  const Model fugaku = makeModel(loadMachine(testing::sourcePath("topologies/fugaku.json")), 0, 4);
  EXPECT_EQ(fugaku.linkWeight, 30u);  // 6.8 GB/s against 204 GB/s = 1 / 30
  EXPECT_EQ(fugaku.nodeWeight, 5u);
  EXPECT_EQ(fugaku.memoryWeight, 1u);
  // One rank per node (the paper's setting) or no intra-node bandwidth: no memory link, the
  // weights of before.
  for (const Model& m :
       {makeModel(testing::fx10(), 0, 1), makeModel(withIntraNode(testing::fx10(), 0), 0, 2)}) {
    EXPECT_FALSE(m.memoryLinks());
    EXPECT_EQ(m.linkWeight, 4u);
    EXPECT_EQ(m.nodeWeight, 1u);
  }
  // A ratio with no small exact fraction: the closest one.
  const Model odd = makeModel(withIntraNode(testing::fx10(), 5e9 * 3.3), 1, 2);
  EXPECT_NEAR(static_cast<double>(odd.memoryWeight) / odd.linkWeight, 1 / 3.3, 1e-3);
  // Messages of the latencies reach every consumer.
  EXPECT_DOUBLE_EQ(fx10.messageLatency, 9e-7);
  EXPECT_DOUBLE_EQ(fx10.hopLatency, 1e-7);
}

// In-node messages share their node's memory: one alone costs M / B_intra, two on one node
// 2 M / B_intra, two on two nodes M / B_intra; with one rank per node nothing of this exists.
TEST(Model, MessagesInsideANodeShareItsMemory) {
  const Machine line = withIntraNode(testing::simpleMachine({4}, {false}), 4e9);  // B = 1e9
  const Box box = makeBox(line, "4");
  const Network router(line, box);
  CcsSet sets;
  sets.tasks = 8;
  sets.sets = {{{0, 1, 1000}}, {{0, 1, 1000}, {2, 3, 1000}}, {{0, 1, 1000}, {4, 5, 1000}}};
  for (int t = 0; t < 3; ++t)
    for (Communication& c : sets.sets[t]) c.level = t;
  const Problem p = makeProblem(sets, makeModel(line, 1, 4));
  Mapping m(std::vector<int>{0, 0, 0, 0, 1, 1, 2, 2});
  const Scores s = evaluate(p, router, m, line.linkBandwidth);
  EXPECT_DOUBLE_EQ(s.tac3, (1000 + 2000 + 1000) / 4e9);
  EXPECT_DOUBLE_EQ(s.tac3LowerBound, 3 * 1000 / 4e9);  // each set's largest message in memory
  EXPECT_EQ(s.avgHops, 0);
  // Without an intra-node bandwidth in-node messages are free again, and the bound is 0.
  const Problem free = makeProblem(sets, makeModel(withIntraNode(line, 0), 1, 4));
  EXPECT_EQ(evaluate(free, router, m, line.linkBandwidth).tac3, 0);
  EXPECT_EQ(evaluate(free, router, m, line.linkBandwidth).tac3LowerBound, 0);
}

// The reference evaluator in seconds equals the plain definition, for engines, ranks per node,
// engine bandwidths that are not whole multiples of the link's, and intra-node bandwidths
// (none, faster than a link, slower, not a small fraction of it).
TEST(Model, ReferenceEqualsThePlainDefinition) {
  const Machine fx10 = testing::fx10();
  const Box box = makeBox(fx10, "2x2x2x2x3x2");
  const Network router(fx10, box);
  Rng rng(17);
  for (int engines : {1, 2, 4, 6})
    for (int k : {1, 2, 4})
      for (double ratio : {1.0, 0.75, 1.6})
        for (double intra : {0.0, 3.4, 0.7, 3.3}) {
          const Machine m = withIntraNode(withEngines(fx10, engines, fx10.linkBandwidth * ratio),
                                          fx10.linkBandwidth * intra);
          const Model model = makeModel(m, 0, k);
          const int tasks = 40 * k;
          const Problem p = testing::randomModelProblem(tasks, 4, rng, model);
          for (int draw = 0; draw < 5; ++draw) {
            const Mapping mapping = randomMapping(tasks, box, rng.below(1u << 30), k);
            const Scores s = evaluate(p, router, mapping, m.linkBandwidth);
            const double plain = plainTac3Seconds(p, router, mapping, model);
            // 3.3: the weights are the closest fraction (1e-3 here), not the ratio itself.
            EXPECT_NEAR(s.tac3, plain, (intra == 3.3 && k > 1 ? 1e-3 : 1e-12) * plain)
                << "engines " << engines << " K " << k << " ratio " << ratio << " intra " << intra;
            EXPECT_LE(s.tac3LowerBound, s.tac3 * (1 + 1e-12));
            if (k > 1 && intra > 0) {
              EXPECT_GT(s.tac3LowerBound, 0);
            }
          }
        }
}

// A node that sends six messages at once to its six torus neighbours: one engine sends them
// one after the other (6 M / B), four engines in 6 M / (4 B) when every link carries one.
TEST(Model, SixNeighboursOnFourEngines) {
  const Machine torus = testing::simpleMachine({3, 3, 3}, {true, true, true});
  const Box box = makeBox(torus, "3x3x3");
  const Network router(torus, box);
  CcsSet sets;
  sets.tasks = 27;
  const int centre = box.nodeAt({1, 1, 1});
  sets.sets.emplace_back();
  for (const std::vector<int>& c : std::vector<std::vector<int>>{
           {0, 1, 1}, {2, 1, 1}, {1, 0, 1}, {1, 2, 1}, {1, 1, 0}, {1, 1, 2}})
    sets.sets[0].push_back({centre, box.nodeAt(c), 1000});
  const Mapping identity = identityMapping(27, box);
  const double b = torus.linkBandwidth;
  const Machine four = withEngines(torus, 4, b);
  EXPECT_DOUBLE_EQ(evaluate(makeProblem(sets, makeModel(four)), router, identity, b).tac3,
                   6 * 1000 / (4 * b));
  // One engine: the paper's model, which charges links only (its CCS split never puts two
  // messages of one sender in a set: they become six sets, 6 M / B in all).
  EXPECT_DOUBLE_EQ(evaluate(makeProblem(sets, makeModel(four, 1)), router, identity, b).tac3,
                   1000 / b);
  // Two ranks per node, the centre's partners in its own node: that message is free.
  Mapping paired = identityMapping(27, box);
  paired.slotOfTask.assign(27, 0);
  paired.nodeOfTask[box.nodeAt({0, 1, 1})] = centre;
  paired.slotOfTask[box.nodeAt({0, 1, 1})] = 1;
  const Problem p = makeProblem(sets, makeModel(four, 0, 2));
  EXPECT_DOUBLE_EQ(evaluate(p, router, paired, b).tac3, 5 * 1000 / (4 * b));
  EXPECT_EQ(evaluate(p, router, paired, b).tac3LowerBound, 0.0);
}

// CCS extraction: with several engines a level is one set; with one, the paper's split.
TEST(Model, SeveralEnginesKeepALevelInOneSet) {
  std::istringstream in(
      "tac3map-trace 1\nranks 3\n"
      "0 isend 1 100 0 a\n0 isend 2 100 0 b\n0 waitall\n"
      "1 irecv 0 100 0 a\n1 waitall\n"
      "2 irecv 0 100 0 b\n2 waitall\n");
  const Trace trace = parseTrace(in, "three");
  CcsOptions one, four;
  four.engines = 4;
  EXPECT_EQ(extractCcs(trace, one).sets.size(), 2u);
  ASSERT_EQ(extractCcs(trace, four).sets.size(), 1u);
  EXPECT_EQ(extractCcs(trace, four).sets[0].size(), 2u);
  // The split rule: at most E messages per rank and set.
  CcsOptions split = four;
  split.splitBeyondEngines = true;
  split.engines = 2;
  EXPECT_EQ(extractCcs(trace, split).sets.size(), 1u);
  std::string six = "tac3map-trace 1\nranks 7\n";
  for (int r = 1; r <= 6; ++r) {
    six += "0 isend " + std::to_string(r) + " 100 0 s" + std::to_string(r) + "\n";
    six += std::to_string(r) + " irecv 0 100 0 a\n" + std::to_string(r) + " waitall\n";
  }
  six += "0 waitall\n";
  std::istringstream sixIn(six);
  const Trace star = parseTrace(sixIn, "six");
  split.engines = 4;
  ASSERT_EQ(extractCcs(star, split).sets.size(), 2u);  // 4 + 2
  EXPECT_EQ(extractCcs(star, split).sets[0].size(), 4u);
  EXPECT_EQ(extractCcs(star, four).sets.size(), 1u);
}

// Mapping after moving `task` to `position` (node * K + slot), swapping with its holder.
Mapping moved(const Placement& placement, int task, int position) {
  Mapping after = placement.mapping();
  const int k = placement.slotsPerNode();
  const int other = placement.taskAt(position);
  const int from = placement.positionOf(task);
  after.nodeOfTask[task] = position / k;
  if (k > 1) after.slotOfTask[task] = position % k;
  if (other >= 0 && other != task) {
    after.nodeOfTask[other] = from / k;
    if (k > 1) after.slotOfTask[other] = from % k;
  }
  return after;
}

// Random proposals, committed or discarded at random, checked against the reference.
template <class Engine, class Check, class... Extra>
int randomMoves(const Machine& machine, const std::string& shape, const Model& model, int tasks,
                bool oneSizePerSet, Check check, Extra... extra) {
  const Box box = makeBox(machine, shape);
  const Network router(machine, box);
  Rng rng(tasks * 7 + model.engines * 3 + model.ranksPerNode);
  const Problem problem = testing::randomModelProblem(tasks, 4, rng, model, oneSizePerSet);
  if constexpr (std::is_same_v<Engine, CompactTac3Objective>) {
    EXPECT_TRUE(CompactTac3Objective::fits(problem, router));  // else out of its contract
  }
  Engine engine(problem, router, randomMapping(tasks, box, 5, model.ranksPerNode), extra...);
  const int positions = box.nodeCount * model.ranksPerNode;
  int rejected = 0;
  // Under the sanitizers (10x slower there) 25 moves: the same checks, fewer steps (the
  // release pass runs 300: with 15 models x 2 shapes x 2 storages, enough to commit, discard
  // and reject early thousands of times, in about a minute).
  const int moves = testing::underSanitizers() ? 25 : 300;
  for (int move = 0; move < moves; ++move) {
    const int task = static_cast<int>(rng.below(tasks));
    const int position = static_cast<int>(rng.below(positions));
    const double limit = rng.below(2) ? 1e308 : static_cast<double>(rng.below(1 << 22));
    const auto valueBefore = engine.value();
    const Mapping after = moved(engine.placement(), task, position);
    const Mapping before = engine.placement().mapping();
    const bool kept = engine.propose(task, position, [&] { return limit; });
    rejected += !kept;
    const ExactScores ref = evaluateExact(problem, router, kept ? after : before);
    if (!kept) {
      const ExactScores refAfter = evaluateExact(problem, router, after);
      EXPECT_GE(static_cast<double>(objectiveValue(refAfter, ObjectiveKind::Tac3) - valueBefore),
                limit);
      EXPECT_EQ(engine.placement().mapping().nodeOfTask, before.nodeOfTask);
    } else {
      check(engine.proposedValue(), engine.proposedSecondary(), ref);
    }
    if (kept && rng.below(3) != 0) {
      engine.commit();
      EXPECT_EQ(engine.placement().mapping().nodeOfTask, after.nodeOfTask);
      EXPECT_EQ(engine.placement().mapping().slotOfTask, after.slotOfTask);
    } else if (kept) {
      engine.discard();
    }
    check(engine.value(), engine.secondary(),
          evaluateExact(problem, router, engine.placement().mapping()));
    if (::testing::Test::HasFailure()) return rejected;
  }
  return rejected;
}

struct ModelCase {
  int engines, k;
  double ratio;
  Overlap overlap = Overlap::None;
  double intra = -1;  // intra-node bandwidth / link bandwidth; -1: the machine file's
};

const ModelCase kCases[] = {{4, 1, 1.0},
                            {6, 1, 1.0},
                            {1, 2, 1.0},
                            {4, 2, 1.0},
                            {4, 4, 1.0},
                            {2, 2, 0.75},
                            {1, 1, 0.5},
                            {6, 4, 1.6},
                            {1, 1, 1.0, Overlap::Adjacent},
                            {4, 2, 1.0, Overlap::Auto},
                            {4, 1, 1.0, Overlap::Adjacent},
                            {4, 2, 1.0, Overlap::None, 0},     // in-node messages free
                            {2, 4, 0.75, Overlap::None, 0.7},  // memory slower than a link
                            {1, 2, 1.0, Overlap::None, 3.3},   // closest-fraction weights
                            {4, 4, 1.0, Overlap::Auto, 5}};

TEST(Model, Tac3EngineEqualsReferenceAfterEveryMove) {
  const Machine fx10 = testing::fx10();
  int rejected = 0;  // early rejections, each checked above; they must happen
  // Sparse: hashed link tables, small enough to be rebuilt during the moves.
  // Under the sanitizers the dense tables only (the sparse ones are the same engine over a
  // hash table, checked in the release pass), to keep the second CI pass short.
  std::vector<Tac3Objective::Storage> storages = {Tac3Objective::Storage::Auto};
  if (!testing::underSanitizers()) storages.push_back(Tac3Objective::Storage::Sparse);
  for (const auto storage : storages)
    for (const ModelCase& c : kCases)
      for (const char* shape : {"2x2x2x2x3x2", "1x2x4x2x3x2"}) {
        SCOPED_TRACE(std::string(shape) + " engines " + std::to_string(c.engines) + " K " +
                     std::to_string(c.k) + " ratio " + std::to_string(c.ratio) + " overlap " +
                     overlapName(c.overlap) + " intra " + std::to_string(c.intra) +
                     (storage == Tac3Objective::Storage::Sparse ? " sparse" : " auto"));
        Machine m = withEngines(fx10, c.engines, fx10.linkBandwidth * c.ratio);
        if (c.intra >= 0) m.intraNodeBandwidth = fx10.linkBandwidth * c.intra;
        const Model model = makeModel(m, 0, c.k, c.overlap);
        rejected += randomMoves<Tac3Objective>(
            m, shape, model, 60 * c.k, false,
            [](std::uint64_t value, std::uint64_t secondary, const ExactScores& ref) {
              ASSERT_EQ(value, ref.tac3ByteCounts);
              ASSERT_EQ(secondary, ref.sharedPairs);
            },
            storage);
      }
  EXPECT_GT(rejected, testing::underSanitizers() ? 5 : 200);
}

// Graph machines (routes from a table) with several ranks per node: the memory links follow
// the graph's link ids and engine links.
TEST(Model, Tac3EngineEqualsReferenceOnGraphMachinesWithMemoryLinks) {
  int rejected = 0;
  for (const Machine& graph : {parseMachine(fatTreeMachine(4, 2, {}), "fat-tree.json"),
                               parseMachine(dragonflyMachine(4, 3, 2, {}, {}), "dragonfly.json")})
    for (int k : {2, 3}) {
      SCOPED_TRACE(graph.source + " K " + std::to_string(k));
      const Machine m = withIntraNode(graph, graph.linkBandwidth * 2.5);
      const Model model = makeModel(m, 2, k);
      ASSERT_TRUE(model.memoryLinks());
      rejected += randomMoves<Tac3Objective>(
          m, std::to_string(m.axes[0].size), model, m.axes[0].size * k - 3, false,
          [](std::uint64_t value, std::uint64_t secondary, const ExactScores& ref) {
            ASSERT_EQ(value, ref.tac3ByteCounts);
            ASSERT_EQ(secondary, ref.sharedPairs);
          });
    }
  EXPECT_GT(rejected, 0);
}

TEST(Model, TahbAndRmattEnginesEqualReferenceWithSeveralRanksPerNode) {
  const Machine fx10 = testing::fx10();
  for (int k : {2, 4}) {
    const Model model = makeModel(fx10, 4, k);
    randomMoves<TahbObjective>(fx10, "2x2x2x2x3x2", model, 70 * k, false,
                               [](std::uint64_t value, std::uint64_t, const ExactScores& ref) {
                                 ASSERT_EQ(value, ref.tahbByteHops);
                               });
    randomMoves<RmattObjective>(
        fx10, "2x2x2x2x3x2", model, 70 * k, false,
        [](unsigned __int128 value, std::uint64_t, const ExactScores& ref) {
          ASSERT_TRUE(value == static_cast<unsigned __int128>(ref.tahbByteHops) * ref.maxLinkBytes);
        });
  }
}

// Phase overlap: a union set per overlapping pair of consecutive CCSs (none across the
// barrier with auto), and its term is what the two CCSs add to each other's busiest links.
TEST(Model, OverlapChargesWhatConsecutiveCcssAddToEachOther) {
  const Machine line = testing::simpleMachine({4}, {false});
  const Box box = makeBox(line, "4");
  const Network router(line, box);
  CcsSet sets;
  sets.tasks = 4;
  // 0->2 (links 0>1, 1>2) in CCS 0 at level 0; 1->3 (1>2, 2>3) in CCS 1 at level 1; a
  // barrier before level 2, then 0->2 again in CCS 2.
  sets.sets = {{{0, 2, 100}}, {{1, 3, 100}}, {{0, 2, 100}}};
  for (int t = 0; t < 3; ++t) sets.sets[t][0].level = t;
  sets.barrierLevels = {2};
  EXPECT_FALSE(sets.barrierBetween(0));
  EXPECT_TRUE(sets.barrierBetween(1));
  const Mapping identity = identityMapping(4, box);
  const double b = line.linkBandwidth;
  const Problem none = makeProblem(sets, makeModel(line, 1, 1, Overlap::None));
  const Problem adjacent = makeProblem(sets, makeModel(line, 1, 1, Overlap::Adjacent));
  const Problem automatic = makeProblem(sets, makeModel(line, 1, 1, Overlap::Auto));
  EXPECT_EQ(adjacent.ccsCount, 5);   // two unions
  EXPECT_EQ(automatic.ccsCount, 4);  // none across the barrier
  EXPECT_DOUBLE_EQ(evaluate(none, router, identity, b).tac3, 300 / b);
  // The union of CCS 0 and 1 has two messages on link 1>2: 200 - max(100, 100) more.
  EXPECT_DOUBLE_EQ(evaluate(automatic, router, identity, b).tac3, 400 / b);
  EXPECT_DOUBLE_EQ(evaluate(adjacent, router, identity, b).tac3, 500 / b);
  // tahb and the link counts see the trace's messages only.
  EXPECT_EQ(evaluateExact(adjacent, router, identity).tahbByteHops,
            evaluateExact(none, router, identity).tahbByteHops);
  EXPECT_EQ(evaluateExact(adjacent, router, identity).maxLinkMessages, 1);
}

// The compact engine takes any engines and ranks per node (one set size each), not phase
// overlap.
TEST(Model, CompactEngineTakesAnyEnginesAndRanksPerNode) {
  const Machine fx10 = testing::fx10();
  const Box box = makeBox(fx10, "2x2x2x2x3x2");
  const Network router(fx10, box);
  CcsSet sets;
  sets.tasks = 4;
  sets.sets.push_back({{0, 1, 64}, {2, 3, 64}});
  EXPECT_TRUE(CompactTac3Objective::fits(makeProblem(sets, makeModel(fx10, 1)), router));
  EXPECT_TRUE(CompactTac3Objective::fits(makeProblem(sets, makeModel(fx10, 4)), router));
  EXPECT_TRUE(CompactTac3Objective::fits(makeProblem(sets, makeModel(fx10, 1, 2)), router));
  EXPECT_TRUE(CompactTac3Objective::fits(makeProblem(sets, makeModel(fx10, 4, 4)), router));
  EXPECT_FALSE(CompactTac3Objective::fits(
      makeProblem(sets, makeModel(fx10, 1, 1, Overlap::Adjacent)), router));
  EXPECT_FALSE(
      CompactTac3Objective::fits(makeProblem(sets, makeModel(fx10, 4, 2, Overlap::Auto)), router));
  // Weighted loads must stay below 2^15: 255 messages of the largest weight do not.
  Machine slowMemory = fx10;
  slowMemory.intraNodeBandwidth = fx10.linkBandwidth / 200;
  const Model heavy = makeModel(slowMemory, 1, 2);
  ASSERT_GT(heavy.memoryWeight * 255, 32767u);
  CcsSet many;
  many.tasks = 192;
  many.sets.emplace_back();
  for (int i = 0; i < 255; ++i) many.sets[0].push_back({i % 192, (i + 1) % 192, 64});
  EXPECT_FALSE(CompactTac3Objective::fits(makeProblem(many, heavy), router));
  many.sets[0].resize(32767 / heavy.memoryWeight / 2);
  EXPECT_TRUE(CompactTac3Objective::fits(makeProblem(many, heavy), router));
}

// The compact engine against the reference after every move, value and pairs: one rank per
// node (a constant node term and scaled network counts) and several (weighted 16-bit loads on
// network, engine and memory links), engines faster and slower than links, ranks that send
// several messages in a set (the node term then often decides the cost).
TEST(Model, CompactEngineEqualsReferenceAfterEveryMove) {
  const Machine fx10 = testing::fx10();
  int rejected = 0, cases = 0;
  for (const ModelCase& c : kCases) {
    if (c.overlap != Overlap::None) continue;
    for (const char* shape : {"2x2x2x2x3x2", "1x2x4x2x3x2"}) {
      SCOPED_TRACE(std::string(shape) + " engines " + std::to_string(c.engines) + " K " +
                   std::to_string(c.k) + " ratio " + std::to_string(c.ratio) + " intra " +
                   std::to_string(c.intra));
      Machine m = withEngines(fx10, c.engines, fx10.linkBandwidth * c.ratio);
      if (c.intra >= 0) m.intraNodeBandwidth = fx10.linkBandwidth * c.intra;
      const Model model = makeModel(m, 0, c.k);
      // Weights as fine as 816 : 85 : 240 (engines 6 at 1.6 B, K 4) leave room for only 40
      // messages per set in 16 bits: that model is the general engine's.
      if (c.k > 1 &&
          std::max({model.linkWeight, model.nodeWeight, model.memoryWeight}) * 120 > 32767)
        continue;
      ++cases;
      // 60 ranks: sets of at most 120 messages, within a byte's 255 and, at every case's
      // largest weight, within 2^15 weighted.
      rejected += randomMoves<CompactTac3Objective>(
          m, shape, model, 60, true,
          [](std::uint64_t value, std::uint64_t secondary, const ExactScores& ref) {
            ASSERT_EQ(value, ref.tac3ByteCounts);
            ASSERT_EQ(secondary, ref.sharedPairs);
          });
    }
  }
  EXPECT_EQ(cases, 2 * 10);
  if (!testing::underSanitizers()) {
    EXPECT_GT(rejected, 50);  // early rejections happen, and each was checked above
  }
}

// The annealer with several ranks per node: a valid mapping (distinct slots, at most K per
// node), never worse than its start, the same for the same seed.
// Full nodes (every slot used): the compact engine takes the general one's decisions through
// the whole search (annealing, node swaps, tie-break descent), so both give the same mapping,
// slots included, after the same trials and acceptances.
TEST(Model, BothTac3EnginesTakeTheSameSearchOnFullNodes) {
  const Machine fx10 = testing::fx10();
  const Box box = makeBox(fx10, "1x1x2x2x3x2");
  const Network router(fx10, box);
  for (int k : {2, 4})
    for (std::uint64_t seed : {1, 2}) {
      SCOPED_TRACE("K " + std::to_string(k) + " seed " + std::to_string(seed));
      const Model model = makeModel(fx10, 0, k);
      Rng rng(5 + k);
      const Problem p = testing::randomModelProblem(box.nodeCount * k, 4, rng, model, true);
      ASSERT_TRUE(CompactTac3Objective::fits(p, router));
      Schedule s;
      s.trialsPerTemperature = 100;
      s.tEnd = 1e-3;
      s.earlyStop = false;
      const Mapping start = randomMapping(p.tasks, box, seed, k);
      s.tac3Engine = Tac3Engine::General;
      const SearchResult general = anneal(p, router, ObjectiveKind::Tac3, start, s, seed);
      s.tac3Engine = Tac3Engine::Compact;
      const SearchResult compact = anneal(p, router, ObjectiveKind::Tac3, start, s, seed);
      EXPECT_EQ(compact.best.nodeOfTask, general.best.nodeOfTask);
      EXPECT_EQ(compact.best.slotOfTask, general.best.slotOfTask);
      EXPECT_EQ(compact.trials, general.trials);
      EXPECT_EQ(compact.accepted, general.accepted);
      EXPECT_EQ(compact.tieBreakMoves, general.tieBreakMoves);
      EXPECT_GT(general.accepted, 0u);
    }
}

TEST(Model, AnnealerPlacesRanksInSlots) {
  const Machine fx10 = testing::fx10();
  const Box box = makeBox(fx10, "2x2x2x2x3x2");
  const Network router(fx10, box);
  for (int k : {2, 4}) {
    const Model model = makeModel(fx10, 4, k);
    Rng rng(3 + k);
    const Problem p = testing::randomModelProblem(96 * k / 2, 4, rng, model);
    Schedule s;
    s.trialsPerTemperature = 300;
    s.tEnd = 1e-3;
    const Mapping block = identityMapping(p.tasks, box, k);
    const SearchResult a = anneal(p, router, ObjectiveKind::Tac3, block, s, 9);
    const SearchResult b = anneal(p, router, ObjectiveKind::Tac3, block, s, 9);
    checkMapping(a.best, box, "result", k);
    EXPECT_EQ(a.best.nodeOfTask, b.best.nodeOfTask);
    EXPECT_EQ(a.best.slotOfTask, b.best.slotOfTask);
    const ExactScores start = evaluateExact(p, router, block);
    EXPECT_EQ(a.bestScores.tac3ByteCounts, evaluateExact(p, router, a.best).tac3ByteCounts);
    EXPECT_LT(a.bestScores.tac3ByteCounts, start.tac3ByteCounts);
  }
}

}  // namespace
}  // namespace tac3map
