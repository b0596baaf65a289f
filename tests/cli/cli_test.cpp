// End-to-end tests of the tac3map command as a whole, run as a process as users and job scripts
// run it: what every command shares (boxes and machines, output paths, input errors and their
// exit codes, the version). Each command has its own <command>_command_test.cpp beside this
// file.
#include <gtest/gtest.h>

#include "cli/cli_fixture.hpp"
#include "tac3map/io/exit_codes.hpp"
#include "tac3map/version.hpp"

namespace tac3map {
namespace {

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
                     "--objective: 'hops': expected tac3, tahb or rmatt-o2f");
}

TEST_F(Cli, UnwritableOutputLeavesNothing) {
  const Outcome r = run("map " + kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 + " --trials 10 -o " +
                        out("m.map") + " --report " + (dir_ / "no-such-dir" / "r.json").string());
  EXPECT_NE(r.exitCode, 0);
  // Refused before the search (checkOutputPaths), not after it.
  EXPECT_NE(r.err.find("no-such-dir' does not exist"), std::string::npos) << r.err;
  EXPECT_TRUE(outputEmpty());
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
