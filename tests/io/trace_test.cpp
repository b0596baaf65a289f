#include "tac3map/io/trace.hpp"

#include <gtest/gtest.h>

#include <cstdint>

#include "tac3map/io/error.hpp"
#include "tac3map/io/integer_text.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

using testing::traceFromText;

std::string errorOf(const std::string& text, const TraceOptions& options = {}) {
  try {
    traceFromText(text, options);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Trace, ReadsEveryEventKind) {
  const Trace t = traceFromText(
      "tac3map-trace 1\n# comment\nranks 2\n"
      "0 send 1 100\n1 recv 0 100 7  # trailing comment\n"
      "0 isend 1 8 3 a\n0 irecv 1 8 3 b\n0 wait a\n0 waitall\n"
      "1 sendrecv 0 5 0 6 2\n1 barrier\n");
  ASSERT_EQ(t.ranks, 2);
  ASSERT_EQ(t.events[0].size(), 5u);
  ASSERT_EQ(t.events[1].size(), 3u);
  EXPECT_EQ(t.events[0][0].kind, EventKind::Send);
  EXPECT_EQ(t.events[0][0].tag, 0);
  EXPECT_EQ(t.events[0][0].line, 4u);
  EXPECT_EQ(t.events[1][0].tag, 7);
  EXPECT_EQ(t.requestOf(t.events[0][1]), "a");
  EXPECT_EQ(t.events[1][1].kind, EventKind::Sendrecv);
  EXPECT_EQ(t.events[1][1].peer2, 0);
  EXPECT_EQ(t.events[1][1].bytes2, 6u);
  EXPECT_EQ(t.events[1][2].kind, EventKind::Barrier);
}

TEST(Trace, IterationMarkersSelectOneIteration) {
  const std::string text =
      "tac3map-trace 1\nranks 2\n"
      "0 send 1 1\n1 recv 0 1\n"  // set-up before the first marker
      "0 iteration\n1 iteration\n0 send 1 2\n1 recv 0 2\n"
      "0 iteration\n1 iteration\n0 send 1 3\n1 recv 0 3\n0 send 1 3\n1 recv 0 3\n";
  const Trace first = traceFromText(text);
  ASSERT_EQ(first.events[0].size(), 1u);
  EXPECT_EQ(first.events[0][0].bytes, 2u);
  const Trace second = traceFromText(text, {2, false, {}});
  ASSERT_EQ(second.events[0].size(), 2u);
  EXPECT_EQ(second.events[0][0].bytes, 3u);
  EXPECT_NE(errorOf(text, {3, false, {}}).find("iteration 3 needs one more"), std::string::npos);
}

TEST(Trace, ErrorsNameFileAndLine) {
  EXPECT_EQ(errorOf("tac3map-trace 1\nranks 4\n0 send 9 10\n"),
            "test.trace:3: destination rank 9 is outside 0..3 (ranks 4)");
  EXPECT_EQ(errorOf("tac3map-trace 1\nranks 4\n7 barrier\n"),
            "test.trace:3: rank 7 is outside 0..3 (ranks 4)");
  EXPECT_EQ(errorOf("tac3map-trace 1\nranks 4\n\n0 send 1 lots\n"),
            "test.trace:4: expected a byte count, got 'lots'");
  EXPECT_EQ(
      errorOf("tac3map-trace 1\nranks 4\n0 fly 1\n").rfind("test.trace:3: unknown event 'fly'", 0),
      0u);
  EXPECT_EQ(
      errorOf("tac3map-trace 1\nranks 4\n0 isend 1 10\n").rfind("test.trace:3: 'isend' takes", 0),
      0u);
  EXPECT_EQ(errorOf("hello\n"), "test.trace:1: expected the header 'tac3map-trace 1'");
  EXPECT_EQ(errorOf("tac3map-trace 1\n0 send 1 1\n"),
            "test.trace:2: expected 'ranks <count>' before the first event");
  EXPECT_EQ(errorOf(""), "test.trace: empty trace (expected the header 'tac3map-trace 1')");
}

// Issue 14, item 3: sizes are checked 64-bit numbers below 2^62, never wrapped or saturated.
TEST(Trace, ByteCountsAreCheckedNumbers) {
  EXPECT_EQ(errorOf("tac3map-trace 1\nranks 2\n0 send 1 -1\n"),
            "test.trace:3: byte count -1 is negative");
  EXPECT_EQ(errorOf("tac3map-trace 1\nranks 2\n0 send 1 4611686018427387904\n"),
            "test.trace:3: message of 4611686018427387904 bytes is larger than the largest "
            "supported (2^62)");
  EXPECT_EQ(errorOf("tac3map-trace 1\nranks 2\n0 bcast 99999999999999999999999\n"),
            "test.trace:3: message of 99999999999999999999999 bytes is larger than the largest "
            "supported (2^62)");
  EXPECT_EQ(errorOf("tac3map-trace 1\nranks 2\n0 sendrecv 1 8 1 9223372036854775808\n"),
            "test.trace:3: message of 9223372036854775808 bytes is larger than the largest "
            "supported (2^62)");
  EXPECT_EQ(errorOf("tac3map-trace 1\nranks 2\n0 copy -5\n"),
            "test.trace:3: byte count -5 is negative");
  const Trace t = traceFromText("tac3map-trace 1\nranks 2\n0 send 1 4611686018427387903\n");
  EXPECT_EQ(t.events[0][0].bytes, (std::uint64_t{1} << 62) - 1);
}

// Issue 14, item 8: a trace saved with CRLF line ends reads as with LF.
TEST(Trace, CrlfLineEndsReadAsLf) {
  const std::string text =
      "tac3map-trace 1\n# ring\nranks 2\n0 isend 1 8 3 a\n0 wait a\n1 recv 0 8 3\n"
      "0 bcast 16 root=1 comm=w\n";
  std::string crlf;
  for (char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  const Trace lf = traceFromText(text), cr = traceFromText(crlf);
  ASSERT_EQ(cr.events[0].size(), lf.events[0].size());
  EXPECT_EQ(cr.requestOf(cr.events[0][0]), "a");
  EXPECT_EQ(cr.commOf(cr.events[0][2]), "w");
  EXPECT_EQ(cr.events[0][2].root, 1);
  EXPECT_EQ(cr.events[1][0].tag, 3);
}

}  // namespace
}  // namespace tac3map

// integer_text.hpp: the one integer reader every trace, mapping and node-table reader uses.
namespace tac3map {
namespace {

TEST(WholeInteger, ReadsAWholeWordWithinTheTypesRangeOnly) {
  EXPECT_EQ(wholeInteger<int>("42"), 42);
  EXPECT_EQ(wholeInteger<int>("-7"), -7);
  EXPECT_EQ(wholeInteger<long long>("9223372036854775807"), 9223372036854775807LL);
  for (const char* bad : {"", "+1", " 1", "1 ", "1x", "0x10", "1.0", "-"})
    EXPECT_FALSE(wholeInteger<int>(bad)) << "'" << bad << "'";
  EXPECT_FALSE(wholeInteger<int>("2147483648"));  // one past INT_MAX: no wrap
  EXPECT_FALSE(wholeInteger<std::uint64_t>("-1"));
  EXPECT_EQ(wholeInteger<std::uint64_t>("18446744073709551615"), UINT64_MAX);
  EXPECT_FALSE(wholeInteger<std::uint64_t>("18446744073709551616"));
}

}  // namespace
}  // namespace tac3map
