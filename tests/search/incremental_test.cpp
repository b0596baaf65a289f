// The incremental engines against the reference evaluator, exactly, over thousands of random
// moves on several machines, with equal and unequal message sizes.
#include "tac3map/search/incremental.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <type_traits>

#include "tac3map/base/random.hpp"
#include "tac3map/gen/topologies.hpp"
#include "tac3map/search/incremental_compact.hpp"
#include "tac3map/search/incremental_general.hpp"
#include "tac3map/search/objectives.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

// Message sizes of a random problem: one per CCS; one per CCS for every other CCS and four
// mixed in the rest (both of the general engine's paths); or a size of its own per message
// (as `gen random` writes).
enum class Sizes { Equal, Mixed, Distinct };

// Random CCSs with distinct sources and distinct destinations in each.
Problem randomProblem(int tasks, int ccsCount, Rng& rng, Sizes sizes) {
  CcsSet sets;
  sets.tasks = tasks;
  const std::uint64_t mixed[] = {1024, 1024, 4096, 1 << 20};
  for (int t = 0; t < ccsCount; ++t) {
    std::vector<int> perm(tasks);
    for (int i = 0; i < tasks; ++i) perm[i] = i;
    for (int i = tasks - 1; i > 0; --i) std::swap(perm[i], perm[rng.below(i + 1)]);
    std::vector<Communication> set;
    for (int i = 0; i < tasks; ++i) {
      if (rng.below(4) == 0) continue;  // not every task talks in every set
      std::uint64_t bytes = 65536;
      if (sizes == Sizes::Mixed && t % 2 == 0) bytes = mixed[rng.below(4)];
      if (sizes == Sizes::Distinct) bytes = 1024 + rng.below(1 << 20);
      set.push_back({i, perm[i], bytes});
    }
    sets.sets.push_back(set);
  }
  testing::addRepeats(sets, ccsCount / 2 + 1, rng);  // the engines see repeated sets merged
  return makeProblem(sets);
}

std::uint64_t referenceSharedPairs(const Problem& p, const Network& r, const Mapping& m) {
  std::vector<std::map<LinkId, std::uint64_t>> load(p.ccsCount);
  for (std::size_t c = 0; c < p.communicationCount(); ++c)
    for (LinkId l : r.route(m.nodeOfTask[p.src[c]], m.nodeOfTask[p.dst[c]])) ++load[p.ccs[c]][l];
  std::uint64_t pairs = 0;
  for (int t = 0; t < p.ccsCount; ++t)
    for (const auto& [link, n] : load[t]) pairs += p.repeats[t] * (n * (n - 1) / 2);
  return pairs;
}

// Mapping after moving `task` to `node` (swapping with the task there).
Mapping moved(const Mapping& m, int task, int node) {
  Mapping after = m;
  for (int other = 0; other < m.tasks(); ++other)
    if (m.nodeOfTask[other] == node) after.nodeOfTask[other] = m.nodeOfTask[task];
  after.nodeOfTask[task] = node;
  return after;
}

// Random proposals, each committed or discarded at random (as the annealer does); after each
// the engine's numbers must equal the reference's, for the proposal and for the state.
// Proposals get a random rejection limit; one the engine rejects early must really raise the
// value by at least that much.
template <class Engine, class Check, class... Extra>
void randomMoves(const Machine& machine, const std::string& shape, int tasks, Sizes sizes,
                 std::size_t cacheBudget, Check check, Extra... extra) {
  const Box box = makeBox(machine, shape);
  const Network router(machine, box, cacheBudget);
  Rng rng(tasks * 31 + box.nodeCount);
  const Problem problem = randomProblem(tasks, 5, rng, sizes);
  Engine engine(problem, router, randomMapping(tasks, box, 3), extra...);
  // The engine's state carries every earlier move, so checking a large box every few moves
  // still catches any drift; small boxes are checked after every move.
  // Under the sanitizers (10x slower there) the reference, the costly part, checks one move
  // in thirty as often: the same 2000 moves, the same early rejections.
  const int checkEvery = (box.nodeCount > 200 ? 25 : 1) * (testing::underSanitizers() ? 30 : 1);
  const int moves = 2000;
  int rejectedEarly = 0;
  for (int move = 0; move < moves; ++move) {
    const int task = static_cast<int>(rng.below(tasks));
    const int node = static_cast<int>(rng.below(box.nodeCount));
    const double limit = rng.below(2) ? 1e308 : static_cast<double>(rng.below(1 << 20));
    const auto valueBefore = engine.value();
    const bool inspect = move % checkEvery == 0;
    const Mapping before{engine.placement().nodeOfTask()};
    const bool kept = engine.propose(task, node, [&] { return limit; });
    const Mapping after = moved(before, task, node);
    rejectedEarly += !kept;
    if (!kept && inspect) {
      const ExactScores ref = evaluateExact(problem, router, after);
      const auto rise = objectiveValue(ref, ObjectiveKind::Tac3) - valueBefore;
      ASSERT_GT(ref.tac3ByteCounts, valueBefore);
      ASSERT_GE(static_cast<double>(rise), limit);
      ASSERT_EQ(engine.placement().nodeOfTask(), before.nodeOfTask);
    } else if (inspect) {
      check(engine.proposedValue(), engine.proposedSecondary(),
            evaluateExact(problem, router, after), problem, router, after);
    }
    if (kept && rng.below(3) != 0) {
      engine.commit();
      ASSERT_EQ(engine.placement().nodeOfTask(), after.nodeOfTask);
    } else if (kept) {
      engine.discard();
    }
    if (!inspect) continue;
    const Mapping now{engine.placement().nodeOfTask()};
    check(engine.value(), engine.secondary(), evaluateExact(problem, router, now), problem, router,
          now);
    if (::testing::Test::HasFailure()) return;
  }
  // Only tac3 rejects early; it must have done so on these random boxes.
  if (std::is_same_v<Engine, Tac3Objective> || std::is_same_v<Engine, CompactTac3Objective>) {
    EXPECT_GT(rejectedEarly, 0);
  }
}

struct Case {
  Machine machine;
  std::string shape;
  int tasks;
};

std::vector<Case> cases() {
  const Machine fx10 = testing::fx10();
  return {{fx10, "2x2x2x2x3x2", 64},
          {fx10, "1x2x4x2x3x2", 96},
          {fx10, "4x2x8x2x3x2", 300},
          {testing::simpleMachine({4, 4, 4}, {true, true, true}), "4x4x4", 50},
          {testing::simpleMachine({5, 3}, {false, false}), "5x3", 15},
          // Graph machines (routes from a table, link ids = capacities).
          {parseMachine(fatTreeMachine(4, 2, {}), "fat-tree.json"), "16", 14},
          {parseMachine(dragonflyMachine(4, 3, 2, {}, {}), "dragonfly.json"), "24", 24}};
}

TEST(Incremental, Tac3EqualsReferenceAfterEveryMove) {
  using Storage = Tac3Objective::Storage;
  for (const Case& c : cases())
    for (Sizes sizes : {Sizes::Equal, Sizes::Mixed, Sizes::Distinct})
      for (std::size_t budget : {Network::kDefaultCacheBudget, std::size_t{0}})
        for (Storage storage : {Storage::Auto, Storage::Sparse}) {
          if (storage == Storage::Sparse && budget == 0) continue;  // storage is route-blind
          SCOPED_TRACE(c.shape + " sizes " + std::to_string(static_cast<int>(sizes)) +
                       (budget ? " cached" : " walked") +
                       (storage == Storage::Sparse ? " sparse" : " auto"));
          randomMoves<Tac3Objective>(
              c.machine, c.shape, c.tasks, sizes, budget,
              [](std::uint64_t value, std::uint64_t secondary, const ExactScores& ref,
                 const Problem& p, const Network& r, const Mapping& m) {
                ASSERT_EQ(value, ref.tac3ByteCounts);
                ASSERT_EQ(secondary, referenceSharedPairs(p, r, m));
              },
              storage);
        }
}

// The general engine's tables grow with the job's messages and routes, not with CCSs x links:
// 400 CCSs of 4 messages each on a 4,096-node torus (24,576 links; dense tables would take
// 400 x 24,576 loads). Both kinds of CCS (one size, several sizes) are held hashed.
TEST(Incremental, Tac3TablesAreLinearInMessages) {
  const Machine torus = testing::simpleMachine({16, 16, 16}, {true, true, true});
  const Box box = makeBox(torus, "16x16x16");
  const Network router(torus, box);
  Rng rng(11);
  CcsSet sets;
  sets.tasks = 256;
  std::size_t messages = 0;
  for (int t = 0; t < 400; ++t) {
    sets.sets.emplace_back();
    for (int i = 0; i < 4; ++i, ++messages) {
      const int src = static_cast<int>(rng.below(256));
      const std::uint64_t bytes = t % 2 == 0 ? 4096 : 1024 + rng.below(4096);
      sets.sets.back().push_back({src, (src + 1 + static_cast<int>(rng.below(255))) % 256, bytes});
    }
  }
  const Problem problem = makeProblem(sets);
  const Tac3Objective engine(problem, router, randomMapping(256, box, 1));
  const std::size_t dense = std::size_t{400} * router.linkIdLimit() * 4;
  const std::size_t perMessageHop = engine.tableBytes() / (messages * router.longestRoute());
  EXPECT_LT(engine.tableBytes(), dense / 5);
  EXPECT_LE(perMessageHop, 256u);  // a few slots of at most 36 bytes per message and hop
  EXPECT_EQ(engine.value(),
            evaluateExact(problem, router, randomMapping(256, box, 1)).tac3ByteCounts);
}

TEST(Incremental, CompactTac3EqualsReferenceAfterEveryMove) {
  int fitted = 0;
  for (const Case& c : cases()) {
    const Box box = makeBox(c.machine, c.shape);
    const Network router(c.machine, box);
    Rng rng(c.tasks * 31 + box.nodeCount);  // the problem randomMoves draws
    if (!CompactTac3Objective::fits(randomProblem(c.tasks, 5, rng, Sizes::Equal), router)) continue;
    ++fitted;
    SCOPED_TRACE(c.shape);
    randomMoves<CompactTac3Objective>(
        c.machine, c.shape, c.tasks, Sizes::Equal, Network::kDefaultCacheBudget,
        [](std::uint64_t value, std::uint64_t secondary, const ExactScores& ref, const Problem& p,
           const Network& r, const Mapping& m) {
          ASSERT_EQ(value, ref.tac3ByteCounts);
          ASSERT_EQ(secondary, referenceSharedPairs(p, r, m));
        });
  }
  EXPECT_GE(fitted, 4);  // all but the whole FX10, whose route table is too large
}

// Only equal-sized messages per CCS, at most 255 of them, on boxes whose route table is small.
TEST(Incremental, LargestLoadIsTheMaximumForBothWidths) {
  // The compact engine's vectorised pass against std::max_element, on random loads at or below
  // the ceiling (at it, somewhere, or nowhere), 8- and 16-bit, one to several 64-byte blocks.
  Rng rng(7);
  const auto check = [&](auto zero, std::uint32_t top) {
    using T = decltype(zero);
    for (int trial = 0; trial < 200; ++trial) {
      const std::uint32_t count = static_cast<std::uint32_t>(64 / sizeof(T) * (1 + rng.below(4)));
      const std::uint32_t ceiling = static_cast<std::uint32_t>(1 + rng.below(top));
      std::vector<T> loads(count);
      for (T& l : loads) l = static_cast<T>(rng.below(ceiling + 1));
      if (trial % 3 == 0)
        for (T& l : loads) l = static_cast<T>(std::min<std::uint32_t>(l, ceiling - 1));
      const std::uint32_t expected = *std::max_element(loads.begin(), loads.end());
      EXPECT_EQ(largestLoad(loads.data(), count, ceiling), expected)
          << sizeof(T) << "-byte loads, ceiling " << ceiling;
    }
  };
  check(std::uint8_t{0}, 255);
  check(std::uint16_t{0}, 32767);
}

TEST(Incremental, CompactTac3FitsOnlyWhereItCan) {
  const Machine fx10 = testing::fx10();
  const Box small = makeBox(fx10, "2x2x2x2x3x2");
  const Network router(fx10, small);
  Rng rng(5);
  EXPECT_TRUE(CompactTac3Objective::fits(randomProblem(64, 4, rng, Sizes::Equal), router));
  EXPECT_FALSE(CompactTac3Objective::fits(randomProblem(64, 4, rng, Sizes::Mixed), router));
  // 256 messages in one CCS: one too many for a byte.
  const Machine torus = testing::simpleMachine({8, 8, 4}, {true, true, true});
  const Network torusRouter(torus, makeBox(torus, "8x8x4"));
  CcsSet one;
  one.tasks = 256;
  one.sets.emplace_back();
  for (int i = 0; i < 256; ++i) one.sets[0].push_back({i, (i + 1) % 256, 8});
  EXPECT_FALSE(CompactTac3Objective::fits(makeProblem(one), torusRouter));
  one.sets[0].pop_back();
  EXPECT_TRUE(CompactTac3Objective::fits(makeProblem(one), torusRouter));
  // The whole FX10: 768 nodes, routes of up to 10 hops, too large a table.
  const Box whole = makeBox(fx10, "4x2x8x2x3x2");
  EXPECT_FALSE(
      CompactTac3Objective::fits(randomProblem(64, 4, rng, Sizes::Equal), Network(fx10, whole)));
}

TEST(Incremental, TahbEqualsReferenceAfterEveryMove) {
  for (const Case& c : cases())
    randomMoves<TahbObjective>(
        c.machine, c.shape, c.tasks, Sizes::Mixed, Network::kDefaultCacheBudget,
        [](std::uint64_t value, std::uint64_t, const ExactScores& ref, const Problem&,
           const Network&, const Mapping&) { ASSERT_EQ(value, ref.tahbByteHops); });
}

TEST(Incremental, RmattEqualsReferenceAfterEveryMove) {
  for (const Case& c : cases())
    for (Sizes sizes : {Sizes::Equal, Sizes::Mixed})
      randomMoves<RmattObjective>(
          c.machine, c.shape, c.tasks, sizes, Network::kDefaultCacheBudget,
          [](unsigned __int128 value, std::uint64_t, const ExactScores& ref, const Problem&,
             const Network&, const Mapping&) {
            ASSERT_TRUE(value ==
                        static_cast<unsigned __int128>(ref.tahbByteHops) * ref.maxLinkBytes);
          });
}

}  // namespace
}  // namespace tac3map
