// `tac3map ccs` and `tac3map gen` end to end, and traces as every command reads them: CCSs of
// the shipped examples, options that reach the extractor, bad and empty traces.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli/cli_fixture.hpp"
#include "tac3map/gen/cg_pattern.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

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
  EXPECT_NE(run("ccs --eager-limit 0 --trace " + t).exitCode, 0);
  const Outcome eager = run("ccs --eager-limit 0 --eager-sends --json --trace " + t);
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
  expectCleanFailure("gen mesh --ranks 96 --neighbours 0 -o " + out("bad.trace"), "--neighbours 0");
  ASSERT_EQ(run("gen stencil --dims 4x4x4 --periodic --bytes 4096 -o " + out("s.trace")).exitCode,
            0);
  ASSERT_EQ(run("gen alltoall --ranks 32 --group 8 -o " + out("a.trace")).exitCode, 0);
  ASSERT_EQ(run("gen random --ranks 48 --degree 3 --seed 2 -o " + out("r.trace")).exitCode, 0);
  ASSERT_EQ(run("gen mesh --ranks 96 --bytes 4096 --max-bytes 65536 -o " + out("m.trace")).exitCode,
            0);
  for (const char* name : {"s.trace", "a.trace", "r.trace", "m.trace"}) {
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

}  // namespace
}  // namespace tac3map
