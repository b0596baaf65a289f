// Seeded randomness that gives the same numbers on every platform: the engine and the two
// draws the tool needs are written out here (the std distributions are not specified bit for
// bit). The engine is xoshiro256** rather than std::mt19937_64: an annealing trial draws two
// or three numbers, and the Mersenne Twister's were a tenth of a trial's time.
#pragma once

#include <cstdint>

namespace tac3map {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) {
    for (std::uint64_t& word : state_) word = splitMix(seed);
  }

  // Uniform in [0, n), n > 0, without bias: Lemire's multiply-and-shift, which needs a
  // division only in the rare case that the low half falls below n (this runs twice per
  // annealing trial, where two 64-bit divisions would cost more than the rest of the draw).
  std::uint64_t below(std::uint64_t n) {
    unsigned __int128 m = static_cast<unsigned __int128>(next()) * n;
    auto low = static_cast<std::uint64_t>(m);
    if (low < n) {
      const std::uint64_t limit = -n % n;  // 2^64 mod n: low halves below it are over-represented
      while (low < limit) {
        m = static_cast<unsigned __int128>(next()) * n;
        low = static_cast<std::uint64_t>(m);
      }
    }
    return static_cast<std::uint64_t>(m >> 64);
  }

  // Uniform in [0, 1) with 53 random bits.
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  // xoshiro256** (Blackman and Vigna): a 256-bit state, a handful of shifts per number.
  std::uint64_t next() {
    const std::uint64_t result = rotate(state_[1] * 5, 7) * 9;
    const std::uint64_t shifted = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= shifted;
    state_[3] = rotate(state_[3], 45);
    return result;
  }
  static std::uint64_t rotate(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  // SplitMix64 spreads a seed over the state (consecutive seeds give unrelated states).
  static std::uint64_t splitMix(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
    z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
    return z ^ (z >> 31);
  }

  std::uint64_t state_[4];
};

}  // namespace tac3map
