// Whole-run traces: repeated CCSs are merged with a count (problem.hpp). The merged problem
// must score exactly as the list kept apart, under every model, in the reference evaluator,
// in every engine and in predict; only equal sets merge; the iteration period is found.
#include <gtest/gtest.h>

#include <sstream>

#include "tac3map/gen/cg_pattern.hpp"
#include "tac3map/gen/patterns.hpp"
#include "tac3map/io/trace_formats.hpp"
#include "tac3map/model/ccs.hpp"
#include "tac3map/model/model.hpp"
#include "tac3map/model/objective.hpp"
#include "tac3map/model/predict.hpp"
#include "tac3map/model/problem.hpp"
#include "tac3map/model/profile.hpp"
#include "tac3map/search/incremental.hpp"
#include "tac3map/search/incremental_compact.hpp"
#include "tac3map/search/incremental_general.hpp"
#include "tac3map/base/random.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

// Random sets (several messages per rank, sizes from a small set, or one size per set), then
// random copies of them inserted anywhere.
CcsSet randomRepeatedSets(int tasks, int distinct, int copies, bool oneSize, Rng& rng) {
  CcsSet sets;
  sets.tasks = tasks;
  const std::uint64_t sizes[] = {8, 1024, 65536, 1 << 20};
  for (int t = 0; t < distinct; ++t) {
    std::vector<Communication> set;
    const int messages = 1 + static_cast<int>(rng.below(2 * tasks));
    for (int i = 0; i < messages; ++i) {
      const int src = static_cast<int>(rng.below(tasks));
      const int dst = static_cast<int>(rng.below(tasks));  // self messages too: never charged
      set.push_back({src, dst, oneSize ? 65536 : sizes[rng.below(4)]});
    }
    sets.sets.push_back(set);
  }
  testing::addRepeats(sets, copies, rng);
  return sets;
}

void expectSameScores(const ExactScores& a, const ExactScores& b) {
  EXPECT_EQ(a.tac3ByteCounts, b.tac3ByteCounts);
  EXPECT_EQ(a.lowerBoundBytes, b.lowerBoundBytes);
  EXPECT_EQ(a.tac3Scale, b.tac3Scale);
  EXPECT_EQ(a.sharedPairs, b.sharedPairs);
  EXPECT_EQ(a.tahbByteHops, b.tahbByteHops);
  EXPECT_EQ(a.maxLinkBytes, b.maxLinkBytes);
  EXPECT_EQ(a.totalBytes, b.totalBytes);
  EXPECT_EQ(a.maxLinkMessages, b.maxLinkMessages);
}

TEST(Repeats, MergedScoresEqualTheListKeptApart) {
  const Machine fx10 = testing::fx10();
  const Box box = makeBox(fx10, "2x2x2x2x3x2");
  const Network router(fx10, box);
  const TimeModel message({{8, 1e-6}, {1 << 20, 1e-6 + (1 << 20) / fx10.linkBandwidth}},
                          ModelKind::Linear, "test");
  Rng rng(2023);
  int merged = 0;
  // Under the sanitizers two draws per model (one size and several): predict's flow
  // simulation of the list kept apart is the costly part.
  const int draws = testing::underSanitizers() ? 2 : 4;
  for (int engines : {1, 4})
    for (int k : {1, 2})
      for (double ratio : {1.0, 0.5}) {
        Machine m = fx10;
        m.injectionEngines = engines;
        m.injectionBandwidth = fx10.linkBandwidth * ratio;
        const Model model = makeModel(m, 0, k);
        for (int draw = 0; draw < draws; ++draw) {
          const int tasks = 48 * k;
          const CcsSet sets = randomRepeatedSets(tasks, 6, 12, draw % 2 == 0, rng);
          const Problem together = makeProblem(sets, model);
          const Problem apart = makeProblem(sets, model, false);
          ASSERT_EQ(apart.ccsCount, static_cast<int>(sets.sets.size()));
          ASSERT_LE(together.ccsCount, 6);
          merged += apart.ccsCount - together.ccsCount;
          const Mapping mapping = randomMapping(tasks, box, rng.below(1u << 30), k);
          SCOPED_TRACE("engines " + std::to_string(engines) + " K " + std::to_string(k));
          expectSameScores(evaluateExact(together, router, mapping),
                           evaluateExact(apart, router, mapping));
          const PredictModel pm{message, message, 1e-7, model};
          EXPECT_NEAR(predict(together, router, mapping, pm, 0).communication,
                      predict(apart, router, mapping, pm, 0).communication, 1e-12);
        }
      }
  EXPECT_GT(merged, 100);  // 6 distinct sets and 12 copies per draw: most copies merge
}

// Each engine on the merged problem against the reference on the list kept apart, after
// random moves.
template <class Engine, class Value>
void engineMatchesApart(const Problem& together, const Problem& apart, const Network& router,
                        const Mapping& start, Value value, Rng& rng) {
  Engine engine(together, router, start);
  for (int move = 0; move < 300; ++move) {
    const int task = static_cast<int>(rng.below(together.tasks));
    const int node = static_cast<int>(rng.below(router.nodeCount()));
    if (!engine.propose(task, node, [] { return 1e308; })) continue;
    if (rng.below(2))
      engine.commit();
    else
      engine.discard();
    const ExactScores ref = evaluateExact(apart, router, engine.placement().mapping());
    ASSERT_EQ(engine.value(), value(ref));
    if (::testing::Test::HasFailure()) return;
  }
}

TEST(Repeats, EnginesOnMergedSetsEqualTheReferenceOnTheListKeptApart) {
  const Machine fx10 = testing::fx10();
  const Box box = makeBox(fx10, "2x2x2x2x3x2");
  const Network router(fx10, box);
  Rng rng(7);
  for (bool oneSize : {true, false}) {
    // The compact engine takes one message per rank and one size per set.
    CcsSet sets;
    sets.tasks = 64;
    for (int t = 0; t < 5; ++t) {
      std::vector<int> perm(64);
      for (int i = 0; i < 64; ++i) perm[i] = i;
      for (int i = 63; i > 0; --i) std::swap(perm[i], perm[rng.below(i + 1)]);
      std::vector<Communication> set;
      for (int i = 0; i < 64; ++i)
        set.push_back({i, perm[i], oneSize ? 4096 : 1024 + rng.below(4096)});
      sets.sets.push_back(set);
    }
    testing::addRepeats(sets, 20, rng);
    const Problem together = makeProblem(sets), apart = makeProblem(sets, {}, false);
    ASSERT_EQ(together.ccsCount, 5);
    const Mapping start = randomMapping(64, box, 11);
    const auto tac3 = [](const ExactScores& e) { return e.tac3ByteCounts; };
    const auto tahb = [](const ExactScores& e) { return e.tahbByteHops; };
    engineMatchesApart<Tac3Objective>(together, apart, router, start, tac3, rng);
    engineMatchesApart<TahbObjective>(together, apart, router, start, tahb, rng);
    if (oneSize) {
      ASSERT_TRUE(CompactTac3Objective::fits(together, router));
      engineMatchesApart<CompactTac3Objective>(together, apart, router, start, tac3, rng);
    }
  }
}

TEST(Repeats, OnlyEqualSetsMerge) {
  CcsSet sets;
  sets.tasks = 4;
  sets.sets = {{{0, 1, 8}, {2, 3, 8}},
               {{2, 3, 8}, {0, 1, 8}},              // the first, in another order
               {{0, 1, 8}, {2, 3, 9}},              // one byte more
               {{0, 1, 8}, {2, 3, 8}, {1, 1, 64}},  // the first and a message to itself
               {{0, 1, 8}}};
  const Problem p = makeProblem(sets);
  EXPECT_EQ(p.ccsCount, 3);
  EXPECT_EQ(p.ccsOfSet, (std::vector<int>{0, 0, 1, 0, 2}));
  EXPECT_EQ(p.repeats, (std::vector<std::uint64_t>{3, 1, 1}));
  EXPECT_EQ(p.communicationCount(), 5u);
  EXPECT_EQ(p.volume[0], 24u);
  // Phase overlap needs the order: nothing merges.
  Model overlap;
  overlap.overlap = Overlap::Adjacent;
  const Problem ordered = makeProblem(sets, overlap);
  EXPECT_EQ(ordered.realCcsCount, 5);
  EXPECT_EQ(ordered.ccsOfSet, (std::vector<int>{0, 1, 2, 3, 4}));
}

TEST(Repeats, FindsTheIterationBetweenAPrologueAndAnEpilogue) {
  Rng rng(5);
  for (int draw = 0; draw < 50; ++draw) {
    const std::size_t prologue = rng.below(20), length = 1 + rng.below(30),
                      repeats = 2 + rng.below(40), epilogue = rng.below(20);
    std::vector<int> sequence;
    for (std::size_t i = 0; i < prologue; ++i) sequence.push_back(1000 + static_cast<int>(i));
    for (std::size_t r = 0; r < repeats; ++r)
      for (std::size_t i = 0; i < length; ++i) sequence.push_back(static_cast<int>(i));
    for (std::size_t i = 0; i < epilogue; ++i) sequence.push_back(2000 + static_cast<int>(i));
    const Period p = findPeriod(sequence);
    SCOPED_TRACE("prologue " + std::to_string(prologue) + " length " + std::to_string(length) +
                 " repeats " + std::to_string(repeats));
    EXPECT_EQ(p.length, length);
    EXPECT_EQ(p.repeats, repeats);
    EXPECT_EQ(p.start, prologue);
  }
  EXPECT_EQ(findPeriod({0, 1, 2, 3, 4}).length, 0u);
  EXPECT_EQ(findPeriod({}).length, 0u);
}

// Every shipped trace, with its repeated sets merged and kept apart, scores the same under the
// paper's model and the machine's (4 engines), for identity and random mappings.
TEST(Repeats, ShippedTracesScoreTheSameMergedOrNot) {
  const Machine fx10 = testing::fx10();
  const Box box = makeBox(fx10, "2x2x2x2x3x2");
  const Network router(fx10, box);
  const char* traces[] = {
      "examples/cg32-isend.trace", "examples/cg32-send.trace", "examples/cg32-sendrecv.trace",
      "examples/cg64-isend.trace", "examples/cg64-send.trace", "examples/cg64-sendrecv.trace",
      "tests/data/ring.trace",     "tests/data/split.trace",   "tests/data/ring.simgrid"};
  std::vector<std::pair<std::string, Trace>> all;
  for (const char* path : traces)
    all.emplace_back(path, readAnyTrace(testing::sourcePath(path), TraceFormat::Auto, {}));
  // Whole runs: several iterations of CG and of a stencil, as a tracer records them (without
  // the generator's iteration markers, which would select one iteration).
  const auto wholeRun = [](const std::string& text) {
    std::istringstream in(text);
    std::string kept, line;
    while (std::getline(in, line))
      if (line.find(" iteration") == std::string::npos) kept += line + "\n";
    return testing::traceFromText(kept);
  };
  CgOptions cg;
  cg.iterations = 5;
  cg.variant = CgVariant::IrecvIsendWaitall;
  all.emplace_back("cg x5", wholeRun(generateCgTrace(cg)));
  StencilOptions stencil;
  stencil.dims = {4, 4, 4};
  stencil.periodic = true;
  stencil.iterations = 3;
  all.emplace_back("stencil x3", wholeRun(generateStencilTrace(stencil)));
  int merged = 0;
  for (const auto& [name, trace] : all) {
    SCOPED_TRACE(name);
    for (int engines : {1, 4}) {
      CcsOptions options;
      options.engines = engines;
      const CcsSet sets = extractCcs(trace, options);
      const Model model = makeModel(fx10, engines);
      const Problem together = makeProblem(sets, model), apart = makeProblem(sets, model, false);
      merged += apart.ccsCount - together.ccsCount;
      for (std::uint64_t seed : {0, 1, 2}) {
        const Mapping mapping =
            seed == 0 ? identityMapping(sets.tasks, box) : randomMapping(sets.tasks, box, seed);
        expectSameScores(evaluateExact(together, router, mapping),
                         evaluateExact(apart, router, mapping));
      }
    }
  }
  EXPECT_GT(merged, 0);  // the whole runs did repeat
}

}  // namespace
}  // namespace tac3map
