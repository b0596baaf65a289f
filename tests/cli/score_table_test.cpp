// The score table's marks and ratios on made-up scores, where ties below the printed precision
// and zero baselines can be set up exactly: a '*' never tells apart two values that print the
// same, and a ratio over a zero is shown as missing in every format.
#include "score_table.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "tac3map/io/error.hpp"

namespace tac3map::cli {
namespace {

Scores scores(double tac3, double tahb, int maxLinkMessages, double avgHops) {
  Scores s;
  s.tac3 = tac3;
  s.tac3LowerBound = 1e-3;
  s.tahb = tahb;
  s.rmattO2f = tahb * 10;
  s.maxLinkMessages = maxLinkMessages;
  s.avgHops = avgHops;
  return s;
}

std::vector<std::vector<std::string>> tableOf(const std::vector<std::string>& labels,
                                              const std::vector<Scores>& rows, int baseline) {
  std::ostringstream out;
  printScores(out, "mapping", labels, rows, ScoreFormat::Table, true, {}, baseline);
  std::istringstream lines(out.str());
  std::vector<std::vector<std::string>> cells;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    cells.emplace_back();
    for (std::string word; words >> word;) cells.back().push_back(word);
  }
  return cells;
}

TEST(ScoreTable, BestIsMarkedOnlyWhereThePrintedValuesDiffer) {
  // tac3: a and b print the same 6 digits (0.00150000), c is worse: a and b both marked.
  // tahb: b alone is lowest. max_link_msgs: all 3, nothing to tell apart: no mark.
  // avg_hops: 1.23451 and 1.23449 print 1.2345 and 1.2345: a and c both marked.
  const std::vector<Scores> rows = {scores(1.5000001e-3, 300, 3, 1.23451),
                                    scores(1.5000002e-3, 200, 3, 1.5),
                                    scores(2e-3, 400, 3, 1.23449)};
  const auto cells = tableOf({"a", "b", "c"}, rows, 0);
  ASSERT_EQ(cells.size(), 6u);  // header, 3 rows, 2 footnotes
  // Columns: mapping tac3 ratio bound tahb ratio rmatt ratio links ratio hops ratio timeline
  // ratio flow ratio
  ASSERT_EQ(cells[0].size(), 16u);
  EXPECT_EQ(cells[1][1], "0.0015*");
  EXPECT_EQ(cells[2][1], "0.0015*");
  EXPECT_EQ(cells[3][1], "0.002");
  EXPECT_EQ(cells[1][4], "300");
  EXPECT_EQ(cells[2][4], "200*");
  for (int row = 1; row <= 3; ++row) EXPECT_EQ(cells[row][8], "3");
  EXPECT_EQ(cells[1][10], "1.2345*");
  EXPECT_EQ(cells[2][10], "1.5000");
  EXPECT_EQ(cells[3][10], "1.2345*");
  EXPECT_EQ(cells[5][0], "*");
}

TEST(ScoreTable, RatiosAreOverTheBaselineRow) {
  const std::vector<Scores> rows = {scores(2e-3, 300, 4, 1.5), scores(1e-3, 600, 2, 3.0)};
  const auto cells = tableOf({"first", "second"}, rows, 1);
  // Over the second row: its own ratios are 1, the first's 2, 0.5, 2, 0.5.
  EXPECT_EQ(cells[2][2], "1.000");
  EXPECT_EQ(cells[1][2], "2.000");
  EXPECT_EQ(cells[1][5], "0.500");
  EXPECT_EQ(cells[1][9], "2.000");
  EXPECT_EQ(cells[1][11], "0.500");
  EXPECT_EQ(cells[3], (std::vector<std::string>{"ratio:", "the", "value", "over", "second's",
                                                "(the", "baseline,", "--baseline)"}));
  // One mapping: ratios of 1, and nothing to mark.
  const auto single = tableOf({"only"}, {rows[0]}, 0);
  ASSERT_EQ(single.size(), 3u);  // header, the row, the ratio footnote
  EXPECT_EQ(single[1][1], "0.002");
}

TEST(ScoreTable, ZeroBaselineHasNoRatioInAnyFormat) {
  // A trace whose messages never leave their node: the baseline's hops are 0.
  const std::vector<Scores> rows = {scores(0, 0, 0, 0), scores(1e-3, 100, 1, 1)};
  const auto cells = tableOf({"a", "b"}, rows, 0);
  EXPECT_EQ(cells[2][2], "-");
  std::ostringstream csv, json;
  printScores(csv, "mapping", {"a", "b"}, rows, ScoreFormat::Csv, true, {}, 0);
  printScores(json, "mapping", {"a", "b"}, rows, ScoreFormat::Json, true, {}, 0);
  EXPECT_EQ(csv.str(),
            "mapping,tac3,tac3_lower_bound,tahb,rmatt_o2f,max_link_messages,avg_hops,timeline,"
            "flow,tac3_ratio,tahb_ratio,rmatt_o2f_ratio,max_link_messages_ratio,avg_hops_ratio,"
            "timeline_ratio,flow_ratio,flow_sampled\n"
            "a,0,0.001,0,0,0,0,,,,,,,,,,false\n"
            "b,0.001,0.001,100,1000,1,1,,,,,,,,,,false\n");
  const auto list = nlohmann::json::parse(json.str());
  EXPECT_TRUE(list[1]["ratios"]["tahb_ratio"].is_null());
  EXPECT_EQ(list[1]["mapping"], "b");
}

TEST(ScoreTable, BaselineMustBeAScoredMapping) {
  const std::vector<std::string> labels = {"identity", "a.map"};
  EXPECT_EQ(baselineRow(labels, ""), 0);
  EXPECT_EQ(baselineRow(labels, "a.map"), 1);
  try {
    baselineRow(labels, "./a.map");
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "--baseline './a.map' is not one of the scored mappings (identity, a.map); give "
              "it exactly as on the command line");
  }
}

// A sampled flow figure (a trace too costly to simulate whole) says so in every format; a
// table of whole figures carries no such line.
TEST(ScoreTable, SampledFlowFiguresSaySo) {
  std::vector<Scores> rows = {scores(2e-3, 100, 1, 1), scores(1e-3, 100, 1, 1)};
  for (Scores& s : rows) s.flow = s.tac3;
  const auto print = [&](ScoreFormat format) {
    std::ostringstream out;
    printScores(out, "mapping", {"a", "b"}, rows, format, true, {}, 0);
    return out.str();
  };
  const std::string note = "estimated from the trace's head, two iterations and its tail";
  EXPECT_EQ(print(ScoreFormat::Table).find(note), std::string::npos);
  EXPECT_FALSE(nlohmann::json::parse(print(ScoreFormat::Json))[0]["scores"]["flow_sampled"]);
  for (Scores& s : rows) s.flowSampled = true;
  EXPECT_NE(print(ScoreFormat::Table).find(note), std::string::npos);
  EXPECT_TRUE(nlohmann::json::parse(print(ScoreFormat::Json))[1]["scores"]["flow_sampled"]);
  const std::string csv = print(ScoreFormat::Csv);
  EXPECT_EQ(csv.substr(csv.size() - 6), ",true\n");
}

}  // namespace
}  // namespace tac3map::cli
