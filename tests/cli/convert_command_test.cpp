// tac3map convert end to end, as users run it: traces between native, SimGrid TI and DUMPI
// (each read back by `tac3map ccs` to the same CCSs), mappings from every format to every other
// and back to the same rank -> (node, slot) assignment, Scotch's .map/.tgt in and out, usage
// and input errors (exit codes, one line naming the file and line, no output left), and the
// examples of docs/convert.md.
#include <gtest/gtest.h>

#include <filesystem>

#include "cli/cli_fixture.hpp"
#include "cli/command_test.hpp"
#include "tac3map/io/exit_codes.hpp"
#include "tac3map/mapping/rankmap.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

namespace fs = std::filesystem;
using testing::Outcome;

class Convert : public testing::CommandTest {
 protected:
  Convert() : CommandTest("tac3map-convert-") {}

  // `tac3map ccs --json` of a trace (its CCSs), checked to succeed.
  std::string ccsOf(const std::string& trace) {
    const Outcome r = run("ccs --json --trace " + trace);
    EXPECT_EQ(r.exitCode, kExitOk) << r.err;
    return r.out;
  }
  void converts(const std::string& args) {
    const Outcome r = run("convert " + args);
    ASSERT_EQ(r.exitCode, kExitOk) << args << "\n" << r.err;
  }
  void refused(const std::string& args, int code, const std::string& message) {
    const Outcome r = run("convert " + args);
    EXPECT_EQ(r.exitCode, code) << args << "\n" << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << args << "\n" << r.err;
    if (code == kExitInput) {
      EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    }
    EXPECT_TRUE(outputEmpty()) << args;
  }
};

TEST_F(Convert, TracesBetweenEveryFormatKeepTheirCcs) {
  // DUMPI in (a folder of dumpi2ascii files), every format out; then a chain through all.
  const std::string dumpi = "tests/data/dumpi";
  const std::string expected = ccsOf(dumpi);
  converts(dumpi + " --to simgrid-ti -o " + out("ring.ti"));
  EXPECT_EQ(ccsOf(out("ring.ti")), expected);
  converts(dumpi + " --to native -o " + out("ring.trace"));
  EXPECT_EQ(ccsOf(out("ring.trace")), expected);
  converts(dumpi + " --trace-format dumpi --to dumpi -o " + out("ring.dumpi"));
  EXPECT_TRUE(fs::exists(out("ring.dumpi-0003.txt")));
  EXPECT_EQ(ccsOf(out("ring.dumpi")), expected);

  const std::string cg = "examples/cg64-isend.trace";
  converts(cg + " --to dumpi -o " + out("cg.dumpi"));
  converts(out("cg.dumpi") + " --to native -o " + out("cg.trace"));
  converts(out("cg.trace") + " --to simgrid-ti -o " + out("cg.ti"));
  converts(out("cg.ti") + " --to dumpi -o " + out("cg2.dumpi"));
  EXPECT_EQ(ccsOf(out("cg2.dumpi")), ccsOf(cg));
  // The folder of the DUMPI files reads as the index does.
  fs::create_directories(dir_ / "folder");
  converts(cg + " --to dumpi -o " + (dir_ / "folder" / "dumpi").string());
  EXPECT_EQ(ccsOf((dir_ / "folder").string()), ccsOf(cg));
}

TEST_F(Convert, UsageErrorsExitWithTheUsageCode) {
  const std::string trace = "examples/cg64-isend.trace ";
  const std::string o = " -o " + out("x");
  refused(trace + "--mapping m.map --to json" + o, kExitUsage, "not both");
  refused("--to native" + o, kExitUsage, "give a trace (TRACE) or a mapping");
  refused(trace + "--to json" + o, kExitUsage,
          "json is a mapping format; a trace converts to native | simgrid-ti | dumpi");
  refused(trace + "--to paraver" + o, kExitUsage, "paraver");
  refused(trace + "--to native --machine topologies/fx10.json" + o, kExitUsage,
          "is for converting a mapping");
  refused("--mapping m.map --machine topologies/fx10.json --to native" + o, kExitUsage,
          "native is a trace format; a mapping converts to coords | json | fujitsu-vcoord");
  refused("--mapping " + file("h.txt", "n0\nn1\n") + " --to json" + o, kExitInput,
          "--machine is required");
  refused("--mapping m.map --machine topologies/fx10.json --to json --iteration 2" + o, kExitUsage,
          "is for converting a trace");
}

// Every mapping format to every other and back to coordinates: the same rank -> (node, slot).
// A 5-axis torus (Blue Gene/Q's format needs five) and a node table with host names and logical
// coordinates (the host-based formats and Fujitsu's need them), lines in reverse node order.
class MappingFormats : public Convert {
 protected:
  void SetUp() override {
    Convert::SetUp();
    const int sizes[] = {2, 3, 2, 2, 2};
    std::string axes;
    for (int a = 0; a < 5; ++a)
      axes += std::string(a ? "," : "") + "{\"name\":\"A" + std::to_string(a) +
              "\",\"size\":" + std::to_string(sizes[a]) + ",\"wrap\":true}";
    const std::string machine =
        file("m5.json", "{\"name\":\"m5\",\"axes\":[" + axes +
                            "],\"routing_order\":[\"A0\",\"A1\",\"A2\",\"A3\",\"A4\"],"
                            "\"link_bandwidth\":1e9,\"hop_latency\":0}");
    // Loaded from its file, so that the coordinates files written from it record that file.
    machine_ = loadMachine(machine);
    box_ = makeBox(machine_, "2x3x2x2x2");
    std::string nodes;
    for (int node = box_.nodeCount - 1; node >= 0; --node) {
      for (int c : box_.coordinatesOf(node)) nodes += std::to_string(c) + " ";
      nodes += "host=n" + std::to_string(node) + " logical=" + std::to_string(node % 4) + "," +
               std::to_string(node / 4 % 4) + "," + std::to_string(node / 16) + "\n";
    }
    job_ = " --machine " + machine + " --shape 2x3x2x2x2 --nodes " + file("nodes.txt", nodes);
  }
  // The mapping a file holds, read by tac3map's reader of tac3map coordinates files.
  Mapping coords(const std::string& path, int tasks, int slots) {
    return readRankMap(path, machine_, box_, tasks, nullptr, {slots, 0});
  }
  // `--mapping IN` as the command needs it (a Scotch map with its target).
  static std::string input(const std::string& path) {
    const std::string scotch = "-scotch.map";
    if (path.size() > scotch.size() &&
        path.compare(path.size() - scotch.size(), scotch.size(), scotch) == 0)
      return "--mapping " + path + " --target " + path.substr(0, path.size() - 4) + ".tgt";
    return "--mapping " + path;
  }
  static std::string name(const std::string& stem, const std::string& format) {
    return stem + "-" + format + (format == "scotch" ? ".map" : ".txt");
  }

  Machine machine_;
  Box box_;
  std::string job_;
};

const char* const kMapFormats[] = {"coords",           "json",           "fujitsu-vcoord",
                                   "openmpi-rankfile", "slurm-hostfile", "cray-rank-order",
                                   "bgq-mapfile",      "scotch"};

TEST_F(MappingFormats, EveryFormatToEveryOtherAndBack) {
  const int tasks = box_.nodeCount;  // a Cray rank order fills every node
  const Mapping original = randomMapping(tasks, box_, 11);
  const std::string start = file("start.map", formatMapping(original, machine_, box_));
  for (const char* first : kMapFormats) {
    const std::string a = out(name("a", first));
    converts(input(start) + job_ + " --to " + first + " -o " + a);
    converts(input(a) + job_ + " --to coords -o " + out("back.map"));
    EXPECT_EQ(coords(out("back.map"), tasks, 1).nodeOfTask, original.nodeOfTask) << first;
    // Every pair of formats in the release pass; under the sanitizers (a process start costs
    // ~0.3 s there) the pairs from the first format only: every reader and writer still runs.
    if (testing::underSanitizers() && std::string(first) != kMapFormats[0]) continue;
    for (const char* second : kMapFormats) {
      if (std::string(first) == second) continue;
      SCOPED_TRACE(std::string(first) + " -> " + second);
      const std::string b = out(name(std::string("b-") + first, second));
      converts(input(a) + job_ + " --to " + second + " -o " + b);
      converts(input(b) + job_ + " --to coords -o " + out("back.map"));
      EXPECT_EQ(coords(out("back.map"), tasks, 1).nodeOfTask, original.nodeOfTask);
    }
  }
}

TEST_F(MappingFormats, SeveralRanksPerNodeKeepTheirSlots) {
  // Two ranks a node, every node full, each node's slots in rank order: what the formats that
  // carry no slot (Fujitsu, Slurm, Scotch) give back, so every format round-trips exactly.
  const int k = 2, tasks = 2 * box_.nodeCount;
  Mapping original = randomMapping(tasks, box_, 5, k);
  std::vector<int> used(box_.nodeCount, 0);
  for (int t = 0; t < tasks; ++t) original.slotOfTask[t] = used[original.nodeOfTask[t]]++;
  const std::string start = file("start.map", formatMapping(original, machine_, box_, k));
  const std::string slots = " --ranks-per-node 2 --cores-per-node 8";
  for (const char* format : kMapFormats) {
    SCOPED_TRACE(format);
    const std::string a = out(name("k2", format));
    converts(input(start) + job_ + slots + " --to " + format + " -o " + a);
    converts(input(a) + job_ + slots + " --to coords -o " + out("back.map"));
    const Mapping back = coords(out("back.map"), tasks, k);
    EXPECT_EQ(back.nodeOfTask, original.nodeOfTask);
    EXPECT_EQ(back.slotOfTask, original.slotOfTask);
  }
}

TEST_F(MappingFormats, BadMappingsNameTheFileAndLine) {
  refused(input(file("s.map", "3\n0 0\n1 1\n2 2\n")) + job_ + " --to json -o " + out("x"),
          kExitInput,
          "s.map: is a Scotch mapping (a vertex count, then 'vertex part' lines): give "
          "its target architecture with --target FILE.tgt");
  const std::string target = file("t.tgt", "torusXD 5 2 3 2 2 2\n");
  refused("--mapping " + file("dup.map", "3\n0 0\n1 1\n0 2\n") + " --target " + target + job_ +
              " --to json -o " + out("x"),
          kExitInput, "dup.map:4: vertex 0 listed twice (also line 2)");
  refused("--mapping " + file("gap.map", "3\n0 0\n2 1\n") + " --target " + target + job_ +
              " --to json -o " + out("x"),
          kExitInput, "gap.map:1: vertex 1 has no mapping line (3 vertices, 2 lines)");
  refused("--mapping " + file("big.map", "2\n0 0\n1 1\n") + " --target " +
              file("big.tgt", "torus3D 4 4 4\n") + job_ + " --to json -o " + out("x"),
          kExitInput, "big.tgt:1: torus3D 4x4x4 does not match the job's torus 2x3x2x2x2");
  // A mapping that does not fit the box: a coordinate outside it, more ranks than nodes.
  refused("--mapping " + file("out.map", "# tac3map mapping 1\n0 0 0 0 0 0\n1 0 3 0 0 0\n") + job_ +
              " --to json -o " + out("x"),
          kExitInput, "out.map:3: coordinate 3 of axis 1 is outside the box 2x3x2x2x2");
  std::string many;
  for (int r = 0; r < 49; ++r) many += "n0\n";
  refused("--mapping " + file("many.txt", many) + job_ + " --to json -o " + out("x"), kExitInput,
          "many.txt: 49 ranks do not fit on box 2x3x2x2x2 (48 nodes, one task per node)");
  refused("--mapping " + file("r.txt", "rank 0=n0 slot=0\nrank 1=n0 slot=1\n") + job_ +
              " --to json -o " + out("x"),
          kExitInput, "r.txt:2: rank 1 is on the node of rank 0");
  refused("--mapping " + file("k.txt", "n1\nn2\n") + job_ + " --ranks 1 --to json -o " + out("x"),
          kExitInput, "--ranks is for a Scotch mapping");
  // Outputs are written whole or not at all: a missing folder fails before any work.
  refused(input(file("ok.txt", "n1\nn2\n")) + job_ + " --to scotch -o " +
              (dir_ / "missing" / "x.map").string(),
          kExitInput, "missing");
}

TEST_F(Convert, DocumentedExamplesWork) {
  // docs/convert.md: Scotch in, rank file out; rank file in, Fujitsu vcoord out; DUMPI in, TI
  // out; a tac3map map out to Scotch.
  const std::string box = " --machine topologies/fx10.json --shape 2x2x2x2x3x2";
  const std::string nodes = " --nodes examples/convert/fx10-nodes.txt";
  converts(
      "--mapping examples/convert/cg64-scotch.map --target examples/convert/fx10.tgt"
      " --ranks 64" +
      box + nodes + " --to openmpi-rankfile -o " + out("cg64.rankfile"));
  converts("--mapping " + out("cg64.rankfile") + box + nodes + " --to fujitsu-vcoord -o " +
           out("cg64.vcoord"));
  converts("tests/data/dumpi --to simgrid-ti -o " + out("ring.ti"));
  const Outcome map =
      run("map" + box + " --trace examples/cg64-sendrecv.trace --quiet -o " + out("cg64.map"));
  ASSERT_EQ(map.exitCode, kExitOk) << map.err;
  converts("--mapping " + out("cg64.map") + " --to scotch -o " + out("cg64-scotch.map"));
  EXPECT_TRUE(fs::exists(out("cg64-scotch.tgt")));
  // The three files place every rank alike: each read back as tac3map coordinates.
  converts(
      "--mapping examples/convert/cg64-scotch.map --target examples/convert/fx10.tgt"
      " --ranks 64" +
      box + " --to coords -o " + out("from-scotch.map"));
  converts("--mapping " + out("cg64.rankfile") + box + nodes + " --to coords -o " +
           out("from-rankfile.map"));
  converts("--mapping " + out("cg64.vcoord") + box + " --to coords -o " + out("from-vcoord.map"));
  const std::string scotch = testing::slurp(out("from-scotch.map"));
  EXPECT_EQ(testing::slurp(out("from-rankfile.map")), scotch);
  EXPECT_EQ(testing::slurp(out("from-vcoord.map")), scotch);
}

// The same through the fixture of the other commands' tests.
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
namespace {}  // namespace
}  // namespace tac3map
