// Traces written in every format tac3map writes (native, SimGrid TI, DUMPI as dumpi2ascii
// prints it) and read back by tac3map's own readers: read -> write -> read, and through every
// pair of formats, gives the same per-rank communication (messages, sizes, peers, tags up to a
// one-to-one renaming, order and completion points) and the same CCSs, on the shipped examples
// and samples of every format, generated CG, stencil and all-to-all traces, random traces and a
// trace with every event and collective.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "tac3map/gen/cg_pattern.hpp"
#include "tac3map/gen/patterns.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/io/trace_formats.hpp"
#include "tac3map/model/ccs.hpp"
#include "tac3map/model/collectives.hpp"
#include "tac3map/output/dumpi_writer.hpp"
#include "tac3map/output/native_trace_writer.hpp"
#include "tac3map/output/simgrid_ti_writer.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

namespace fs = std::filesystem;
using testing::sourcePath;
using testing::traceFromText;

const TraceFormat kWritten[] = {TraceFormat::Native, TraceFormat::SimgridTi, TraceFormat::Dumpi};

// What a rank does on the network, independent of how a format spells it: collectives
// expanded into their steps; each send or receive posted ("S peer bytes tag" / "R ..."), and
// the points where the rank blocks until some of them complete ("C i j ...": post indices).
// A blocking send is a post and its completion, a sendrecv two posts and one completion,
// consecutive completions (wait; wait, or a waitall) are one. Tags are numbered by first
// appearance over all ranks (the TI writer renumbers the collectives' negative tags). Local
// work is left out (DUMPI has no call for it).
std::vector<std::vector<std::string>> communication(const Trace& input) {
  Trace storage;
  const Trace& trace = withCollectivesExpanded(input, {}, storage);
  std::map<std::int64_t, std::size_t> tagIds;
  std::vector<std::vector<std::string>> ranks(trace.ranks);
  for (int rank = 0; rank < trace.ranks; ++rank) {
    std::vector<std::string>& out = ranks[rank];
    std::map<std::string, int> live;  // request -> post index
    std::vector<int> completing;
    int posts = 0;
    const auto flush = [&] {
      if (completing.empty()) return;
      std::sort(completing.begin(), completing.end());
      std::string line = "C";
      for (int op : completing) line.append(" ").append(std::to_string(op));
      out.push_back(line);
      completing.clear();
    };
    const auto post = [&](const char* kind, int peer, std::uint64_t bytes, std::int64_t tag) {
      flush();
      const std::size_t id = tagIds.emplace(tag, tagIds.size()).first->second;
      out.push_back(std::string(kind) + " " + std::to_string(peer) + " " + std::to_string(bytes) +
                    " t" + std::to_string(id));
      return posts++;
    };
    for (const Event& e : trace.events[rank]) {
      switch (e.kind) {
        case EventKind::Send:
          completing.push_back(post("S", e.peer, e.bytes, e.tag));
          break;
        case EventKind::Recv:
          completing.push_back(post("R", e.peer, e.bytes, e.tag));
          break;
        case EventKind::Isend:
          live[trace.requestOf(e)] = post("S", e.peer, e.bytes, e.tag);
          break;
        case EventKind::Irecv:
          live[trace.requestOf(e)] = post("R", e.peer, e.bytes, e.tag);
          break;
        case EventKind::Wait:
          completing.push_back(live.at(trace.requestOf(e)));
          live.erase(trace.requestOf(e));
          break;
        case EventKind::Waitall:
          for (const auto& [name, op] : live) completing.push_back(op);
          live.clear();
          break;
        case EventKind::Sendrecv: {
          const int send = post("S", e.peer, e.bytes, e.tag);
          const int recv = post("R", e.peer2, e.bytes2, e.tag);
          completing.push_back(send);
          completing.push_back(recv);
          break;
        }
        case EventKind::Barrier:
          flush();
          out.push_back("B");
          break;
        case EventKind::Compute:
        case EventKind::Copy:
        case EventKind::Collective:
        case EventKind::Waitany:  // the samples have none
          break;
      }
    }
    flush();
  }
  return ranks;
}

void expectSameCcs(const Trace& expected, const Trace& actual, const std::string& what) {
  const CcsSet a = extractCcs(actual), e = extractCcs(expected);
  ASSERT_EQ(a.tasks, e.tasks) << what;
  ASSERT_EQ(a.sets.size(), e.sets.size()) << what;
  for (std::size_t t = 0; t < e.sets.size(); ++t) {
    ASSERT_EQ(a.sets[t].size(), e.sets[t].size()) << what << " CCS " << t;
    for (std::size_t c = 0; c < e.sets[t].size(); ++c) {
      EXPECT_EQ(a.sets[t][c].src, e.sets[t][c].src) << what << " CCS " << t << " #" << c;
      EXPECT_EQ(a.sets[t][c].dst, e.sets[t][c].dst) << what << " CCS " << t << " #" << c;
      EXPECT_EQ(a.sets[t][c].bytes, e.sets[t][c].bytes) << what << " CCS " << t << " #" << c;
      EXPECT_EQ(a.sets[t][c].level, e.sets[t][c].level) << what << " CCS " << t << " #" << c;
    }
  }
  EXPECT_EQ(a.barrierLevels, e.barrierLevels) << what;
}

// Every event and collective: blocking, non-blocking and combined point-to-point calls, waits
// in and out of posting order, a waitall with nothing pending, barriers, local work, every
// collective on all ranks and on sub-communicators (with roots), reduce_scatter, scan and exscan.
const char* const kEverything =
    "tac3map-trace 1\nranks 5\n"
    "0 comm evens 4 2 0\n1 comm odds 1 3\n"
    "0 isend 1 100 5 a\n0 irecv 4 200 6 b\n0 wait b\n0 wait a\n"
    "1 irecv 0 100 5 x\n1 isend 2 300 7 y\n1 waitall\n1 waitall\n"
    "2 recv 1 300 7\n2 sendrecv 3 64 3 64 9\n3 sendrecv 2 64 2 64 9\n"
    "4 send 0 200 6\n4 compute 0.125\n3 copy 4096\n"
    "0 barrier\n1 barrier\n2 barrier\n3 barrier\n4 barrier\n"
    "0 bcast 1000 root=1 comm=evens\n2 bcast 1000 root=1 comm=evens\n"
    "4 bcast 1000 root=1 comm=evens\n"
    "1 allreduce 800 comm=odds\n3 allreduce 800 comm=odds\n"
    "0 barrier comm=evens\n2 barrier comm=evens\n4 barrier comm=evens\n"
    "0 reduce 16 root=2\n1 reduce 16 root=2\n2 reduce 16 root=2\n3 reduce 16 root=2\n"
    "4 reduce 16 root=2\n"
    "0 allgather 32\n1 allgather 32\n2 allgather 32\n3 allgather 32\n4 allgather 32\n"
    "0 alltoall 8\n1 alltoall 8\n2 alltoall 8\n3 alltoall 8\n4 alltoall 8\n"
    "0 gather 24 root=3\n1 gather 24 root=3\n2 gather 24 root=3\n3 gather 24 root=3\n"
    "4 gather 24 root=3\n"
    "0 scatter 40 root=4\n1 scatter 40 root=4\n2 scatter 40 root=4\n3 scatter 40 root=4\n"
    "4 scatter 40 root=4\n"
    "0 reduce_scatter 48\n1 reduce_scatter 48\n2 reduce_scatter 48\n3 reduce_scatter 48\n"
    "4 reduce_scatter 48\n"
    "0 allreduce 4 comm=evens\n2 allreduce 4 comm=evens\n4 allreduce 4 comm=evens\n"
    "0 scan 72\n1 scan 72\n2 scan 72\n3 scan 72\n4 scan 72\n"
    "1 exscan 56 comm=odds\n3 exscan 56 comm=odds\n";

class TraceConversion : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           (std::string("tac3map-conv-") + info->name() + "-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Writes `trace` in `format` (into a folder of its own) and reads it back, the format
  // recognised from the content.
  Trace writeAndRead(const Trace& trace, TraceFormat format) {
    const fs::path folder = dir_ / std::to_string(++written_);
    fs::create_directories(folder);
    const std::string path = (folder / "out").string();
    switch (format) {
      case TraceFormat::Native:
        writeNativeTrace(trace, path);
        break;
      case TraceFormat::SimgridTi:
        writeSimgridTi(trace, path);
        break;
      default:
        writeDumpi(trace, path);
        break;
    }
    EXPECT_EQ(detectTraceFormat(path), format) << traceFormatName(format);
    return readAnyTrace(path, TraceFormat::Auto, {});
  }

  // read -> write X -> read, and read -> write X -> read -> write Y -> read, for every X, Y.
  void expectRoundTrips(const Trace& original, const std::string& what) {
    const auto expected = communication(original);
    ASSERT_FALSE(expected.empty()) << what;
    for (TraceFormat first : kWritten) {
      const std::string once = what + " -> " + traceFormatName(first);
      const Trace back = writeAndRead(original, first);
      EXPECT_EQ(communication(back), expected) << once;
      expectSameCcs(original, back, once);
      for (TraceFormat second : kWritten) {
        const std::string twice = once + " -> " + traceFormatName(second);
        const Trace again = writeAndRead(back, second);
        EXPECT_EQ(communication(again), expected) << twice;
        expectSameCcs(original, again, twice);
      }
    }
  }

  std::string read(const fs::path& path) {
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }

  fs::path dir_;
  int written_ = 0;
};

TEST_F(TraceConversion, ShippedTracesOfEveryFormatRoundTrip) {
  int count = 0;
  for (const auto& entry : fs::directory_iterator(sourcePath("examples")))
    if (entry.path().extension() == ".trace") {
      expectRoundTrips(readTrace(entry.path().string()), entry.path().filename().string());
      ++count;
    }
  EXPECT_GE(count, 6);
  for (const char* sample :
       {"tests/data/ring.trace", "tests/data/split.trace", "tests/data/ring.simgrid",
        "tests/data/simgrid-old/index", "tests/data/dumpi/index", "tests/data/dumpi",
        "tests/data/dumpi-split/index", "tests/fuzz/corpus/simgrid_ti/v-collectives.ti"})
    expectRoundTrips(readAnyTrace(sourcePath(sample), TraceFormat::Auto, {}), sample);
}

TEST_F(TraceConversion, GeneratedAndRandomTracesRoundTrip) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    RandomPatternOptions o;
    o.ranks = 8 + 9 * static_cast<int>(seed);
    o.degree = 1 + static_cast<int>(seed % 4);
    o.bytes = 1000 * seed;
    o.maxBytes = seed % 2 ? 1 << 20 : 0;
    o.seed = seed;
    std::istringstream in(generateRandomTrace(o));
    expectRoundTrips(parseTrace(in, "random"), "random seed " + std::to_string(seed));
  }
  StencilOptions stencil;
  stencil.dims = {4, 3, 2};
  stencil.style = ExchangeStyle::Sendrecv;
  std::istringstream s(generateStencilTrace(stencil));
  expectRoundTrips(parseTrace(s, "stencil"), "stencil sendrecv");
  AlltoallOptions alltoall;
  alltoall.ranks = 12;
  alltoall.group = 4;
  alltoall.style = ExchangeStyle::Isend;
  std::istringstream a(generateAlltoallTrace(alltoall));
  expectRoundTrips(parseTrace(a, "alltoall"), "alltoall isend");
}

TEST_F(TraceConversion, EveryEventAndCollectiveRoundTrips) {
  expectRoundTrips(traceFromText(kEverything), "every event");
}

TEST_F(TraceConversion, NativeWriterGivesBackTheSameEvents) {
  // The parsed structures, field by field: collectives stay collectives (root, communicator),
  // local work stays, requests keep their names.
  const Trace original = traceFromText(kEverything);
  const Trace back = writeAndRead(original, TraceFormat::Native);
  EXPECT_EQ(back.comms, original.comms);
  ASSERT_EQ(back.ranks, original.ranks);
  for (int rank = 0; rank < original.ranks; ++rank) {
    ASSERT_EQ(back.events[rank].size(), original.events[rank].size()) << "rank " << rank;
    for (std::size_t i = 0; i < original.events[rank].size(); ++i) {
      const Event &a = back.events[rank][i], &e = original.events[rank][i];
      const std::string where = "rank " + std::to_string(rank) + " event " + std::to_string(i);
      EXPECT_EQ(a.kind, e.kind) << where;
      EXPECT_EQ(a.peer, e.peer) << where;
      EXPECT_EQ(a.peer2, e.peer2) << where;
      EXPECT_EQ(a.bytes, e.bytes) << where;
      EXPECT_EQ(a.bytes2, e.bytes2) << where;
      EXPECT_EQ(a.seconds, e.seconds) << where;
      EXPECT_EQ(a.tag, e.tag) << where;
      EXPECT_EQ(back.requestOf(a), original.requestOf(e)) << where;
      EXPECT_EQ(a.op, e.op) << where;
      EXPECT_EQ(a.root, e.root) << where;
      EXPECT_EQ(back.commOf(a), original.commOf(e)) << where;
    }
  }
}

TEST_F(TraceConversion, DumpiKeepsCollectivesAndCommunicators) {
  // DUMPI has every collective of the native format: they are written as calls (not steps),
  // on communicators made by MPI_Comm_split, and read back as the same collectives.
  const Trace original = traceFromText(kEverything);
  const Trace back = writeAndRead(original, TraceFormat::Dumpi);
  ASSERT_EQ(back.comms.size(), 2u);
  std::vector<std::vector<int>> members;
  for (const auto& [id, ranks] : back.comms) members.push_back(ranks);
  std::vector<std::vector<int>> expected;
  for (const auto& [id, ranks] : original.comms) expected.push_back(ranks);
  EXPECT_EQ(members, expected);  // in id order, members in communicator-rank order
  for (int rank = 0; rank < original.ranks; ++rank) {
    std::vector<std::string> collectives, want;
    for (const Event& e : back.events[rank])
      if (e.kind == EventKind::Collective)
        collectives.push_back(std::string(collectiveName(e.op)) + " " + std::to_string(e.bytes) +
                              " " + std::to_string(e.root) + (e.comm == 0 ? "" : " c"));
    for (const Event& e : original.events[rank])
      if (e.kind == EventKind::Collective)
        want.push_back(std::string(collectiveName(e.op)) + " " + std::to_string(e.bytes) + " " +
                       std::to_string(e.root) + (e.comm == 0 ? "" : " c"));
    EXPECT_EQ(collectives, want) << "rank " << rank;
  }
}

TEST_F(TraceConversion, OnlyTheVariableCollectivesBecomeSteps) {
  // SimGrid TI's gatherv, scatterv, allgatherv and alltoallv have no native or DUMPI form:
  // written as their steps (DUMPI: tags renumbered into its ints); scan, exscan and bcast stay.
  const Trace ti = readAnyTrace(sourcePath("tests/fuzz/corpus/simgrid_ti/v-collectives.ti"),
                                TraceFormat::Auto, {});
  for (TraceFormat format : {TraceFormat::Native, TraceFormat::Dumpi}) {
    const Trace back = writeAndRead(ti, format);
    for (int rank = 0; rank < back.ranks; ++rank) {
      std::vector<std::string> collectives;
      int steps = 0;
      for (const Event& e : back.events[rank]) {
        if (e.kind == EventKind::Collective) collectives.push_back(collectiveName(e.op));
        if (e.kind != EventKind::Collective && e.kind != EventKind::Barrier) {
          ++steps;
          if (format == TraceFormat::Dumpi) {
            EXPECT_GE(e.tag, 0);
          }
        }
      }
      EXPECT_EQ(collectives, (std::vector<std::string>{"scan", "exscan", "bcast"}))
          << traceFormatName(format) << " rank " << rank;
      EXPECT_GT(steps, 0) << traceFormatName(format) << " rank " << rank;
    }
  }
}

TEST_F(TraceConversion, DumpiTextIsWhatDumpi2asciiPrints) {
  // dumpi2ascii's layout (dumpi/bin/dumpi2ascii-callbacks.c): a call block per call, the
  // arguments in its order and spelling, arrays as name[n]=[a, b], the parent of a split as
  // oldcomm; one file per rank named <prefix>-<rank>.txt beside the index.
  const Trace trace = traceFromText(
      "tac3map-trace 1\nranks 2\n0 comm pair 1 0\n"
      "0 isend 1 3000000000 4 a\n0 waitall\n1 recv 0 3000000000 4\n"
      "0 bcast 10 root=1 comm=pair\n1 bcast 10 root=1 comm=pair\n");
  const fs::path index = dir_ / "run";
  writeDumpi(trace, index.string());
  EXPECT_EQ(read(index), "run-0000.txt\nrun-0001.txt\n");
  const std::string rank0 = read(dir_ / "run-0000.txt");
  EXPECT_EQ(rank0.substr(0, rank0.find('\n')),
            "MPI_Init entering at walltime 1.000000000, cputime 1.000000000 seconds in thread 0.");
  for (const char* block :
       {"MPI_Comm_split entering at walltime 1.000003000, cputime 1.000003000 seconds in thread "
        "0.\nMPI_Comm oldcomm=2 (MPI_COMM_WORLD)\nint color=0\nint key=1\nMPI_Comm newcomm=4 "
        "(user-defined-comm)\nMPI_Comm_split returning at walltime 1.000003500",
        "\nMPI_Isend entering at walltime 1.000004000, cputime 1.000004000 seconds in thread "
        "0.\nint count=375000000\nMPI_Datatype datatype=14 (MPI_DOUBLE)\nint dest=1\nint tag=4\n"
        "MPI_Comm comm=2 (MPI_COMM_WORLD)\nMPI_Request request=[2]\nMPI_Isend returning",
        "\nint count=1\nMPI_Request requests[1]=[2]\nMPI_Status statuses[1]=<IGNORED>\n",
        "\nMPI_Bcast entering at walltime 1.000006000, cputime 1.000006000 seconds in thread 0.\n"
        "int count=10\nMPI_Datatype datatype=5 (MPI_BYTE)\nint root=1\nMPI_Comm comm=4 "
        "(user-defined-comm)\nMPI_Bcast returning"})
    EXPECT_NE(rank0.find(block), std::string::npos) << block << "\n---\n" << rank0;
  // The folder alone reads as the same DUMPI trace as the index.
  expectSameCcs(readAnyTrace(index.string(), TraceFormat::Auto, {}),
                readAnyTrace(dir_.string(), TraceFormat::Auto, {}), "folder");
}

TEST_F(TraceConversion, DumpiReaderTakesDumpi2asciiArraysAndOldcomm) {
  // The forms dumpi2ascii prints (and the older samples' forms still read).
  const std::string text =
      "MPI_Comm_split entering at walltime 1.0, cputime 1.0 seconds in thread 0.\n"
      "MPI_Comm oldcomm=2 (MPI_COMM_WORLD)\nint color=0\nint key=0\nMPI_Comm newcomm=4 "
      "(user-defined-comm)\nMPI_Comm_split returning at walltime 1.1, cputime 1.1 seconds in "
      "thread 0.\n"
      "MPI_Irecv entering at walltime 2.0, cputime 2.0 seconds in thread 0.\nint count=8\n"
      "MPI_Datatype datatype=5 (MPI_BYTE)\nint source=0\nint tag=1\nMPI_Comm comm=4 "
      "(user-defined-comm)\nMPI_Request request=[7]\nMPI_Irecv returning at walltime 2.1, "
      "cputime 2.1 seconds in thread 0.\n"
      "MPI_Waitall entering at walltime 3.0, cputime 3.0 seconds in thread 0.\nint count=1\n"
      "MPI_Request requests[1]=[7]\nMPI_Status statuses[1]=[{bytes=8, cancelled=0, source=0, "
      "tag=1, error=0}]\nMPI_Waitall returning at walltime 3.1, cputime 3.1 seconds in thread "
      "0.\n"
      "MPI_Reduce_scatter entering at walltime 4.0, cputime 4.0 seconds in thread 0.\n"
      "int commsize=1\nint recvcounts[1]=[3]\nMPI_Datatype datatype=14 (MPI_DOUBLE)\n"
      "MPI_Op op=3 (MPI_SUM)\nMPI_Comm comm=4 (user-defined-comm)\nMPI_Reduce_scatter "
      "returning at walltime 4.1, cputime 4.1 seconds in thread 0.\n";
  const fs::path file = dir_ / "rank0.txt";
  std::ofstream(file) << text;
  TraceOptions options;
  options.allowEmpty = true;  // one rank: no message between two ranks
  const Trace trace = readAnyTrace(file.string(), TraceFormat::Dumpi, options);
  ASSERT_EQ(trace.events[0].size(), 3u);
  EXPECT_EQ(trace.events[0][0].kind, EventKind::Irecv);
  EXPECT_EQ(trace.events[0][1].kind, EventKind::Wait);
  EXPECT_EQ(trace.requestOf(trace.events[0][1]), trace.requestOf(trace.events[0][0]));
  EXPECT_EQ(trace.events[0][2].kind, EventKind::Collective);
  EXPECT_EQ(trace.events[0][2].op, CollectiveOp::ReduceScatter);
  EXPECT_EQ(trace.events[0][2].bytes, 24u);
  EXPECT_EQ(trace.commOf(trace.events[0][2]), "split0");
  EXPECT_EQ(trace.comms.at("split0"), std::vector<int>{0});
}

TEST_F(TraceConversion, WhatDumpiCannotHoldIsAnErrorNamingTheLine) {
  const Trace bigTag =
      traceFromText("tac3map-trace 1\nranks 2\n0 send 1 8 3000000000\n1 recv 0 8 3000000000\n");
  const Trace oddSize =
      traceFromText("tac3map-trace 1\nranks 2\n0 send 1 3000000001\n1 recv 0 3000000001\n");
  const Trace undeclared = traceFromText(
      "tac3map-trace 1\nranks 2\n0 send 1 8\n1 recv 0 8\n0 bcast 8 comm=c\n1 bcast 8 comm=c\n");
  const Trace outsider = traceFromText(
      "tac3map-trace 1\nranks 3\n0 comm c 0 1\n0 send 1 8\n1 recv 0 8\n2 bcast 8 comm=c\n");
  for (const auto& [trace, message] :
       {std::pair{&bigTag, "test.trace:3: tag 3000000000: DUMPI tags are ints 0..2147483647"},
        std::pair{&oddSize, "test.trace:3: message of 3000000001 bytes: DUMPI counts are ints"},
        std::pair{&undeclared, "test.trace:5: communicator c is not declared"},
        std::pair{&outsider, "test.trace:6: rank 2 is not in communicator c"}}) {
    try {
      writeDumpi(*trace, (dir_ / "bad").string());
      ADD_FAILURE() << "expected InputError: " << message;
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()).rfind(message, 0), 0u) << e.what();
    }
    EXPECT_TRUE(fs::is_empty(dir_)) << "a failed write leaves no file";
  }
}

}  // namespace
}  // namespace tac3map
