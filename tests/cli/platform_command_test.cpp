// `tac3map platform` end to end: the SimGrid platform and host file of a mapping.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <sstream>

#include "cli/cli_fixture.hpp"

namespace tac3map {
namespace {

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

// The synopsis: a mapping file from `map` sizes the host file by itself; a name takes
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

}  // namespace
}  // namespace tac3map
