// Readers of other tools' traces: hand-written SimGrid TI (current syntax, one file; older
// tag-less syntax, one file per rank behind an index) and DUMPI ascii samples of the same
// 4-rank program (ring exchange, allreduce, bcast) give exactly the CCSs of the native
// trace; the format is recognised from the content; bad lines fail with file:line.
#include "tac3map/io/trace_formats.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "tac3map/io/error.hpp"
#include "tac3map/model/ccs.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

namespace fs = std::filesystem;

std::vector<std::vector<std::tuple<int, int, std::uint64_t>>> ccsOf(const Trace& trace) {
  std::vector<std::vector<std::tuple<int, int, std::uint64_t>>> sets;
  for (const auto& set : extractCcs(trace).sets) {
    sets.emplace_back();
    for (const Communication& c : set) sets.back().emplace_back(c.src, c.dst, c.bytes);
  }
  return sets;
}

std::string data(const std::string& name) {
  return testing::sourcePath("tests/data/" + name);
}

TEST(TraceFormats, EveryReaderGivesTheNativeCcss) {
  const auto expected = ccsOf(readTrace(data("ring.trace")));
  ASSERT_EQ(expected.size(), 1u + 2 + 2);  // ring, allreduce (2 steps), bcast (2 steps)
  struct Case {
    std::string path;
    TraceFormat format;
  };
  for (const Case& c : {Case{data("ring.simgrid"), TraceFormat::SimgridTi},
                        Case{data("simgrid-old/index"), TraceFormat::SimgridTi},
                        Case{data("dumpi/index"), TraceFormat::Dumpi},
                        Case{data("ring.trace"), TraceFormat::Native}}) {
    SCOPED_TRACE(c.path);
    EXPECT_EQ(detectTraceFormat(c.path), c.format);
    EXPECT_EQ(ccsOf(readAnyTrace(c.path, TraceFormat::Auto, {})), expected);
    EXPECT_EQ(ccsOf(readAnyTrace(c.path, c.format, {})), expected);
  }
}

TEST(TraceFormats, SimgridSendRecvWithAndWithoutDatatypes) {
  // SimGrid 3.32's -trace-ti writes MPI_Sendrecv as 'sendRecv <send> <dst> <recv> <src>
  // <send type id> <recv type id>' (ids 6 6 for MPI_BYTE); older versions left the types out.
  const fs::path dir =
      fs::temp_directory_path() / ("tac3map-sendrecv-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  for (const std::string types : {" 6 6", ""}) {
    const fs::path path = dir / "a.ti";
    std::ofstream(path) << "0 init\n0 sendRecv 100 1 200 1" << types << "\n0 finalize\n"
                        << "1 init\n1 sendRecv 200 0 100 0" << types << "\n1 finalize\n";
    const auto sets = ccsOf(readAnyTrace(path.string(), TraceFormat::SimgridTi, {}));
    ASSERT_EQ(sets.size(), 1u) << types;
    EXPECT_EQ(sets[0], (std::vector<std::tuple<int, int, std::uint64_t>>{{0, 1, 100}, {1, 0, 200}}))
        << types;
  }
  fs::remove_all(dir);
}

TEST(TraceFormats, DumpiSubCommunicatorsFromCommSplit) {
  // MPI_Comm_split(color = rank % 2, key = -rank), then a bcast and a send on the halves.
  EXPECT_EQ(ccsOf(readAnyTrace(data("dumpi-split/index"), TraceFormat::Auto, {})),
            ccsOf(readTrace(data("split.trace"))));
}

class TraceFormatErrors : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tac3map-formats-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string file(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return (dir_ / name).string();
  }
  void fails(const std::string& path, TraceFormat format, const std::string& expected) {
    try {
      extractCcs(readAnyTrace(path, format, {}));
      ADD_FAILURE() << "accepted " << path;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  }
  fs::path dir_;
};

TEST_F(TraceFormatErrors, SimgridLinesAreCheckedWithTheirLine) {
  fails(file("a.ti", "0 init\n0 fly 1 2\n"), TraceFormat::SimgridTi,
        "a.ti:2: unknown SimGrid action 'fly'");
  fails(file("b.ti", "0 wait\n"), TraceFormat::SimgridTi, "b.ti:1: wait without a pending");
  fails(file("c.ti", "x send 1 0 8\n"), TraceFormat::SimgridTi, "c.ti:1: expected '<rank>");
  fails(file("d.ti", "0 send 1 0 8\n1 init\n"), TraceFormat::SimgridTi, "d.ti:1: rank 0 sends");
  fails(file("e.ti", "0 isend 1 0 8\n0 wait 0 1 7\n1 init\n"), TraceFormat::SimgridTi,
        "e.ti:2: no pending request 0 1 7");
}

TEST_F(TraceFormatErrors, DumpiCallsAreCheckedWithTheirFileAndLine) {
  const std::string header =
      "MPI_Send entering at walltime 1.0, cputime 1.0 seconds in thread 0.\n";
  const std::string footer =
      "MPI_Send returning at walltime 1.1, cputime 1.1 seconds in thread 0.\n";
  file("r0.txt", header +
                     "int count=4\nMPI_Datatype datatype=99 (MPI_MYSTERY)\nint dest=1\n"
                     "int tag=0\nMPI_Comm comm=2 (MPI_COMM_WORLD)\n" +
                     footer);
  file("r1.txt", "");
  fails(file("index", "r0.txt\nr1.txt\n"), TraceFormat::Dumpi,
        "r0.txt:1: unknown datatype 'MPI_MYSTERY'");
  file("s0.txt", header +
                     "int count=4\nMPI_Datatype datatype=1 (MPI_CHAR)\nint dest=1\n"
                     "int tag=0\nMPI_Comm comm=5 (user-defined)\n" +
                     footer);
  fails(file("index2", "s0.txt\nr1.txt\n"), TraceFormat::Dumpi,
        "s0.txt:1: MPI_Send on communicator 5 (user-defined), which no MPI_Comm_split");
}

// Issue 14, item 1: a negative or wrapped collective root is an error where it is written,
// not an index out of bounds later.
TEST_F(TraceFormatErrors, CollectiveRootsMustBeRanks) {
  fails(file("r.ti", "0 init\n1 init\n0 bcast 1024 -1\n1 bcast 1024 -1\n"), TraceFormat::SimgridTi,
        "r.ti:3: root -1 is not a rank");
  fails(file("r.trace",
             "tac3map-trace 1\nranks 2\n0 bcast 1024 root=4294967295\n"
             "1 bcast 1024 root=4294967295\n"),
        TraceFormat::Native, "r.trace:3: root=4294967295: expected a rank");
  fails(file("big.ti", "0 init\n1 init\n0 gather 8 8 4294967296\n1 gather 8 8 4294967296\n"),
        TraceFormat::SimgridTi, "big.ti:3: root 4294967296 is not a rank");
  const std::string call =
      "MPI_Bcast entering at walltime 1.0, cputime 1.0 seconds in thread 0.\n"
      "int count=4\nMPI_Datatype datatype=1 (MPI_CHAR)\nint root=-1\n"
      "MPI_Comm comm=2 (MPI_COMM_WORLD)\n"
      "MPI_Bcast returning at walltime 1.1, cputime 1.1 seconds in thread 0.\n";
  file("b0.txt", call);
  file("b1.txt", call);
  fails(file("bindex", "b0.txt\nb1.txt\n"), TraceFormat::Dumpi, "b0.txt:1: root -1 is not a rank");
}

TEST_F(TraceFormatErrors, DumpiPcontrolMarksIterations) {
  const auto call = [](const std::string& name, const std::string& args) {
    return name + " entering at walltime 1.0, cputime 1.0 seconds in thread 0.\n" + args + name +
           " returning at walltime 1.1, cputime 1.1 seconds in thread 0.\n";
  };
  const auto send = [&](int bytes) {
    return call("MPI_Send", "int count=" + std::to_string(bytes) +
                                "\nMPI_Datatype datatype=1 (MPI_CHAR)\nint dest=1\nint tag=0\n");
  };
  const auto recv = [&](int bytes) {
    return call("MPI_Recv", "int count=" + std::to_string(bytes) +
                                "\nMPI_Datatype datatype=1 (MPI_CHAR)\nint source=0\nint tag=0\n");
  };
  const std::string mark = call("MPI_Pcontrol", "int level=1\n");
  file("p0.txt", send(1) + mark + send(10) + mark + send(100));
  file("p1.txt", recv(1) + mark + recv(10) + mark + recv(100));
  const std::string index = file("pindex", "p0.txt\np1.txt\n");
  TraceOptions second;
  second.iteration = 2;
  const CcsSet sets = extractCcs(readAnyTrace(index, TraceFormat::Auto, second));
  ASSERT_EQ(sets.communicationCount(), 1u);
  EXPECT_EQ(sets.sets[0][0].bytes, 100u);
}

}  // namespace
}  // namespace tac3map
