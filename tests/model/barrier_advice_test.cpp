// Issue 15, item 8: barrier advice a user can act on. Each boundary names the trace line
// (file:line) of the send that starts the next CCS's first message — checked against the
// line found by reading the trace text — and the predicted gain in seconds and percent,
// checked against the iteration's time without and with the barrier recomputed here from
// the profile.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/command_test.hpp"
#include "tac3map/model/ccs.hpp"
#include "tac3map/model/predict.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

using testing::Outcome;
using testing::slurp;

// The 1-based number of the first line of `text` that starts with `start`; 0 when none.
std::size_t lineStarting(const std::string& text, const std::string& start) {
  std::istringstream in(text);
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number)
    if (line.rfind(start, 0) == 0) return number;
  return 0;
}

// Level 0: 0->1 and 0->2 (isends, one waitall); level 1: 1->2, which rank 1 sends after
// receiving from 0. Rank 1's send is written before rank 0's lines end: the first message of
// a CCS is not simply the CCS's last line.
const char* kTwoLevels =
    "tac3map-trace 1\n"
    "ranks 4\n"
    "0 isend 1 4000 0 a\n"
    "0 isend 2 4000 0 b\n"
    "1 recv 0 4000\n"
    "1 send 2 4000\n"
    "2 recv 0 4000\n"
    "2 recv 1 4000\n"
    "0 waitall\n";

TEST(BarrierAdvice, NamesTheFirstSendOfTheNextCcsAndTheGain) {
  const Trace trace = testing::traceFromText(kTwoLevels);
  // One engine: level 0 splits into {0->1} and {0->2}; level 1 is {1->2}.
  const CcsSet sets = extractCcs(trace);
  ASSERT_EQ(sets.sets.size(), 3u);
  const Machine machine = testing::simpleMachine({4}, {false});
  const Box box = makeBox(machine, "4");
  const Network router(machine, box);
  std::vector<Sample> samples;
  for (std::uint64_t b : {8ull, 1024ull, 65536ull}) samples.push_back({b, 2e-6 + b / 1e9});
  const TimeModel line(samples, ModelKind::Piecewise, "t");
  const PredictModel model{line, line, 0, {}};
  const Problem problem = makeProblem(sets);
  const Mapping identity = identityMapping(4, box);
  std::vector<BarrierAdvice> advice = barrierAdvice(problem, router, identity, model, 1e-7);
  ASSERT_EQ(advice.size(), 2u);
  const double iteration = 0.01;
  placeBarriers(advice, sets, trace, iteration);
  const std::string text = kTwoLevels;
  // Boundary 0: 0->1 then 0->2 are one step of rank 0 (its two isends): never a barrier,
  // though 0->2 meets 0->1 on link 0->1.
  EXPECT_TRUE(advice[0].sameLevel);
  EXPECT_FALSE(advice[0].pays);
  EXPECT_GT(advice[0].penalty, advice[0].barrier);
  EXPECT_EQ(advice[0].line, lineStarting(text, "0 isend 2"));
  // Boundary 1: 1->2 meets 0->2 on link 1->2 (C 2 instead of 1): t(8000) - t(4000) = 4 us
  // against a 0.1 us barrier; it goes before rank 1's send.
  const BarrierAdvice& a = advice[1];
  EXPECT_FALSE(a.sameLevel);
  EXPECT_TRUE(a.pays);
  EXPECT_EQ(a.file, "test.trace");
  EXPECT_EQ(a.line, lineStarting(text, "1 send 2"));
  EXPECT_EQ(a.src, 1);
  EXPECT_EQ(a.dst, 2);
  const double penalty = line.seconds(8000) - line.seconds(4000);
  EXPECT_NEAR(a.penalty, penalty, 1e-15);
  const double without = iteration + penalty, with = iteration + 1e-7;
  EXPECT_NEAR(a.gain, without - with, 1e-15);
  EXPECT_NEAR(a.gainPercent, 100 * (without - with) / without, 1e-9);
}

class BarrierAdviceCli : public testing::CommandTest {
 protected:
  BarrierAdviceCli() : CommandTest("tac3map-barriers-") {}
};

// The profile's one-hop time of `bytes`, interpolated between its samples as --model
// piecewise does (the sizes used here lie inside the sampled range).
double profileSeconds(const nlohmann::json& profile, double bytes) {
  const auto& p = profile["pingpong"];
  for (std::size_t i = 0; i + 1 < p.size(); ++i) {
    const double b0 = p[i]["bytes"], b1 = p[i + 1]["bytes"];
    const double t0 = p[i]["seconds"], t1 = p[i + 1]["seconds"];
    if (bytes >= b0 && bytes <= b1) return t0 + (t1 - t0) * (bytes - b0) / (b1 - b0);
  }
  ADD_FAILURE() << bytes << " bytes outside the profile";
  return 0;
}

// On fx10 box 4x1x1x1x1x1 (a ring of 4), identity: level 0 sends 0->2 (1 MiB, the + way over
// links 0->1, 1->2) and 3->1 (8 bytes); level 1 sends 1->2 (1 MiB), which would meet 0->2 on
// link 1->2. The barrier pays (the fx10 profile's 80 us against about 220 us).
TEST_F(BarrierAdviceCli, PredictNamesTheTraceLineAndTheGain) {
  const std::string text =
      "tac3map-trace 1\n"
      "ranks 4\n"
      "1 recv 3 8\n"
      "1 send 2 1048576\n"
      "3 send 1 8\n"
      "0 send 2 1048576\n"
      "2 recv 0 1048576\n"
      "2 recv 1 1048576\n";
  const std::string trace = file("two.trace", text);
  const std::string args = "predict --machine topologies/fx10.json --shape 4x1x1x1x1x1 --trace " +
                           trace + " identity --profile topologies/fx10-profile.json --barriers";
  const Outcome r = run(args + " --json");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto out = nlohmann::json::parse(r.out);
  ASSERT_EQ(out["barriers"].size(), 1u);
  const auto& advice = out["barriers"][0];
  EXPECT_EQ(advice["trace_location"]["file"], trace);
  EXPECT_EQ(advice["trace_location"]["line"], lineStarting(text, "1 send 2"));
  EXPECT_EQ(advice["barrier_pays"], true);
  EXPECT_EQ(advice["same_level"], false);
  // Without the barrier 1->2 shares link 1->2 with 0->2 (twice the bytes on it), with it
  // the iteration pays the barrier instead.
  const auto profile =
      nlohmann::json::parse(slurp(testing::sourcePath("topologies/fx10-profile.json")));
  const double penalty =
      profileSeconds(profile, 2 * 1048576.0) - profileSeconds(profile, 1048576.0);
  const double total = out["total_seconds"];
  const double without = total + penalty;
  const double with = total + profile["barrier_seconds"].get<double>();
  EXPECT_NEAR(advice["gain_seconds"].get<double>(), without - with, 1e-12);
  EXPECT_NEAR(advice["gain_percent"].get<double>(), 100 * (without - with) / without, 1e-6);
  // The text names the same place.
  const Outcome plain = run(args);
  ASSERT_EQ(plain.exitCode, 0) << plain.err;
  EXPECT_NE(plain.out.find("insert a barrier before " + trace +
                           ":4 (rank 1's send to 2, the "
                           "first of CCS 1)"),
            std::string::npos)
      << plain.out;
}

// A trace of one file per rank (SimGrid time-independent): the location names the rank's
// file.
TEST_F(BarrierAdviceCli, PredictNamesTheRanksFileOfAMultiFileTrace) {
  const std::string r0 = file("rank0.txt", "0 send 2 1048576\n");
  const std::string r1 = file("rank1.txt", "1 recv 3 8\n1 send 2 1048576\n");
  const std::string r2 = file("rank2.txt", "2 recv 0 1048576\n2 recv 1 1048576\n");
  const std::string r3 = file("rank3.txt", "3 send 1 8\n");
  const std::string index = file("index", r0 + "\n" + r1 + "\n" + r2 + "\n" + r3 + "\n");
  const Outcome r =
      run("predict --machine topologies/fx10.json --shape 4x1x1x1x1x1 --trace " + index +
          " --trace-format simgrid-ti identity --profile "
          "topologies/fx10-profile.json --barriers --json");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto advice = nlohmann::json::parse(r.out)["barriers"][0];
  EXPECT_EQ(advice["trace_location"]["file"], r1);
  EXPECT_EQ(advice["trace_location"]["line"], 2);
}

}  // namespace
}  // namespace tac3map
