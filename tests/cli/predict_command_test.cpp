// `tac3map predict` end to end: the total beside score, its options, profiles and the
// collectives comparison.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/cli_fixture.hpp"
#include "tac3map/io/exit_codes.hpp"

namespace tac3map {
namespace {

TEST_F(Cli, PredictSumsCcsTimesAndScoreShowsTheSameTotal) {
  const std::string profile = " --profile topologies/fx10-profile.json";
  const Outcome r = run("predict " + kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 + " identity" +
                        profile + " --barriers --json");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto p = nlohmann::json::parse(r.out);
  ASSERT_EQ(p["ccs"].size(), 4u);
  double sum = 0;
  for (const auto& ccs : p["ccs"]) sum += ccs["seconds"].get<double>();
  EXPECT_DOUBLE_EQ(p["communication_seconds"].get<double>(), sum);
  EXPECT_EQ(p["ccs"][3]["contention"], 4);  // identity's transpose: 4 messages on one link
  EXPECT_EQ(p["barriers"].size(), 3u);
  const Outcome score = run("score " + kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 +
                            " identity tofu-default --output-format json" + profile);
  ASSERT_EQ(score.exitCode, 0) << score.err;
  EXPECT_DOUBLE_EQ(nlohmann::json::parse(score.out)[0]["scores"]["predicted_seconds"].get<double>(),
                   p["total_seconds"].get<double>());
  // The text form carries the same total.
  const Outcome text = run("predict " + kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 + " identity" +
                           profile + " --model linear");
  ASSERT_EQ(text.exitCode, 0) << text.err;
  EXPECT_NE(text.out.find("linear model"), std::string::npos) << text.out;
}

// predict's timeline already lets sets without a barrier between them overlap; the old
// --overlap returned the plain figure (issue 24), so predict no longer takes it, while score
// still does (it changes the score's sets).
TEST_F(Cli, PredictHasNoOverlapOptionAndScoreKeepsIt) {
  const std::string profile = " --profile topologies/fx10-profile.json";
  const Outcome r = run("predict " + kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 + " identity" +
                        profile + " --overlap auto");
  EXPECT_EQ(r.exitCode, kExitUsage);
  EXPECT_NE(r.err.find("--overlap"), std::string::npos) << r.err;
  EXPECT_EQ(run("predict --help").out.find("--overlap"), std::string::npos);
  const Outcome score =
      run("score " + kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 + " identity --overlap adjacent");
  EXPECT_EQ(score.exitCode, 0) << score.err;
}

TEST_F(Cli, PredictRejectsABrokenProfileWithOneLine) {
  const std::string bad = file("p.json", "{\"pingpong\": [{\"bytes\": 8}]}");
  const Outcome r =
      run("predict " + kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 + " identity --profile " + bad);
  EXPECT_EQ(r.exitCode, kExitInput);
  EXPECT_NE(r.err.find("p.json: pingpong: expected a list of at least two"), std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST_F(Cli, PredictComparesEveryCollectivesAlgorithms) {
  std::string text = "tac3map-trace 1\nranks 8\n";
  // Appended piece by piece: GCC 12 warns falsely (-Warray-bounds) on to_string(r) + "...".
  for (int r = 0; r < 8; ++r) text.append(std::to_string(r)).append(" allreduce 1048576\n");
  for (int r = 0; r < 8; ++r) text.append(std::to_string(r)).append(" allgather 1024\n");
  const std::string trace = file("coll.trace", text);
  const Outcome r = run("predict " + kFx10 + " --shape 2x2x2x2x3x2 --trace " + trace +
                        " identity --profile topologies/fx10-profile.json --collectives-compare "
                        "--json");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto calls = nlohmann::json::parse(r.out)["collectives"];
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0]["collective"], "allreduce");
  EXPECT_EQ(calls[0]["seconds"].size(), 3u);
  for (const char* algorithm : {"ring", "recursive-doubling", "reduce-bcast"})
    EXPECT_TRUE(calls[0]["seconds"].contains(algorithm)) << algorithm;
  EXPECT_EQ(calls[0]["best_by_size"][0]["from_bytes"], 8);
  EXPECT_EQ(calls[1]["collective"], "allgather");
  EXPECT_EQ(calls[1]["seconds"].size(), 5u);
  for (const char* algorithm : {"ring", "recursive-doubling", "bruck", "shift-ring", "linear"})
    EXPECT_TRUE(calls[1]["seconds"].contains(algorithm)) << algorithm;
}

}  // namespace
}  // namespace tac3map
