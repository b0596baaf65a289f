// `tac3map bcast` end to end on a tree network.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "cli/cli_fixture.hpp"
#include "tac3map/io/exit_codes.hpp"

namespace tac3map {
namespace {

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

// The library names the participants in words (bcast/broadcast.cpp); the command line prints
// its option, whole, and no trace of how the library marks it.
TEST_F(Cli, BcastNamesTheParticipantsOption) {
  const std::string machine = "topologies/trees/nonuniform-2x2x1+1.json";
  const auto expectError = [&](const std::string& participants, const std::string& message) {
    const Outcome r = run("bcast --machine " + machine + " --root c0 --participants " +
                          participants + " -o " + out("x.json"));
    EXPECT_EQ(r.exitCode, kExitInput) << r.err;
    EXPECT_EQ(r.err, "tac3map: error: " + machine + ": --participants: " + message + "\n");
    EXPECT_TRUE(outputEmpty());
  };
  expectError("c0,zz", "no node 'zz'");
  expectError("c0,a-sw", "'a-sw' is a relay-only node");
  expectError("c0,c1,c0", "'c0' twice");
}

}  // namespace
}  // namespace tac3map
