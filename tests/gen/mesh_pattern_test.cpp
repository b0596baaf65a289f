#include "tac3map/gen/mesh_pattern.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "tac3map/base/random.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/io/limits.hpp"
#include "tac3map/model/ccs.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

double distance(const std::array<double, 3>& p, const std::array<double, 3>& q) {
  return std::sqrt((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) +
                   (p[2] - q[2]) * (p[2] - q[2]));
}

// The pairs by definition: every rank with its k nearest by brute force, both ways.
std::set<std::pair<int, int>> bruteForcePairs(const MeshPattern& mesh, int k) {
  std::set<std::pair<int, int>> pairs;
  const int n = static_cast<int>(mesh.points.size());
  for (int r = 0; r < n; ++r) {
    std::vector<std::pair<double, int>> all;
    for (int s = 0; s < n; ++s)
      if (s != r) all.emplace_back(distance(mesh.points[r], mesh.points[s]), s);
    std::sort(all.begin(), all.end());
    for (int i = 0; i < k; ++i)
      pairs.insert({std::min(r, all[i].second), std::max(r, all[i].second)});
  }
  return pairs;
}

TEST(MeshPattern, PairsAreTheNearestNeighboursBothWays) {
  for (int dimensions : {2, 3})
    for (int k : {1, 4, 6}) {
      MeshPatternOptions o;
      o.ranks = 300;
      o.dimensions = dimensions;
      o.neighbours = k;
      o.seed = static_cast<std::uint64_t>(10 * dimensions + k);
      const MeshPattern mesh = meshPattern(o);
      ASSERT_EQ(mesh.points.size(), 300u);
      std::set<std::pair<int, int>> got;
      for (const MeshPattern::Pair& p : mesh.pairs) {
        EXPECT_LT(p.a, p.b);
        EXPECT_TRUE(got.insert({p.a, p.b}).second) << "pair twice";
      }
      EXPECT_EQ(got, bruteForcePairs(mesh, k)) << dimensions << "D, k " << k;
      for (const auto& point : mesh.points)
        for (int a = dimensions; a < 3; ++a) EXPECT_EQ(point[a], 0.0);
    }
}

TEST(MeshPattern, RoundsAreAProperColouringAndSizesFollowTheFaces) {
  MeshPatternOptions o;
  o.ranks = 2000;
  o.bytes = 16384;
  o.maxBytes = 262144;
  const MeshPattern mesh = meshPattern(o);
  std::map<int, int> degree;
  std::set<std::pair<int, int>> busy;  // (rank, round)
  double nearest = INFINITY, farthest = 0;
  for (const MeshPattern::Pair& p : mesh.pairs) {
    ++degree[p.a], ++degree[p.b];
    EXPECT_TRUE(busy.insert({p.a, p.round}).second) << "rank " << p.a << " twice in a round";
    EXPECT_TRUE(busy.insert({p.b, p.round}).second) << "rank " << p.b << " twice in a round";
    EXPECT_GE(p.bytes, o.bytes);
    EXPECT_LE(p.bytes, o.maxBytes);
    EXPECT_EQ(p.bytes % 8, 0u);
    const double d = distance(mesh.points[p.a], mesh.points[p.b]);
    nearest = std::min(nearest, d);
    farthest = std::max(farthest, d);
  }
  int most = 0;
  for (int r = 0; r < o.ranks; ++r) {
    EXPECT_GE(degree[r], o.neighbours) << r;
    most = std::max(most, degree[r]);
  }
  EXPECT_LE(mesh.rounds, 2 * most - 1);  // greedy colouring's bound
  // Closer pairs send more: the closest the most, the farthest the least.
  std::vector<std::pair<double, std::uint64_t>> bySize;
  for (const MeshPattern::Pair& p : mesh.pairs)
    bySize.emplace_back(distance(mesh.points[p.a], mesh.points[p.b]), p.bytes);
  std::sort(bySize.begin(), bySize.end());
  EXPECT_EQ(bySize.front().first, nearest);
  EXPECT_EQ(bySize.front().second, o.maxBytes);
  EXPECT_EQ(bySize.back().first, farthest);
  EXPECT_EQ(bySize.back().second, o.bytes);
  for (std::size_t i = 1; i < bySize.size(); ++i) EXPECT_LE(bySize[i].second, bySize[i - 1].second);
  EXPECT_GT(bySize[bySize.size() / 2].second, o.bytes);  // sizes spread, not all at one end
}

// The two ends are exact whatever they are; multiples of 8 in between.
TEST(MeshPattern, EndsAreExactEvenWhenNotMultiplesOf8) {
  MeshPatternOptions o;
  o.ranks = 400;
  o.bytes = 1001;
  o.maxBytes = 100003;
  const MeshPattern mesh = meshPattern(o);
  std::set<std::uint64_t> sizes;
  for (const MeshPattern::Pair& p : mesh.pairs) {
    sizes.insert(p.bytes);
    if (p.bytes != o.bytes && p.bytes != o.maxBytes) {
      EXPECT_EQ(p.bytes % 8, 0u) << p.bytes;
    }
  }
  EXPECT_EQ(*sizes.begin(), o.bytes);
  EXPECT_EQ(*sizes.rbegin(), o.maxBytes);
  o.bytes = 1;
  o.maxBytes = limits::kMaxMessageBytes;  // no overflow at the top of the range
  for (const MeshPattern::Pair& p : meshPattern(o).pairs) {
    EXPECT_GE(p.bytes, o.bytes);
    EXPECT_LE(p.bytes, o.maxBytes);
  }
}

// Without --max-bytes the largest face sends 256 KiB, or --bytes where that is more.
TEST(MeshPattern, UnsetMaxBytesNeverContradictsBytes) {
  MeshPatternOptions o;
  o.ranks = 200;
  ASSERT_EQ(o.maxBytes, 0u);
  std::uint64_t most = 0;
  for (const MeshPattern::Pair& p : meshPattern(o).pairs) most = std::max(most, p.bytes);
  EXPECT_EQ(most, kDefaultMeshMaxBytes);
  o.bytes = 2 * kDefaultMeshMaxBytes;
  const MeshPattern mesh = meshPattern(o);
  EXPECT_EQ(mesh.largest, o.bytes);
  for (const MeshPattern::Pair& p : mesh.pairs) EXPECT_EQ(p.bytes, o.bytes);
}

// Ranks are numbered along a space-filling curve: consecutive ranks are close.
TEST(MeshPattern, ConsecutiveRanksAreNearEachOther) {
  MeshPatternOptions o;
  o.ranks = 4096;
  const MeshPattern mesh = meshPattern(o);
  double consecutive = 0, random = 0;
  Rng rng(3);
  for (int r = 0; r + 1 < o.ranks; ++r) {
    consecutive += distance(mesh.points[r], mesh.points[r + 1]);
    random += distance(mesh.points[r], mesh.points[rng.below(o.ranks)]);
  }
  EXPECT_LT(consecutive, 0.2 * random);
}

TEST(MeshPattern, TraceHasOneStepPerRoundAndEveryPairBothWays) {
  MeshPatternOptions o;
  o.ranks = 500;  // one iteration: the sets fold repeated iterations into one
  const MeshPattern mesh = meshPattern(o);
  const std::string text = generateMeshTrace(o);
  EXPECT_EQ(text, generateMeshTrace(o));  // the seed decides everything
  MeshPatternOptions other = o;
  other.seed = 2;
  EXPECT_NE(text, generateMeshTrace(other));
  const CcsSet sets = extractCcs(testing::traceFromText(text));
  // Every pair both ways, with its size and its round as the tag.
  using Message = std::tuple<int, int, std::uint64_t, std::int64_t>;
  std::multiset<Message> got;
  for (const auto& set : sets.sets)
    for (const Communication& c : set) got.insert({c.src, c.dst, c.bytes, c.tag});
  std::multiset<Message> expected;
  for (const MeshPattern::Pair& p : mesh.pairs) {
    expected.insert({p.a, p.b, p.bytes, p.round});
    expected.insert({p.b, p.a, p.bytes, p.round});
  }
  EXPECT_EQ(got, expected);
  // With sendrecv every round is a step of its own.
  EXPECT_EQ(static_cast<int>(sets.sets.size()), o.iterations * mesh.rounds);
  // All at once: the same messages (the sets then split them by senders and receivers).
  o.style = ExchangeStyle::Isend;
  std::multiset<Message> atOnce;
  for (const auto& set : extractCcs(testing::traceFromText(generateMeshTrace(o))).sets)
    for (const Communication& c : set) atOnce.insert({c.src, c.dst, c.bytes, c.tag});
  EXPECT_EQ(atOnce, expected);
}

TEST(MeshPattern, SettingsOutOfRangeAreRefused) {
  const auto refused = [](auto change) {
    MeshPatternOptions o;
    o.ranks = 50;
    change(o);
    EXPECT_THROW(meshPattern(o), InputError);
  };
  refused([](MeshPatternOptions& o) { o.ranks = 1; });
  refused([](MeshPatternOptions& o) { o.ranks = limits::kMaxRanks + 1; });
  refused([](MeshPatternOptions& o) {  // 2^24 messages at most
    o.ranks = 1 << 20;
    o.neighbours = 9;
  });
  refused([](MeshPatternOptions& o) { o.maxBytes = limits::kMaxMessageBytes + 1; });
  refused([](MeshPatternOptions& o) { o.dimensions = 4; });
  refused([](MeshPatternOptions& o) { o.neighbours = 0; });
  refused([](MeshPatternOptions& o) { o.neighbours = 50; });
  refused([](MeshPatternOptions& o) { o.bytes = 0; });
  refused([](MeshPatternOptions& o) { o.maxBytes = o.bytes - 8; });
  refused([](MeshPatternOptions& o) { o.iterations = 0; });
}

}  // namespace
}  // namespace tac3map
