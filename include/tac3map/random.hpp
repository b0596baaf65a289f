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

  // Uniform in [0, n), n > 0, without modulo bias.
  std::uint64_t below(std::uint64_t n) {
    const std::uint64_t limit = -n % n;  // 2^64 mod n: values below it would be over-represented
    std::uint64_t x;
    do x = engine_();
    while (x < limit);
    return x % n;
  }

  // Uniform in [0, 1) with 53 random bits.
  double unit() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

 private:
  std::mt19937_64 engine_;
};

}  // namespace tac3map
