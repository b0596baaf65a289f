// Every MPI construct issue 41 names, in every format: tests/data/constructs/ holds one
// 4-rank program (constructs.c) as SimGrid SMPI 3.32 traced it (simgrid/: partial waitall,
// MPI_ANY_SOURCE and MPI_ANY_TAG, waitany, test, persistent requests, probe, a split
// communicator, non-blocking collectives, sendrecv_replace, ssend, issend), as dumpi2ascii
// prints it (dumpi/) and in the native format (constructs.trace); all give the same CCSs.
// Hand cases show what each reader does with a construct alone, and what it refuses.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <tuple>

#include "tac3map/io/error.hpp"
#include "tac3map/io/trace_formats.hpp"
#include "tac3map/model/ccs.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

namespace fs = std::filesystem;

using Sets = std::vector<std::vector<std::tuple<int, int, std::uint64_t, int>>>;

Sets ccsOf(const Trace& trace) {
  Sets sets;
  for (const auto& set : extractCcs(trace).sets) {
    sets.emplace_back();
    for (const Communication& c : set) sets.back().emplace_back(c.src, c.dst, c.bytes, c.level);
  }
  return sets;
}

std::string data(const std::string& name) {
  return testing::sourcePath("tests/data/constructs/" + name);
}

TEST(MpiConstructs, EveryFormatGivesTheSameCcss) {
  const Sets native = ccsOf(readAnyTrace(data("constructs.trace"), TraceFormat::Auto, {}));
  std::size_t messages = 0;
  for (const auto& set : native) messages += set.size();
  EXPECT_EQ(messages, 46u);
  EXPECT_EQ(ccsOf(readAnyTrace(data("simgrid/index"), TraceFormat::Auto, {})), native);
  EXPECT_EQ(ccsOf(readAnyTrace(data("dumpi"), TraceFormat::Auto, {})), native);
}

TEST(MpiConstructs, SimgridPartialWaitallCoversTheRequestsNoWaitNames) {
  // 'waitall 2' on the two isends, then 'wait' on each irecv: the reader puts the sends'
  // waits where the waitall was.
  const Trace trace = readAnyTrace(data("simgrid/index"), TraceFormat::SimgridTi, {});
  const auto& events = trace.events[0];
  ASSERT_GE(events.size(), 8u);
  std::vector<EventKind> got;
  for (std::size_t i = 0; i < 8; ++i) got.push_back(events[i].kind);
  EXPECT_EQ(got, (std::vector<EventKind>{EventKind::Irecv, EventKind::Irecv, EventKind::Isend,
                                         EventKind::Isend, EventKind::Wait, EventKind::Wait,
                                         EventKind::Wait, EventKind::Wait}));
  EXPECT_EQ(events[4].request, events[2].request);  // the sends first, in posting order
  EXPECT_EQ(events[5].request, events[3].request);
  EXPECT_EQ(events[6].request, events[1].request);  // then as the waits name them
  EXPECT_EQ(events[7].request, events[0].request);
}

TEST(MpiConstructs, SimgridWildcardsAndPersistentReceivesGetTheirSources) {
  const Trace trace = readAnyTrace(data("simgrid/index"), TraceFormat::SimgridTi, {});
  int anySource = 0, anyTag = 0, learned = 0;
  for (const Event& e : trace.events[0]) {
    if (e.kind != EventKind::Recv && e.kind != EventKind::Irecv) continue;
    anySource += e.peer == kAnySource;
    anyTag += e.tag == kAnyTag;
    learned += e.tag == 4 && e.peer == 3;  // Start of a receive; its wait names rank 3
  }
  EXPECT_EQ(anySource, 6);  // 3 recv -333, 3 irecv -333
  EXPECT_EQ(anyTag, 3);     // irecv -333 -444
  EXPECT_EQ(learned, 2);
  // MPI's matching: each of ranks 1-3 sends rank 0 one message of each wildcard kind.
  std::map<std::pair<int, std::int64_t>, int> toZero;  // (source, tag) -> messages
  for (const auto& set : extractCcs(trace).sets)
    for (const Communication& c : set)
      if (c.dst == 0 && (c.tag == 3 || (c.tag > 10 && c.tag < 14))) ++toZero[{c.src, c.tag}];
  EXPECT_EQ(toZero, (std::map<std::pair<int, std::int64_t>, int>{
                        {{1, 3}, 1}, {{2, 3}, 1}, {{3, 3}, 1}, {{1, 11}, 1}, {{2, 12}, 1},
                        {{3, 13}, 1}}));
}

class ConstructErrors : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tac3map-constructs-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string file(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return (dir_ / name).string();
  }
  std::string error(const std::string& path, TraceFormat format) {
    try {
      extractCcs(readAnyTrace(path, format, {}));
    } catch (const InputError& e) {
      return std::string(e.what()).substr(dir_.string().size() + 1);
    }
    return "";
  }
  fs::path dir_;
};

TEST_F(ConstructErrors, SimgridSaysWhatItCannotRepresent) {
  EXPECT_EQ(error(file("a.ti", "0 Startall\n0 waitall 2\n1 init\n"), TraceFormat::SimgridTi),
            "a.ti:1: 'Startall': SimGrid's TI traces do not say which persistent requests "
            "MPI_Startall starts (MPI_Send_init and MPI_Recv_init are not traced); record the "
            "program with libtac3trace.so or DUMPI (docs/trace-formats.md)");
  EXPECT_EQ(error(file("b.ti", "0 send -333 1 8 0\n1 recv 0 1 8 0\n"), TraceFormat::SimgridTi),
            "b.ti:1: send to -333 (SMPI's MPI_ANY_SOURCE): a send needs its destination");
  EXPECT_EQ(error(file("c.ti", "0 isend 1 1 8 0\n0 wait 0 1 2\n1 recv 0 1 8 0\n"),
                  TraceFormat::SimgridTi),
            "c.ti:2: no pending request 0 1 2 (source, destination, tag) to wait for");
  // A wildcard receive nobody sends to: named as such, not as a rank out of range.
  EXPECT_EQ(error(file("d.ti", "0 send 1 1 8 0\n1 recv 0 1 8 0\n1 recv -333 5 8 0\n"),
                  TraceFormat::SimgridTi),
            "d.ti:3: rank 1 receives from any rank (tag 5) but no rank sends it a message "
            "that matches");
}

// "r<rank>.txt", built by appending (GCC 12 warns falsely on "r" + std::to_string(r)).
std::string rankFile(int rank) {
  return std::string("r").append(std::to_string(rank)).append(".txt");
}

TEST_F(ConstructErrors, SimgridCollectivesOnSubCommunicatorsAreNamed) {
  // Ranks 0 and 2 reduce 8 bytes on one split communicator, 1 and 3 16 bytes on the other:
  // the trace shows four allreduces on all ranks that do not agree.
  const std::string path = file("split.ti",
                                "0 allReduce 8 0 6\n1 allReduce 16 0 6\n2 allReduce 8 0 6\n"
                                "3 allReduce 16 0 6\n0 send 1 1 8 6\n1 recv 0 1 8 6\n");
  EXPECT_EQ(error(path, TraceFormat::SimgridTi),
            "split.ti:2: rank 1's collective 1 is allreduce 16, rank 0's allreduce 8 (split.ti:1): "
            "collectives on sub-communicators, which SimGrid's TI traces cannot represent (they "
            "name no communicator); trace with libtac3trace.so or DUMPI");
}

// A DUMPI call block as dumpi2ascii prints it.
std::string call(const std::string& name, const std::vector<std::string>& arguments) {
  std::string text = name + " entering at walltime 1.0, cputime 1.0 seconds in thread 0.\n";
  for (const std::string& a : arguments) text += a + "\n";
  return text + name + " returning at walltime 1.0, cputime 1.0 seconds in thread 0.\n";
}

TEST_F(ConstructErrors, DumpiCartesianSubCommunicators) {
  // A 2x2 grid; MPI_Cart_sub keeping the second dimension gives the rows {0, 1} and {2, 3}
  // (row-major ranks); an allreduce on a row stays in it.
  std::string index;
  for (int r = 0; r < 4; ++r) {
    const std::string text =
        call("MPI_Cart_create", {"MPI_Comm oldcomm=2 (MPI_COMM_WORLD)", "int ndim=2",
                                 "int dims[2]=[2, 2]", "int periods[2]=[1, 1]", "int reorder=0",
                                 "MPI_Comm newcomm=4 (user-defined-comm)"}) +
        call("MPI_Cart_sub", {"int ndim=2", "MPI_Comm oldcomm=4 (user-defined-comm)",
                              "int remain_dims[2]=[0, 1]",
                              "MPI_Comm newcomm=5 (user-defined-comm)"}) +
        call("MPI_Allreduce", {"int count=4", "MPI_Datatype datatype=11 (MPI_DOUBLE)",
                               "MPI_Op op=3 (MPI_SUM)", "MPI_Comm comm=5 (user-defined-comm)"});
    file(rankFile(r), text);
    index += rankFile(r) + "\n";
  }
  const Trace native = testing::traceFromText(
      "tac3map-trace 1\nranks 4\n0 comm a 0 1\n2 comm b 2 3\n0 allreduce 32 comm=a\n"
      "1 allreduce 32 comm=a\n2 allreduce 32 comm=b\n3 allreduce 32 comm=b\n");
  EXPECT_EQ(ccsOf(readAnyTrace(file("index", index), TraceFormat::Dumpi, {})), ccsOf(native));
}

TEST_F(ConstructErrors, DumpiNamesTheCommunicatorCallItDoesNotFollow) {
  std::string index;
  for (int r = 0; r < 2; ++r) {
    file(rankFile(r),
         call("MPI_Comm_create", {"MPI_Comm oldcomm=2 (MPI_COMM_WORLD)", "MPI_Group group=3",
                                  "MPI_Comm newcomm=4 (user-defined-comm)"}) +
             call("MPI_Barrier", {"MPI_Comm comm=4 (user-defined-comm)"}));
    index += rankFile(r) + "\n";
  }
  const std::string message = error(file("index", index), TraceFormat::Dumpi);
  EXPECT_EQ(message.substr(0, message.find('(', message.find("MPI_Comm_create"))),
            "r0.txt:6: MPI_Barrier on communicator 4 (user-defined-comm), made by "
            "MPI_Comm_create ");
  EXPECT_NE(message.find("which the DUMPI reader does not follow"), std::string::npos);
}

}  // namespace
}  // namespace tac3map
