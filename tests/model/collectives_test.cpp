// Collectives as point-to-point steps: for every collective, algorithm and communicator size
// 1..9 and 16, the expanded trace matches completely and moves the data the collective must
// (followed CCS by CCS: a message carries what its sender knew when the CCS started), in the
// expected number of steps and bytes; sub-communicators and bad input.
#include "tac3map/model/collectives.hpp"

#include <gtest/gtest.h>

#include <set>

#include "tac3map/io/error.hpp"
#include "tac3map/model/ccs.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

struct Outcome {
  CcsSet sets;
  std::vector<std::set<int>> knows;  // per world rank: whose data it has at the end
  std::uint64_t bytes = 0;
};

// Every rank of `members` (all of `ranks` when empty) calls `call` (e.g. "allreduce 1000").
Outcome run(int ranks, const std::string& call, const std::string& algorithms,
            const std::vector<int>& members = {}) {
  std::string text = "tac3map-trace 1\nranks " + std::to_string(ranks) + "\n";
  std::string suffix;
  if (!members.empty()) {
    text += "0 comm c";
    for (int m : members) text += " " + std::to_string(m);
    text += "\n";
    suffix = " comm=c";
  }
  for (int r = 0; r < ranks; ++r)
    if (members.empty() || std::count(members.begin(), members.end(), r))
      text += std::to_string(r) + " " + call + suffix + "\n";
  CcsOptions options;
  options.collectives = parseCollectiveAlgorithms(algorithms);
  Outcome result;
  result.sets = extractCcs(testing::traceFromText(text), options);
  result.knows.resize(ranks);
  for (int r = 0; r < ranks; ++r) result.knows[r] = {r};
  for (const auto& ccs : result.sets.sets) {
    const auto before = result.knows;
    for (const Communication& c : ccs) {
      result.knows[c.dst].insert(before[c.src].begin(), before[c.src].end());
      result.bytes += c.bytes;
    }
  }
  return result;
}

int log2Ceil(int n) {
  int k = 0;
  while ((1 << k) < n) ++k;
  return k;
}

const std::vector<int> kSizes = {1, 2, 3, 4, 5, 6, 7, 8, 9, 16};

bool allKnowAll(const Outcome& r, int n) {
  for (int v = 0; v < n; ++v)
    if (static_cast<int>(r.knows[v].size()) != n) return false;
  return true;
}

TEST(Collectives, BcastAndScatterReachEveryRankFromAnyRoot) {
  for (int n : kSizes)
    for (int root : {0, n - 1, n / 2}) {
      SCOPED_TRACE("n " + std::to_string(n) + " root " + std::to_string(root));
      const std::string r = " root=" + std::to_string(root);
      const Outcome bcast = run(n, "bcast 100" + r, "");
      EXPECT_EQ(static_cast<int>(bcast.sets.sets.size()), log2Ceil(n));
      EXPECT_EQ(bcast.bytes, 100u * (n - 1));
      const Outcome scatter = run(n, "scatter 100" + r, "");
      EXPECT_EQ(scatter.sets.sets.size(), bcast.sets.sets.size());
      for (int v = 0; v < n; ++v) {
        EXPECT_TRUE(bcast.knows[v].count(root)) << v;
        EXPECT_TRUE(scatter.knows[v].count(root)) << v;
      }
      // Each rank's block leaves the root once and travels down the tree: sum of subtree sizes.
      EXPECT_GE(scatter.bytes, 100u * (n - 1));
    }
}

TEST(Collectives, ReduceAndGatherCollectEveryRankAtTheRoot) {
  for (int n : kSizes)
    for (int root : {0, n - 1}) {
      SCOPED_TRACE("n " + std::to_string(n) + " root " + std::to_string(root));
      const std::string r = " root=" + std::to_string(root);
      const Outcome reduce = run(n, "reduce 100" + r, "");
      const Outcome gather = run(n, "gather 100" + r, "");
      EXPECT_EQ(static_cast<int>(reduce.knows[root].size()), n);
      EXPECT_EQ(static_cast<int>(gather.knows[root].size()), n);
      EXPECT_EQ(reduce.bytes, 100u * (n - 1));
      EXPECT_EQ(static_cast<int>(reduce.sets.sets.size()), log2Ceil(n));
    }
}

TEST(Collectives, AllreduceAllgatherBarrierReduceScatterLeaveEveryoneWithEverything) {
  for (int n : kSizes) {
    SCOPED_TRACE("n " + std::to_string(n));
    const bool power = (n & (n - 1)) == 0;
    const Outcome rd = run(n, "allreduce 1000", "allreduce=recursive-doubling");
    EXPECT_TRUE(allKnowAll(rd, n));
    if (power) {
      EXPECT_EQ(static_cast<int>(rd.sets.sets.size()), log2Ceil(n));
    }
    const Outcome ring = run(n, "allreduce 1000", "allreduce=ring");
    EXPECT_TRUE(allKnowAll(ring, n));
    EXPECT_EQ(ring.bytes, n > 1 ? 2u * (n - 1) * 1000 : 0u);  // each step moves all chunks once
    for (const char* algorithm : {"ring", "recursive-doubling", "bruck", "shift-ring"}) {
      const Outcome gather = run(n, "allgather 10", std::string("allgather=") + algorithm);
      EXPECT_TRUE(allKnowAll(gather, n)) << algorithm;
      EXPECT_EQ(gather.bytes, 10u * n * (n - 1)) << algorithm;  // every block to every rank
    }
    EXPECT_EQ(run(n, "allgather 10", "").sets.sets.size(), static_cast<std::size_t>(n - 1));
    std::vector<int> all(n);
    for (int v = 0; v < n; ++v) all[v] = v;
    const Outcome barrier = run(n, "barrier", "", all);  // a barrier on a communicator: messages
    EXPECT_TRUE(allKnowAll(barrier, n));
    EXPECT_EQ(static_cast<int>(barrier.sets.sets.size()), log2Ceil(n));
    // Linear (SimGrid's default): everyone to rank 0, then rank 0 to everyone, n - 1 each.
    const Outcome linear = run(n, "barrier", "barrier=linear", all);
    EXPECT_TRUE(allKnowAll(linear, n));
    EXPECT_EQ(linear.sets.communicationCount(), 2u * (n - 1));
    EXPECT_EQ(linear.bytes, 0u);
    EXPECT_TRUE(allKnowAll(run(n, "reduce_scatter 10", ""), n));
  }
}

// The two rings of allgather block by block: every step is one CCS of n messages of one
// block; the neighbour ring's messages all go to v + 1 and carry the block the sender received
// at the previous step (its own first), the shift ring's step s goes to v + s and carries the
// sender's own block. Each message must bring its receiver a block it does not have yet, and
// after n - 1 steps every rank holds all n blocks.
TEST(Collectives, AllgatherRingsMoveOneNewBlockPerStep) {
  for (int n : kSizes)
    for (const bool shift : {false, true}) {
      SCOPED_TRACE("n " + std::to_string(n) + (shift ? " shift-ring" : " ring"));
      const Outcome r = run(n, "allgather 10", shift ? "allgather=shift-ring" : "allgather=ring");
      ASSERT_EQ(static_cast<int>(r.sets.sets.size()), n - 1);
      std::vector<std::set<int>> blocks(n);
      std::vector<int> last(n);  // the block each rank received at the previous step
      for (int v = 0; v < n; ++v) blocks[v] = {v}, last[v] = v;
      for (int step = 1; step < n; ++step) {
        const auto& ccs = r.sets.sets[step - 1];
        ASSERT_EQ(static_cast<int>(ccs.size()), n) << "step " << step;
        std::vector<int> received(n, -1);
        for (const Communication& c : ccs) {
          EXPECT_EQ(c.bytes, 10u);
          EXPECT_EQ(c.dst, (c.src + (shift ? step : 1)) % n)
              << "step " << step << " from " << c.src;
          const int block = shift ? c.src : last[c.src];
          EXPECT_FALSE(blocks[c.dst].count(block))
              << "step " << step << ": " << c.src << "->" << c.dst << " brings block " << block
              << " again";
          EXPECT_EQ(received[c.dst], -1) << "two messages into " << c.dst;
          received[c.dst] = block;
        }
        for (int v = 0; v < n; ++v) {
          ASSERT_NE(received[v], -1) << "rank " << v << " received nothing at step " << step;
          blocks[v].insert(received[v]);
          last[v] = received[v];
        }
      }
      for (int v = 0; v < n; ++v) EXPECT_EQ(static_cast<int>(blocks[v].size()), n) << v;
    }
}

TEST(Collectives, AlltoallSendsEachPairExactlyOnce) {
  for (int n : kSizes) {
    const Outcome r = run(n, "alltoall 7", "");
    std::multiset<std::pair<int, int>> pairs;
    for (const auto& ccs : r.sets.sets)
      for (const Communication& c : ccs) pairs.insert({c.src, c.dst});
    EXPECT_EQ(pairs.size(), static_cast<std::size_t>(n * (n - 1)));
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        if (i != j) {
          EXPECT_EQ(pairs.count({i, j}), 1u) << i << "->" << j;
        }
  }
}

// Every message of a call, whatever the sets, and the levels they were given.
std::vector<Communication> messagesOf(const Outcome& r) {
  std::vector<Communication> all;
  for (const auto& ccs : r.sets.sets) all.insert(all.end(), ccs.begin(), ccs.end());
  return all;
}

std::set<int> levelsOf(const std::vector<Communication>& messages) {
  std::set<int> levels;
  for (const Communication& c : messages) levels.insert(c.level);
  return levels;
}

// The linear algorithms (SimGrid's default selector) post every message of a call at once:
// one level; the root's n - 1 messages of one block each (bcast, scatter from it; reduce,
// gather to it), or one message between every ordered pair (allgather, alltoall).
TEST(Collectives, LinearAlgorithmsPostEveryMessageAtOnce) {
  for (int n : kSizes)
    for (int root : {0, n - 1}) {
      SCOPED_TRACE("n " + std::to_string(n) + " root " + std::to_string(root));
      const std::string r = " root=" + std::to_string(root);
      for (const char* op : {"bcast", "scatter", "reduce", "gather"}) {
        SCOPED_TRACE(op);
        const Outcome o = run(n, std::string(op) + " 100" + r, std::string(op) + "=linear");
        const std::vector<Communication> messages = messagesOf(o);
        ASSERT_EQ(static_cast<int>(messages.size()), n - 1);
        EXPECT_LE(levelsOf(messages).size(), 1u);
        const bool fromRoot = op[0] == 'b' || op[0] == 's';
        std::set<int> others;
        for (const Communication& c : messages) {
          EXPECT_EQ(c.bytes, 100u);
          EXPECT_EQ(fromRoot ? c.src : c.dst, root);
          others.insert(fromRoot ? c.dst : c.src);
        }
        EXPECT_EQ(static_cast<int>(others.size()), n - 1);
        EXPECT_FALSE(others.count(root));
      }
      for (const char* op : {"allgather", "alltoall"}) {
        SCOPED_TRACE(op);
        const Outcome o = run(n, std::string(op) + " 7", std::string(op) + "=linear");
        const std::vector<Communication> messages = messagesOf(o);
        EXPECT_LE(levelsOf(messages).size(), 1u);
        std::multiset<std::pair<int, int>> pairs;
        for (const Communication& c : messages) {
          EXPECT_EQ(c.bytes, 7u);
          pairs.insert({c.src, c.dst});
        }
        EXPECT_EQ(pairs.size(), static_cast<std::size_t>(n * (n - 1)));
        for (int i = 0; i < n; ++i)
          for (int j = 0; j < n; ++j)
            if (i != j) {
              EXPECT_EQ(pairs.count({i, j}), 1u) << i << "->" << j;
            }
        EXPECT_TRUE(allKnowAll(o, n));
      }
    }
}

// Alltoall by Bruck: log2 n exchanges; at distance d every rank sends the blocks whose index
// has bit d set, so every rank ends with everyone's data. Allreduce as a reduce to rank 0 and
// a bcast from it, each by its own chosen algorithm.
TEST(Collectives, BruckAlltoallAndReduceThenBcast) {
  for (int n : kSizes) {
    SCOPED_TRACE("n " + std::to_string(n));
    const Outcome bruck = run(n, "alltoall 7", "alltoall=bruck");
    EXPECT_EQ(static_cast<int>(bruck.sets.sets.size()), log2Ceil(n));
    EXPECT_TRUE(allKnowAll(bruck, n));
    std::uint64_t blocks = 0;
    for (int d = 1; d < n; d *= 2)
      for (int b = 1; b < n; ++b) blocks += (b & d) ? 1 : 0;
    EXPECT_EQ(bruck.bytes, 7u * blocks * n);
    for (const char* reduce : {"", ",reduce=linear"}) {
      const Outcome o = run(n, "allreduce 1000", std::string("allreduce=reduce-bcast") + reduce);
      EXPECT_TRUE(allKnowAll(o, n)) << reduce;
      EXPECT_EQ(o.bytes, 2u * 1000 * (n - 1)) << reduce;
      // The reduce ends at rank 0 before the bcast starts from it.
      int intoRoot = -1, fromRoot = 1 << 30;
      for (const Communication& c : messagesOf(o)) {
        if (c.dst == 0) intoRoot = std::max(intoRoot, c.level);
        if (c.src == 0) fromRoot = std::min(fromRoot, c.level);
      }
      if (n > 1) {
        EXPECT_LT(intoRoot, fromRoot) << reduce;
      }
    }
  }
}

// A linear call's requests are its own: a request the program keeps live across the call
// stays live, and its wait after the call matches.
TEST(Collectives, LinearCallsLeaveTheProgramsRequestsLive) {
  const std::string text =
      "tac3map-trace 1\nranks 3\n"
      "0 irecv 1 64 5 r\n1 isend 0 64 5 r\n"
      "0 alltoall 8\n1 alltoall 8\n2 alltoall 8\n"
      "0 bcast 8\n1 bcast 8\n2 bcast 8\n"
      "0 wait r\n1 wait r\n";
  CcsOptions options;
  options.collectives = parseCollectiveAlgorithms("alltoall=linear,bcast=linear");
  const CcsSet sets = extractCcs(testing::traceFromText(text), options);
  std::size_t messages = 0;
  for (const auto& ccs : sets.sets) messages += ccs.size();
  EXPECT_EQ(messages, 1u + 6 + 2);
}

TEST(Collectives, SubCommunicatorsUseTheirRanksAndTheirRankOrder) {
  // Communicator c = world ranks 5, 2, 7 (c-rank 0 is world 5); root=1 is world rank 2.
  const Outcome r = run(8, "bcast 64 root=1", "", {5, 2, 7});
  for (int v : {5, 2, 7}) EXPECT_TRUE(r.knows[v].count(2)) << v;
  for (const auto& ccs : r.sets.sets)
    for (const Communication& c : ccs) {
      EXPECT_TRUE(c.src == 5 || c.src == 2 || c.src == 7);
      EXPECT_TRUE(c.dst == 5 || c.dst == 2 || c.dst == 7);
    }
  const Outcome barrier = run(8, "barrier", "", {5, 2, 7});
  for (int v : {5, 2, 7}) EXPECT_EQ(barrier.knows[v], (std::set<int>{2, 5, 7}));
}

TEST(Collectives, BadCallsAndOptionsAreErrors) {
  const auto fails = [](const std::string& text, const std::string& expected) {
    try {
      extractCcs(testing::traceFromText("tac3map-trace 1\nranks 4\n" + text));
      ADD_FAILURE() << "accepted: " << text;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  };
  fails("0 bcast 8 comm=x\n", "test.trace:3: communicator x is not declared");
  fails("0 comm c 1 2\n0 bcast 8 comm=c\n", "test.trace:4: rank 0 is not in communicator c");
  fails("0 bcast 8 root=4\n", "test.trace:3: root=4 is outside the communicator's 0..3");
  fails("0 comm c 1 2\n1 comm c 2 1\n", "test.trace:4: communicator c declared with other ranks");
  fails("0 bcast 8 rooot=1\n", "test.trace:3: unexpected 'rooot=1'");
  fails("0 bcast\n", "'bcast' takes the form");
  EXPECT_THROW(parseCollectiveAlgorithms("allreduce=bruck"), InputError);
  EXPECT_THROW(parseCollectiveAlgorithms("allsum=ring"), InputError);
  EXPECT_EQ(parseCollectiveAlgorithms("allgather=bruck").of(CollectiveOp::Allgather, 0, 4),
            Algorithm::Bruck);
  EXPECT_EQ(parseCollectiveAlgorithms("allgather=shift-ring").of(CollectiveOp::Allgather, 0, 4),
            Algorithm::ShiftRing);
  EXPECT_THROW(parseCollectiveAlgorithms("allreduce=shift-ring"), InputError);
  EXPECT_EQ(algorithmsOf(CollectiveOp::Allgather),
            (std::vector<Algorithm>{Algorithm::Ring, Algorithm::RecursiveDoubling, Algorithm::Bruck,
                                    Algorithm::ShiftRing, Algorithm::Linear}));
  EXPECT_THROW(parseCollectiveAlgorithms("reduce_scatter=linear"), InputError);
  EXPECT_THROW(parseCollectiveAlgorithms("bcast=reduce-bcast"), InputError);
  EXPECT_EQ(parseCollectiveAlgorithms("").of(CollectiveOp::Allreduce, 0, 4),
            Algorithm::RecursiveDoubling);
}

}  // namespace
}  // namespace tac3map
