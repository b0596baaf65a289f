// Readers of other tools' traces: hand-written SimGrid TI (current syntax, one file; older
// tag-less syntax, one file per rank behind an index) and DUMPI ascii samples of the same
// 4-rank program (ring exchange, allreduce, bcast) give exactly the CCSs of the native
// trace; the format is recognised from the content; bad lines fail with file:line.
#include "tac3map/io/trace_formats.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>

#include "tac3map/io/error.hpp"
#include "tac3map/model/ccs.hpp"
#include "tac3map/model/collectives.hpp"
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
                        Case{data("dumpi"), TraceFormat::Dumpi},  // the folder itself
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
  // The whole message, exactly.
  void exact(const std::string& path, TraceFormat format, const std::string& expected) {
    try {
      extractCcs(readAnyTrace(path, format, {}));
      ADD_FAILURE() << "accepted " << path;
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), expected);
    }
  }
  std::string at(const std::string& name) const { return (dir_ / name).string(); }
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
  file("r1.txt",
       "MPI_Init entering at walltime 1.0, cputime 1.0 seconds in thread 0.\n"
       "MPI_Init returning at walltime 1.1, cputime 1.1 seconds in thread 0.\n");
  fails(file("index", "r0.txt\nr1.txt\n"), TraceFormat::Dumpi,
        "r0.txt:1: unknown datatype 'MPI_MYSTERY'");
  file("s0.txt", header +
                     "int count=4\nMPI_Datatype datatype=1 (MPI_CHAR)\nint dest=1\n"
                     "int tag=0\nMPI_Comm comm=5 (user-defined)\n" +
                     footer);
  fails(file("index2", "s0.txt\nr1.txt\n"), TraceFormat::Dumpi,
        "s0.txt:1: MPI_Send on communicator 5 (user-defined), which no communicator call of this rank made");
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

// Issue 14, item 8: sleep and compute take finite seconds >= 0.
TEST_F(TraceFormatErrors, SecondsMustBeFiniteAndNotNegative) {
  for (const std::string bad : {"NaN", "nan", "inf", "-1", "1x", "abc"}) {
    SCOPED_TRACE(bad);
    fails(file("s.ti", "0 init\n1 init\n0 sleep " + bad + "\n0 send 1 8\n1 recv 0 8\n"),
          TraceFormat::SimgridTi,
          "s.ti:3: sleep " + bad + ": expected seconds, a finite number >= 0");
    fails(file("s.trace",
               "tac3map-trace 1\nranks 2\n0 compute " + bad + "\n0 send 1 8\n1 recv 0 8\n"),
          TraceFormat::Native, "s.trace:3: '" + bad + "' is not a number of seconds");
  }
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

// Issue 14, item 9: SimGrid 3.32 writes a datatype id after the size, which is then a count
// of that type. Every action with a datatype field, with ids and with names, in the argument
// positions of SimGrid's replay parsers; without a datatype the size stays in bytes.
TEST_F(TraceFormatErrors, SimgridDatatypeIdsAndNamesScaleTheCount) {
  struct Line {
    std::string text;
    std::uint64_t bytes, bytes2;
    int root;
  };
  const std::vector<Line> lines = {
      {"send 1 0 4 0", 32, 0, 0},                // 4 doubles (id 0)
      {"send 1 0 4 MPI_DOUBLE", 32, 0, 0},       // the same by name
      {"isend 1 3 10 1", 40, 0, 0},              // int
      {"recv 1 0 7 7", 56, 0, 0},                // long long
      {"irecv 1 0 2 14", 32, 0, 0},              // long double
      {"send 1 0 5", 5, 0, 0},                   // no datatype: bytes
      {"send 1 5", 5, 0, 0},                     // older, tag-less: bytes
      {"send 1 5 MPI_INT", 20, 0, 0},            // older with a type name
      {"sendRecv 2 1 3 1 0 1", 16, 12, 0},       // doubles sent, ints received
      {"sendRecv 2 1 3 1", 2, 3, 0},             // no datatypes
      {"bcast 1024 1", 1024, 0, 1},              // '1' is the root, not a datatype
      {"bcast 1024 1 0", 8192, 0, 1},            // root 1, doubles
      {"bcast 3 0 MPI_FLOAT", 12, 0, 0},         // a name in the datatype position
      {"reduce 6 0 1 5", 24, 0, 1},              // floats, root 1
      {"reduce 6 0", 6, 0, 0},                   // no root, no datatype
      {"allreduce 6 0 3", 12, 0, 0},             // shorts
      {"alltoall 5 5 2 2", 5, 0, 0},             // chars
      {"allgather 5 5 4 4", 40, 0, 0},           // longs
      {"gather 3 3 1 0 0", 24, 0, 1},            // the send count in the send type
      {"scatter 9 2 1 0 1", 8, 0, 1},            // the receive count in the receive type
      {"reducescatter 3 7 0 0", 56, 0, 0},       // 2 ranks' recv counts, comp size, doubles
      {"reducescatter 3 7 0", 7, 0, 0},          // no datatype
      {"send 1 0 3 32", 48, 0, 0},               // MPI_DOUBLE_INT as SimGrid sizes it
      {"send 1 0 3 MPI_DOUBLE_INT", 36, 0, 0}};  // ... and as MPI_Type_size gives it
  std::string text = "1 init\n";
  for (const Line& line : lines) text += "0 " + line.text + "\n";
  const Trace trace = readAnyTrace(file("types.ti", text), TraceFormat::SimgridTi, {});
  ASSERT_EQ(trace.events[0].size(), lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const Event& e = trace.events[0][i];
    EXPECT_EQ(e.bytes, lines[i].bytes) << lines[i].text;
    EXPECT_EQ(e.bytes2, lines[i].bytes2) << lines[i].text;
    EXPECT_EQ(e.root, lines[i].root) << lines[i].text;
  }
  // 'init' with an argument makes MPI_DOUBLE the default type (SMPI's MPE convention).
  const Trace mpe = readAnyTrace(file("mpe.ti", "0 init 1\n1 init 1\n0 send 1 0 4\n"),
                                 TraceFormat::SimgridTi, {});
  EXPECT_EQ(mpe.events[0][0].bytes, 32u);
}

// The NPB CG class S case: point-to-point counts of MPI_DOUBLE (datatype 0) are 8x
// the bytes the reader took before.
TEST_F(TraceFormatErrors, SimgridCgSendsOfDoublesAreEightBytesEach) {
  std::string text;
  for (int r = 0; r < 4; ++r) text += std::to_string(r) + " init\n";
  for (int r = 0; r < 4; ++r) {
    const std::string me = std::to_string(r), peer = std::to_string(r ^ 1);
    text += me + " irecv " + peer + " 1 1750 0\n" + me + " send " + peer + " 1 1750 0\n" + me +
            " wait " + peer + " " + me + " 1\n";
  }
  const CcsSet sets = extractCcs(readAnyTrace(file("cg.ti", text), TraceFormat::Auto, {}));
  ASSERT_EQ(sets.communicationCount(), 4u);
  for (const Communication& c : sets.sets[0]) EXPECT_EQ(c.bytes, 1750u * 8) << c.src;
}

TEST_F(TraceFormatErrors, SimgridDatatypesAndSizesAreChecked) {
  exact(file("a.ti", "1 init\n0 send 1 0 4 99\n"), TraceFormat::SimgridTi,
        at("a.ti") +
            ":2: unknown datatype '99' (expected a SimGrid datatype id 0..59 or an MPI name)");
  exact(file("b.ti", "1 init\n0 bcast 4 0 55\n"), TraceFormat::SimgridTi,
        at("b.ti") + ":2: datatype id 55 has no size (55/56 are MPI_UB/MPI_LB, markers, not data)");
  // -1, a derived datatype: SMPI wrote the size in bytes already.
  EXPECT_EQ(readAnyTrace(file("derived.ti", "1 init\n0 bcast 4 0 -1\n"), TraceFormat::SimgridTi, {})
                .events[0][0]
                .bytes,
            4u);
  exact(file("c.ti", "1 init\n0 send 1 0 -8\n"), TraceFormat::SimgridTi,
        at("c.ti") + ":2: size -8 is negative");
  exact(file("d.ti", "1 init\n0 send 1 0 1000000000000000000 0\n"), TraceFormat::SimgridTi,
        at("d.ti") +
            ":2: message of 1000000000000000000 x 8 bytes is larger than the largest supported "
            "(2^62)");
  exact(file("e.ti", "1 init\n0 allreduce 4611686018427387904 0\n"), TraceFormat::SimgridTi,
        at("e.ti") +
            ":2: message of 4611686018427387904 bytes is larger than the largest supported "
            "(2^62)");
  exact(file("f.ti", "1 init\n0 send 1 0 99999999999999999999999\n"), TraceFormat::SimgridTi,
        at("f.ti") +
            ":2: message of 99999999999999999999999 bytes is larger than the largest "
            "supported (2^62)");
  exact(file("g.ti", "1 init\n0 sendRecv -1 1 4 1\n"), TraceFormat::SimgridTi,
        at("g.ti") + ":2: size -1 is negative");
  exact(file("h.ti", "1 init\n0 reducescatter 4 0\n"), TraceFormat::SimgridTi,
        at("h.ti") +
            ":2: 'reducescatter' takes the form '<rank> reducescatter <recv_count x 2 "
            "ranks> <comp_size> [datatype]'");
  // Just below 2^62 is read.
  const Trace big = readAnyTrace(file("big.ti", "1 init\n0 send 1 0 4611686018427387903\n"),
                                 TraceFormat::SimgridTi, {});
  EXPECT_EQ(big.events[0][0].bytes, (std::uint64_t{1} << 62) - 1);
}

// Issue 14, item 3: DUMPI counts are checked 64-bit numbers: count=-1 is refused, not a
// huge size, and count x type size may not overflow.
TEST_F(TraceFormatErrors, DumpiCountsAreCheckedNumbers) {
  const auto send = [](const std::string& count, const std::string& type) {
    return "MPI_Send entering at walltime 1.0, cputime 1.0 seconds in thread 0.\nint count=" +
           count + "\nMPI_Datatype datatype=1 (" + type +
           ")\nint dest=1\nint tag=0\nMPI_Comm comm=2 (MPI_COMM_WORLD)\n"
           "MPI_Send returning at walltime 1.1, cputime 1.1 seconds in thread 0.\n";
  };
  file("other.txt", send("1", "MPI_CHAR"));
  file("neg.txt", send("-1", "MPI_CHAR"));
  exact(file("neg", "neg.txt\nother.txt\n"), TraceFormat::Dumpi,
        at("neg.txt") + ":1: count -1 is negative");
  file("huge.txt", send("2305843009213693952", "MPI_DOUBLE"));
  exact(file("huge", "huge.txt\nother.txt\n"), TraceFormat::Dumpi,
        at("huge.txt") +
            ":1: message of 2305843009213693952 x 8 bytes is larger than the largest "
            "supported (2^62)");
  file("text.txt", send("many", "MPI_CHAR"));
  exact(file("text", "text.txt\nother.txt\n"), TraceFormat::Dumpi,
        at("text.txt") + ":1: expected a count, got 'many'");
}

// Issue 14, item 8 (readers): CRLF line ends read as LF in every format.
TEST_F(TraceFormatErrors, EveryReaderAcceptsCrlf) {
  const auto crlf = [](const std::string& path) {
    std::ifstream in(path);
    std::string text;
    for (std::string line; std::getline(in, line);) text += line + "\r\n";
    return text;
  };
  const auto expected = ccsOf(readTrace(data("ring.trace")));
  EXPECT_EQ(
      ccsOf(readAnyTrace(file("ring.trace", crlf(data("ring.trace"))), TraceFormat::Auto, {})),
      expected);
  EXPECT_EQ(ccsOf(readAnyTrace(file("ring.ti", crlf(data("ring.simgrid"))), TraceFormat::Auto, {})),
            expected);
  std::string index;
  for (int r = 0; r < 4; ++r) {
    const std::string name = "dumpi-0000-000" + std::to_string(r) + ".txt";
    file(name, crlf(data("dumpi/" + name)));
    index += name + "\r\n";
  }
  EXPECT_EQ(detectTraceFormat(file("index", index)), TraceFormat::Dumpi);
  EXPECT_EQ(ccsOf(readAnyTrace((dir_ / "index").string(), TraceFormat::Auto, {})), expected);
  EXPECT_EQ(ccsOf(readAnyTrace(dir_.string(), TraceFormat::Auto, {})), expected);  // the folder
}

// Issue 14, item 10: the folder dumpi writes, with its .txt conversions: ranks by the file
// names, the missing one named.
TEST_F(TraceFormatErrors, DumpiFolderNamesTheMissingRank) {
  const auto copy = [&](int rank) {
    const std::string name = "dumpi-0000-000" + std::to_string(rank) + ".txt";
    fs::copy_file(data("dumpi/" + name), dir_ / name);
  };
  const std::string folder = dir_.string();
  exact(folder, TraceFormat::Dumpi,
        folder +
            ": no DUMPI trace in this folder (expected the .txt files dumpi2ascii prints, "
            "named <prefix>-<rank>.txt, e.g. dumpi-2024.05.01.12.00.00-0000.txt)");
  file("dumpi-0000-0000.bin", "binary");
  file("dumpi-0000-0002.bin", "binary");
  exact(folder, TraceFormat::Auto,
        folder +
            ": DUMPI binary files only (dumpi-0000-0000.bin ...): convert each with "
            "dumpi2ascii, e.g. dumpi2ascii dumpi-0000-0000.bin > dumpi-0000-0000.txt");
  for (int rank : {0, 1, 3}) copy(rank);
  exact(folder, TraceFormat::Auto,
        folder +
            ": no DUMPI text file for rank 2 (expected dumpi-0000-0002.txt; convert the "
            ".bin files with dumpi2ascii)");
  fs::remove(dir_ / "dumpi-0000-0002.bin");
  exact(folder, TraceFormat::Auto,
        folder +
            ": no DUMPI text file for rank 2 (expected dumpi-0000-0002.txt; the folder has "
            "no .bin file for it either)");
  copy(2);
  const auto expected = ccsOf(readTrace(data("ring.trace")));
  EXPECT_EQ(ccsOf(readAnyTrace(folder, TraceFormat::Auto, {})), expected);
  // The .meta file gives the rank count: a missing last rank is found too.
  file("dumpi-0000.meta", "hostname=node0\nnumprocs=5\nfileprefix=dumpi-0000\nversion=1\n");
  exact(folder, TraceFormat::Dumpi,
        folder +
            ": no DUMPI text file for rank 4 (expected dumpi-0000-0004.txt; the folder has "
            "no .bin file for it either)");
  file("dumpi-0000.meta", "numprocs=4\nfileprefix=dumpi-0000\n");
  EXPECT_EQ(ccsOf(readAnyTrace(folder, TraceFormat::Dumpi, {})), expected);
  file("dumpi-0000.meta", "numprocs=four\nfileprefix=dumpi-0000\n");
  exact(folder, TraceFormat::Dumpi,
        (dir_ / "dumpi-0000.meta").string() + ":1: expected a rank count, got 'four'");
  fs::remove(dir_ / "dumpi-0000.meta");
  file("dumpi-1111-0000.txt", "");
  exact(folder, TraceFormat::Dumpi,
        folder +
            ": DUMPI files of several runs (dumpi-0000-*, dumpi-1111-*): keep one run's "
            "files per folder");
  exact(folder, TraceFormat::SimgridTi,
        folder +
            ": is a folder: a simgrid-ti trace is a file (or an index file listing one file "
            "per rank); only DUMPI traces are read from a folder");
}

// Issue 14, item 5: what is not a DUMPI trace is an error naming the file, and so is a trace
// without messages between ranks unless allowEmpty (--allow-empty).
TEST_F(TraceFormatErrors, GarbageAndEmptyTracesAreErrors) {
  const std::string empty = file("empty", "");
  exact(empty, TraceFormat::Dumpi,
        empty +
            ": no DUMPI calls (expected the text dumpi2ascii prints: 'MPI_Init entering at "
            "walltime ...' blocks)");
  std::string noise;
  for (int i = 0; i < 4096; ++i) noise += static_cast<char>((i * 7919 + 13) % 256);
  const std::string random = file("random.bin", noise);
  exact(random, TraceFormat::Dumpi,
        random +
            ": no DUMPI calls (expected the text dumpi2ascii prints: "
            "'MPI_Init entering at walltime ...' blocks)");
  exact(empty, TraceFormat::Auto, empty + ": no actions in the SimGrid trace");
  const std::string quiet =
      file("quiet.trace", "tac3map-trace 1\nranks 2\n0 compute 1\n1 barrier\n");
  exact(quiet, TraceFormat::Auto,
        quiet + ": the trace has no messages between ranks; pass allow empty to accept it");
  const std::string self = file("self.ti", "0 init\n0 send 0 0 8\n0 recv 0 0 8\n");
  exact(self, TraceFormat::Auto,
        self + ": the trace has no messages between ranks; pass allow empty to accept it");
  TraceOptions allow;
  allow.allowEmpty = true;
  EXPECT_EQ(readAnyTrace(quiet, TraceFormat::Auto, allow).ranks, 2);
  const std::string call =
      "MPI_Init entering at walltime 1.0, cputime 1.0 seconds in thread 0.\n"
      "MPI_Init returning at walltime 1.1, cputime 1.1 seconds in thread 0.\n";
  file("i0.txt", call);
  file("i1.txt", call);
  const std::string index = file("iindex", "i0.txt\ni1.txt\n");
  exact(index, TraceFormat::Auto,
        index + ": the trace has no messages between ranks; pass allow empty to accept it");
  EXPECT_EQ(readAnyTrace(index, TraceFormat::Auto, allow).ranks, 2);
}

}  // namespace
}  // namespace tac3map

namespace tac3map {
namespace {

// Bytes each rank sends and receives in all of a trace's messages (collectives expanded).
struct Flows {
  std::vector<std::uint64_t> sent, received;
  std::map<std::pair<int, int>, std::uint64_t> between;  // (src, dst) -> bytes
};
Flows flowsOf(const Trace& trace, const CcsOptions& options = {}) {
  Flows f{std::vector<std::uint64_t>(trace.ranks), std::vector<std::uint64_t>(trace.ranks), {}};
  for (const auto& set : extractCcs(trace, options).sets)
    for (const Communication& c : set) {
      f.sent[c.src] += c.bytes;
      f.received[c.dst] += c.bytes;
      f.between[{c.src, c.dst}] += c.bytes;
    }
  return f;
}

// Issue 14: the SimGrid TI v-collectives and scans, in SimGrid 3.32's argument order, give
// each rank the data MPI says it gets. Checked by conservation, not by replaying the
// algorithm: gatherv's root receives every other block, and every other rank passes on its
// own block and what its subtree sent it; scatterv the reverse; allgatherv gives every rank
// every other block; alltoallv moves exactly each listed count from its sender to its
// receiver; scan and exscan exchange the size between partners at distances 1, 2, 4, ...
// The same with every v-collective linear (SimGrid's default selector).
TEST_F(TraceFormatErrors, SimgridVariableCollectivesMoveEachRanksBlock) {
  for (const char* algorithms :
       {"", "gatherv=linear,scatterv=linear,allgatherv=linear,alltoallv=linear"}) {
    SCOPED_TRACE(algorithms);
    CcsOptions options;
    options.collectives = parseCollectiveAlgorithms(algorithms);
    const int n = 5;
    const std::vector<std::uint64_t> block = {3, 10, 0, 7, 12};  // rank r's block, in doubles
    std::uint64_t total = 0;
    for (const std::uint64_t b : block) total += b * 8;
    const auto run = [&](const std::string& name, const std::function<std::string(int)>& line) {
      std::string text;
      for (int r = 0; r < n; ++r) {
        text += std::to_string(r);
        text += ' ';
        text += line(r);
        text += '\n';
      }
      return flowsOf(readAnyTrace(file(name, text), TraceFormat::SimgridTi, {}), options);
    };
    std::string counts;
    for (const std::uint64_t b : block) {
      counts += ' ';
      counts += std::to_string(b);
    }
    const int root = 3;
    const std::string rootWord = std::to_string(root);
    const Flows gather = run("gv.ti", [&](int r) {
      std::string line = "gatherv ";
      line += std::to_string(block[r]);
      return line + counts + " " + rootWord + " 0 0";
    });
    const Flows scatter = run("sv.ti", [&](int r) {
      std::string line = "scatterv";
      line += counts;
      return line + " " + std::to_string(block[r]) + " " + rootWord + " 0 0";
    });
    for (int r = 0; r < n; ++r) {
      SCOPED_TRACE(r);
      if (r == root) {
        EXPECT_EQ(gather.received[r], total - block[r] * 8);
        EXPECT_EQ(gather.sent[r], 0u);
        EXPECT_EQ(scatter.sent[r], total - block[r] * 8);
        EXPECT_EQ(scatter.received[r], 0u);
      } else {
        EXPECT_EQ(gather.sent[r], block[r] * 8 + gather.received[r]);
        EXPECT_EQ(scatter.received[r], block[r] * 8 + scatter.sent[r]);
      }
    }
    const Flows allgather = run("agv.ti", [&](int r) {
      std::string line = "allgatherv ";
      line += std::to_string(block[r]);
      return line + counts + " 0";
    });
    for (int r = 0; r < n; ++r) EXPECT_EQ(allgather.received[r], total - block[r] * 8) << r;
    // alltoallv: rank r sends (r + 2 d) ints to rank d, and lists what it receives likewise.
    const auto a2a = [](int from, int to) { return static_cast<std::uint64_t>(from + 2 * to); };
    const Flows all = run("a2av.ti", [&](int r) {
      std::string text = "alltoallv 100";
      for (int d = 0; d < n; ++d) {
        text += ' ';
        text += std::to_string(a2a(r, d));
      }
      text += " 100";
      for (int s = 0; s < n; ++s) {
        text += ' ';
        text += std::to_string(a2a(s, r));
      }
      return text + " 1 1";
    });
    std::map<std::pair<int, int>, std::uint64_t> expected;
    for (int s = 0; s < n; ++s)
      for (int d = 0; d < n; ++d)
        if (s != d) expected[{s, d}] = a2a(s, d) * 4;
    EXPECT_EQ(all.between, expected);
    // Scans: current syntax '-1 <tag> <size> <type>' and the older '<size>'.
    for (const char* form : {"scan -1 0 6 0", "exscan -1 0 6 0", "scan 48", "exscan 48"}) {
      const Flows scan = run("scan.ti", [&](int) { return form; });
      std::map<std::pair<int, int>, std::uint64_t> pairs;
      for (int v = 0; v < n; ++v)
        for (int d = 1; d < n; d <<= 1)
          if ((v ^ d) < n) pairs[{v, v ^ d}] = 48;
      EXPECT_EQ(scan.between, pairs) << form;
    }
  }
}

TEST_F(TraceFormatErrors, SimgridVariableCollectivesNeedACountPerRank) {
  exact(file("short.ti", "0 gatherv 4 1 1 1\n1 gatherv 4 1 1 1\n2 gatherv 4 1\n"),
        TraceFormat::SimgridTi,
        at("short.ti") +
            ":3: 'gatherv' takes the form '<rank> gatherv <send_size> <recv_count per rank> "
            "[root] [send_type] [recv_type]' with 3 counts per list (one per rank)");
  exact(file("neg.ti", "0 alltoallv 9 1 -2 9 1 1\n1 alltoallv 9 1 1 9 1 1\n"),
        TraceFormat::SimgridTi, at("neg.ti") + ":1: size -2 is negative");
  exact(file("mixed.ti", "0 gatherv 4 4 4\n1 bcast 4\n1 gatherv 4 4 4\n"), TraceFormat::SimgridTi,
        at("mixed.ti") + ":2: bcast here, but the same call is a gatherv at " + at("mixed.ti") +
            ":1: every rank must call a communicator's collectives in the same order");
}

}  // namespace
}  // namespace tac3map
