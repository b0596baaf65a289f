// --init auto's candidates against the searches they stand for: the deep hop-bytes candidate is
// anneal() under tahb's own defaults from the candidate with the fewest byte-hops before it;
// the flow-only candidates are the quick searches with more seeds.
#include "tac3map/pipeline/choose_start.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "tac3map/pipeline/job.hpp"
#include "tac3map/search/objectives.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

TEST(ChooseStart, TheDeepHopBytesSearchIsTahbsOwnScheduleFromTheFewestByteHops) {
  BoxInput box;
  box.machine = testing::sourcePath("topologies/fx10.json");
  box.shape = "2x2x2x2x3x2";
  TraceInput trace;
  trace.trace = testing::sourcePath("examples/cg64-isend.trace");
  const Job job(box, trace, TraceEvents::Release);
  std::vector<std::pair<std::string, StartBuilder>> named{
      {"identity", [&] { return identityMapping(64, job.box); }},
      {"random", [&] { return randomMapping(64, job.box, 3); }}};
  Schedule schedule;
  schedule.trialsPerTemperature = 30;  // short: the schedule's shape is what is compared
  schedule.earlyStop = false;
  schedule.flowCandidates = true;  // as mapJob sets it where the flow model ranks the maps
  for (const ObjectiveKind objective : {ObjectiveKind::Tac3, ObjectiveKind::RmattO2f}) {
    for (const std::uint64_t seed : {1u, 5u}) {
      const ChosenStart chosen =
          chooseStart(job.problem, job.router, objective, named, schedule, seed);
      // identity, random, a quick search from each, then the deep search; with tac3 the quick
      // searches again with kFlowOnlySeeds more seeds, for the flow ranking only.
      const std::size_t extra = objective == ObjectiveKind::Tac3 ? 2 * kFlowOnlySeeds : 0;
      ASSERT_EQ(chosen.candidates.size(), 5u + extra);
      for (std::size_t i = 0; i < chosen.candidates.size(); ++i)
        EXPECT_EQ(chosen.candidates[i].mayStart, i < 5) << i;
      EXPECT_LT(chosen.chosen, 5u);  // a flow-only candidate never starts the search
      for (std::size_t e = 0; e < extra; ++e) {
        const std::uint64_t s = seed + 1 + e / 2;
        const StartCandidate& c = chosen.candidates[5 + e];
        const StartCandidate& from = chosen.candidates[e % 2];
        EXPECT_EQ(c.name, "tahb-search from " + from.name + " (seed " + std::to_string(s) + ")");
        // The reference: the quick search (the main schedule) from that start with that seed.
        const SearchResult q =
            anneal(job.problem, job.router, ObjectiveKind::Tahb, from.mapping, schedule, s);
        EXPECT_EQ(c.mapping.nodeOfTask, q.best.nodeOfTask) << c.name;
      }
      std::size_t fewest = 0;
      for (std::size_t i = 1; i < 4; ++i)
        if (objectiveValue(chosen.candidates[i].scores, ObjectiveKind::Tahb) <
            objectiveValue(chosen.candidates[fewest].scores, ObjectiveKind::Tahb))
          fewest = i;
      const StartCandidate& deep = chosen.candidates[4];
      EXPECT_EQ(deep.name, "deep tahb-search from " + chosen.candidates[fewest].name);
      // The reference: anneal() with tahb's defaults, the rest of the schedule as given.
      const SearchDefaults& d = objectiveSpec(ObjectiveKind::Tahb).defaults;
      Schedule own = schedule;
      own.t0 = d.t0For(job.problem.tasks);
      own.tEnd = d.tEnd;
      own.cooling = std::min(d.cooling, kDeepHopBytesCooling);
      const SearchResult r = anneal(job.problem, job.router, ObjectiveKind::Tahb,
                                    chosen.candidates[fewest].mapping, own, seed);
      EXPECT_EQ(deep.mapping.nodeOfTask, r.best.nodeOfTask) << "seed " << seed;
      EXPECT_EQ(deep.scores.tahbByteHops, r.bestScores.tahbByteHops);
      // It differs from the quick search (the main schedule) it would otherwise repeat.
      const SearchResult quick = anneal(job.problem, job.router, ObjectiveKind::Tahb,
                                        chosen.candidates[fewest].mapping, schedule, seed);
      EXPECT_GT(r.trials, quick.trials);
    }
  }
  // A tahb search has no hop-bytes searches among its starts.
  EXPECT_EQ(chooseStart(job.problem, job.router, ObjectiveKind::Tahb, named, schedule, 1)
                .candidates.size(),
            2u);
}

}  // namespace
}  // namespace tac3map
