// Issue 14 (items 2, 3, 4): tiny inputs that ask for huge memory or overflow 64 bits are
// refused before anything is sized for them, with the file and line (or JSON path) named;
// docs/limits.md lists the limits. Every test here fails fast and allocates nothing big.
#include "tac3map/io/limits.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/command_test.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/io/exit_codes.hpp"
#include "tac3map/io/json_input.hpp"
#include "tac3map/io/trace_formats.hpp"
#include "tac3map/mapping/rankmap.hpp"
#include "tac3map/model/ccs.hpp"
#include "tac3map/model/problem.hpp"
#include "tac3map/network/machine.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

namespace fs = std::filesystem;

using testing::Outcome;

class Limits : public testing::CommandTest {
 protected:
  Limits() : CommandTest("tac3map-limits-") {}

  // The command fails with `exitCode`, its one-line message is `expected` exactly, and
  // nothing was written.
  void expectRefused(const std::string& args, int exitCode, const std::string& expected) {
    const Outcome r = run(args);
    EXPECT_EQ(r.exitCode, exitCode) << args << "\n" << r.err;
    EXPECT_EQ(r.err, "tac3map: error: " + expected + "\n") << args;
    EXPECT_TRUE(outputEmpty()) << args;
  }
};

const std::string kFx10 = "--machine topologies/fx10.json --shape 2x2x2x2x3x2";
const std::string kBox96 = "box 2x2x2x2x3x2 (96 nodes, one task per node)";

// ---- item 2: tiny file, huge memory --------------------------------------------------------

TEST_F(Limits, TiRankBeyondTheBoxIsRefusedAtItsLine) {
  const std::string ti = file("big.ti", "0 send 1 8\n1 recv 0 8\n100000000 compute 1\n");
  expectRefused("map " + kFx10 + " --trace " + ti + " --trace-format simgrid-ti -o " + out("m.map"),
                kExitInput, ti + ":3: rank 100000000 is beyond the 96 tasks that fit on " + kBox96);
}

TEST_F(Limits, TiRankBeyondTheGlobalLimitWithoutABox) {
  const std::string ti = file("big.ti", "0 send 1 8\n1 recv 0 8\n100000000 compute 1\n");
  expectRefused("convert " + ti + " --to simgrid-ti -o " + out("c.ti"), kExitResource,
                ti + ":3: rank 100000000 is beyond tac3map's limit of 1048576 ranks for a "
                     "trace read without a box (docs/limits.md)");
  // The last rank within the limit passes the check (not read here: 2^20 ranks' tables).
  EXPECT_NO_THROW(RankLimit{}.checkRank(1048575, "edge.ti", 3));
  EXPECT_THROW(RankLimit{}.checkRank(1048576, "edge.ti", 3), LimitError);
}

TEST_F(Limits, NativeRankCountBeyondTheBoxIsRefusedAtTheRanksLine) {
  const std::string trace =
      file("big.trace", "tac3map-trace 1\nranks 100000000\n0 send 1 8\n1 recv 0 8\n");
  expectRefused("map " + kFx10 + " --trace " + trace + " -o " + out("m.map"), kExitInput,
                trace + ":2: 100000000 tasks do not fit on " + kBox96);
  expectRefused("ccs --trace " + trace, kExitResource,
                trace +
                    ":2: 100000000 ranks exceed tac3map's limit of 1048576 ranks for a "
                    "trace read without a box (docs/limits.md)");
}

TEST_F(Limits, RankLimitOfAJobIsItsCapacity) {
  RankLimit limit;
  limit.most = 4;
  limit.holder = "box 2x2 (4 nodes, one task per node)";
  EXPECT_NO_THROW(limit.checkCount(4, "t", 2));
  EXPECT_NO_THROW(limit.checkRank(3, "t", 2));
  try {
    limit.checkRank(4, "t", 7);
    ADD_FAILURE();
  } catch (const LimitError&) {
    ADD_FAILURE() << "a job's capacity is a fit error (exit code 1), not a limit";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "t:7: rank 4 is beyond the 4 tasks that fit on box 2x2 (4 nodes, one task per "
                 "node)");
  }
}

TEST_F(Limits, DumpiIndexWithTooManyRanksIsRefusedBeforeReading) {
  TraceOptions options;
  options.ranks.most = 2;
  options.ranks.holder = "box 2 (2 nodes, one task per node)";
  std::string index;
  for (int r = 0; r < 3; ++r) {
    const std::string name = "r" + std::to_string(r) + ".txt";
    file(name, "MPI_Init entering at walltime 1.0, cputime 1.0 seconds in thread 0.\n");
    index += name + "\n";
  }
  const std::string path = file("index.txt", index);
  try {
    readAnyTrace(path, TraceFormat::Dumpi, options);
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              path + ": 3 tasks do not fit on box 2 (2 nodes, one task per node)");
  }
}

TEST_F(Limits, AllToAllBeyondTheBoxIsRefusedBeforeCcsExtraction) {
  // 3,000 ranks: 9M messages once expanded (2.6 GB and a minute before the fix).
  std::string text = "tac3map-trace 1\nranks 3000\n";
  for (int r = 0; r < 3000; ++r) text += std::to_string(r) + " alltoall 8\n";
  const std::string trace = file("a2a.trace", text);
  expectRefused("score " + kFx10 + " --trace " + trace + " identity", kExitInput,
                trace + ":2: 3000 tasks do not fit on " + kBox96);
}

TEST_F(Limits, CollectiveExpansionBeyondTheMessageLimitNamesTheCollective) {
  // 4,200 ranks fit the global limit, but their alltoall is 4200 x 4199 = 17.6M messages:
  // counted before any is made, refused at the rank whose call passes 2^24 (rank 3995).
  std::string text = "tac3map-trace 1\nranks 4200\n";
  for (int r = 0; r < 4200; ++r) text += std::to_string(r) + " alltoall 8\n";
  const std::string trace = file("a2a.trace", text);
  expectRefused("ccs --collectives alltoall=pairwise --trace " + trace, kExitResource,
                trace +
                    ":3998: alltoall over 4200 ranks: the trace's collectives expand to "
                    "more than 16777216 point-to-point messages (tac3map's limit, "
                    "docs/limits.md)");
}

TEST_F(Limits, MachineWithTooManyNodesIsRefusedWhileParsing) {
  const std::string machine = file("big.json", R"({"name": "big", "axes": [
      {"name": "X", "size": 1024, "wrap": true}, {"name": "Y", "size": 1024, "wrap": true},
      {"name": "Z", "size": 95, "wrap": true}], "routing_order": ["X", "Y", "Z"],
      "link_bandwidth": 1e9, "hop_latency": 1e-7})");
  const std::string trace = file("t.trace", "tac3map-trace 1\nranks 2\n0 send 1 8\n1 recv 0 8\n");
  expectRefused(
      "map --machine " + machine + " --shape 1024x1024x95 --trace " + trace + " -o " + out("m.map"),
      kExitResource,
      machine +
          ": axes[2].size: the axes make 99614720 nodes or more, beyond tac3map's "
          "limit of 4194304 nodes (26 times Fugaku's 158,976; docs/limits.md)");
  // 2^22 nodes exactly is a machine (the check is on the product, not on each axis).
  const Machine ok = parseMachine(R"({"axes": [{"name": "X", "size": 1024, "wrap": true},
      {"name": "Y", "size": 1024, "wrap": true}, {"name": "Z", "size": 4, "wrap": true}],
      "routing_order": ["X", "Y", "Z"], "link_bandwidth": 1, "hop_latency": 0})",
                                  "ok.json");
  EXPECT_EQ(ok.axes.size(), 3u);
}

// ---- item 3: arithmetic ------------------------------------------------------------------

TEST_F(Limits, ScoresThatCouldOverflow64BitsAreRefused) {
  // Two messages of 2^62 - 1 bytes in one CCS: tac3's sum could pass 2^63 (a tac3 of 0
  // before). The message names the CCS and its largest message's line.
  const std::string trace = file("huge.trace",
                                 "tac3map-trace 1\nranks 2\n"
                                 "0 sendrecv 1 4611686018427387903 1 4611686018427387903\n"
                                 "1 sendrecv 0 4611686018427387903 0 4611686018427387903\n");
  expectRefused("map " + kFx10 + " --trace " + trace + " -o " + out("m.map"), kExitResource,
                trace +
                    ": CCS 0 (largest message 4611686018427387903 bytes, sent at line 3): the "
                    "trace is too large to score exactly in 64 bits: tac3 (messages x weight x "
                    "bytes) could pass 2^63 - 1 (docs/limits.md)");
  // 2^40-byte messages score exactly.
  const std::string fine = file("fine.trace",
                                "tac3map-trace 1\nranks 2\n"
                                "0 sendrecv 1 1099511627776 1 1099511627776\n"
                                "1 sendrecv 0 1099511627776 0 1099511627776\n");
  const Outcome r = run("score " + kFx10 + " --trace " + fine + " identity --json");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_GT(nlohmann::json::parse(r.out)[0]["scores"]["tac3"].get<double>(), 0) << r.out;
}

TEST_F(Limits, CollectiveStepsThatWouldWrapTheirByteCountAreRefused) {
  const std::string trace = file("gather.trace",
                                 "tac3map-trace 1\nranks 4\n0 gather 2305843009213693952\n"
                                 "1 gather 2305843009213693952\n"
                                 "2 gather 2305843009213693952\n"
                                 "3 gather 2305843009213693952\n");
  expectRefused("ccs --collectives gather=binomial --trace " + trace, kExitResource,
                trace +
                    ":3: gather of 2305843009213693952 bytes over 4 ranks: its steps carry "
                    "up to 3 blocks, more than tac3map's limit of 4611686018427387903 bytes a "
                    "message (docs/limits.md)");
  // The ring allgather forwards one block a step: the same size is fine there.
  const std::string ring = file("ring.trace",
                                "tac3map-trace 1\nranks 2\n0 allgather 2305843009213693952\n"
                                "1 allgather 2305843009213693952\n");
  EXPECT_EQ(run("ccs --trace " + ring).exitCode, 0);
}

TEST_F(Limits, SweepNumbersAreChecked64BitValuesWithTheirJsonPath) {
  const std::string base = R"("traces": ["examples/cg64-sendrecv.trace"],
      "machines": ["topologies/fx10.json"], "boxes": ["2x2x2x2x3x2"], "objectives": ["tac3"])";
  const auto refused = [&](const std::string& extra, const std::string& expected) {
    const std::string spec = file("spec.json", "{" + base + ", " + extra + "}");
    expectRefused("sweep " + spec + " -o " + out("r.jsonl"), kExitInput, spec + ": " + expected);
  };
  refused(R"("iteration": 1e20)", "iteration: expected an integer from 1 to 2147483647, got 1e+20");
  refused(R"("iteration": 4294967297)",
          "iteration: expected an integer from 1 to 2147483647, got 4294967297");
  refused(R"("chains": [2, 4294967297])",
          "chains[1]: expected an integer from 1 to 1024, got 4294967297");
  refused(R"("seeds": [1, -1])",
          "seeds[1]: expected an integer from 0 to 18446744073709551615, got -1");
  refused(R"("ranks_per_node": [1, 4294967297])",
          "ranks_per_node[1]: expected an integer from 1 to 4096, got 4294967297");
  refused(R"("schedules": [{"trials": 1e20}])",
          "schedules[0].trials: expected an integer from 1 to 1099511627776, got 1e+20");
}

TEST_F(Limits, JsonIntegersAreNeverTruncated) {
  const nlohmann::json big = nlohmann::json::parse("4294967296");
  try {
    jsonInteger(big, 0, 3, "ranks[0].coordinates[1]", "m.json");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "m.json: ranks[0].coordinates[1]: expected an integer from 0 to 3, got "
                 "4294967296");
  }
  EXPECT_EQ(jsonInteger(nlohmann::json::parse("3"), 0, 3, "x", "m.json"), 3);
  EXPECT_EQ(jsonUnsigned(nlohmann::json::parse("18446744073709551615"), 0, UINT64_MAX, "x", "s"),
            UINT64_MAX);
  EXPECT_THROW(jsonUnsigned(nlohmann::json::parse("2.5"), 0, 9, "x", "s"), InputError);
  EXPECT_THROW(jsonInteger(nlohmann::json::parse("-1"), 0, 9, "x", "s"), InputError);
}

TEST_F(Limits, MappingFileCoordinatesPast32BitsAreRefused) {
  const std::string map = file("m.json",
                               R"({"ranks": [{"rank": 0, "coordinates": [0, 0, 0, 0, 0, 0]},
                    {"rank": 1, "coordinates": [4294967296, 0, 0, 0, 0, 0]}]})");
  const std::string trace = file("t.trace", "tac3map-trace 1\nranks 2\n0 send 1 8\n1 recv 0 8\n");
  expectRefused("score " + kFx10 + " --trace " + trace + " " + map, kExitInput,
                map +
                    ": ranks[1].coordinates[0]: expected an integer from 0 to 1, got "
                    "4294967296");
}

TEST_F(Limits, SearchCountsOnTheCommandLineAreRanged) {
  const std::string args = "map " + kFx10 + " --trace examples/cg64-sendrecv.trace -o " + out("m");
  for (const std::string bad : {" --chains 0", " --chains 4294967297", " --threads 100000",
                                " --trials 0", " --trials 100000000000000000000"}) {
    const Outcome r = run(args + bad);
    EXPECT_NE(r.exitCode, 0) << bad;
    EXPECT_NE(r.err.find(bad.substr(1, bad.find(' ', 1) - 1)), std::string::npos) << r.err;
    EXPECT_TRUE(outputEmpty()) << bad;
  }
}

// ---- item 4: broken launcher files ----------------------------------------------------------

TEST_F(Limits, NodeTablesWithDuplicateHostsOrLogicalCoordinatesAreRefused) {
  const Machine fx10 = testing::fx10();
  const Box box = makeBox(fx10, "2x2x2x2x3x2", "");
  const auto fails = [&](const std::string& text, const std::string& expected) {
    const std::string path = file("nodes.txt", text);
    try {
      readNodeTable(path, fx10, box);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), path + expected);
    }
  };
  fails("# two nodes, one host\n0 0 0 0 0 0 host=n1\n\n1 0 0 0 0 0 host=n1\n",
        ":4: host name n1 listed twice (also line 2)");
  fails(
      "0 0 0 0 0 0 host=a logical=0,0,0\n1 0 0 0 0 0 host=b logical=1,0,0\n"
      "# comment\n0 1 0 0 0 0 host=c logical=0,0,0\n",
      ":4: logical coordinates 0,0,0 listed twice (also line 1)");
  // The node-twice message names the first line, not its table index.
  fails("# header\n0 0 0 0 0 0\n0 0 0 0 0 0\n", ":3: node listed twice (also line 2)");
  fails("4294967296 0 0 0 0 0\n", ":1: node is not in the box 2x2x2x2x3x2 at offset 0,0,0,0,0,0");
  fails("0 0 0 0 0 0 logical=4294967296,0\n",
        ":1: logical coordinates: '4294967296' is outside 0..2147483647");
}

TEST_F(Limits, TheLimitsKeepTheirArithmeticSafe) {
  // Documented in docs/limits.md; the static_asserts in limits.hpp hold them together.
  EXPECT_EQ(limits::kMaxMachineNodes, 4194304);
  EXPECT_EQ(limits::kMaxRanks, 1048576);
  EXPECT_EQ(limits::kMaxCommunications, 16777216u);
  EXPECT_EQ(limits::kMaxMessageBytes, 4611686018427387903u);
}

}  // namespace
}  // namespace tac3map
