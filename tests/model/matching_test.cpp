// matching::Matcher (src/model/matching.hpp) against MPI's rule written plainly: per rank, a
// list of posted receives and a list of unexpected messages in arrival order, each searched
// from the front for the first that matches.
#include "matching.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "tac3map/base/random.hpp"
#include "tac3map/io/trace.hpp"

namespace tac3map::matching {
namespace {

struct Plain {
  struct Item {
    int peer;
    std::int64_t tag;
    int id;
  };
  std::vector<std::vector<Item>> posted, unexpected;  // per rank

  explicit Plain(int ranks) : posted(ranks), unexpected(ranks) {}

  // A receive (source, tag) takes a message (src, tag): any source takes every sender, any
  // tag every tag of the program (>= 0), never a collective's step (< 0).
  static bool takes(int source, std::int64_t tag, int src, std::int64_t messageTag) {
    return (source == kAnySource || source == src) &&
           (tag == messageTag || (tag == kAnyTag && messageTag >= 0));
  }
  int send(int src, int dst, std::int64_t tag, int id) {
    auto& list = posted[dst];
    for (std::size_t i = 0; i < list.size(); ++i)
      if (takes(list[i].peer, list[i].tag, src, tag)) {
        const int receive = list[i].id;
        list.erase(list.begin() + static_cast<std::ptrdiff_t>(i));
        return receive;
      }
    unexpected[dst].push_back({src, tag, id});
    return -1;
  }
  int recv(int dst, int src, std::int64_t tag, int id) {
    auto& list = unexpected[dst];
    for (std::size_t i = 0; i < list.size(); ++i)
      if (takes(src, tag, list[i].peer, list[i].tag)) {
        const int message = list[i].id;
        list.erase(list.begin() + static_cast<std::ptrdiff_t>(i));
        return message;
      }
    posted[dst].push_back({src, tag, id});
    return -1;
  }
};

TEST(Matcher, TakesWhatMpiWouldOnRandomSequences) {
  Rng rng(41);
  for (int round = 0; round < 400; ++round) {
    const int ranks = 1 + static_cast<int>(rng.below(5));
    std::vector<bool> wildcards(ranks);
    for (int r = 0; r < ranks; ++r) wildcards[r] = rng.below(3) != 0;
    Matcher fast(ranks, wildcards);
    Plain plain(ranks);
    const int steps = 1 + static_cast<int>(rng.below(200));
    for (int id = 0; id < steps; ++id) {
      const int a = static_cast<int>(rng.below(ranks)), b = static_cast<int>(rng.below(ranks));
      // Tags 0..2 of the program and -1, -2 of collectives' steps.
      std::int64_t tag = static_cast<std::int64_t>(rng.below(5)) - 2;
      if (rng.below(2) == 0) {
        ASSERT_EQ(fast.send(a, b, tag, id), plain.send(a, b, tag, id)) << round << " " << id;
      } else {
        int source = a;
        if (wildcards[b] && rng.below(3) == 0) source = kAnySource;
        if (wildcards[b] && rng.below(3) == 0) tag = kAnyTag;
        ASSERT_EQ(fast.recv(b, source, tag, id), plain.recv(b, source, tag, id))
            << round << " " << id;
      }
    }
  }
}

TEST(Matcher, MessagesOfOneSenderArriveInOrder) {
  Matcher m(2, {true, true});
  EXPECT_EQ(m.send(1, 0, 5, 0), -1);
  EXPECT_EQ(m.send(1, 0, 6, 1), -1);
  EXPECT_EQ(m.recv(0, 1, 6, 2), 1);          // by tag: the second message
  EXPECT_EQ(m.recv(0, kAnySource, kAnyTag, 3), 0);  // the first one left
  EXPECT_EQ(m.recv(0, kAnySource, kAnyTag, 4), -1);
  EXPECT_EQ(m.send(1, 0, -7, 5), -1);        // a collective's step: not for MPI_ANY_TAG
  EXPECT_EQ(m.send(1, 0, 8, 6), 4);
}

TEST(Matcher, RefusesAWildcardOnARankDeclaredWithout) {
  Matcher m(2, {false, false});
  EXPECT_THROW(m.recv(0, kAnySource, 1, 0), std::logic_error);
}

}  // namespace
}  // namespace tac3map::matching
