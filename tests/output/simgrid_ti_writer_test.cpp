// A trace written as SimGrid time-independent actions and read back with tac3map's TI reader
// must give the same CCSs: on the shipped examples, generated stencils and CG, collectives.
#include "tac3map/output/simgrid_ti_writer.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <climits>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tac3map/gen/cg_pattern.hpp"
#include "tac3map/gen/patterns.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/io/trace_formats.hpp"
#include "tac3map/model/ccs.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

namespace fs = std::filesystem;
using testing::sourcePath;
using testing::traceFromText;

class TiWriter : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           (std::string("tac3map-ti-") + info->name() + "-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Writes `trace` as TI, reads it back with the TI reader.
  Trace roundTrip(const Trace& trace, const std::string& name = "out.ti") {
    const std::string index = (dir_ / name).string();
    writeSimgridTi(trace, index);
    EXPECT_EQ(detectTraceFormat(index), TraceFormat::SimgridTi);
    return readAnyTrace(index, TraceFormat::SimgridTi, {});
  }

  // CCSs compared communication by communication (source, destination, bytes; and the tag
  // unless collectives renumbered them).
  void expectSameCcs(const Trace& original, const std::string& what, bool compareTags = true) {
    const CcsSet expected = extractCcs(original);
    const CcsSet actual = extractCcs(roundTrip(original));
    ASSERT_EQ(actual.tasks, expected.tasks) << what;
    ASSERT_EQ(actual.sets.size(), expected.sets.size()) << what;
    ASSERT_GT(expected.communicationCount(), 0u) << what;
    for (std::size_t t = 0; t < expected.sets.size(); ++t) {
      ASSERT_EQ(actual.sets[t].size(), expected.sets[t].size()) << what << " CCS " << t;
      for (std::size_t c = 0; c < expected.sets[t].size(); ++c) {
        const Communication& a = actual.sets[t][c];
        const Communication& e = expected.sets[t][c];
        EXPECT_EQ(a.src, e.src) << what << " CCS " << t << " #" << c;
        EXPECT_EQ(a.dst, e.dst) << what << " CCS " << t << " #" << c;
        EXPECT_EQ(a.bytes, e.bytes) << what << " CCS " << t << " #" << c;
        EXPECT_EQ(a.level, e.level) << what << " CCS " << t << " #" << c;
        if (compareTags) {
          EXPECT_EQ(a.tag, e.tag) << what << " CCS " << t << " #" << c;
        }
      }
    }
  }

  std::string read(const std::string& name) {
    std::ifstream in(dir_ / name);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }

  fs::path dir_;
};

TEST_F(TiWriter, ExampleTracesKeepTheirCcs) {
  int count = 0;
  for (const auto& entry : fs::directory_iterator(sourcePath("examples"))) {
    if (entry.path().extension() != ".trace") continue;
    expectSameCcs(readTrace(entry.path().string()), entry.path().filename().string());
    ++count;
  }
  EXPECT_GE(count, 6);
}

TEST_F(TiWriter, GeneratedStencilsAndCgKeepTheirCcs) {
  for (ExchangeStyle style : {ExchangeStyle::Isend, ExchangeStyle::Sendrecv})
    for (bool periodic : {true, false})
      for (int points : {7, 27}) {
        StencilOptions o;
        o.dims = {4, 4, 4};
        o.points = points;
        o.periodic = periodic;
        o.style = style;
        o.bytes = 262144;
        std::istringstream in(generateStencilTrace(o));
        expectSameCcs(parseTrace(in, "stencil"),
                      "stencil " + std::to_string(points) + (periodic ? " periodic" : "") +
                          (style == ExchangeStyle::Isend ? " isend" : " sendrecv"));
      }
  for (CgVariant variant :
       {CgVariant::Sendrecv, CgVariant::IrecvIsendWaitall, CgVariant::IrecvSendWait})
    for (int ranks : {32, 64}) {
      CgOptions o;
      o.ranks = ranks;
      o.variant = variant;
      std::istringstream in(generateCgTrace(o));
      expectSameCcs(parseTrace(in, "cg"), std::string("cg ") + cgVariantName(variant));
    }
}

TEST_F(TiWriter, CollectivesAreWrittenAsTheirSteps) {
  // Expanded steps carry negative tags; SMPI's are non-negative ints, so they are renumbered
  // (compared without tags), and every written tag must be a valid SMPI tag.
  const Trace trace = readTrace(sourcePath("tests/data/ring.trace"));
  expectSameCcs(trace, "ring.trace", false);
  const Trace split = readTrace(sourcePath("tests/data/split.trace"));
  expectSameCcs(split, "split.trace", false);
  for (const std::string& actions : simgridTiActions(split)) {
    std::istringstream lines(actions);
    for (std::string line; std::getline(lines, line);) {
      std::istringstream words(line);
      std::string rank, action, peer;
      long long tag = 0;
      words >> rank >> action;
      if (action == "isend" || action == "irecv" || action == "send" || action == "recv") {
        words >> peer >> tag;
        EXPECT_GE(tag, 0) << line;
        EXPECT_LE(tag, INT_MAX) << line;
      }
    }
  }
}

TEST_F(TiWriter, ActionsSyntax) {
  const Trace trace = traceFromText(
      "tac3map-trace 1\nranks 2\n"
      "0 isend 1 100 5 a\n0 irecv 1 200 6 b\n0 wait b\n0 wait a\n"
      "1 irecv 0 100 5 x\n1 isend 0 200 6 y\n1 waitall\n"
      "0 sendrecv 1 300 1 400\n1 sendrecv 0 400 0 300\n"
      "0 sendrecv 1 7 1 8 3\n1 sendrecv 0 8 0 7 3\n"
      "0 compute 0.25\n1 copy 1000\n0 barrier\n1 barrier\n"
      "0 send 1 9 2\n1 recv 0 9 2\n");
  const std::vector<std::string> actions = simgridTiActions(trace);
  ASSERT_EQ(actions.size(), 2u);
  EXPECT_EQ(actions[0],
            "0 init\n0 isend 1 5 100\n0 irecv 1 6 200\n0 wait 1 0 6\n0 wait 0 1 5\n"
            "0 isend 1 0 300\n0 irecv 1 0 400\n0 wait 0 1 0\n0 wait 1 0 0\n"
            "0 isend 1 3 7\n0 irecv 1 3 8\n0 wait 0 1 3\n0 wait 1 0 3\n"
            "0 sleep 0.25\n0 barrier\n0 send 1 2 9\n0 finalize\n");
  EXPECT_EQ(actions[1],
            "1 init\n1 irecv 0 5 100\n1 isend 0 6 200\n1 waitall\n"
            "1 isend 0 0 400\n1 irecv 0 0 300\n1 wait 1 0 0\n1 wait 0 1 0\n"
            "1 isend 0 3 8\n1 irecv 0 3 7\n1 wait 1 0 3\n1 wait 0 1 3\n"
            "1 barrier\n1 recv 0 2 9\n1 finalize\n");
  const Trace back = roundTrip(trace);
  ASSERT_EQ(back.ranks, 2);
  const Event& compute = back.events[0][12];
  EXPECT_EQ(compute.kind, EventKind::Compute);
  EXPECT_EQ(compute.seconds, 0.25);
  // The tag-0 sendrecv comes back as its two halves (SimGrid 3.32 rejects the 4-word sendRecv).
  const Event& sendHalf = back.events[1][3];
  EXPECT_EQ(sendHalf.kind, EventKind::Isend);
  EXPECT_EQ(sendHalf.peer, 0);
  EXPECT_EQ(sendHalf.bytes, 400u);
  const Event& recvHalf = back.events[1][4];
  EXPECT_EQ(recvHalf.kind, EventKind::Irecv);
  EXPECT_EQ(recvHalf.bytes, 300u);
  for (const std::string& rank : actions) EXPECT_EQ(rank.find("sendRecv"), std::string::npos);
  // The index lists the rank files by name, beside it.
  EXPECT_EQ(read("out.ti"), "out.ti.rank0\nout.ti.rank1\n");
  EXPECT_EQ(read("out.ti.rank1"), actions[1]);
}

TEST_F(TiWriter, WaitOrderSmpiCannotReplayIsAnError) {
  // Two pending isends with the same destination and tag, the newer waited for first: SMPI's
  // replay would complete the older one.
  const Trace trace = traceFromText(
      "tac3map-trace 1\nranks 2\n"
      "0 isend 1 100 0 a\n0 isend 1 200 0 b\n0 wait b\n0 wait a\n"
      "1 recv 0 100\n1 recv 0 200\n");
  try {
    simgridTiActions(trace);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("test.trace:5:"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(dir_ / "bad.ti"));
  EXPECT_THROW(writeSimgridTi(trace, (dir_ / "bad.ti").string()), InputError);
  EXPECT_TRUE(fs::is_empty(dir_)) << "a failed write leaves no file";
}

}  // namespace
}  // namespace tac3map
