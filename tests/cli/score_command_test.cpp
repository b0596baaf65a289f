// `tac3map score` end to end: the table, CSV and JSON, ratios to the baseline, the timeline
// column and bad mapping files.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "cli/cli_fixture.hpp"
#include "tac3map/io/exit_codes.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

TEST_F(Cli, ScoreTableHasOneRowPerMappingInOrderAndMarksTheBest) {
  ASSERT_EQ(run("map " + kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 + kPaperModel +
                " --trials 100 -o " + out("a.map"))
                .exitCode,
            0);
  const Outcome r = run("score " + kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 + kPaperModel +
                        " random:5 " + out("a.map") + " identity tofu-default");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  std::istringstream lines(r.out);
  std::vector<std::string> rows;
  for (std::string line; std::getline(lines, line);) rows.push_back(line);
  ASSERT_EQ(rows.size(), 7u) << r.out;  // header, four mappings, two footnotes
  EXPECT_EQ(rows[1].rfind("random:5", 0), 0u);
  EXPECT_EQ(rows[2].rfind(out("a.map"), 0), 0u);
  EXPECT_EQ(rows[3].rfind("identity", 0), 0u);
  EXPECT_EQ(rows[4].rfind("tofu-default", 0), 0u);
  // The annealed map reaches the bound: its tac3 is the best, and marked.
  std::istringstream annealed(rows[2]);
  std::string label, tac3, ratio, bound;
  annealed >> label >> tac3 >> ratio >> bound;
  EXPECT_EQ(tac3, bound + "*");
}

TEST_F(Cli, ScoreCsvCarriesTheJsonValuesUnderTheSameNames) {
  const std::string base = "score " + kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 +
                           " identity random:2 tofu-default --output-format ";
  const Outcome csv = run(base + "csv"), json = run(base + "json");
  ASSERT_EQ(csv.exitCode, 0) << csv.err;
  ASSERT_EQ(json.exitCode, 0) << json.err;
  const auto list = nlohmann::json::parse(json.out);
  std::istringstream lines(csv.out);
  std::string header;
  std::getline(lines, header);
  std::vector<std::string> keys;
  std::istringstream h(header);
  for (std::string key; std::getline(h, key, ',');) keys.push_back(key);
  // The CSV header is the JSON row's field names: "mapping", then those grouped under
  // "scores" and "ratios".
  ASSERT_EQ(list.size(), 3u);
  for (const auto& entry : list) {
    std::set<std::string> names;
    for (const auto& [key, value] : entry.items())
      if (value.is_object())
        for (const auto& [inner, unused] : value.items()) names.insert(inner);
      else
        names.insert(key);
    EXPECT_EQ(names, std::set<std::string>(keys.begin(), keys.end())) << entry.dump();
    EXPECT_EQ(names.size(), keys.size());  // no name twice in the header
  }
  // mapping, 8 scores, 7 ratios (the bound has none), flow_sampled
  ASSERT_EQ(keys.size(), 17u);
  ASSERT_EQ(keys.back(), "flow_sampled");
  ASSERT_EQ(keys[0], "mapping");
  std::size_t row = 0;
  for (std::string line; std::getline(lines, line); ++row) {
    std::istringstream fields(line);
    std::string field;
    std::getline(fields, field, ',');
    ASSERT_LT(row, list.size());
    EXPECT_EQ(field, list[row]["mapping"]);
    for (std::size_t k = 1; k < keys.size(); ++k) {
      std::getline(fields, field, ',');
      const bool isRatio = keys[k].size() > 6 && keys[k].substr(keys[k].size() - 6) == "_ratio";
      const auto& value = list[row][isRatio ? "ratios" : "scores"][keys[k]];
      if (value.is_boolean())
        EXPECT_EQ(field, value.get<bool>() ? "true" : "false") << keys[k];
      else
        EXPECT_EQ(std::stod(field), value.get<double>()) << keys[k];
    }
  }
  EXPECT_EQ(row, 3u);
}

// The timeline column (timeline.hpp): with a barrier after every step of CG it is tac3 for
// every mapping; without barriers never more, and less where ranks run ahead (the packed
// block map: a rank's in-node steps end early).
TEST_F(Cli, ScoreTimelineIsTac3WithBarriersAndAtMostTac3Without) {
  std::ifstream plain(testing::sourcePath("examples/cg64-sendrecv.trace"));
  std::ofstream barriers(out("barriers.trace"));
  for (std::string line; std::getline(plain, line);) {
    barriers << line << "\n";
    std::istringstream words(line);
    std::string rank, event;
    if (words >> rank >> event && event == "sendrecv") barriers << rank << " barrier\n";
  }
  barriers.close();
  const auto scoresOf = [&](const std::string& trace, const std::string& options) {
    const Outcome r = run("score " + kFx10 + " --trace " + trace + options +
                          " identity random:3 tofu-default --json");
    EXPECT_EQ(r.exitCode, kExitOk) << r.err;
    return nlohmann::json::parse(r.out);
  };
  for (const auto& row : scoresOf(out("barriers.trace"), " --shape 2x2x2x2x3x2"))
    EXPECT_DOUBLE_EQ(row["scores"]["timeline"].get<double>(), row["scores"]["tac3"].get<double>())
        << row["mapping"];
  int below = 0;
  for (const std::string options :
       {" --shape 2x2x2x2x3x2", " --ranks-per-node 2 --shape 2x2x2x2x2x1"})
    for (const auto& row : scoresOf("examples/cg64-sendrecv.trace", options)) {
      const double timeline = row["scores"]["timeline"].get<double>();
      EXPECT_LE(timeline, row["scores"]["tac3"].get<double>() * (1 + 1e-12)) << row["mapping"];
      EXPECT_GT(timeline, 0);
      below += timeline < row["scores"]["tac3"].get<double>() * (1 - 1e-9);
    }
  EXPECT_GT(below, 0);
}

TEST_F(Cli, ScoreTableShowsRatiosToTheBaseline) {
  const std::string base =
      "score " + kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 + " identity tofu-default random:3 ";
  // Table cells by row and header (no cell holds a space).
  const auto table = [&](const std::string& options) {
    const Outcome r = run(base + options);
    EXPECT_EQ(r.exitCode, kExitOk) << r.err;
    std::istringstream lines(r.out);
    std::vector<std::vector<std::string>> rows;
    for (std::string line; std::getline(lines, line);) {
      std::istringstream words(line);
      rows.emplace_back();
      for (std::string word; words >> word;) rows.back().push_back(word);
    }
    return std::make_pair(rows, r.out);
  };
  const auto json = nlohmann::json::parse(run(base + "--json").out);
  const std::map<std::string, std::string> keyOf = {
      {"tac3[s]", "tac3"},        {"tahb[byte-hops]", "tahb"},
      {"rmatt_o2f", "rmatt_o2f"}, {"max_link_msgs", "max_link_messages"},
      {"avg_hops", "avg_hops"},   {"timeline[s]", "timeline"},
      {"flow[s]", "flow"}};
  for (const std::string& baseline : {std::string(), std::string("tofu-default")}) {
    SCOPED_TRACE("baseline " + baseline);
    const auto [rows, text] = table(baseline.empty() ? "" : "--baseline " + baseline);
    const int baseRow = baseline.empty() ? 0 : 1;
    EXPECT_NE(text.find("ratio: the value over " + json[baseRow]["mapping"].get<std::string>() +
                        "'s (the baseline, --baseline)"),
              std::string::npos)
        << text;
    const std::vector<std::string>& header = rows[0];
    int ratios = 0;
    for (std::size_t c = 1; c < header.size(); ++c) {
      if (header[c] != "ratio") continue;
      ++ratios;
      // The ratio follows its value column; recompute it from the JSON values.
      const std::string key = keyOf.at(header[c - 1]);
      for (int row = 0; row < 3; ++row) {
        const double value = json[row]["scores"][key].get<double>();
        const double over = json[baseRow]["scores"][key].get<double>();
        char expected[32];
        std::snprintf(expected, sizeof expected, "%.3f", value / over);
        EXPECT_EQ(rows[row + 1][c], expected) << key << " row " << row;
      }
    }
    EXPECT_EQ(ratios, 7);
  }
  const Outcome missing = run(base + "--baseline random:4");
  EXPECT_EQ(missing.exitCode, kExitInput);
  EXPECT_EQ(missing.err,
            "tac3map: error: --baseline 'random:4' is not one of the scored mappings (identity, "
            "tofu-default, random:3); give it exactly as on the command line\n");
}

TEST_F(Cli, BadMappingFileForScore) {
  const std::string bad = file("bad.map", "# tac3map mapping 1\n0 0 0 0 0 0 0\n0 1 0 0 0 0 0\n");
  expectCleanFailure("score " + kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 + " " + bad,
                     bad + ":3: rank 0 placed twice");
}

}  // namespace
}  // namespace tac3map
