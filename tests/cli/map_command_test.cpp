// `tac3map map` end to end: the rank map and report it writes, seeds and threads, starts, full
// nodes, node tables, graph machines and launcher files.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "cli/cli_fixture.hpp"
#include "tac3map/initial/initial_mapper.hpp"
#include "tac3map/io/exit_codes.hpp"
#include "tac3map/mapping/mapping.hpp"
#include "tac3map/mapping/rankmap.hpp"
#include "tac3map/search/objectives.hpp"
#include "tac3map/search/refiner.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

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

TEST_F(Cli, EachObjectiveSearchesWithItsOwnDefaults) {
  // map takes the objective's temperatures and chain count (objectives.hpp) where no flag sets
  // them, and a flag overrides each. tahb's differ from tac3's, so the test would see a
  // default taken from the wrong objective.
  const SearchDefaults& tahb = objectiveSpec(ObjectiveKind::Tahb).defaults;
  const SearchDefaults& tac3 = objectiveSpec(ObjectiveKind::Tac3).defaults;
  ASSERT_NE(tahb.chains, tac3.chains);
  ASSERT_NE(tahb.cooling, tac3.cooling);
  const auto trialsOf = [](const SearchDefaults& d, double cooling) {
    Schedule s;
    s.t0 = d.t0;
    s.tEnd = d.tEnd;
    s.cooling = cooling;
    s.trialsPerTemperature = 20;
    return s.totalTrials();
  };
  const auto chainsOf = [&](const std::string& flags) {
    const Outcome r = run("map " + kFx10 + " --shape 1x2x4x2x3x2 " + kCg64 +
                          " --init identity --no-early-stop --trials 20 --threads 2 " + flags +
                          " -o " + out("d.map") + " --report " + out("d.json"));
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return nlohmann::json::parse(slurp(out("d.json")))["chains"];
  };
  auto chains = chainsOf("--objective tahb");
  ASSERT_EQ(chains.size(), static_cast<std::size_t>(tahb.chains));
  for (const auto& chain : chains) EXPECT_EQ(chain["trials"], trialsOf(tahb, tahb.cooling));
  chains = chainsOf("--objective tahb --chains 1 --cooling " + std::to_string(tac3.cooling));
  ASSERT_EQ(chains.size(), 1u);
  EXPECT_EQ(chains[0]["trials"], trialsOf(tahb, tac3.cooling));
  chains = chainsOf("--objective tac3 --no-tie-break");
  ASSERT_EQ(chains.size(), static_cast<std::size_t>(tac3.chains));
  EXPECT_EQ(chains[0]["trials"], trialsOf(tac3, tac3.cooling));
}

TEST_F(Cli, TahbStartsColdOnLargeJobsUnlessT0IsGiven) {
  // Above coldAbove tasks tahb's default first temperature is coldT0TimesTasks / tasks (fewer
  // temperatures down to t-end, so fewer trials); --t0 still wins. One rank over the threshold.
  const SearchDefaults& tahb = objectiveSpec(ObjectiveKind::Tahb).defaults;
  ASSERT_GT(tahb.coldAbove, 0);
  const int ranks = tahb.coldAbove + 1;
  EXPECT_LT(tahb.t0For(ranks), tahb.t0);
  EXPECT_EQ(tahb.t0For(tahb.coldAbove), tahb.t0);
  EXPECT_EQ(tahb.t0For(ranks), tahb.coldT0TimesTasks / ranks);
  const std::string trace = out("big.trace");
  ASSERT_EQ(run("gen random --ranks " + std::to_string(ranks) + " --degree 2 --seed 3 -o " + trace)
                .exitCode,
            0);
  const auto trialsOf = [&](double t0) {
    Schedule s;
    s.t0 = t0;
    s.tEnd = tahb.tEnd;
    s.cooling = tahb.cooling;
    s.trialsPerTemperature = 5;
    return s.totalTrials();
  };
  const auto trials = [&](const std::string& flags) {
    const Outcome r = run("map --machine topologies/k-computer.json --shape 8x8x12x2x3x2 --trace " +
                          trace + " --objective tahb --init identity --chains 1 --trials 5 " +
                          flags + " -o " + out("big.map") + " --report " + out("big.json"));
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return nlohmann::json::parse(slurp(out("big.json")))["chains"][0]["trials"];
  };
  EXPECT_EQ(trials(""), trialsOf(tahb.t0For(ranks)));
  // Each run reads and routes a 9,216-node box: under the sanitizers (several times slower)
  // the default alone.
  if (testing::underSanitizers()) return;
  EXPECT_EQ(trials("--t0 0.1"), trialsOf(0.1));
  // sweep likewise, where its schedule leaves t0 out (map's --t0 above stands for a given one:
  // each of these runs takes seconds under the sanitizers).
  const std::string spec = R"({"jobs": [{"trace": ")" + trace + R"(", "machine": ")" +
                           testing::sourcePath("topologies/k-computer.json") +
                           R"(", "boxes": ["8x8x12x2x3x2"]}], "objectives": ["tahb"],
                           "init": "identity", "chains": [1], "schedules": [{"trials": 5}]})";
  const Outcome r = run("sweep " + file("big.json", spec) + " -o " + out("big.jsonl") + " --quiet");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto lines = jsonLines(out("big.jsonl"));
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0]["search"]["trials"], trialsOf(tahb.t0For(ranks)));
}

TEST_F(Cli, ProgressLineOnlyOnATerminal) {
  // One second, long enough for the line (every 250 ms), whatever the build's speed; from
  // identity, so that the second is the search's (init auto's starts, Scotch's among them, may
  // take it all on a loaded machine).
  const std::string args = "map " + kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 +
                           " --init identity --no-early-stop --trials 20000 --time-limit 1 -o " +
                           out("p.map");
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
  const auto lines = jsonLines(out("k.jsonl"));
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
      // One rank per node: no flow descent after the ranking (map_job.cpp).
      EXPECT_EQ(report["result"]["flow_swaps"], 0);
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

}  // namespace
}  // namespace tac3map

namespace tac3map {
namespace {

// The choices --help lists come from the lists the code runs: every start with its
// description, every refiner and objective, every output format.
TEST_F(Cli, MapHelpListsWhatTheRegistriesHold) {
  const Outcome r = run("map --help");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  for (const auto& mapper : initialMappers())
    EXPECT_NE(r.out.find(std::string(mapper->name()) + " (" + mapper->description() + ")"),
              std::string::npos)
        << mapper->name();
  for (const std::string& listed :
       {refinerNames().help(), objectiveNames().help(), mapFormatNames().help()})
    EXPECT_NE(r.out.find(listed), std::string::npos) << listed;
}

}  // namespace
}  // namespace tac3map
