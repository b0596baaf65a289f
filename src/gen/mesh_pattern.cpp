#include "tac3map/gen/mesh_pattern.hpp"

#include <algorithm>
#include <boost/geometry.hpp>
#include <boost/geometry/geometries/point.hpp>
#include <boost/geometry/index/rtree.hpp>
#include <cmath>
#include <iterator>
#include <numeric>
#include <sstream>

#include "tac3map/base/random.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/io/limits.hpp"

namespace tac3map {
namespace {

namespace bg = boost::geometry;
namespace bgi = boost::geometry::index;
using Point = bg::model::point<double, 3, bg::cs::cartesian>;
using Entry = std::pair<Point, int>;

void check(const MeshPatternOptions& o) {
  // The trace must be one tac3map reads back (limits.hpp): ranks, messages and their sizes.
  if (o.ranks < 2 || o.ranks > limits::kMaxRanks)
    throw SettingError("ranks", " " + std::to_string(o.ranks) + " must be from 2 to " +
                                    std::to_string(limits::kMaxRanks));
  if (o.dimensions != 2 && o.dimensions != 3)
    throw SettingError("dimensions", " " + std::to_string(o.dimensions) + " must be 2 or 3");
  if (o.neighbours < 1 || o.neighbours > 64 || o.neighbours >= o.ranks)
    throw SettingError("neighbours", " " + std::to_string(o.neighbours) +
                                         " must be from 1 to 64 and below the ranks");
  if (o.bytes == 0 || o.bytes > limits::kMaxMessageBytes)
    throw SettingError("bytes", " must be from 1 to " + std::to_string(limits::kMaxMessageBytes));
  if (o.maxBytes > limits::kMaxMessageBytes)
    throw SettingError("max bytes", " must be at most " + std::to_string(limits::kMaxMessageBytes));
  if (o.maxBytes != 0 && o.maxBytes < o.bytes)
    throw SettingError("max bytes", " must be at least the bytes");
  if (o.iterations < 1) throw SettingError("iterations", " must be at least 1");
  // Each rank sends to at most 2 x neighbours partners on average (its own and those that
  // chose it): checked before anything is allocated.
  const std::uint64_t messages = 2 * static_cast<std::uint64_t>(o.ranks) *
                                 static_cast<std::uint64_t>(o.neighbours) *
                                 static_cast<std::uint64_t>(o.iterations);
  if (messages > limits::kMaxCommunications)
    throw SettingError("ranks", " x neighbours x iterations: up to " + std::to_string(messages) +
                                    " messages, beyond the " +
                                    std::to_string(limits::kMaxCommunications) +
                                    " a trace may have (docs/limits.md)");
}

// The Morton key of a point of the unit square or cube: its coordinates' bits interleaved
// (31 each in 2D, 21 in 3D).
std::uint64_t mortonKey(const std::array<double, 3>& p, int dimensions) {
  const int bits = 63 / dimensions;
  const double scale = static_cast<double>(std::uint64_t{1} << bits);
  std::uint64_t key = 0;
  std::array<std::uint64_t, 3> c{};
  for (int a = 0; a < dimensions; ++a)
    c[a] = std::min(static_cast<std::uint64_t>(p[a] * scale), (std::uint64_t{1} << bits) - 1);
  for (int b = bits - 1; b >= 0; --b)
    for (int a = dimensions - 1; a >= 0; --a) key = key << 1 | (c[a] >> b & 1);
  return key;
}

double distance(const std::array<double, 3>& p, const std::array<double, 3>& q) {
  return std::sqrt((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) +
                   (p[2] - q[2]) * (p[2] - q[2]));
}

}  // namespace

MeshPattern meshPattern(const MeshPatternOptions& o) {
  check(o);
  MeshPattern mesh;
  Rng rng(o.seed);
  std::vector<std::array<double, 3>> drawn(o.ranks, {0, 0, 0});
  for (auto& p : drawn)
    for (int a = 0; a < o.dimensions; ++a) p[a] = rng.unit();
  // Ranks along the Z-order curve (ties, which need equal keys, by draw order).
  std::vector<std::uint64_t> key(o.ranks);
  for (int i = 0; i < o.ranks; ++i) key[i] = mortonKey(drawn[i], o.dimensions);
  std::vector<int> order(o.ranks);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int i, int j) { return key[i] < key[j]; });
  mesh.points.reserve(o.ranks);
  for (int i : order) mesh.points.push_back(drawn[i]);

  // k nearest of each point (an R-tree, packed from all points at once).
  std::vector<Entry> entries;
  entries.reserve(o.ranks);
  for (int r = 0; r < o.ranks; ++r)
    entries.emplace_back(Point(mesh.points[r][0], mesh.points[r][1], mesh.points[r][2]), r);
  const bgi::rtree<Entry, bgi::rstar<16>> tree(entries.begin(), entries.end());
  std::vector<std::pair<int, int>> links;
  links.reserve(static_cast<std::size_t>(o.ranks) * o.neighbours);
  std::vector<Entry> found;
  std::vector<std::pair<double, int>> nearest;
  for (int r = 0; r < o.ranks; ++r) {
    found.clear();
    tree.query(bgi::nearest(entries[r].first, static_cast<unsigned>(o.neighbours + 1)),
               std::back_inserter(found));
    // The tree's order of equal distances is its own: sort by (distance, rank) and drop r.
    nearest.clear();
    for (const Entry& e : found)
      if (e.second != r)
        nearest.emplace_back(distance(mesh.points[r], mesh.points[e.second]), e.second);
    std::sort(nearest.begin(), nearest.end());
    nearest.resize(std::min<std::size_t>(nearest.size(), o.neighbours));
    for (const auto& [d, other] : nearest)
      links.emplace_back(std::min(r, other), std::max(r, other));
  }
  std::sort(links.begin(), links.end());
  links.erase(std::unique(links.begin(), links.end()), links.end());

  // Message sizes: linear in distance, the closest pair maxBytes, the farthest bytes.
  std::vector<double> length;
  length.reserve(links.size());
  for (const auto& [a, b] : links) length.push_back(distance(mesh.points[a], mesh.points[b]));
  const auto [shortest, longest] = std::minmax_element(length.begin(), length.end());
  const double nearestPair = *shortest, farthestPair = *longest;
  const std::uint64_t top = o.maxBytes != 0 ? o.maxBytes : std::max(o.bytes, kDefaultMeshMaxBytes);
  mesh.largest = top;
  const double span = farthestPair - nearestPair;
  // Rounds: a greedy proper colouring of the pairs in (a, b) order (at most 2 x the largest
  // degree - 1 rounds); per rank the rounds it already takes part in.
  std::vector<std::vector<int>> busy(o.ranks);
  for (std::size_t k = 0; k < links.size(); ++k) {
    const auto [a, b] = links[k];
    const double d = length[k];
    const double share = span > 0 ? (farthestPair - d) / span : 1.0;
    // Multiples of 8 between the two ends, which are exact (long double: the span may be
    // near 2^62, where a double's step exceeds 8).
    const auto raw = static_cast<long double>(o.bytes) +
                     static_cast<long double>(share) * static_cast<long double>(top - o.bytes);
    std::uint64_t bytes = top;
    if (raw < static_cast<long double>(top))
      bytes = std::max(o.bytes, static_cast<std::uint64_t>(raw) / 8 * 8);
    int round = 0;
    while (std::find(busy[a].begin(), busy[a].end(), round) != busy[a].end() ||
           std::find(busy[b].begin(), busy[b].end(), round) != busy[b].end())
      ++round;
    busy[a].push_back(round);
    busy[b].push_back(round);
    mesh.rounds = std::max(mesh.rounds, round + 1);
    mesh.pairs.push_back({a, b, bytes, round});
  }
  return mesh;
}

std::string generateMeshTrace(const MeshPatternOptions& o) {
  const MeshPattern mesh = meshPattern(o);
  // Per rank its exchanges (partner, bytes, round), by round.
  struct Exchange {
    int round, partner;
    std::uint64_t bytes;
    bool operator<(const Exchange& other) const { return round < other.round; }
  };
  std::vector<std::vector<Exchange>> of(o.ranks);
  for (const MeshPattern::Pair& p : mesh.pairs) {
    of[p.a].push_back({p.round, p.b, p.bytes});
    of[p.b].push_back({p.round, p.a, p.bytes});
  }
  for (auto& list : of) std::sort(list.begin(), list.end());
  std::ostringstream out;
  out << "tac3map-trace 1\n# partitioned mesh: " << o.ranks << " ranks on random points ("
      << o.dimensions << "D, seed " << o.seed << "), " << o.neighbours
      << " nearest linked both ways, " << mesh.pairs.size() << " pairs, messages " << o.bytes
      << ".." << mesh.largest << " bytes by face, "
      << (o.style == ExchangeStyle::Sendrecv ? std::to_string(mesh.rounds) + " rounds"
                                             : std::string("all at once"))
      << "; tag = round\nranks " << o.ranks << "\n";
  for (int it = 0; it < o.iterations; ++it)
    for (int r = 0; r < o.ranks; ++r) {
      out << r << " iteration\n";
      if (o.style == ExchangeStyle::Sendrecv) {
        for (const Exchange& e : of[r])
          out << r << " sendrecv " << e.partner << ' ' << e.bytes << ' ' << e.partner << ' '
              << e.bytes << ' ' << e.round << '\n';
        continue;
      }
      for (std::size_t i = 0; i < of[r].size(); ++i)
        out << r << " irecv " << of[r][i].partner << ' ' << of[r][i].bytes << ' ' << of[r][i].round
            << " r" << i << '\n';
      for (std::size_t i = 0; i < of[r].size(); ++i)
        out << r << " isend " << of[r][i].partner << ' ' << of[r][i].bytes << ' ' << of[r][i].round
            << " s" << i << '\n';
      out << r << " waitall\n";
    }
  return out.str();
}

}  // namespace tac3map
