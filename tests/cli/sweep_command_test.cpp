// `tac3map sweep` end to end: the cross product, resuming after a kill, failures and bad specs.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "cli/cli_fixture.hpp"
#include "tac3map/io/exit_codes.hpp"
#include "tac3map/search/objectives.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

namespace sweep {

// Two boxes (one too small for the 64 tasks), a baseline and an objective, two seeds.
std::string spec(const std::string& trials) {
  return R"({"jobs": [{"trace": ")" + sourcePath("examples/cg64-sendrecv.trace") +
         R"(", "machine": ")" + sourcePath("topologies/fx10.json") +
         R"(", "boxes": ["2x2x2x2x3x2", {"shape": "1x2x4x2x3x2"}]}],
            "objectives": ["identity", "tac3"], "seeds": [3, 4],
            "schedules": [{"trials": )" +
         trials + R"(, "early_stop": false}]})";
}

}  // namespace sweep

TEST_F(Cli, SweepRunsTheCrossProductAndEqualsMap) {
  const std::string specFile = file("spec.json", sweep::spec("20"));
  const Outcome r = run("sweep " + specFile + " -o " + out("r.jsonl") + " --threads 2");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto results = jsonLines(out("r.jsonl"));
  ASSERT_EQ(results.size(), 6u);  // 2 boxes x (identity + tac3 x 2 seeds)
  for (const auto& line : results) EXPECT_EQ(line["status"], "ok") << line.dump();
  // Each tac3 entry is what `map` finds with the same seed and schedule.
  for (const auto& line : results) {
    if (line["key"]["objective"] != "tac3") continue;
    const std::string seed = std::to_string(line["key"]["seed"].get<int>());
    const std::string shape = line["key"]["shape"];
    ASSERT_EQ(run("map " + kFx10 + " --shape " + shape + " " + kCg64 +
                  " --trials 20 --no-early-stop --seed " + seed + " -o " + out("m.map") +
                  " --report " + out("m.json"))
                  .exitCode,
              0);
    EXPECT_EQ(line["scores"], nlohmann::json::parse(slurp(out("m.json")))["scores"]);
  }
  // The summary has one row per box and objective.
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1 + 4 + 1) << r.out;
  // One line per finished entry on stderr.
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1 + 6) << r.err;
}

TEST_F(Cli, SweepTakesEachObjectivesDefaultsWhereTheSpecIsSilent) {
  // As map does (objectives.hpp): the objective's cooling and chain count where the spec sets
  // none, the spec's where it does.
  const SearchDefaults& tahb = objectiveSpec(ObjectiveKind::Tahb).defaults;
  const SearchDefaults& tac3 = objectiveSpec(ObjectiveKind::Tac3).defaults;
  ASSERT_NE(tahb.chains, tac3.chains);
  ASSERT_NE(tahb.cooling, tac3.cooling);
  const auto keysOf = [&](const std::string& extra) {
    const std::string spec = R"({"jobs": [{"trace": ")" +
                             sourcePath("examples/cg32-sendrecv.trace") + R"(", "machine": ")" +
                             sourcePath("topologies/fx10.json") +
                             R"(", "boxes": ["1x1x4x2x3x2"]}], "objectives": ["tahb", "tac3"],
                             "schedules": [{"trials": 5)" +
                             extra + "}";
    std::remove(out("k.jsonl").c_str());
    const Outcome r =
        run("sweep " + file("k.json", spec) + " -o " + out("k.jsonl") + " --threads 2 --quiet");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    std::map<std::string, nlohmann::json> keys;
    for (const auto& line : jsonLines(out("k.jsonl"))) keys[line["key"]["objective"]] = line["key"];
    return keys;
  };
  auto keys = keysOf("}]");
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys["tahb"]["chains"], tahb.chains);
  EXPECT_EQ(keys["tahb"]["schedule"]["cooling"], tahb.cooling);
  EXPECT_EQ(keys["tahb"]["schedule"]["t0"], tahb.t0);
  EXPECT_EQ(keys["tac3"]["chains"], tac3.chains);
  EXPECT_EQ(keys["tac3"]["schedule"]["cooling"], tac3.cooling);
  EXPECT_EQ(keys["tac3"]["schedule"]["t0"], tac3.t0);
  keys = keysOf(R"(, "cooling": 0.8}], "chains": [2])");
  ASSERT_EQ(keys.size(), 2u);
  for (const char* objective : {"tahb", "tac3"}) {
    EXPECT_EQ(keys[objective]["chains"], 2) << objective;
    EXPECT_EQ(keys[objective]["schedule"]["cooling"], 0.8) << objective;
  }
}

TEST_F(Cli, SweepResumesAfterAKillAndSkipsWhatIsDone) {
  const std::string specFile = file("spec.json", sweep::spec("10"));
  const std::string results = out("r.jsonl");
  ASSERT_EQ(run("sweep " + specFile + " -o " + results + " --quiet").exitCode, 0);
  const std::string full = slurp(results);
  // Killed in the middle of its last line: the rerun drops the fragment, runs that entry only.
  std::ofstream(results, std::ios::trunc) << full.substr(0, full.size() - 30);
  const Outcome again = run("sweep " + specFile + " -o " + results);
  ASSERT_EQ(again.exitCode, 0) << again.err;
  EXPECT_NE(again.err.find("5 already done, 1 to run"), std::string::npos) << again.err;
  const std::string resumed = slurp(results);
  EXPECT_EQ(jsonLines(results).size(), 6u);
  const Outcome third = run("sweep " + specFile + " -o " + results);
  EXPECT_NE(third.err.find("6 already done, 0 to run"), std::string::npos) << third.err;
  EXPECT_EQ(slurp(results), resumed);
  // Issue 14, item 8: a whole last line without its newline is kept, ended, and the next
  // result starts a line of its own.
  ASSERT_EQ(full.back(), '\n');
  std::ofstream(results, std::ios::trunc) << full.substr(0, full.size() - 1);
  const Outcome unended = run("sweep " + specFile + " -o " + results);
  ASSERT_EQ(unended.exitCode, 0) << unended.err;
  EXPECT_NE(unended.err.find("6 already done, 0 to run"), std::string::npos) << unended.err;
  EXPECT_EQ(jsonLines(results).size(), 6u);
  EXPECT_EQ(slurp(results).back(), '\n');
}

TEST_F(Cli, SweepRefusesEmptyLists) {
  const std::string spec =
      file("empty.json", R"({"jobs": [{"trace": ")" + sourcePath("examples/cg64-sendrecv.trace") +
                             R"(", "machine": ")" + sourcePath("topologies/fx10.json") +
                             R"(", "boxes": []}], "objectives": ["tac3"]})");
  expectCleanFailure("sweep " + spec + " -o " + out("r.jsonl"),
                     "empty.json: jobs[0].boxes: expected at least one box");
}

TEST_F(Cli, SweepRecordsFailuresAndExitsNonZero) {
  // 64 tasks cannot run on 48 nodes; the other box still runs.
  const std::string specFile =
      file("spec.json", R"({"traces": [")" + sourcePath("examples/cg64-sendrecv.trace") +
                            R"("], "machines": [")" + sourcePath("topologies/fx10.json") +
                            R"("], "boxes": ["1x1x4x2x3x2", "2x2x2x2x3x2"],
                        "objectives": ["tofu-default"]})");
  const Outcome r = run("sweep " + specFile + " -o " + out("r.jsonl") + " --quiet");
  EXPECT_EQ(r.exitCode, kExitPartial);
  const auto results = jsonLines(out("r.jsonl"));
  ASSERT_EQ(results.size(), 2u);
  int failed = 0;
  for (const auto& line : results)
    if (line["status"] == "error") {
      ++failed;
      EXPECT_EQ(line["key"]["shape"], "1x1x4x2x3x2");
      EXPECT_NE(line["error"].get<std::string>().find("do not fit"), std::string::npos);
    }
  EXPECT_EQ(failed, 1);
}

TEST_F(Cli, SweepRejectsBadSpecsWithOneLine) {
  const std::string broken = file("broken.json", "{\n  \"objectives\": [\n}");
  expectCleanFailure("sweep " + broken + " -o " + out("r.jsonl"), "broken.json:3: invalid JSON");
  const std::string unknown =
      file("unknown.json", R"({"traces": ["t"], "machines": ["m"], "boxes": ["1"],
                          "objectives": ["tac3", "fastest"]})");
  expectCleanFailure("sweep " + unknown + " -o " + out("r.jsonl"), "objectives[1]: 'fastest'");
  const std::string typo = file("typo.json", R"({"traces": ["t"], "machines": ["m"], "boxes": ["1"],
                       "objectives": ["tac3"], "schedules": [{"tzero": 1}]})");
  expectCleanFailure("sweep " + typo + " -o " + out("r.jsonl"), "schedules[0].tzero");
}

}  // namespace
}  // namespace tac3map
