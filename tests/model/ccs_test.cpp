#include "tac3map/model/ccs.hpp"

#include <gtest/gtest.h>

#include <set>

#include "tac3map/gen/cg_pattern.hpp"
#include "tac3map/io/error.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

using testing::traceFromText;

std::string errorOf(const std::string& text, CcsOptions options = {}) {
  try {
    extractCcs(traceFromText(text), options);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// The paper's condition: within a CCS all sources differ and all destinations differ.
void expectDistinctEnds(const CcsSet& sets) {
  for (const auto& set : sets.sets) {
    std::set<int> sources, destinations;
    for (const Communication& c : set) {
      EXPECT_TRUE(sources.insert(c.src).second) << "source " << c.src << " twice";
      EXPECT_TRUE(destinations.insert(c.dst).second) << "destination " << c.dst << " twice";
    }
  }
}

using Pairs = std::vector<std::vector<std::pair<int, int>>>;
Pairs pairsOf(const CcsSet& sets) {
  Pairs pairs;
  for (const auto& set : sets.sets) {
    pairs.emplace_back();
    for (const Communication& c : set) pairs.back().emplace_back(c.src, c.dst);
    std::sort(pairs.back().begin(), pairs.back().end());
  }
  return pairs;
}

TEST(Ccs, CgGivesFourSetsInEveryVariant) {
  for (int ranks : {32, 64}) {
    Pairs reference;
    for (CgVariant v :
         {CgVariant::Sendrecv, CgVariant::IrecvIsendWaitall, CgVariant::IrecvSendWait}) {
      CgOptions o;
      o.ranks = ranks;
      o.variant = v;
      o.iterations = 2;
      const CcsSet sets = extractCcs(traceFromText(generateCgTrace(o)));
      ASSERT_EQ(sets.sets.size(), 4u) << ranks << " " << cgVariantName(v);
      EXPECT_EQ(sets.communicationCount(), 4u * ranks);
      expectDistinctEnds(sets);
      for (std::size_t t = 0; t < 4; ++t)
        for (const Communication& c : sets.sets[t]) EXPECT_EQ(c.level, static_cast<int>(t));
      if (reference.empty()) reference = pairsOf(sets);
      EXPECT_EQ(pairsOf(sets), reference) << "variants disagree";
    }
  }
}

TEST(Ccs, CgSetsHaveTheExpectedPartners) {
  CgOptions o;
  o.ranks = 64;
  const CcsSet sets = extractCcs(traceFromText(generateCgTrace(o)));
  const CgGrid grid = cgGrid(64);
  for (int step = 0; step < 3; ++step)
    for (const Communication& c : sets.sets[step])
      EXPECT_EQ(c.dst, cgRowPartner(grid, c.src, step));
  for (const Communication& c : sets.sets[3]) EXPECT_EQ(c.dst, cgTransposePartner(grid, c.src));
}

TEST(Ccs, SendRecvPairIsOneSetAndLevelsFollowBlocking) {
  // 0 and 1 exchange (irecv/send/wait), then 0 sends to 2: the second is a level later.
  const CcsSet sets =
      extractCcs(traceFromText("tac3map-trace 1\nranks 3\n"
                               "0 irecv 1 10 0 r\n0 send 1 10\n0 wait r\n0 send 2 20\n"
                               "1 irecv 0 10 0 r\n1 send 0 10\n1 wait r\n"
                               "2 recv 0 20\n"));
  ASSERT_EQ(sets.sets.size(), 2u);
  EXPECT_EQ(sets.sets[0].size(), 2u);
  ASSERT_EQ(sets.sets[1].size(), 1u);
  EXPECT_EQ(sets.sets[1][0].dst, 2);
  EXPECT_EQ(sets.sets[1][0].level, 1);
}

TEST(Ccs, GreedySplitSeparatesSharedEndpoints) {
  // Rank 0 posts two isends at once: same level, same source, so two CCSs.
  const CcsSet sets = extractCcs(
      traceFromText("tac3map-trace 1\nranks 3\n"
                    "0 isend 1 5 0 a\n0 isend 2 6 0 b\n0 waitall\n1 recv 0 5\n2 recv 0 6\n"));
  ASSERT_EQ(sets.sets.size(), 2u);
  EXPECT_EQ(sets.sets[0][0].dst, 1);
  EXPECT_EQ(sets.sets[1][0].dst, 2);
  EXPECT_EQ(sets.sets[1][0].level, 0);
}

TEST(Ccs, BarrierOrdersEverythingAfterIt) {
  const CcsSet sets =
      extractCcs(traceFromText("tac3map-trace 1\nranks 4\n"
                               "0 send 1 5\n1 recv 0 5\n"
                               "0 barrier\n1 barrier\n2 barrier\n3 barrier\n"
                               "2 send 3 5\n3 recv 2 5\n"));
  ASSERT_EQ(sets.sets.size(), 2u);
  EXPECT_EQ(sets.sets[1][0].src, 2);
  EXPECT_EQ(sets.sets[1][0].level, 1);
  // Without the barrier the two messages are independent: one CCS.
  EXPECT_EQ(extractCcs(traceFromText("tac3map-trace 1\nranks 4\n0 send 1 5\n1 recv 0 5\n"
                                     "2 send 3 5\n3 recv 2 5\n"))
                .sets.size(),
            1u);
}

TEST(Ccs, MessagesMatchInOrderPerTag) {
  const CcsSet sets =
      extractCcs(traceFromText("tac3map-trace 1\nranks 2\n"
                               "0 isend 1 100 1 a\n0 isend 1 200 2 b\n0 waitall\n"
                               "1 recv 0 200 2\n1 recv 0 100 1\n"));
  // Tag 2 is received first; tag 1 waits for it, so it lands on the next level.
  ASSERT_EQ(sets.sets.size(), 2u);
  EXPECT_EQ(sets.sets[0][0].bytes, 200u);
  EXPECT_EQ(sets.sets[1][0].bytes, 100u);
}

TEST(Ccs, RendezvousDeadlockIsReported) {
  const std::string text =
      "tac3map-trace 1\nranks 2\n0 send 1 5\n0 recv 1 5\n1 send 0 5\n1 recv 0 5\n";
  EXPECT_EQ(errorOf(text),
            "test.trace:3: deadlock: rank 0 blocks forever in 'send 1 5 0' (waits for rank 1, "
            "line 6)");
  // With eager sends the same program completes.
  CcsOptions eager;
  eager.eagerSends = true;
  EXPECT_EQ(errorOf(text, eager), "");
}

TEST(Ccs, MissingBarrierIsADeadlock) {
  EXPECT_NE(errorOf("tac3map-trace 1\nranks 2\n0 barrier\n").find("test.trace:3: deadlock: rank 0"),
            std::string::npos);
}

TEST(Ccs, UnmatchedSidesAreErrors) {
  EXPECT_EQ(errorOf("tac3map-trace 1\nranks 2\n0 send 1 5\n"),
            "test.trace:3: rank 0 sends to rank 1 (tag 0) but rank 1 has no matching receive");
  EXPECT_EQ(errorOf("tac3map-trace 1\nranks 2\n1 recv 0 5 4\n"),
            "test.trace:3: rank 1 receives from rank 0 (tag 4) but rank 0 has no matching send");
  EXPECT_NE(errorOf("tac3map-trace 1\nranks 2\n0 wait x\n")
                .find("test.trace:3: rank 0 waits for "
                      "request 'x'"),
            std::string::npos);
}

}  // namespace
}  // namespace tac3map
