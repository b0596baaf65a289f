// Issue 15, item 3: mapping files carry their job. The header a coordinates file (and the
// fields a JSON mapping) records — machine, machine file, box, ranks per node — read back,
// and the commands that read mappings (score, predict, viz, map --init) take the job from
// them: without options the result equals the one with options, a differing option or a
// second file that disagrees is refused naming the file and the field, and files of older
// tac3map versions still read with the options given.
#include "tac3map/mapping/mapping_context.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/command_test.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/io/exit_codes.hpp"
#include "tac3map/mapping/mapping.hpp"
#include "tac3map/mapping/rankmap.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

namespace fs = std::filesystem;
using testing::Outcome;
using testing::slurp;

class MappingContextTest : public testing::CommandTest {
 protected:
  MappingContextTest() : CommandTest("tac3map-context-") {}

  // The command must fail with exit code 3 and exactly this one line.
  void expectError(const std::string& args, const std::string& message) {
    const Outcome r = run(args);
    EXPECT_EQ(r.exitCode, kExitInput) << args << "\n" << r.err;
    EXPECT_EQ(r.err, "tac3map: error: " + message + "\n") << args;
  }
  // A mapping written by `map` for the job `job` (options), as a file of the scratch folder.
  std::string mapFile(const std::string& name, const std::string& job,
                      const std::string& extra = "") {
    const std::string path = (dir_ / name).string();
    const Outcome r =
        run("map " + job + " " + kCg64 + " --trials 50 --quiet " + extra + " -o " + path);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return path;
  }
  // Each mapping's scores (score --json) for `args`, without the file names.
  std::vector<nlohmann::json> scores(const std::string& args) {
    const Outcome r = run("score " + args + " --json");
    EXPECT_EQ(r.exitCode, 0) << args << "\n" << r.err;
    std::vector<nlohmann::json> list;
    if (r.exitCode == 0)
      for (const auto& entry : nlohmann::json::parse(r.out)) list.push_back(entry["scores"]);
    return list;
  }
  // `path` without its header lines that start with one of `prefixes` (an older file).
  std::string without(const std::string& path, const std::string& name,
                      const std::vector<std::string>& prefixes) {
    std::istringstream in(slurp(path));
    std::string text, line;
    while (std::getline(in, line)) {
      bool drop = false;
      for (const std::string& p : prefixes) drop = drop || line.rfind(p, 0) == 0;
      if (!drop) text += line + "\n";
    }
    return file(name, text);
  }

  const std::string kCg64 = "--trace examples/cg64-sendrecv.trace";
  // A box off the machine's origin, so that a lost offset changes the scores.
  const std::string kJob =
      "--machine topologies/fx10.json --shape 2x2x2x2x3x2 --offset 2,0,0,0,0,0";
};

TEST_F(MappingContextTest, HeaderRecordsTheJobAndReadsBack) {
  const std::string a = mapFile("a.map", kJob);
  std::istringstream lines(slurp(a));
  std::string header, line;
  for (int i = 0; i < 5 && std::getline(lines, line); ++i) header += line + "\n";
  EXPECT_EQ(header,
            "# tac3map mapping 1\n# machine fx10 4x2x8x2x3x2\n"
            "# shape 2x2x2x2x3x2 offset 2,0,0,0,0,0\n# machine-file topologies/fx10.json\n"
            "# ranks-per-node 1\n");
  const auto context = readMappingContext(a);
  ASSERT_TRUE(context);
  EXPECT_EQ(context->source, a);
  EXPECT_EQ(context->machineName, "fx10");
  EXPECT_EQ(context->machineShape, "4x2x8x2x3x2");
  EXPECT_EQ(context->machineFile, "topologies/fx10.json");
  EXPECT_EQ(context->shape, "2x2x2x2x3x2");
  EXPECT_EQ(context->offset, "2,0,0,0,0,0");
  EXPECT_EQ(context->ranksPerNode, 1);

  // JSON mappings: the same fields; K written as it is.
  const Machine fx10 = testing::fx10();
  const Box box = makeBox(fx10, "2x2x2x2x3x2", "0,1,0,0,0,0");
  const std::string json =
      file("k2.json",
           writeRankMap(MapFormat::Json, identityMapping(64, box, 2), fx10, box, nullptr, {2, 0}));
  const auto fromJson = readMappingContext(json);
  ASSERT_TRUE(fromJson);
  EXPECT_EQ(fromJson->machineName, "fx10");
  EXPECT_EQ(fromJson->machineShape, "");  // JSON mappings record the name only
  EXPECT_EQ(fromJson->machineFile, fx10.source);
  EXPECT_EQ(fromJson->shape, "2x2x2x2x3x2");
  EXPECT_EQ(fromJson->offset, "0,1,0,0,0,0");
  EXPECT_EQ(fromJson->ranksPerNode, 2);

  // An older header: only what it has; other formats, names and missing files: nothing.
  const auto old = readMappingContext(file("old.map",
                                           "# tac3map mapping 1\n# machine fx10 "
                                           "4x2x8x2x3x2\n# rank X\n0 0 0 0 0 0 0\n"));
  ASSERT_TRUE(old);
  EXPECT_EQ(old->machineName, "fx10");
  EXPECT_EQ(old->machineFile, "");
  EXPECT_EQ(old->shape, "");
  EXPECT_EQ(old->ranksPerNode, 0);
  EXPECT_FALSE(readMappingContext(file("r.txt", "rank 0=n0 slot=0\n")));
  EXPECT_FALSE(readMappingContext("identity"));
  EXPECT_FALSE(readMappingContext((dir_ / "missing.map").string()));
  try {
    readMappingContext(file("bad.map", "# tac3map mapping 1\n# ranks-per-node 0\n"));
    ADD_FAILURE() << "accepted ranks-per-node 0";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              (dir_ / "bad.map").string() +
                  ":2: expected '# ranks-per-node K', K from 1 to 4096, got '0'");
  }
}

TEST_F(MappingContextTest, MachineFileIsFoundAsWrittenElseBesideTheMapping) {
  fs::create_directories(dir_ / "sub");
  fs::copy_file(testing::sourcePath("topologies/fx10.json"), dir_ / "sub" / "fx10.json");
  MappingContext context;
  context.source = (dir_ / "sub" / "c.map").string();
  context.machineFile = "topologies/fx10.json";  // exists from the source folder
  const fs::path before = fs::current_path();
  fs::current_path(TAC3MAP_SOURCE_DIR);
  EXPECT_EQ(locateMachineFile(context), "topologies/fx10.json");
  context.machineFile = "fx10.json";  // not in the current folder: beside the mapping
  EXPECT_EQ(locateMachineFile(context), (dir_ / "sub" / "fx10.json").string());
  context.machineFile = "nowhere.json";
  EXPECT_EQ(locateMachineFile(context), "");
  context.machineFile = (dir_ / "sub" / "fx10.json").string();  // absolute
  EXPECT_EQ(locateMachineFile(context), context.machineFile);
  fs::current_path(before);
}

TEST_F(MappingContextTest, ScoreTakesTheJobFromTheMappingFile) {
  const std::string a = mapFile("a.map", kJob);
  const Outcome given = run("score " + kJob + " " + kCg64 + " " + a + " identity");
  ASSERT_EQ(given.exitCode, 0) << given.err;
  const Outcome taken = run("score " + kCg64 + " " + a + " identity");
  ASSERT_EQ(taken.exitCode, 0) << taken.err;
  EXPECT_EQ(taken.out, given.out);

  // Options that contradict the file.
  expectError("score --shape 4x2x2x2x3x2 " + kCg64 + " " + a,
              a + ": recorded shape 2x2x2x2x3x2 differs from --shape 4x2x2x2x3x2");
  expectError("score --offset 0,0,0,0,0,0 " + kCg64 + " " + a,
              a + ": recorded offset 2,0,0,0,0,0 differs from --offset 0,0,0,0,0,0");
  expectError("score --machine topologies/k-computer.json " + kCg64 + " " + a,
              a + ": recorded machine fx10 4x2x8x2x3x2 differs from --machine "
                  "topologies/k-computer.json (k-computer 24x18x17x2x3x2)");
  expectError("score --ranks-per-node 2 " + kCg64 + " " + a,
              a + ": recorded ranks-per-node 1 differs from --ranks-per-node 2");
  // A malformed option is named as the option, not as the file's record.
  expectError("score --shape 2xa " + kCg64 + " " + a, "--shape '2xa': 'a' is not an integer");
  // The same values written otherwise agree.
  EXPECT_EQ(run("score --offset 2,0,0,0,0,0 --machine " +
                testing::sourcePath("topologies/fx10.json") + " " + kCg64 + " " + a)
                .exitCode,
            0);
  // Two files that disagree: the second names the first.
  const std::string b = mapFile("b.map", "--machine topologies/fx10.json --shape 2x2x2x2x3x2");
  expectError("score " + kCg64 + " " + a + " " + b,
              b + ": recorded offset 0,0,0,0,0,0 differs from " + a + "'s 2,0,0,0,0,0");
  // Nothing gives the machine; a mapping file that is not there is named first.
  expectError("score " + kCg64 + " identity",
              "--machine is required (or a mapping file written by tac3map 0.2.0 or later, "
              "which records it)");
  const std::string missing = (dir_ / "missing.map").string();
  expectError("score " + kCg64 + " identity " + missing, missing + ": cannot open mapping file");
}

TEST_F(MappingContextTest, OlderFilesReadWithTheOptions) {
  const std::string a = mapFile("a.map", kJob);
  const std::string old = without(a, "old.map", {"# machine-file", "# ranks-per-node"});
  const auto given = scores(kJob + " " + kCg64 + " " + a);
  ASSERT_EQ(given.size(), 1u);
  EXPECT_EQ(scores(kJob + " " + kCg64 + " " + old), given);
  // Its box is recorded: --machine is enough.
  EXPECT_EQ(scores("--machine topologies/fx10.json " + kCg64 + " " + old), given);
  expectError("score " + kCg64 + " " + old,
              "--machine is required: " + old +
                  " records machine fx10 but not its machine file (an older tac3map wrote it)");
  // A file from before any context: the options as always.
  const std::string bare = without(a, "bare.map", {"# machine", "# shape", "# ranks-per-node"});
  EXPECT_EQ(scores(kJob + " " + kCg64 + " " + bare), given);
  expectError("score " + kCg64 + " " + bare,
              "--machine is required (or a mapping file written by tac3map 0.2.0 or later, "
              "which records it)");
}

TEST_F(MappingContextTest, RecordedMachineFileBesideTheMappingOrMissingOrChanged) {
  const std::string a = mapFile("a.map", kJob);
  const auto given = scores(kJob + " " + kCg64 + " " + a);
  fs::create_directories(dir_ / "sub");
  fs::copy_file(testing::sourcePath("topologies/fx10.json"), dir_ / "sub" / "my-fx10.json");
  const std::string text = slurp(a);
  const auto moved = [&](const std::string& name, const std::string& machineFile) {
    std::string copy = text;
    const std::string from = "# machine-file topologies/fx10.json";
    copy.replace(copy.find(from), from.size(), "# machine-file " + machineFile);
    return file(name, copy);
  };
  const std::string beside = moved("sub/c.map", "my-fx10.json");
  EXPECT_EQ(scores(kCg64 + " " + beside), given);
  const std::string lost = moved("lost.map", "nowhere/fx10.json");
  expectError("score " + kCg64 + " " + lost,
              lost +
                  ": recorded machine file nowhere/fx10.json not found (neither from the current "
                  "folder nor beside the mapping): give --machine");
  EXPECT_EQ(run("score --machine topologies/fx10.json " + kCg64 + " " + lost).exitCode, 0);
  const std::string changed = moved("changed.map", "topologies/k-computer.json");
  expectError("score " + kCg64 + " " + changed,
              changed +
                  ": recorded machine fx10 4x2x8x2x3x2 differs from its machine file "
                  "topologies/k-computer.json (k-computer 24x18x17x2x3x2)");
}

TEST_F(MappingContextTest, PredictAndVizTakeTheJobFromTheMappingFile) {
  const std::string a = mapFile("a.map", kJob);
  const std::string profile = " --profile topologies/fx10-profile.json --barriers --json";
  const Outcome given = run("predict " + kJob + " " + kCg64 + " " + a + profile);
  ASSERT_EQ(given.exitCode, 0) << given.err;
  const Outcome taken = run("predict " + kCg64 + " " + a + profile);
  ASSERT_EQ(taken.exitCode, 0) << taken.err;
  EXPECT_EQ(taken.out, given.out);
  expectError("predict --shape 4x2x2x2x3x2 " + kCg64 + " " + a + profile,
              a + ": recorded shape 2x2x2x2x3x2 differs from --shape 4x2x2x2x3x2");

  const std::string b = mapFile("b.map", kJob, "--init identity --seed 2");
  const std::string svgGiven = (dir_ / "given.svg").string(),
                    svgTaken = (dir_ / "taken.svg").string();
  ASSERT_EQ(
      run("viz " + kJob + " " + kCg64 + " " + a + " --compare " + b + " -o " + svgGiven).exitCode,
      0);
  const Outcome viz = run("viz " + kCg64 + " " + a + " --compare " + b + " -o " + svgTaken);
  ASSERT_EQ(viz.exitCode, 0) << viz.err;
  EXPECT_EQ(slurp(svgTaken), slurp(svgGiven));
  expectError("viz --machine topologies/k-computer.json " + kCg64 + " " + a + " -o " + out("x.svg"),
              a + ": recorded machine fx10 4x2x8x2x3x2 differs from --machine "
                  "topologies/k-computer.json (k-computer 24x18x17x2x3x2)");
  const std::string c = mapFile("c.map", "--machine topologies/fx10.json --shape 2x2x2x2x3x2");
  expectError("viz " + kCg64 + " " + a + " --compare " + c + " -o " + out("x.svg"),
              c + ": recorded offset 0,0,0,0,0,0 differs from " + a + "'s 2,0,0,0,0,0");
  EXPECT_TRUE(outputEmpty());
}

TEST_F(MappingContextTest, MapInitTakesTheJobFromTheMappingFile) {
  const std::string a = mapFile("a.map", kJob);
  const std::string given = (dir_ / "given.map").string(), taken = (dir_ / "taken.map").string();
  const std::string search = " --init " + a + " --trials 50 --seed 4 --quiet -o ";
  ASSERT_EQ(run("map " + kJob + " " + kCg64 + search + given).exitCode, 0);
  const Outcome r = run("map " + kCg64 + search + taken);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(slurp(taken), slurp(given));
  expectError("map --ranks-per-node 2 " + kCg64 + search + out("x.map"),
              a + ": recorded ranks-per-node 1 differs from --ranks-per-node 2");
  expectError("map " + kCg64 + " --trials 50 -o " + out("x.map"),
              "--machine is required (or a mapping file written by tac3map 0.2.0 or later, "
              "which records it)");
  EXPECT_TRUE(outputEmpty());
}

TEST_F(MappingContextTest, ConvertTakesTheBoxAndRanksPerNodeFromTheMappingFile) {
  const std::string a = mapFile("a.map", kJob + " --ranks-per-node 2");
  const std::string given = (dir_ / "given.json").string(), taken = (dir_ / "taken.json").string();
  ASSERT_EQ(run("convert --mapping " + a + " " + kJob + " --ranks-per-node 2 --to json -o " + given)
                .exitCode,
            0);
  const Outcome r =
      run("convert --mapping " + a + " --machine topologies/fx10.json --to json -o " + taken);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(slurp(taken), slurp(given));
  expectError(
      "convert --mapping " + a + " " + kJob + " --ranks-per-node 1 --to json -o " + out("x.json"),
      a + ": recorded ranks-per-node 2 differs from --ranks-per-node 1");
  EXPECT_TRUE(outputEmpty());
}

TEST_F(MappingContextTest, RanksPerNodeComeFromCoordinatesAndJsonMappings) {
  const std::string k2 = kJob + " --ranks-per-node 2";
  for (const std::string format : {"coords", "json"}) {
    const std::string m = mapFile("k2." + format, k2, "--output-format " + format);
    const Outcome given = run("score " + k2 + " " + kCg64 + " " + m + " identity");
    ASSERT_EQ(given.exitCode, 0) << given.err;
    const Outcome taken = run("score " + kCg64 + " " + m + " identity");
    ASSERT_EQ(taken.exitCode, 0) << taken.err;
    EXPECT_EQ(taken.out, given.out) << format;
    expectError("score --ranks-per-node 1 " + kCg64 + " " + m,
                m + ": recorded ranks-per-node 2 differs from --ranks-per-node 1");
  }
}

}  // namespace
}  // namespace tac3map
