// The command line as a careful user meets it (issue 15, items 4 and 9): renamed options whose
// old spellings still work with a note, "did you mean" for misspelt names, usage errors for
// negative seeds and sizes, --quiet that prints nothing, sweep specs that refuse unknown
// fields. Exit codes: include/tac3map/io/exit_codes.hpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "command_test.hpp"
#include "tac3map/io/exit_codes.hpp"

namespace tac3map {
namespace {

using testing::Outcome;
using testing::slurp;

class Usage : public testing::CommandTest {
 protected:
  Usage() : CommandTest("tac3map-usage-") {}
  static int lines(const std::string& text) {
    return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
  }
};

const std::string kJob =
    "--machine topologies/fx10.json --shape 2x2x2x2x3x2 --trace examples/cg64-sendrecv.trace";

TEST_F(Usage, OldSpellingsWorkWithOneNoteAndTheNewOnesWithout) {
  // score: --format was the output format.
  const Outcome now = run("score " + kJob + " identity tofu-default --output-format csv");
  const Outcome shortName = run("score " + kJob + " identity tofu-default -f csv");
  const Outcome old = run("score " + kJob + " identity tofu-default --format csv");
  ASSERT_EQ(now.exitCode, kExitOk) << now.err;
  EXPECT_EQ(now.err, "");
  EXPECT_EQ(shortName.out, now.out);
  EXPECT_EQ(old.out, now.out);
  EXPECT_EQ(old.err, "tac3map: note: --format is deprecated; use --output-format (docs/cli.md)\n");
  // Elsewhere --format was the trace format.
  const Outcome ccs = run("ccs --trace examples/cg64-sendrecv.trace --trace-format native");
  const Outcome ccsOld = run("ccs --trace examples/cg64-sendrecv.trace --format native");
  ASSERT_EQ(ccs.exitCode, kExitOk) << ccs.err;
  EXPECT_EQ(ccsOld.out, ccs.out);
  EXPECT_EQ(ccsOld.err,
            "tac3map: note: --format is deprecated; use --trace-format (docs/cli.md)\n");
  EXPECT_EQ(run("ccs --trace examples/cg64-sendrecv.trace --format paraver").exitCode,
            kExitUsage);  // the old spelling keeps its check
  // map: --map-format was the output format.
  const std::string map = "map " + kJob + " --trials 20 --seed 3 -o ";
  const Outcome m = run(map + out("new.json") + " -f json");
  const Outcome mOld = run(map + out("old.json") + " --map-format json");
  ASSERT_EQ(m.exitCode, kExitOk) << m.err;
  EXPECT_EQ(slurp(out("old.json")), slurp(out("new.json")));
  EXPECT_EQ(m.err, "");
  EXPECT_EQ(mOld.err,
            "tac3map: note: --map-format is deprecated; use --output-format (docs/cli.md)\n");
  // The old spellings are not offered in --help.
  const Outcome help = run("score --help");
  EXPECT_NE(help.out.find("--output-format"), std::string::npos);
  EXPECT_EQ(help.out.find("--format"), std::string::npos);
  // predict and ccs name their JSON output the same way (--json stays as a shorthand).
  EXPECT_EQ(run("ccs --trace examples/cg64-sendrecv.trace -f json").out,
            run("ccs --trace examples/cg64-sendrecv.trace --json").out);
}

TEST_F(Usage, MisspeltNamesGetOneLineWithADidYouMean) {
  const auto refused = [&](const std::string& args, const std::string& expected) {
    const Outcome r = run(args);
    EXPECT_EQ(r.exitCode, kExitUsage) << args;
    EXPECT_NE(r.err.find(expected), std::string::npos) << args << "\n" << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_EQ(r.out, "") << args;
  };
  refused("mpa " + kJob + " -o x.map",
          "tac3map: error: unknown command 'mpa' (did you mean 'map'?) (see 'tac3map --help')");
  refused("scroe " + kJob + " identity", "did you mean 'score'?");
  refused("map --shpae 2x2x2x2x3x2",
          "unknown option '--shpae' (did you mean '--shape'?) (see 'tac3map map --help')");
  refused("score " + kJob + " identity --trace-fromat native", "did you mean '--trace-format'?");
  refused("gen cgg --ranks 8", "(did you mean 'cg'?) (see 'tac3map gen --help')");
  refused("topology fat-tre -o x.json", "did you mean 'fat-tree'?");
  refused("sweep spec.json -o r.jsonl --thraeds 2", "did you mean '--threads'?");
  // Nothing close: no guess.
  const Outcome r = run("frobnicate");
  EXPECT_EQ(r.exitCode, kExitUsage);
  EXPECT_EQ(r.err.find("did you mean"), std::string::npos) << r.err;
  EXPECT_TRUE(outputEmpty());
}

TEST_F(Usage, MisspeltMappingNamesStartsAndObjectivesGetADidYouMean) {
  const auto refused = [&](const std::string& args, const std::string& expected) {
    const Outcome r = run(args);
    EXPECT_EQ(r.exitCode, kExitInput) << args;
    EXPECT_NE(r.err.find(expected), std::string::npos) << args << "\n" << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
  };
  refused("score " + kJob + " identity identiy",
          "'identiy' is neither a mapping file nor a mapping name (identity, block, round-robin, "
          "tofu-default, random:SEED) (did you mean 'identity'?)");
  refused("map " + kJob + " --init geometirc -o " + out("m.map"),
          "--init 'geometirc': neither a start (auto, identity, round-robin, random, "
          "tofu-default, ");
  refused("map " + kJob + " --init geometirc -o " + out("m.map"), "(did you mean 'geometric'?)");
  // An enum option's value is checked while parsing, from the option's name table: a usage
  // error, like every other enum option's.
  const Outcome objective = run("map " + kJob + " --objective tahv -o " + out("m.map"));
  EXPECT_EQ(objective.exitCode, kExitUsage);
  EXPECT_NE(objective.err.find("--objective: 'tahv': expected tac3, tahb or rmatt-o2f (did you "
                               "mean 'tahb'?)"),
            std::string::npos)
      << objective.err;
  // A path is a file that is missing, not a misspelt name.
  refused("score " + kJob + " identity no/such.map", "no/such.map: cannot open mapping file");
  EXPECT_TRUE(outputEmpty());
}

TEST_F(Usage, NegativeSeedsAndSizesAreUsageErrors) {
  // CLI11 would read -1 into an unsigned option as 2^64-1.
  for (const std::string& args :
       {"map " + kJob + " --seed -1 -o " + out("m.map"),
        "gen random --ranks 8 --seed -1 -o " + out("r.trace"),
        "gen cg --ranks 8 --bytes -1 -o " + out("c.trace"),
        "gen random --ranks 8 --max-bytes -5 -o " + out("r.trace"),
        std::string("bcast --machine topologies/trees/star-12.json --root c0 --bytes -1")}) {
    const Outcome r = run(args);
    EXPECT_EQ(r.exitCode, kExitUsage) << args << "\n" << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
  }
  EXPECT_TRUE(outputEmpty());
  EXPECT_EQ(run("gen random --ranks 8 --seed 18446744073709551615 -o " + out("r.trace")).exitCode,
            kExitOk);
}

TEST_F(Usage, QuietPrintsNothingButWritesTheFiles) {
  const std::string spec = file(
      "spec.json", std::string(R"({"traces": [")") + TAC3MAP_SOURCE_DIR +
                       R"(/examples/cg64-sendrecv.trace"], "machines": [")" + TAC3MAP_SOURCE_DIR +
                       R"(/topologies/fx10.json"], "boxes": ["2x2x2x2x3x2"],
                       "objectives": ["identity", "tac3"], "schedules": [{"trials": 20}]})");
  const struct {
    std::string args, output;
  } commands[] = {
      {"map " + kJob + " --trials 20 --report " + out("m.json") + " -o ", "m.map"},
      {"viz " + kJob + " identity -o ", "v.svg"},
      {"convert examples/cg64-isend.trace --to simgrid-ti -o ", "c.ti"},
      {"platform --machine topologies/fx10.json --shape 2x2x2x2x3x2 --ranks 64 --hostfile " +
           out("p.hosts") + " -o ",
       "p.xml"},
      {"topology torus --sizes 4x4 -o ", "t.json"},
      {"bcast --machine topologies/trees/star-12.json --root c0 --algorithm binomial -o ",
       "b.json"},
      {"sweep " + spec + " -o ", "s.jsonl"},
  };
  for (const auto& c : commands) {
    const Outcome loud = run(c.args + out("loud-" + c.output));
    ASSERT_EQ(loud.exitCode, kExitOk) << c.args << "\n" << loud.err;
    EXPECT_NE(loud.out + loud.err, "") << c.args;  // so that the quiet run can show a difference
    for (const char* quiet : {" --quiet", " -q"}) {
      const Outcome r = run(c.args + out(c.output) + quiet);
      EXPECT_EQ(r.exitCode, kExitOk) << c.args << "\n" << r.err;
      EXPECT_EQ(r.out, "") << c.args << quiet;
      EXPECT_EQ(r.err, "") << c.args << quiet;
      EXPECT_FALSE(slurp(out(c.output)).empty()) << c.args;
      std::filesystem::remove(out(c.output));
    }
  }
}

TEST_F(Usage, SweepSpecsRefuseUnknownFields) {
  const std::string trace = std::string(TAC3MAP_SOURCE_DIR) + "/examples/cg64-sendrecv.trace";
  const std::string machine = std::string(TAC3MAP_SOURCE_DIR) + "/topologies/fx10.json";
  const std::string job = R"("jobs": [{"trace": ")" + trace + R"(", "machine": ")" + machine +
                          R"(", "boxes": ["2x2x2x2x3x2"]}], "objectives": ["tac3"])";
  const auto refused = [&](const std::string& body, const std::string& expected) {
    const std::string spec = file("spec.json", "{" + body + "}");
    const Outcome r = run("sweep " + spec + " -o " + out("r.jsonl"));
    EXPECT_EQ(r.exitCode, kExitInput) << body;
    EXPECT_NE(r.err.find(spec + ": " + expected), std::string::npos) << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_TRUE(outputEmpty()) << body;
  };
  // The fields docs/sweep.md lists are read, "description" (free text) included.
  const std::string good = file("good.json", "{" + job +
                                                 R"(, "description": "CG on FX10", "seeds": [1],
                                                 "schedules": [{"trials": 20}]})");
  const Outcome ok = run("sweep " + good + " -q -o " + out("ok.jsonl"));
  EXPECT_EQ(ok.exitCode, kExitOk) << ok.err;
  std::filesystem::remove(out("ok.jsonl"));
  refused(job + R"(, "seed": [1, 2])", "seed: unknown field (did you mean 'seeds'?)");
  refused(job + R"(, "colour": "red")", "colour: unknown field; known: description, jobs, traces");
  refused(R"("jobs": [{"trace": ")" + trace + R"(", "machine": ")" + machine +
              R"(", "boxs": ["2x2x2x2x3x2"]}], "objectives": ["tac3"])",
          "jobs[0].boxs: unknown field (did you mean 'boxes'?)");
  refused(R"("jobs": [{"trace": ")" + trace + R"(", "machine": ")" + machine +
              R"(", "boxes": [{"shape": "2x2x2x2x3x2", "ofset": "0,0,0,0,0,0"}]}],
              "objectives": ["tac3"])",
          "jobs[0].boxes[0].ofset: unknown field (did you mean 'offset'?)");
  refused(job + R"(, "schedules": [{"trails": 20}])",
          "schedules[0].trails: unknown field (did you mean 'trials'?)");
  refused(job + R"(, "schedules": [{"move": "local"}])",
          "schedules[0].move: unknown field (did you mean 'moves'?)");
}

}  // namespace
}  // namespace tac3map
