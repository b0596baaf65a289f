// End-to-end tests of the tac3map command: it is run as a process, as users and job scripts
// run it, and its exit code, output files and messages are checked.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "command_test.hpp"
#include "tac3map/gen/cg_pattern.hpp"
#include "tac3map/io/exit_codes.hpp"
#include "tac3map/mapping/mapping.hpp"
#include "tac3map/output/viz.hpp"
#include "tac3map/version.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

namespace fs = std::filesystem;
using testing::sourcePath;

using testing::Outcome;
using testing::slurp;

class Cli : public testing::CommandTest {
 protected:
  Cli() : CommandTest("tac3map-cli-") {}

  // A bad input must fail with one line naming the problem and leave no output behind.
  void expectCleanFailure(const std::string& args, const std::string& expected) {
    const Outcome r = run(args);
    EXPECT_NE(r.exitCode, 0) << args;
    EXPECT_NE(r.err.find(expected), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(outputEmpty()) << args;
  }
};

const std::string kFx10 = "--machine topologies/fx10.json";
const std::string kCg64 = "--trace examples/cg64-sendrecv.trace";
// The paper's model (these CG traces have no barriers; by default their phases overlap).
const std::string kPaperModel = " --engines 1 --overlap none";

TEST_F(Cli, MapWritesMappingAndReport) {
  const Outcome r = run("map " + kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 + kPaperModel +
                        " --seed 3 -o " + out("cg.map") + " --report " + out("cg.json"));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("stopped: lower-bound"), std::string::npos) << r.out;
  const auto report = nlohmann::json::parse(slurp(out("cg.json")));
  for (const char* key : {"machine", "shape", "tasks", "nodes", "ccs", "objective", "seed",
                          "scores", "search", "mapping"})
    EXPECT_TRUE(report.contains(key)) << key;
  for (const char* key :
       {"tac3", "tac3_lower_bound", "tahb", "rmatt_o2f", "max_link_messages", "avg_hops"})
    EXPECT_TRUE(report["scores"].contains(key)) << key;
  for (const char* key : {"trials", "accepted", "seconds", "stopped"})
    EXPECT_TRUE(report["search"].contains(key)) << key;
  EXPECT_EQ(report["machine"], "fx10");
  EXPECT_EQ(report["shape"], "2x2x2x2x3x2");
  EXPECT_EQ(report["tasks"], 64);
  EXPECT_EQ(report["nodes"], 96);
  EXPECT_EQ(report["ccs"], 4);
  EXPECT_EQ(report["scores"]["tac3"], report["scores"]["tac3_lower_bound"]);
  EXPECT_EQ(report["mapping"].size(), 64u);
  EXPECT_EQ(report["mapping"][0].size(), 6u);

  // The written map scores the same through `score`.
  const Outcome s =
      run("score " + kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 + " --json " + out("cg.map"));
  ASSERT_EQ(s.exitCode, 0) << s.err;
  const auto scores = nlohmann::json::parse(s.out);
  ASSERT_EQ(scores.size(), 1u);
  EXPECT_EQ(scores[0]["mapping"], out("cg.map"));
  EXPECT_EQ(scores[0]["scores"], report["scores"]);
}

TEST_F(Cli, SameSeedGivesTheSameFile) {
  for (const char* name : {"a.map", "b.map"})
    ASSERT_EQ(run("map " + kFx10 + " --shape 1x2x4x2x3x2 " + kCg64 +
                  " --objective tahb --trials 300 --seed 9 -o " + out(name))
                  .exitCode,
              0);
  EXPECT_EQ(slurp(out("a.map")), slurp(out("b.map")));
}

TEST_F(Cli, ChainsGiveTheSameFileOnAnyThreadCount) {
  for (const char* threads : {"1", "2", "3"})
    ASSERT_EQ(run("map " + kFx10 + " --shape 1x2x4x2x3x2 " + kCg64 +
                  " --objective rmatt-o2f --trials 200 --chains 3 --threads " + threads + " -o " +
                  out(std::string("t") + threads + ".map") + " --report " +
                  out(std::string("t") + threads + ".json"))
                  .exitCode,
              0);
  EXPECT_EQ(slurp(out("t1.map")), slurp(out("t2.map")));
  EXPECT_EQ(slurp(out("t1.map")), slurp(out("t3.map")));
  const auto report = nlohmann::json::parse(slurp(out("t2.json")));
  ASSERT_EQ(report["chains"].size(), 3u);
  const std::size_t best = report["search"]["best_chain"];
  // The same scores, but a chain's timeline and flow are null (another process may hold its
  // map).
  auto chainScores = report["chains"][best]["scores"], scores = report["scores"];
  for (const char* key : {"timeline", "flow"}) {
    EXPECT_TRUE(chainScores[key].is_null()) << key;
    EXPECT_TRUE(scores[key].is_number()) << key;
    chainScores.erase(key);
    scores.erase(key);
  }
  EXPECT_EQ(chainScores, scores);
  EXPECT_EQ(report["chains"][2]["seed"], 3);
  std::uint64_t trials = 0;
  for (const auto& chain : report["chains"]) trials += chain["trials"].get<std::uint64_t>();
  EXPECT_EQ(report["search"]["trials"], trials);
}

TEST_F(Cli, ProgressLineOnlyOnATerminal) {
  // One second, long enough for the line (every 250 ms), whatever the build's speed.
  const std::string args = "map " + kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 +
                           " --no-early-stop --trials 20000 --time-limit 1 -o " + out("p.map");
  const Outcome piped = run(args);
  ASSERT_EQ(piped.exitCode, 0);
  EXPECT_EQ(piped.err, "");  // stderr is a file here: no progress line
  if (std::system("command -v script >/dev/null 2>&1") != 0) GTEST_SKIP() << "no script(1)";
  // script(1) gives the command a pseudo-terminal; its output comes back on our stdout.
  const std::string binary = TAC3MAP_BINARY;
  const Outcome tty =
      run("--version >/dev/null 2>&1; script -qec '" + binary + " " + args + "' /dev/null; true");
  EXPECT_NE(tty.out.find("trials/s"), std::string::npos) << tty.out;
  EXPECT_NE(tty.out.find("x lower bound"), std::string::npos) << tty.out;
  EXPECT_NE(tty.out.find("search: "), std::string::npos) << tty.out;  // the phase, named
  const Outcome quiet = runShell("script -qec '" + binary + " " + args + " --quiet' /dev/null");
  EXPECT_EQ(quiet.out.find("trials/s"), std::string::npos) << quiet.out;
  EXPECT_EQ(quiet.out, "");  // --quiet: nothing at all (docs/cli.md)
  EXPECT_FALSE(slurp(out("p.map")).empty());
}

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
  ASSERT_EQ(keys.size(), 16u);  // mapping, 8 scores, 7 ratios (the bound has none)
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

TEST_F(Cli, InitFromFileContinuesFromThatMapping) {
  ASSERT_EQ(
      run("map " + kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 + kPaperModel + " -o " + out("a.map"))
          .exitCode,
      0);
  const Outcome r = run("map " + kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 + kPaperModel +
                        " --init " + out("a.map") + " -o " + out("b.map"));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("search: 0 trials"), std::string::npos) << r.out;  // already at the bound
  EXPECT_EQ(slurp(out("a.map")), slurp(out("b.map")));
}

TEST_F(Cli, CcsJsonListsFourSetsForCg) {
  for (const char* trace : {"examples/cg32-isend.trace", "examples/cg64-send.trace"}) {
    const Outcome r = run(std::string("ccs --json --trace ") + trace);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    ASSERT_EQ(doc["ccs"].size(), 4u);
    const auto& first = doc["ccs"][0][0];
    EXPECT_TRUE(first.contains("src") && first.contains("dst") && first.contains("bytes"));
    EXPECT_EQ(first["bytes"], 1048576);
  }
  const Outcome text = run("ccs --trace examples/cg64-sendrecv.trace");
  EXPECT_NE(text.out.find("256 communications, 4 CCS"), std::string::npos) << text.out;
}

TEST_F(Cli, ShippedExamplesAreWhatTheGeneratorWrites) {
  for (int ranks : {32, 64})
    for (const char* variant : {"sendrecv", "isend", "send"}) {
      CgOptions o;
      o.ranks = ranks;
      o.variant = parseCgVariant(variant);
      o.iterations = 2;
      const std::string name = "examples/cg" + std::to_string(ranks) + "-" + variant + ".trace";
      EXPECT_EQ(slurp(sourcePath(name)), generateCgTrace(o)) << name;
    }
  ASSERT_EQ(run("gen cg --ranks 32 --bytes 4096 --variant send -o " + out("g.trace")).exitCode, 0);
  CgOptions o;
  o.ranks = 32;
  o.bytes = 4096;
  o.variant = CgVariant::IrecvSendWait;
  EXPECT_EQ(slurp(out("g.trace")), generateCgTrace(o));
}

TEST_F(Cli, IterationAndEagerSendsReachTheExtractor) {
  const Outcome second = run("ccs --json --iteration 2 " + kCg64);
  ASSERT_EQ(second.exitCode, 0) << second.err;
  EXPECT_EQ(nlohmann::json::parse(second.out)["ccs"].size(), 4u);
  expectCleanFailure("ccs --iteration 3 " + kCg64, "--iteration 3 needs one more");

  // Both ranks send first: a deadlock under rendezvous, fine with buffered sends.
  const std::string t = file(
      "eager.trace", "tac3map-trace 1\nranks 2\n0 send 1 8\n0 recv 1 8\n1 send 0 8\n1 recv 0 8\n");
  EXPECT_NE(run("ccs --trace " + t).exitCode, 0);
  const Outcome eager = run("ccs --eager-sends --json --trace " + t);
  ASSERT_EQ(eager.exitCode, 0) << eager.err;
  EXPECT_EQ(nlohmann::json::parse(eager.out)["ccs"].size(), 1u);
}

TEST_F(Cli, TraceWithoutNetworkTrafficHasNothingToOptimize) {
  const std::string t = file("self.trace", "tac3map-trace 1\nranks 2\n0 sendrecv 0 8 0 8\n");
  const std::string job = "map --machine topologies/fx10.json --shape 1x1x1x2x1x1 --trace " + t;
  // Without messages between ranks the trace is refused, unless --allow-empty.
  expectCleanFailure(job + " -o " + out("m.map"),
                     t + ": the trace has no messages between ranks; pass --allow-empty to "
                         "accept it");
  const Outcome r = run(job + " --allow-empty -o " + out("m.map"));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("stopped: nothing-to-optimize"), std::string::npos) << r.out;
}

TEST_F(Cli, GeneratorsWriteTracesTheToolReads) {
  expectCleanFailure("gen stencil --dims 4x4 --points 7 -o " + out("bad.trace"), "--points 7");
  ASSERT_EQ(run("gen stencil --dims 4x4x4 --periodic --bytes 4096 -o " + out("s.trace")).exitCode,
            0);
  ASSERT_EQ(run("gen alltoall --ranks 32 --group 8 -o " + out("a.trace")).exitCode, 0);
  ASSERT_EQ(run("gen random --ranks 48 --degree 3 --seed 2 -o " + out("r.trace")).exitCode, 0);
  for (const char* name : {"s.trace", "a.trace", "r.trace"}) {
    const Outcome r = run("map " + kFx10 + " --shape 2x2x2x2x3x2 --trials 100 --trace " +
                          out(name) + " -o " + out(std::string(name) + ".map"));
    EXPECT_EQ(r.exitCode, 0) << name << ": " << r.err;
  }
}

TEST_F(Cli, BadTraceLines) {
  const std::string head = "tac3map-trace 1\nranks 64\n";
  const std::string base = "map " + kFx10 + " --shape 2x2x2x2x3x2 -o " + out("m.map") + " --trace ";
  std::string t = file("malformed.trace", head + "0 send 1\n");
  expectCleanFailure(base + t, t + ":3: 'send' takes the form");
  t = file("rank.trace", head + "0 send 64 10\n");
  expectCleanFailure(base + t, t + ":3: destination rank 64 is outside 0..63");
  t = file("unmatched.trace", head + "0 send 1 10\n");
  expectCleanFailure(base + t, t + ":3: rank 0 sends to rank 1 (tag 0) but rank 1 has no");
  t = file("deadlock.trace", head + "0 recv 1 10\n0 send 1 10\n1 recv 0 10\n1 send 0 10\n");
  expectCleanFailure(base + t, t + ":3: deadlock: rank 0 blocks forever");
  expectCleanFailure(base + "missing.trace", "missing.trace: cannot open trace");
}

TEST_F(Cli, BadBoxesAndMachines) {
  const std::string map = " -o " + out("m.map");
  expectCleanFailure("map " + kFx10 + " --shape 8x2x2x2x3x2 " + kCg64 + map,
                     "--shape 8x2x2x2x3x2: axis X size 8 exceeds the machine's 4");
  expectCleanFailure(
      "map " + kFx10 + " --shape 1x1x4x2x3x2 " + kCg64 + map,
      "examples/cg64-sendrecv.trace:4: 64 tasks do not fit on box 1x1x4x2x3x2 (48 nodes");
  const std::string broken =
      file("broken.json", "{\n  \"axes\": [\n    {\"name\": \"X\",,}\n  ]\n}\n");
  expectCleanFailure("map --machine " + broken + " --shape 2 " + kCg64 + map,
                     broken + ":3: invalid JSON");
  const std::string incomplete = file("incomplete.json", R"({"axes": [{"name": "X", "size": 4}]})");
  expectCleanFailure("map --machine " + incomplete + " --shape 2 " + kCg64 + map,
                     incomplete + ": axes[0]: missing field \"wrap\"");
  expectCleanFailure("map " + kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 + " --objective hops" + map,
                     "--objective 'hops'");
}

TEST_F(Cli, BadMappingFileForScore) {
  const std::string bad = file("bad.map", "# tac3map mapping 1\n0 0 0 0 0 0 0\n0 1 0 0 0 0 0\n");
  expectCleanFailure("score " + kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 + " " + bad,
                     bad + ":3: rank 0 placed twice");
}

TEST_F(Cli, UnwritableOutputLeavesNothing) {
  const Outcome r = run("map " + kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 + " --trials 10 -o " +
                        out("m.map") + " --report " + (dir_ / "no-such-dir" / "r.json").string());
  EXPECT_NE(r.exitCode, 0);
  // Refused before the search (checkOutputPaths), not after it.
  EXPECT_NE(r.err.find("no-such-dir' does not exist"), std::string::npos) << r.err;
  EXPECT_TRUE(outputEmpty());
}

namespace sweep {

std::vector<nlohmann::json> lines(const std::string& path) {
  std::vector<nlohmann::json> result;
  std::istringstream in(slurp(path));
  for (std::string line; std::getline(in, line);) result.push_back(nlohmann::json::parse(line));
  return result;
}

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
  const auto results = sweep::lines(out("r.jsonl"));
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

// The model's flags end to end: engines change the stencil's sets and scores, --init auto
// reports its candidates and starts from the best, sweep specs multiply cases by ranks per
// node and engines and give the same scores as map.
// The geometric start end to end: a 12x12x8 periodic stencil on a K box whose logical torus
// is 8x12x12 reaches one hop per message and the tac3 bound; --init auto picks it and says
// so; --grid names the grid; a start that does not apply is one clear line.
TEST_F(Cli, GeometricStartEndToEnd) {
  const std::string stencil = file("g.trace", "");  // beside, not in, the output folder
  ASSERT_EQ(
      run("gen stencil --dims 12x12x8 --points 7 --periodic --bytes 65536 -o " + stencil).exitCode,
      0);
  const std::string box =
      "--machine topologies/k-computer.json --shape 4x4x6x2x3x2 --trace " + stencil;
  const Outcome geometric = run("map " + box + " --init geometric --quiet -o " + out("g.map") +
                                " --report " + out("g.json"));
  ASSERT_EQ(geometric.exitCode, 0) << geometric.err;
  const auto report = nlohmann::json::parse(slurp(out("g.json")));
  EXPECT_DOUBLE_EQ(report["initial_scores"]["avg_hops"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(report["scores"]["tac3"].get<double>(),
                   report["scores"]["tac3_lower_bound"].get<double>());
  const Outcome automatic =
      run("map " + box + " --quiet -o " + out("a.map") + " --report " + out("a.json"));
  ASSERT_EQ(automatic.exitCode, 0) << automatic.err;
  EXPECT_EQ(nlohmann::json::parse(slurp(out("a.json")))["start"]["chosen"], "geometric");
  EXPECT_EQ(slurp(out("a.map")), slurp(out("g.map")));
  // The same grid given by hand; a grid of the wrong size; a pattern that is no grid.
  const Outcome given =
      run("map " + box + " --init geometric --grid 12x12x8 --quiet -o " + out("b.map"));
  ASSERT_EQ(given.exitCode, 0) << given.err;
  EXPECT_EQ(slurp(out("b.map")), slurp(out("g.map")));
  for (const char* name : {"g.map", "g.json", "a.map", "a.json", "b.map"}) fs::remove(out(name));
  expectCleanFailure("map " + box + " --init geometric --grid 12x12x9 -o " + out("x.map"),
                     "--init geometric: --grid does not have one cell per rank");
  expectCleanFailure(
      "map " + kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 + " --init geometric -o " + out("x.map"),
      "--init geometric: the ranks do not form a process grid");
}

TEST_F(Cli, EnginesRanksPerNodeAndAutoStartEndToEnd) {
  const std::string stencil = out("st.trace");
  ASSERT_EQ(
      run("gen stencil --dims 4x4x4 --points 7 --periodic --bytes 262144 -o " + stencil).exitCode,
      0);
  const std::string box = kFx10 + " --shape 2x2x2x2x3x2 --trace " + stencil;
  const auto tac3Of = [&](const std::string& flags, const std::string& mapping = "identity") {
    const Outcome r = run("score " + box + " " + flags + " --output-format json " + mapping);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return nlohmann::json::parse(r.out)[0]["scores"]["tac3"].get<double>();
  };
  // One engine: six sets of one message per link each (6 M / B); four engines: one set whose
  // busiest link carries two messages (2 M / B).
  EXPECT_DOUBLE_EQ(tac3Of("--engines 1"), 6 * 262144 / 5e9);
  EXPECT_DOUBLE_EQ(tac3Of(""), 2 * 262144 / 5e9);
  EXPECT_DOUBLE_EQ(tac3Of("--engines 4"), tac3Of(""));
  const Outcome m =
      run("map " + box + " --quiet -o " + out("st.map") + " --report " + out("st.json"));
  ASSERT_EQ(m.exitCode, 0) << m.err;
  const auto report = nlohmann::json::parse(slurp(out("st.json")));
  const auto& candidates = report["start"]["candidates"];
  ASSERT_GE(candidates.size(), 1u);
  double best = 1;
  std::string bestName;
  for (const auto& c : candidates)
    if (c["scores"]["tac3"].get<double>() < best)
      best = c["scores"]["tac3"].get<double>(), bestName = c["name"];
  EXPECT_EQ(report["start"]["chosen"], bestName);
  // The choice ends at the first start at tac3's lower bound (here the geometric one, after
  // identity, round-robin and tofu-default); without one, every start and a tahb search
  // from each are tried.
  if (best == report["scores"]["tac3_lower_bound"].get<double>()) {
    EXPECT_EQ(candidates.back()["name"], bestName);
    for (std::size_t i = 0; i + 1 < candidates.size(); ++i)
      EXPECT_GT(candidates[i]["scores"]["tac3"].get<double>(), best);
  } else {
    EXPECT_GE(candidates.size(), 4u);  // identity, tofu-default and a tahb search from each
  }
  EXPECT_DOUBLE_EQ(report["initial_scores"]["tac3"].get<double>(), best);
  EXPECT_LE(report["scores"]["tac3"].get<double>(), best);
  // Sweep: ranks_per_node and engines lists multiply the cases; keys say which.
  const std::string spec = file("k.json", "{\"traces\": [\"" + stencil + "\"], \"machines\": [\"" +
                                              testing::sourcePath("topologies/fx10.json") +
                                              "\"], \"boxes\": [\"2x2x2x2x3x2\"], "
                                              "\"objectives\": [\"identity\", \"round-robin\"], "
                                              "\"ranks_per_node\": [1, 2], \"engines\": [1, 4]}");
  const Outcome sw = run("sweep " + spec + " -o " + out("k.jsonl") + " --quiet");
  ASSERT_EQ(sw.exitCode, 0) << sw.err;
  const auto lines = sweep::lines(out("k.jsonl"));
  ASSERT_EQ(lines.size(), 8u);
  for (const auto& line : lines) {
    const int k = line["key"].value("ranks_per_node", 1);
    const int e = line["key"]["engines"].get<int>();
    const std::string mapping = line["key"]["objective"].get<std::string>();
    EXPECT_DOUBLE_EQ(
        line["scores"]["tac3"].get<double>(),
        tac3Of("--engines " + std::to_string(e) + " --ranks-per-node " + std::to_string(k),
               mapping))
        << line.dump();
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
  EXPECT_EQ(sweep::lines(results).size(), 6u);
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
  EXPECT_EQ(sweep::lines(results).size(), 6u);
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
  const auto results = sweep::lines(out("r.jsonl"));
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

TEST_F(Cli, VizWritesAnSvgWithOnePanelPerCcsAndMapping) {
  const Outcome r = run("viz " + kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 +
                        " tofu-default --compare identity -o " + out("m.svg"));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::string svg = slurp(out("m.svg"));
  ASSERT_EQ(svg.rfind("<?xml", 0), 0u);
  std::size_t panels = 0;
  for (std::size_t at = svg.find("class=\"panel\""); at != std::string::npos;
       at = svg.find("class=\"panel\"", at + 1))
    ++panels;
  EXPECT_EQ(panels, 2u * (4 + 1));  // two mappings x (4 CCS + all)
  EXPECT_NE(svg.find("tofu-default - CCS 3"), std::string::npos);
  EXPECT_NE(svg.find("identity - all CCSs"), std::string::npos);
  // --aggregate-only: one panel per mapping.
  ASSERT_EQ(run("viz " + kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 +
                " identity --aggregate-only -o " + out("a.svg"))
                .exitCode,
            0);
  const std::string one = slurp(out("a.svg"));
  EXPECT_EQ(one.find("class=\"panel\""), one.rfind("class=\"panel\""));
}

// A graph machine (here a fat-tree of 16 compute nodes) is drawn layered: compute nodes as
// the node rects of the torus picture, switches above them.
TEST_F(Cli, VizDrawsAGraphMachine) {
  const std::string machine = (dir_ / "ft.json").string(), trace = (dir_ / "cg16.trace").string();
  ASSERT_EQ(run("topology fat-tree --k 4 --levels 2 -o " + machine).exitCode, 0);
  ASSERT_EQ(run("gen cg --ranks 16 -o " + trace).exitCode, 0);
  const Outcome r = run("viz --machine " + machine + " --trace " + trace +
                        " identity --compare random:3 -o " + out("g.svg"));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("wrote " + out("g.svg")), std::string::npos) << r.out;
  const std::string svg = slurp(out("g.svg"));
  ASSERT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_NE(svg.find("fat-tree 16 compute nodes"), std::string::npos);
  const auto count = [&](const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = svg.find(what); at != std::string::npos; at = svg.find(what, at + 1)) ++n;
    return n;
  };
  const std::size_t panels = count("class=\"panel\"");
  EXPECT_GE(panels, 4u);                                  // two mappings x (CCSs + all)
  EXPECT_EQ(count("<rect class=\"node\""), 16 * panels);  // every compute node in every panel
  EXPECT_EQ(count("<circle class=\"switch\""), 8 * panels);
  EXPECT_GT(count("<path class=\"link\""), 0u);
  EXPECT_NE(svg.find("s0.0-&gt;c"), std::string::npos);  // links named after the graph's nodes
  fs::remove(out("g.svg"));
  expectCleanFailure(
      "viz --machine " + machine + " --shape 16 --trace " + trace + " identity -o " + out("x.svg"),
      "is a graph machine");
}

// -o picks the format by extension: .png through rsvg-convert (a real PNG, never SVG under a
// PNG name), refused with exit 3 and no file when rsvg-convert is not on the PATH; any other
// extension is refused (exit 3, the option value's error class) before any work.
TEST_F(Cli, VizWritesPngThroughRsvgConvertOrRefuses) {
  const std::string job = "viz " + kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 + " identity";
  const Outcome pdf = run(job + " -o " + out("m.pdf"));
  EXPECT_EQ(pdf.exitCode, 3);
  expectCleanFailure(job + " -o " + out("m.pdf"), "expected a file name ending in .svg or .png");
  // No rsvg-convert: the binary is run by its full path with an empty PATH.
  const Outcome missing = runShell("PATH=/nonexistent " + std::string(TAC3MAP_BINARY) + " " + job +
                                   " -o " + out("m.png"));
  EXPECT_EQ(missing.exitCode, 3) << missing.err;
  EXPECT_NE(missing.err.find("PNG output needs rsvg-convert"), std::string::npos) << missing.err;
  EXPECT_NE(missing.err.find("librsvg2-bin"), std::string::npos) << missing.err;
  EXPECT_TRUE(outputEmpty());
  if (findRsvgConvert().empty()) GTEST_SKIP() << "rsvg-convert is not installed";
  const Outcome r = run(job + " -o " + out("m.PNG"));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::string png = slurp(out("m.PNG"));
  ASSERT_GT(png.size(), 1000u);
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_ / "out"), fs::directory_iterator()), 1);
}

// --detail forces a level; on 1,152 nodes auto colours nodes and shows only the "all" panel.
TEST_F(Cli, VizDetailLevelsAndPlane) {
  const std::string trace = (dir_ / "s.trace").string();
  ASSERT_EQ(run("gen stencil --dims 12x12x8 --points 7 -o " + trace).exitCode, 0);
  const std::string k =
      "viz --machine topologies/k-computer.json --shape 4x4x6x2x3x2 --trace " + trace + " identity";
  ASSERT_EQ(run(k + " -o " + out("auto.svg")).exitCode, 0);
  const std::string automatic = slurp(out("auto.svg"));
  EXPECT_NE(automatic.find("detail: nodes"), std::string::npos);
  EXPECT_EQ(automatic.find("class=\"panel\""), automatic.rfind("class=\"panel\""));
  EXPECT_NE(automatic.find("data-ccs=\"all\""), std::string::npos);
  EXPECT_NE(automatic.find("class=\"histograms\""), std::string::npos);
  EXPECT_EQ(automatic.find("<path class=\"link\""), std::string::npos);
  ASSERT_EQ(run(k + " --detail summary -o " + out("summary.svg")).exitCode, 0);
  const std::string summary = slurp(out("summary.svg"));
  EXPECT_NE(summary.find("class=\"plane-summary\""), std::string::npos);
  EXPECT_EQ(summary.find("<rect class=\"node\""), std::string::npos);
  ASSERT_EQ(run("viz " + kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 + " identity --plane X,Y -o " +
                out("xy.svg"))
                .exitCode,
            0);
  EXPECT_NE(slurp(out("xy.svg")).find("slice plane X x Y"), std::string::npos);
  fs::remove_all(dir_ / "out");
  fs::create_directory(dir_ / "out");
  EXPECT_EQ(run(k + " --detail most -o " + out("x.svg")).exitCode, 2);  // usage (CLI11)
  expectCleanFailure(k + " --detail most -o " + out("x.svg"), "--detail: most not in");
  expectCleanFailure(k + " --plane X,W -o " + out("x.svg"), "--plane 'X,W': 'W' is not an axis");
}

TEST_F(Cli, VizRejectsABadMappingWithoutWriting) {
  const std::string bad = file("bad.map", "# tac3map mapping 1\n0 0 0 0 0 0 0\n");
  expectCleanFailure(
      "viz " + kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 + " " + bad + " -o " + out("m.svg"),
      "bad.map");
  expectCleanFailure(
      "viz " + kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 + " random:x -o " + out("m.svg"),
      "random:SEED");
}

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

TEST_F(Cli, MapWritesLauncherFilesThatScoreReadsBack) {
  // A node table of the whole box with host names.
  std::string table;
  const Box box = makeBox(testing::fx10(), "2x2x2x2x3x2");
  for (int node = 0; node < box.nodeCount; ++node) {
    for (int c : box.coordinatesOf(node)) table += std::to_string(c) + " ";
    table += "host=node" + std::to_string(node) + "\n";
  }
  const std::string nodes = " --nodes " + file("nodes.txt", table);
  const std::string base = kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 + nodes;
  ASSERT_EQ(run("map " + base + " --trials 50 -o " + out("a.map")).exitCode, 0);
  const Outcome reference = run("score " + base + " --json " + out("a.map"));
  for (const std::string format :
       {"json", "fujitsu-vcoord", "openmpi-rankfile", "slurm-hostfile"}) {
    const Outcome r =
        run("map " + base + " --trials 50 --output-format " + format + " -o " + out("b.map"));
    ASSERT_EQ(r.exitCode, 0) << format << ": " << r.err;
    const Outcome again = run("score " + base + " --json " + out("b.map"));
    ASSERT_EQ(again.exitCode, 0) << format << ": " << again.err;
    EXPECT_EQ(nlohmann::json::parse(again.out)[0]["scores"],
              nlohmann::json::parse(reference.out)[0]["scores"])
        << format;
  }
  EXPECT_EQ(slurp(out("b.map")).substr(0, 4), "node");  // slurm: host names, rank order
  // Without the table a host-based format cannot be written; nothing is left behind.
  const Outcome r = run("map " + kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 +
                        " --output-format slurm-hostfile -o " + out("c.map"));
  EXPECT_EQ(r.exitCode, kExitInput);
  EXPECT_NE(r.err.find("needs host names"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out("c.map")));
}

TEST_F(Cli, RanksPerNodeReachTheRankMaps) {
  std::string table;
  const Machine fx10 = testing::fx10();
  const Box box = makeBox(fx10, "2x2x2x2x3x2");
  for (int node = 0; node < box.nodeCount; ++node) {
    for (int c : box.coordinatesOf(node)) table += std::to_string(c) + " ";
    table += "host=node" + std::to_string(node) + "\n";
  }
  const std::string base =
      kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 + " --nodes " + file("nodes.txt", table);
  // Slot 0 gets cores 0..5, slot 1 cores 6..11; at most two ranks per host.
  const Outcome r = run("map " + base + " --trials 50 --ranks-per-node 2 --cores-per-node 12 " +
                        "--output-format openmpi-rankfile -o " + out("r.map"));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  std::istringstream lines(slurp(out("r.map")));
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line, "# tac3map openmpi-rankfile --ranks-per-node 2 --cores-per-node 12 --bind core");
  int ranks = 0;
  std::map<std::string, std::set<std::string>> slotsOfHost;
  for (; std::getline(lines, line); ++ranks) {
    const std::string host =
        line.substr(line.find('=') + 1, line.find(' ', 5) - line.find('=') - 1);
    const std::string cores = line.substr(line.rfind("slot=") + 5);
    EXPECT_TRUE(cores == "0-5" || cores == "6-11") << line;
    EXPECT_TRUE(slotsOfHost[host].insert(cores).second) << "slot taken twice: " << line;
  }
  EXPECT_EQ(ranks, 64);
  EXPECT_EQ(run("score " + base + " --ranks-per-node 2 " + out("r.map")).exitCode, 0);
  fs::remove(out("r.map"));  // failures below must leave out/ empty
  expectCleanFailure("map " + base + " --ranks-per-node 2 --cores-per-node 1 " +
                         "--output-format openmpi-rankfile -o " + out("x.map"),
                     "--cores-per-node 1 is less than --ranks-per-node 2");
  // Two ranks on a node: the file records K = 2 (without --ranks-per-node, K comes from it;
  // a different K is refused), and a start for the search.
  const std::string text = formatMapping(identityMapping(64, box, 2), fx10, box, 2);
  const std::string shared = file("k2.map", text);
  EXPECT_EQ(run("score " + base + " --ranks-per-node 2 " + shared).exitCode, 0);
  EXPECT_EQ(run("score " + base + " " + shared).exitCode, 0);
  expectCleanFailure("score " + base + " --ranks-per-node 1 " + shared,
                     "k2.map: recorded ranks-per-node 2 differs from --ranks-per-node 1");
  // A file that does not record K (an older tac3map's) is read with one rank per node.
  std::string old = text;
  old.erase(old.find("# ranks-per-node 2\n"), 19);
  expectCleanFailure("score " + base + " " + file("k2-old.map", old),
                     "k2-old.map:7: rank 1: slot 1 is outside 0..0 (--ranks-per-node 1)");
  EXPECT_EQ(run("map " + base + " --ranks-per-node 2 --trials 50 --init " + shared + " -o " +
                out("y.map"))
                .exitCode,
            0);
  fs::remove(out("y.map"));
}

TEST_F(Cli, PredictComparesEveryCollectivesAlgorithms) {
  std::string text = "tac3map-trace 1\nranks 8\n";
  for (int r = 0; r < 8; ++r) text += std::to_string(r) + " allreduce 1048576\n";
  for (int r = 0; r < 8; ++r) text += std::to_string(r) + " allgather 1024\n";
  const std::string trace = file("coll.trace", text);
  const Outcome r = run("predict " + kFx10 + " --shape 2x2x2x2x3x2 --trace " + trace +
                        " identity --profile topologies/fx10-profile.json --collectives-compare "
                        "--json");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto calls = nlohmann::json::parse(r.out)["collectives"];
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0]["collective"], "allreduce");
  EXPECT_EQ(calls[0]["seconds"].size(), 2u);
  EXPECT_TRUE(calls[0]["seconds"].contains("ring"));
  EXPECT_TRUE(calls[0]["seconds"].contains("recursive-doubling"));
  EXPECT_EQ(calls[0]["best_by_size"][0]["from_bytes"], 8);
  EXPECT_EQ(calls[1]["collective"], "allgather");
  EXPECT_EQ(calls[1]["seconds"].size(), 4u);
  for (const char* algorithm : {"ring", "recursive-doubling", "bruck", "shift-ring"})
    EXPECT_TRUE(calls[1]["seconds"].contains(algorithm)) << algorithm;
}

TEST_F(Cli, NodeTableAloneMakesANonContiguousJob) {
  // 64 nodes scattered over the whole FX10 (every twelfth node), no --shape.
  const Machine fx10 = testing::fx10();
  const Box machine = makeBox(fx10, "4x2x8x2x3x2");
  std::string table;
  std::set<std::vector<int>> listed;
  for (int node = 5; node < machine.nodeCount && listed.size() < 64; node += 12) {
    const std::vector<int> c = machine.coordinatesOf(node);
    listed.insert(c);
    for (int x : c) table += std::to_string(x) + " ";
    table += "host=n" + std::to_string(node) + "\n";
  }
  const std::string nodes = " --nodes " + file("nodes.txt", table);
  const Outcome r = run("map " + kFx10 + nodes + " " + kCg64 + " --trials 300 -o " + out("m.map"));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  std::istringstream lines(slurp(out("m.map")));
  int tasks = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    int task = 0;
    std::vector<int> c(6);
    words >> task;
    for (int& x : c) words >> x;
    EXPECT_TRUE(listed.count(c)) << line;
    ++tasks;
  }
  EXPECT_EQ(tasks, 64);
  // score and launcher files work on the same job; too small a table is refused.
  EXPECT_EQ(run("score " + kFx10 + nodes + " " + kCg64 + " identity " + out("m.map")).exitCode, 0);
  EXPECT_EQ(run("map " + kFx10 + nodes + " " + kCg64 +
                " --trials 10 --output-format slurm-hostfile -o " + out("h.txt"))
                .exitCode,
            0);
  const std::string small = file("small.txt", "0 0 0 0 0 0\n1 0 0 0 0 0\n");
  const Outcome refused =
      run("map " + kFx10 + " --nodes " + small + " " + kCg64 + " -o " + out("x.map"));
  EXPECT_EQ(refused.exitCode, kExitInput);
  EXPECT_NE(refused.err.find("small.txt: 64 tasks do not fit on its 2 nodes"), std::string::npos)
      << refused.err;
  EXPECT_FALSE(fs::exists(out("x.map")));
}

TEST_F(Cli, PlatformWritesXmlAndHostfileForAMapping) {
  const Outcome r = run("platform " + kFx10 +
                        " --shape 2x2x2x2x3x2 --trace examples/cg64-sendrecv.trace random:4 -o " +
                        out("p.xml") + " --hostfile " + out("h.txt"));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("96 hosts, 9216 routes"), std::string::npos) << r.out;
  const std::string xml = slurp(out("p.xml"));
  EXPECT_NE(xml.find("<platform version=\"4.1\">"), std::string::npos);
  // The host file equals the mapping's nodes, read back through score's mapping reader.
  std::istringstream lines(slurp(out("h.txt")));
  std::vector<std::string> hosts;
  for (std::string line; std::getline(lines, line);) hosts.push_back(line);
  ASSERT_EQ(hosts.size(), 64u);
  std::set<std::string> distinct(hosts.begin(), hosts.end());
  EXPECT_EQ(distinct.size(), 64u);
  for (const std::string& host : hosts)
    EXPECT_NE(xml.find("<host id=\"" + host + "\""), std::string::npos) << host;
  // Mistakes are one line naming the problem, and nothing is written.
  fs::remove(out("p.xml"));
  fs::remove(out("h.txt"));
  const std::string box = "platform " + kFx10 + " --shape 2x2x2x2x3x2 ";
  expectCleanFailure(box + "-o " + out("q.xml") + " --hostfile " + out("q.txt"),
                     "--hostfile for 'identity' needs the number of ranks: --ranks N or --trace");
  expectCleanFailure(box + "--trace examples/cg64-sendrecv.trace " +
                         file("bad.map", "# tac3map mapping 1\n0 9 9 9 9 9 9\n") + " -o " +
                         out("q.xml") + " --hostfile " + out("q.txt"),
                     "bad.map");
  expectCleanFailure(
      "platform --machine topologies/k-computer.json --shape 4x4x8x2x3x2 -o " + out("q.xml"),
      "k-computer.json: box 4x4x8x2x3x2 has 1536 nodes");
}

// The issue's synopsis: a mapping file from `map` sizes the host file by itself; a name takes
// --ranks. Both give what --trace gives.
TEST_F(Cli, PlatformHostfileWithoutATrace) {
  const std::string box = "platform " + kFx10 + " --shape 2x2x2x2x3x2 --ranks-per-node 2 ";
  ASSERT_EQ(run("map " + kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 +
                " --ranks-per-node 2 --trials 50 --quiet -o " + out("k2.map"))
                .exitCode,
            0);
  for (const std::string& mapping : {out("k2.map"), std::string("round-robin")}) {
    const std::string extra = mapping == "round-robin" ? " --ranks 64" : "";
    const Outcome alone =
        run(box + mapping + extra + " -o " + out("a.xml") + " --hostfile " + out("a.txt"));
    ASSERT_EQ(alone.exitCode, 0) << alone.err;
    const Outcome traced = run(box + "--trace examples/cg64-sendrecv.trace " + mapping + " -o " +
                               out("b.xml") + " --hostfile " + out("b.txt"));
    ASSERT_EQ(traced.exitCode, 0) << traced.err;
    EXPECT_EQ(slurp(out("a.txt")), slurp(out("b.txt"))) << mapping;
    EXPECT_NE(alone.out.find("64 ranks"), std::string::npos) << alone.out;
  }
  const std::string k2 = file("k2.map", slurp(out("k2.map")));
  for (const char* name : {"k2.map", "a.xml", "a.txt", "b.xml", "b.txt"}) fs::remove(out(name));
  expectCleanFailure(
      box + "--ranks 63 " + k2 + " -o " + out("c.xml") + " --hostfile " + out("c.txt"), "k2.map");
  expectCleanFailure(box + "--ranks 64 --trace examples/cg64-sendrecv.trace " + k2 + " -o " +
                         out("c.xml") + " --hostfile " + out("c.txt"),
                     "--ranks and --trace both give the number of ranks");
}

TEST_F(Cli, ConvertToSimgridTiReadsBackAsTheSameCcs) {
  const Outcome r = run("convert examples/cg64-isend.trace --to simgrid-ti -o " + out("cg.ti"));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(fs::exists(out("cg.ti.rank63")));
  const Outcome original = run("ccs --trace examples/cg64-isend.trace --json");
  const Outcome converted = run("ccs --trace " + out("cg.ti") + " --json");
  ASSERT_EQ(converted.exitCode, 0) << converted.err;
  EXPECT_EQ(converted.out, original.out);
  const Outcome bad = run("convert examples/cg64-isend.trace --to paraver -o " + out("x.ti"));
  EXPECT_EQ(bad.exitCode, kExitUsage);
  EXPECT_FALSE(fs::exists(out("x.ti")));
}

TEST_F(Cli, ConvertExpandsCollectivesWithTheChosenAlgorithm) {
  // One allgather per rank, written with each algorithm: the TI trace holds its steps (and no
  // 'sendRecv', which SimGrid 3.32 rejects without datatypes), and reads back as the CCSs of
  // the native trace under the same --collectives.
  std::string text = "tac3map-trace 1\nranks 6\n";
  for (int r = 0; r < 6; ++r) text += std::to_string(r) + " allgather 1024\n";
  const std::string trace = file("ag.trace", text);
  std::set<std::string> different;
  for (const char* algorithm : {"ring", "shift-ring", "bruck", "recursive-doubling"}) {
    SCOPED_TRACE(algorithm);
    const std::string choice = std::string(" --collectives allgather=") + algorithm;
    const Outcome r = run("convert " + trace + " --to simgrid-ti -o " + out("ag.ti") + choice);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    std::ifstream rank0(out("ag.ti.rank0"));
    const std::string actions((std::istreambuf_iterator<char>(rank0)), {});
    EXPECT_EQ(actions.find("sendRecv"), std::string::npos);
    const Outcome original = run("ccs --trace " + trace + " --json" + choice);
    const Outcome converted = run("ccs --trace " + out("ag.ti") + " --json");
    ASSERT_EQ(converted.exitCode, 0) << converted.err;
    EXPECT_EQ(converted.out, original.out);
    different.insert(converted.out);
  }
  EXPECT_EQ(different.size(), 3u);  // 6 ranks: recursive doubling runs as Bruck
}
}  // namespace
}  // namespace tac3map

namespace tac3map {
namespace {

// bcast end to end on the paper's nonuniform tree from root 1 (the second compute node): the
// optimum beats MPICH's binomial tree, the schedule file says so, and bad input fails cleanly.
// CG and a stencil mapped on a 2-level fat-tree and a small dragonfly, end to end: the search
// never ends worse than its start (by the flow model where it ranks the result), the report's
// scores are score's, rank files name the graph's nodes, a node table picks nodes by name, and
// --shape is refused.
TEST_F(Cli, MapsOnGraphMachinesEndToEnd) {
  ASSERT_EQ(run("topology fat-tree --k 8 --levels 2 -o " + out("ft.json")).exitCode, 0);
  ASSERT_EQ(
      run("topology dragonfly --groups 5 --routers 4 --hosts 4 -o " + out("df.json")).exitCode, 0);
  ASSERT_EQ(run("gen stencil --dims 4x4x4 --points 7 --periodic -o " + out("st.trace")).exitCode,
            0);
  for (const std::string& machine : {out("ft.json"), out("df.json")})
    for (const std::string& trace : {std::string("examples/cg64-isend.trace"), out("st.trace")}) {
      SCOPED_TRACE(machine + " " + trace);
      const std::string job = "--machine " + machine + " --trace " + trace;
      const Outcome map =
          run("map " + job + " --trials 300 -o " + out("m.map") + " --report " + out("r.json"));
      ASSERT_EQ(map.exitCode, 0) << map.err;
      const auto report = nlohmann::json::parse(slurp(out("r.json")));
      // Ranked by the flow model, the result may score a higher tac3 than the start but never
      // runs slower by the flow model (the start is one of the candidates); else tac3 decides.
      const std::string key = report["result"]["ranked_by"].is_null() ? "tac3" : "flow";
      EXPECT_LE(report["scores"][key].get<double>(), report["initial_scores"][key].get<double>())
          << key;
      const Outcome score = run("score " + job + " --output-format json " + out("m.map"));
      ASSERT_EQ(score.exitCode, 0) << score.err;
      const auto scored = nlohmann::json::parse(score.out);
      EXPECT_DOUBLE_EQ(scored[0]["scores"]["tac3"].get<double>(),
                       report["scores"]["tac3"].get<double>());
    }
  // Rank files name the nodes; a node table picks nodes by name.
  const std::string job = "--machine " + out("ft.json") + " --trace examples/cg32-isend.trace";
  const std::string table = file("nodes.txt", [] {
    std::string text = "# the second half of the fat-tree\n";
    for (int i = 32; i < 64; ++i) {
      text += "c";
      text += std::to_string(i);
      text += "\n";
    }
    return text;
  }());
  const Outcome picked = run("map " + job + " --nodes " + table +
                             " --trials 100 --output-format openmpi-rankfile -o " + out("rf.txt"));
  ASSERT_EQ(picked.exitCode, 0) << picked.err;
  const std::string rankfile = slurp(out("rf.txt"));
  EXPECT_NE(rankfile.find("rank 0=c"), std::string::npos) << rankfile;
  // ... and reads back by those names, with or without the table.
  const Outcome back = run("score " + job + " --nodes " + table + " " + out("rf.txt"));
  EXPECT_EQ(back.exitCode, 0) << back.err;
  const Outcome whole = run("score " + job + " " + out("rf.txt"));
  EXPECT_EQ(whole.exitCode, 0) << whole.err;
  for (int i = 0; i < 32; ++i) {
    std::string host = "=c";
    host += std::to_string(i);
    host += " ";
    EXPECT_EQ(rankfile.find(host), std::string::npos) << "node c" << i << " is not in the table";
  }
  const Outcome shaped = run("map " + job + " --shape 32 -o " + out("x.map"));
  EXPECT_EQ(shaped.exitCode, kExitInput);
  EXPECT_NE(shaped.err.find("graph machine"), std::string::npos) << shaped.err;
  const Outcome unknown =
      run("map " + job + " --nodes " + file("bad.txt", "c1\nsw9\n") + " -o " + out("x.map"));
  EXPECT_EQ(unknown.exitCode, kExitInput);
  EXPECT_NE(unknown.err.find("bad.txt:2"), std::string::npos) << unknown.err;
}

// Issue 14, item 6: outputs that cannot be written are refused before any work, and nothing
// is left behind.
TEST_F(Cli, OutputPathsAreCheckedBeforeAnyWork) {
  const std::string job =
      "map --machine topologies/fx10.json --shape 2x2x2x2x3x2 --trace examples/cg64-isend.trace ";
  const Outcome same = run(job + "-o " + out("a.map") + " --report " + out("a.map"));
  EXPECT_EQ(same.exitCode, kExitInput);
  EXPECT_NE(same.err.find("-o and --report both name"), std::string::npos) << same.err;
  const Outcome folder = run(job + "-o " + out("ok.map") + " --report " + out(""));
  EXPECT_EQ(folder.exitCode, kExitInput);
  EXPECT_NE(folder.err.find("is a folder, not a file"), std::string::npos) << folder.err;
  const Outcome missing = run(job + "-o " + out("no/such/a.map"));
  EXPECT_EQ(missing.exitCode, kExitInput);
  EXPECT_NE(missing.err.find("does not exist"), std::string::npos) << missing.err;
  EXPECT_TRUE(outputEmpty());
}

// Issue 25, item 8: a folder where a mapping file or a node table is expected, and a profile
// whose name is no string, are input errors naming the file (they were internal errors); an
// unknown command stays a usage error when --help follows it.
TEST_F(Cli, FoldersAndMistypedFieldsAreInputErrorsAndAnUnknownCommandAUsageError) {
  const std::string job =
      "--machine topologies/fx10.json --shape 2x2x2x2x3x2 --trace "
      "examples/cg64-isend.trace ";
  const std::string folder = out("");
  for (const std::string& args :
       {"score " + job + folder, "map " + job + "--init " + folder + " -o " + out("x.map"),
        "score " + job + "--nodes " + folder + " identity"}) {
    const Outcome r = run(args);
    EXPECT_EQ(r.exitCode, kExitInput) << args << "\n" << r.err;
    EXPECT_NE(r.err.find(folder + ": is a folder, not a"), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  const std::string profile = file(
      "p.json",
      R"({"name": 5, "pingpong": [{"bytes": 8, "seconds": 1e-6}, {"bytes": 1024, "seconds": 2e-6}], "memcpy": [{"bytes": 8, "seconds": 1e-7}, {"bytes": 1024, "seconds": 2e-7}], "barrier_seconds": 1e-5})");
  const Outcome named = run("predict " + job + "identity --profile " + profile);
  EXPECT_EQ(named.exitCode, kExitInput) << named.err;
  EXPECT_NE(named.err.find("p.json: name: expected a string"), std::string::npos) << named.err;
  for (const std::string& args : {std::string("nosuch --help"), std::string("gen nosuch --help")}) {
    const Outcome r = run(args);
    EXPECT_EQ(r.exitCode, 2) << args;
    EXPECT_NE(r.err.find("unknown command 'nosuch'"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  EXPECT_EQ(run("map --help").exitCode, 0);
}

// A 5,000-character token in a trace is quoted at most 80 characters long: the line stays under
// 300 bytes.
TEST_F(Cli, AnErrorQuotesAtMostEightyCharactersOfItsInput) {
  const std::string trace =
      file("long.trace", "tac3map-trace 1\nranks 2\n0 " + std::string(5000, 'y') + "\n");
  const Outcome r = run("score --machine topologies/fx10.json --shape 2x2x2x2x3x2 --trace " +
                        trace + " identity");
  EXPECT_EQ(r.exitCode, kExitInput) << r.err;
  EXPECT_LT(r.err.size(), 300u) << r.err;
  EXPECT_NE(r.err.find("'" + std::string(77, 'y') + "...'"), std::string::npos) << r.err;
}

TEST_F(Cli, BcastOnATreeEndToEnd) {
  const std::string tree = "--machine topologies/trees/nonuniform-2x2x1+1.json --root c1";
  const Outcome optimal = run("bcast " + tree + " -o " + out("optimal.json"));
  ASSERT_EQ(optimal.exitCode, 0) << optimal.err;
  const Outcome binomial = run("bcast " + tree + " --algorithm binomial -o " + out("b.json"));
  ASSERT_EQ(binomial.exitCode, 0) << binomial.err;
  const auto o = nlohmann::json::parse(slurp(out("optimal.json")));
  const auto b = nlohmann::json::parse(slurp(out("b.json")));
  EXPECT_TRUE(o["optimal"].get<bool>());
  EXPECT_EQ(o["root"], "c1");
  EXPECT_EQ(o["transfers"].size(), 7u);  // 8 compute nodes
  EXPECT_LT(o["time"].get<double>(), b["time"].get<double>() * 0.9);
  EXPECT_EQ(optimal.out.find("optimal broadcast"), 0u) << optimal.out;
  // The schedule as a trace: its messages are the schedule's transfers.
  ASSERT_EQ(run("bcast " + tree + " --trace-out " + out("b.trace")).exitCode, 0);
  const Outcome ccs = run("ccs --json --trace " + out("b.trace"));
  ASSERT_EQ(ccs.exitCode, 0) << ccs.err;
  std::multiset<std::pair<int, int>> fromTrace, fromSchedule;
  const auto sets = nlohmann::json::parse(ccs.out);
  for (const auto& set : sets["ccs"])
    for (const auto& m : set) fromTrace.insert({m["src"].get<int>(), m["dst"].get<int>()});
  for (const auto& t : o["transfers"])  // names c0 .. c7 are ranks 0 .. 7
    fromSchedule.insert({std::stoi(t["src"].get<std::string>().substr(1)),
                         std::stoi(t["dst"].get<std::string>().substr(1))});
  EXPECT_EQ(fromTrace, fromSchedule);
  fs::remove(out("b.trace"));
  fs::remove(out("optimal.json"));
  fs::remove(out("b.json"));
  expectCleanFailure(
      "bcast " + tree.substr(0, tree.find(" --root")) + " --root nope -o " + out("x.json"),
      "--root: 'nope' is not a participant");
  const std::string ring = file("ring.json", R"({"kind": "graph", "nodes": [{"name": "a"},
    {"name": "b"}, {"name": "c"}], "links": [
    {"between": ["a", "b"], "bandwidth": 1, "latency": 0},
    {"between": ["b", "c"], "bandwidth": 1, "latency": 0},
    {"between": ["c", "a"], "bandwidth": 1, "latency": 0}]})");
  expectCleanFailure("bcast --machine " + ring + " --root a -o " + out("x.json"),
                     "bcast needs a tree network");
}

// Issue 14, items 5 and 10: DUMPI input from dumpi's folder (its .txt conversions), with the
// missing rank named; garbage given as DUMPI is an error naming the file, and nothing is
// written.
TEST_F(Cli, DumpiFolderAndGarbageTraces) {
  const Outcome folder = run("ccs --json --trace tests/data/dumpi");
  ASSERT_EQ(folder.exitCode, 0) << folder.err;
  const Outcome native = run("ccs --json --trace tests/data/ring.trace");
  ASSERT_EQ(native.exitCode, 0) << native.err;
  const auto ccs = [](const std::string& json) {
    auto parsed = nlohmann::json::parse(json)["ccs"];
    for (auto& set : parsed)
      for (auto& m : set) m.erase("line");  // lines differ between the formats
    return parsed;
  };
  EXPECT_EQ(ccs(folder.out), ccs(native.out));

  const fs::path partial = dir_ / "partial";
  fs::create_directories(partial);
  for (const char* rank : {"0000", "0001", "0003"})
    fs::copy_file(sourcePath("tests/data/dumpi/dumpi-0000-" + std::string(rank) + ".txt"),
                  partial / ("dumpi-0000-" + std::string(rank) + ".txt"));
  std::ofstream(partial / "dumpi-0000-0002.bin") << "binary";
  const std::string convert = "convert --to simgrid-ti -o " + out("x.ti") + " ";
  expectCleanFailure(convert + partial.string(),
                     partial.string() +
                         ": no DUMPI text file for rank 2 (expected dumpi-0000-0002.txt; convert "
                         "the .bin files with dumpi2ascii)");
  const std::string empty = file("empty.txt", "");
  expectCleanFailure(convert + "--trace-format dumpi " + empty,
                     empty +
                         ": no DUMPI calls (expected the text dumpi2ascii prints: 'MPI_Init "
                         "entering at walltime ...' blocks)");
  std::string bytes =
      "\x7f"
      "ELF";
  for (int i = 0; i < 512; ++i) bytes += static_cast<char>((i * 131 + 7) % 256);
  const std::string noise = file("noise.bin", bytes);
  expectCleanFailure(convert + "--trace-format dumpi " + noise, noise + ": no DUMPI calls");
  const fs::path nothing = dir_ / "nothing";
  fs::create_directories(nothing);
  expectCleanFailure("map " + kFx10 + " --shape 2x2x2x2x3x2 -o " + out("m.map") +
                         " --trace-format dumpi --trace " + nothing.string(),
                     nothing.string() + ": no DUMPI trace in this folder");
  const std::string quiet = file("quiet.trace", "tac3map-trace 1\nranks 2\n0 barrier\n1 barrier\n");
  expectCleanFailure(convert + quiet, quiet + ": the trace has no messages between ranks");
  const Outcome allowed = run(convert + "--allow-empty " + quiet);
  EXPECT_EQ(allowed.exitCode, 0) << allowed.err;
}

// Issue 15, item 4: one exit-code table for every command. Usage errors of any kind exit with
// 2 (CLI11's own codes differ per kind), --help with 0, bad input with 3.
TEST_F(Cli, ExitCodesFollowOneTable) {
  EXPECT_EQ(run("map --no-such-option").exitCode, kExitUsage);
  EXPECT_EQ(run("no-such-command").exitCode, kExitUsage);
  EXPECT_EQ(run("score --machine topologies/fx10.json --shape 2x2x2x2x3x2 identity").exitCode,
            kExitUsage);  // --trace missing
  EXPECT_EQ(run("map --trials x --machine topologies/fx10.json").exitCode, kExitUsage);
  EXPECT_EQ(run("map --help").exitCode, kExitOk);
  EXPECT_EQ(run("ccs --trace " + file("bad.trace", "tac3map-trace 1\nranks x\n")).exitCode,
            kExitInput);
  EXPECT_TRUE(outputEmpty());
}

TEST_F(Cli, RankfileBindingComesFromBindAndTheMachineFile) {
  std::string table;
  const Machine fx10 = testing::fx10();
  const Box box = makeBox(fx10, "2x2x2x2x3x2");
  for (int node = 0; node < box.nodeCount; ++node) {
    for (int c : box.coordinatesOf(node)) table += std::to_string(c) + " ";
    table += "host=node" + std::to_string(node) + "\n";
  }
  const std::string job =
      kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 + " --nodes " + file("nodes.txt", table);
  const std::string base = job + " --trials 50 --output-format openmpi-rankfile";
  // Every rank line's slot list, and the first line.
  const auto written = [&](const std::string& options, std::string& header) {
    const Outcome r = run("map " + base + " " + options + " -o " + out("r.rankfile"));
    EXPECT_EQ(r.exitCode, kExitOk) << r.err;
    std::istringstream lines(slurp(out("r.rankfile")));
    std::getline(lines, header);
    std::set<std::string> lists;
    for (std::string line; std::getline(lines, line);)
      lists.insert(line.substr(line.find(" slot=") + 6));
    EXPECT_EQ(run("score " + job + " " + out("r.rankfile")).exitCode, kExitOk);  // reads back
    fs::remove(out("r.rankfile"));
    return lists;
  };
  std::string header;
  // One rank per node, the FX10 file's 16 cores: each rank gets its whole node, not core 0.
  EXPECT_EQ(written("", header), (std::set<std::string>{"0-15"}));
  EXPECT_EQ(header,
            "# tac3map openmpi-rankfile --ranks-per-node 1 --cores-per-node 16 --bind core");
  EXPECT_EQ(written("--cores-per-node 12 --bind none", header), (std::set<std::string>{"0-11"}));
  EXPECT_EQ(header,
            "# tac3map openmpi-rankfile --ranks-per-node 1 --cores-per-node 12 --bind none");
  EXPECT_EQ(written("--bind socket --sockets-per-node 2", header),
            (std::set<std::string>{"0:*,1:*"}));
  EXPECT_EQ(header,
            "# tac3map openmpi-rankfile --ranks-per-node 1 --cores-per-node 16 "
            "--sockets-per-node 2 --bind socket");
  // A machine file without cores_per_node cannot say what the whole node is.
  const Outcome none =
      run("map --machine topologies/torus3d-8x8x8.json --shape 4x4x4 " + kCg64 +
          " --trials 50 --output-format openmpi-rankfile --bind none -o " + out("x.rankfile"));
  EXPECT_EQ(none.exitCode, kExitInput);
  EXPECT_EQ(none.err,
            "tac3map: error: openmpi-rankfile --bind none needs the node's cores "
            "(--cores-per-node C, or \"cores_per_node\" in the machine file): Open MPI binds "
            "every rank of a rank file, so none binds each to all of its node's cores\n");
  EXPECT_TRUE(outputEmpty());
  EXPECT_EQ(run("map " + base + " --bind all -o " + out("y.rankfile")).exitCode, kExitUsage);
}

TEST_F(Cli, VersionPrintsTheProjectVersionAndTheGitRevision) {
  // The version comes from CMake's project() (TAC3MAP_PROJECT_VERSION, a compile definition),
  // and the installed header says the same.
  EXPECT_EQ(std::string(TAC3MAP_VERSION), TAC3MAP_PROJECT_VERSION);
  const Outcome r = run("--version");
  EXPECT_EQ(r.exitCode, kExitOk) << r.err;
  const std::string prefix = std::string("tac3map ") + TAC3MAP_PROJECT_VERSION + " (git ";
  ASSERT_EQ(r.out.substr(0, prefix.size()), prefix) << r.out;
  ASSERT_GE(r.out.size(), prefix.size() + 3) << r.out;
  EXPECT_EQ(r.out.substr(r.out.size() - 2), ")\n") << r.out;
  // `git describe --always --dirty` (a tag, a hash, maybe -dirty) or "unknown": one word.
  const std::string revision = r.out.substr(prefix.size(), r.out.size() - 2 - prefix.size());
  EXPECT_FALSE(revision.empty());
  EXPECT_EQ(revision.find_first_of(" ()\n"), std::string::npos) << revision;
  EXPECT_TRUE(r.err.empty()) << r.err;
}

}  // namespace
}  // namespace tac3map
