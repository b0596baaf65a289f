// The library's pipeline against the pieces it puts together: mapJob's search is annealChains
// from the start Job::start resolves, and its scores are scoreJob's (the reference evaluator).
#include "tac3map/pipeline/map_job.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace tac3map {
namespace {

using testing::sourcePath;

Job cg64Job(int ranksPerNode) {
  BoxInput box;
  box.machine = sourcePath("topologies/fx10.json");
  box.shape = ranksPerNode == 1 ? "2x2x2x2x3x2" : "1x2x2x2x3x2";
  box.ranksPerNode = ranksPerNode;
  TraceInput trace;
  trace.trace = sourcePath("examples/cg64-isend.trace");
  return Job(box, trace, TraceEvents::Release);
}

TEST(MapJob, IsTheSearchFromTheResolvedStartAndScoresAsScoreJob) {
  // Under the sanitizers (several times slower) one seed: the CI's longest test otherwise.
  const std::vector<std::uint64_t> seeds =
      testing::underSanitizers() ? std::vector<std::uint64_t>{7} : std::vector<std::uint64_t>{1, 7};
  for (const int k : {1, 2}) {
    const Job job = cg64Job(k);
    for (const char* init : {"identity", "round-robin", "random"}) {
      for (const std::uint64_t seed : seeds) {
        MapJobOptions options;
        options.init = init;
        options.seed = seed;
        options.chains = 2;
        options.schedule.trialsPerTemperature = 200;
        const MapResult result = mapJob(job, options);
        // The reference: the same start and chains, called one by one.
        Schedule schedule = options.schedule;
        schedule.allocation = job.allocation;
        const Mapping start = job.start(init, options.objective, schedule, seed);
        const ChainsResult run = annealChains(job.problem, job.router, options.objective, start,
                                              schedule, seed, options.chains, 1);
        EXPECT_EQ(result.initial.nodeOfTask, start.nodeOfTask) << init << " K=" << k;
        EXPECT_EQ(result.from, "search");  // no flow ranking without init auto
        EXPECT_EQ(result.mapping.nodeOfTask, run.chains[run.best].best.nodeOfTask)
            << init << " seed " << seed << " K=" << k;
        const std::vector<Scores> scores = scoreJob(job, {result.mapping, start});
        EXPECT_EQ(result.scores.tac3, scores[0].tac3);
        EXPECT_EQ(result.scores.tahb, scores[0].tahb);
        EXPECT_EQ(result.initialScores.tac3, scores[1].tac3);
      }
    }
  }
}

TEST(MapJob, AutoRanksTheSearchAndTheStartsByTheFlowModel) {
  const Job job = cg64Job(2);
  MapJobOptions options;
  options.schedule.trialsPerTemperature = 200;
  const MapResult result = mapJob(job, options);
  ASSERT_TRUE(result.chosen);
  // The result is the search's map or one of the starts, and the flow model ranks every one.
  EXPECT_EQ(result.rankedByFlow, result.chosen->candidates.size() + 1);
  bool found = result.from == "search";
  for (const StartCandidate& c : result.chosen->candidates)
    if (c.name == result.from) found = c.mapping.nodeOfTask == result.mapping.nodeOfTask;
  EXPECT_TRUE(found) << result.from;
  ASSERT_TRUE(result.scores.flow);
  for (const StartCandidate& c : result.chosen->candidates)
    EXPECT_LE(*result.scores.flow, job.flow(c.mapping)->seconds) << c.name;
  MapJobOptions unranked = options;
  unranked.rankByFlow = false;
  EXPECT_EQ(mapJob(job, unranked).from, "search");
}

// --init auto's flow-only candidates come where the flow model ranks the maps, and only there.
TEST(MapJob, FlowOnlyCandidatesOnlyWhereTheFlowModelRanks) {
  const auto flowOnly = [](const MapResult& r) {
    std::size_t n = 0;
    for (const StartCandidate& c : r.chosen->candidates) n += c.mayStart ? 0 : 1;
    return n;
  };
  MapJobOptions options;
  options.schedule.trialsPerTemperature = 50;
  const Job ranked = cg64Job(1);
  const MapResult r = mapJob(ranked, options);
  ASSERT_TRUE(r.chosen);
  EXPECT_GT(flowOnly(r), 0u);
  EXPECT_EQ(r.rankedByFlow, r.chosen->candidates.size() + 1);
  Job unsimulated = cg64Job(1);
  unsimulated.flowMaxWork = 1;  // neither the whole trace nor a sample fits
  const MapResult u = mapJob(unsimulated, options);
  ASSERT_TRUE(u.chosen);
  EXPECT_EQ(flowOnly(u), 0u);
  EXPECT_EQ(u.rankedByFlow, 0u);
}

// A whole-run trace too costly to simulate whole gets, for every mapping of the job, the flow
// model's estimate from its shortest periodic walk, marked sampled; one that fits, the whole
// figure. A ring exchange of 8 ranks, 12 iterations.
TEST(MapJob, ScoresOfATraceTooCostlyWholeTakeTheSampledFlowFigure) {
  const std::string path = ::testing::TempDir() + "tac3map-ring12.trace";
  {
    std::ofstream out(path);
    out << "tac3map-trace 1\nranks 8\n";
    for (int i = 0; i < 12; ++i)
      for (int r = 0; r < 8; ++r)
        out << r << " sendrecv " << (r + 1) % 8 << " 1048576 " << (r + 7) % 8 << " 1048576\n";
  }
  BoxInput box;
  box.machine = sourcePath("topologies/fx10.json");
  box.shape = "2x2x2x1x1x1";
  TraceInput trace;
  trace.trace = path;
  Job whole(box, trace, TraceEvents::Release);
  const Mapping identity = whole.mapping("identity");
  const Mapping spread = whole.mapping("random:3");
  const Scores w = whole.score(spread);
  ASSERT_TRUE(w.flow);
  EXPECT_FALSE(w.flowSampled);
  EXPECT_EQ(*w.flow, *flowSeconds(whole.problem, whole.router, spread));
  // Less work than identity's whole walk takes, enough for its sample.
  std::uint64_t work = 1;
  while (!flowSeconds(whole.problem, whole.router, identity, kFlowMaxMessages, work)) work *= 2;
  ASSERT_TRUE(
      sampledFlowSeconds(whole.problem, whole.router, identity, kFlowMaxMessages, work / 2));
  // Like for like: once a mapping of the job had a whole figure, one too costly whole gets
  // none, not a sample beside it.
  whole.flowMaxWork = work / 2;
  const Scores none = whole.score(identity);
  EXPECT_FALSE(none.flow);
  EXPECT_FALSE(none.flowSampled);
  Job sampled(box, trace, TraceEvents::Release);
  sampled.flowMaxWork = work / 2;
  for (const Mapping* m : {&identity, &spread}) {
    const Scores s = sampled.score(*m);
    ASSERT_TRUE(s.flow);
    EXPECT_TRUE(s.flowSampled);
    EXPECT_EQ(*s.flow,
              *sampledFlowSeconds(sampled.problem, sampled.router, *m, kFlowMaxMessages, work / 2));
  }
  std::remove(path.c_str());
}

}  // namespace
}  // namespace tac3map
