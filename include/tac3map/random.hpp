// Seeded randomness that gives the same numbers on every platform: the std::mt19937_64 engine
// is specified bit for bit by the standard, but the std distributions are not, so the two
// draws the tool needs are done here.
#pragma once

#include <cstdint>
#include <random>

namespace tac3map {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : engine_(seed) {}

  // Uniform in [0, n), n > 0, without bias: Lemire's multiply-and-shift, which needs a
  // division only in the rare case that the low half falls below n (this runs twice per
  // annealing trial, where two 64-bit divisions would cost more than the rest of the draw).
  std::uint64_t below(std::uint64_t n) {
    unsigned __int128 m = static_cast<unsigned __int128>(engine_()) * n;
    auto low = static_cast<std::uint64_t>(m);
    if (low < n) {
      const std::uint64_t limit = -n % n;  // 2^64 mod n: low halves below it are over-represented
      while (low < limit) {
        m = static_cast<unsigned __int128>(engine_()) * n;
        low = static_cast<std::uint64_t>(m);
      }
    }
    return static_cast<std::uint64_t>(m >> 64);
  }

  // Uniform in [0, 1) with 53 random bits.
  double unit() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

 private:
  std::mt19937_64 engine_;
};

}  // namespace tac3map
