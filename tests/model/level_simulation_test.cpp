// The level simulation (src/model/level_simulation.hpp) with matching found as the ranks
// post: on traces without wildcards it gives the static matching's levels exactly; on traces
// with them, the matching it finds is one MPI allows (the trace with each wildcard replaced by
// its match gives the same pairs and levels by the static path), and hand cases show which.
#include "level_simulation.hpp"

#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <tuple>

#include "random_program.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/model/ccs.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

using testing::traceFromText;

// send line -> (receive line, level), for every communication.
using Pairs = std::map<std::size_t, std::pair<std::size_t, int>>;

Pairs pairsOf(const std::vector<Communication>& comms) {
  Pairs pairs;
  for (const Communication& c : comms) pairs[c.sendLine] = {c.recvLine, c.level};
  return pairs;
}
Pairs pairsOf(const CcsSet& sets) {
  Pairs pairs;
  for (const auto& set : sets.sets)
    for (const Communication& c : set) pairs[c.sendLine] = {c.recvLine, c.level};
  return pairs;
}

Pairs dynamicPairs(const Trace& trace, std::uint64_t eagerLimit,
                   std::vector<std::vector<levels::Posted>>* posted = nullptr) {
  std::vector<Communication> comms;
  levels::runLevelsMatching(
      trace, comms, [eagerLimit](std::uint64_t bytes) { return bytes < eagerLimit; }, posted);
  return pairsOf(comms);
}

TEST(LevelSimulation, MatchingAsRanksPostGivesTheStaticLevels) {
  Rng rng(7);
  for (int program = 0; program < 200; ++program) {
    const int ranks = 2 + static_cast<int>(rng.below(8));
    const std::uint64_t limit = rng.below(3) == 0 ? 1500 : 0;
    const std::string text = testing::randomProgram(ranks, 1 + static_cast<int>(rng.below(6)), rng);
    const Trace trace = traceFromText(text);
    ASSERT_FALSE(levels::hasWildcards(trace));
    CcsOptions options;
    options.eagerLimit = limit;
    ASSERT_EQ(dynamicPairs(trace, limit), pairsOf(extractCcs(trace, options))) << text;
  }
}

// The program with some receives' sources and tags made wildcards.
std::string withWildcards(const std::string& text, Rng& rng) {
  std::istringstream in(text);
  std::ostringstream out;
  static const std::regex receive("^(\\d+) (recv|irecv) (\\d+) (\\d+) (\\d+)(.*)$");
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_match(line, m, receive) && rng.below(2) == 0) {
      const std::string source = rng.below(3) != 0 ? "any" : m[3].str();
      const std::string tag = rng.below(3) == 0 ? "any" : m[5].str();
      line = m[1].str() + " " + m[2].str() + " " + source + " " + m[4].str() + " " + tag +
             m[6].str();
    }
    out << line << "\n";
  }
  return out.str();
}

TEST(LevelSimulation, WildcardsTakeMatchesMpiAllows) {
  Rng rng(8);
  int resolved = 0, programs = 0;
  for (; programs < 300; ++programs) {
    const int ranks = 2 + static_cast<int>(rng.below(8));
    const std::uint64_t limit = rng.below(3) == 0 ? 1500 : 0;
    const std::string text =
        withWildcards(testing::randomProgram(ranks, 1 + static_cast<int>(rng.below(6)), rng), rng);
    Trace trace = traceFromText(text);
    std::vector<std::vector<levels::Posted>> posted;
    std::vector<Communication> comms;
    try {
      levels::runLevelsMatching(
          trace, comms, [limit](std::uint64_t bytes) { return bytes < limit; }, &posted);
    } catch (const InputError&) {
      continue;  // a race MPI could lose too: a wildcard took a message meant for a later receive
    }
    ++resolved;
    // Each wildcard replaced by what it took: the static path pairs the same sides, at the
    // same levels.
    for (int r = 0; r < trace.ranks; ++r)
      for (std::size_t i = 0; i < trace.events[r].size(); ++i) {
        Event& e = trace.events[r][i];
        if (e.kind != EventKind::Recv && e.kind != EventKind::Irecv) continue;
        const Communication& c = comms[posted[r][i].recv];
        e.peer = c.src;
        e.tag = c.tag;
      }
    ASSERT_FALSE(levels::hasWildcards(trace));
    CcsOptions options;
    options.eagerLimit = limit;
    ASSERT_EQ(pairsOf(comms), pairsOf(extractCcs(trace, options))) << text;
  }
  // Most programs have no race: the test checks something.
  EXPECT_GT(resolved, programs / 2);
}

TEST(LevelSimulation, AWildcardTakesTheMessageThatComesFirst) {
  // Rank 3 sends only after a message from rank 1 reaches it: rank 0's first wildcard takes
  // rank 2's message (level 0), its second rank 3's (level 1).
  const Trace trace = traceFromText(
      "tac3map-trace 1\nranks 4\n"
      "1 send 3 8\n3 recv 1 8\n3 send 0 100 5\n"
      "2 send 0 100 5\n"
      "0 recv any 100 5\n0 recv any 100 any\n");
  const CcsSet sets = extractCcs(trace);
  ASSERT_EQ(sets.sets.size(), 2u);
  std::map<int, int> senderLevel;
  for (const auto& set : sets.sets)
    for (const Communication& c : set)
      if (c.dst == 0) senderLevel[c.src] = c.level;
  EXPECT_EQ(senderLevel, (std::map<int, int>{{2, 0}, {3, 1}}));
}

TEST(LevelSimulation, MessagesOfOneSenderAreNotOvertaken) {
  // Rank 1 sends tags 1 then 2: the receive of tag 2 takes the second, the wildcard after it
  // the first.
  const CcsSet sets = extractCcs(traceFromText(
      "tac3map-trace 1\nranks 2\n1 isend 0 10 1 a\n1 isend 0 20 2 b\n1 waitall\n"
      "0 recv 1 20 2\n0 recv any 10 any\n"));
  std::map<std::int64_t, std::size_t> recvLineOfTag;
  for (const auto& set : sets.sets)
    for (const Communication& c : set) recvLineOfTag[c.tag] = c.recvLine;
  EXPECT_EQ(recvLineOfTag, (std::map<std::int64_t, std::size_t>{{1, 7}, {2, 6}}));
}

TEST(LevelSimulation, AWildcardReceiveNoRankSendsToIsNamed) {
  try {
    extractCcs(traceFromText("tac3map-trace 1\nranks 2\n0 send 1 8\n1 recv 0 8\n"
                             "1 recv any 8 3\n"));
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "test.trace:5: rank 1 receives from any rank (tag 3) but no rank sends it a "
                 "message that matches");
  }
}

TEST(LevelSimulation, WaitanyCompletesTheRequestMatchedFirst) {
  // Rank 0 waits for any of two receives: rank 2's message comes at once (level 0), rank 1's
  // only after rank 1 heard from rank 2 (level 2). The first waitany takes rank 2's, so rank
  // 0's send after it is at level 2 (rank 2 posts its receive then), not 3; the one after the
  // second waitany at 3.
  const CcsSet sets = extractCcs(traceFromText(
      "tac3map-trace 1\nranks 3\n"
      "0 irecv 1 8 0 a\n0 irecv 2 8 0 b\n0 waitany\n0 send 2 4 1\n0 waitany\n0 send 1 4 1\n"
      "1 recv 2 8 9\n1 send 0 8 0\n1 recv 0 4 1\n"
      "2 send 0 8 0\n2 send 1 8 9\n2 recv 0 4 1\n"));
  std::map<std::pair<int, int>, int> level;
  for (const auto& set : sets.sets)
    for (const Communication& c : set) level[{c.src, c.dst}] = c.level;
  EXPECT_EQ(level, (std::map<std::pair<int, int>, int>{
                       {{2, 0}, 0}, {{2, 1}, 1}, {{1, 0}, 2}, {{0, 2}, 2}, {{0, 1}, 3}}));
}

}  // namespace
}  // namespace tac3map
