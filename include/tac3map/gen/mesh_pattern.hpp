// The communication of a code on a partitioned unstructured mesh (finite elements or volumes
// split by a graph partitioner): each rank owns a region, exchanges halos with the ranks whose
// regions touch its own, and the message of each pair grows with the face they share. Made
// up from random points standing for the regions' centres (`tac3map gen mesh`, docs/gen.md):
//   - `ranks` points uniform in the unit square or cube, drawn from `seed`;
//   - ranks numbered along a Morton (Z-order) curve through the points, as a recursive-
//     bisection partitioner numbers its parts: consecutive ranks are near each other, but no
//     grid lays them out;
//   - each rank linked to its `neighbours` nearest points, and to every rank that chose it
//     (so a rank has `neighbours` partners or more);
//   - a pair's message linear in its distance, from `maxBytes` for the closest pair of the mesh
//     (the largest face) down to `bytes` for the farthest (multiples of 8 bytes in between);
//   - exchanges as one blocking sendrecv per partner in rounds of a proper edge colouring (no
//     rank in two pairs of one round, so the rounds are the program's steps and no order of
//     them deadlocks), or all at once (isend).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "tac3map/gen/patterns.hpp"

namespace tac3map {

inline constexpr std::uint64_t kDefaultMeshMaxBytes = 256 << 10;

struct MeshPatternOptions {
  int ranks = 1000;
  int dimensions = 3;  // points in the unit square (2) or cube (3)
  int neighbours = 6;  // k nearest
  std::uint64_t bytes = 16 << 10;
  // The largest face's; 0: kDefaultMeshMaxBytes, or `bytes` if that is larger (so that
  // `--bytes` alone never contradicts a default it did not set).
  std::uint64_t maxBytes = 0;
  std::uint64_t seed = 1;
  ExchangeStyle style = ExchangeStyle::Sendrecv;
  int iterations = 1;
};

struct MeshPattern {
  struct Pair {
    int a, b;  // ranks, a < b
    std::uint64_t bytes;
    int round;  // its round of exchanges (a colour: no rank in two pairs of one round)
  };
  std::vector<std::array<double, 3>> points;  // per rank (unused coordinates 0)
  std::vector<Pair> pairs;                    // ascending (a, b)
  std::uint64_t largest = 0;                  // the closest pair's bytes (maxBytes resolved)
  int rounds = 0;
};

// SettingError (naming the setting) for settings out of range, and for a trace tac3map could not
// read back: more than limits::kMaxRanks ranks (2^20, 6.6 x Fugaku's nodes) or possibly more
// than limits::kMaxCommunications messages (2 x ranks x neighbours x iterations).
MeshPattern meshPattern(const MeshPatternOptions& options);
std::string generateMeshTrace(const MeshPatternOptions& options);

}  // namespace tac3map
