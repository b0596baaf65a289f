// Synthetic communication patterns written as native traces, for trying tac3map on
// workloads other than the paper's CG (cg_pattern.hpp): halo-exchange stencils, all-to-all
// within groups of ranks (FFT-like transposes) and random sparse patterns.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tac3map/io/enum_names.hpp"

namespace tac3map {

enum class ExchangeStyle {
  Isend,     // irecv from every neighbour, isend to every neighbour, waitall
  Sendrecv,  // one blocking exchange per direction, in order
};

// The names of exchange variant values (enum_names.hpp): parse, name, --help and choice checks.
const EnumNames<ExchangeStyle>& exchangeStyleNames();
ExchangeStyle parseExchangeStyle(const std::string& name);

struct StencilOptions {
  std::vector<int> dims = {8, 8, 8};  // 2 or 3 extents; rank = x + X * (y + Y * z)
  int points = 7;                     // 2D: 5 or 9; 3D: 7 or 27
  bool periodic = false;
  std::uint64_t bytes = 1 << 20;
  ExchangeStyle style = ExchangeStyle::Isend;
  int iterations = 1;
};

// Neighbour offsets of a stencil in the order messages are posted (and tagged): the star
// stencils +x, -x, +y, -y (, +z, -z); the box stencils every non-zero offset, x fastest.
std::vector<std::vector<int>> stencilOffsets(int dimensions, int points);
std::string generateStencilTrace(const StencilOptions& options);

struct AlltoallOptions {
  int ranks = 64;
  int group = 8;  // consecutive ranks 0..group-1, group..2*group-1, ... exchange all-to-all
  std::uint64_t bytes = 1 << 16;
  ExchangeStyle style = ExchangeStyle::Sendrecv;  // pairwise exchange, step k: l+k / l-k
  int iterations = 1;
};
std::string generateAlltoallTrace(const AlltoallOptions& options);

struct RandomPatternOptions {
  int ranks = 64;
  int degree = 4;  // distinct destinations per rank
  std::uint64_t bytes = 1 << 20;
  std::uint64_t maxBytes = 0;  // > bytes: sizes uniform in [bytes, maxBytes]
  std::uint64_t seed = 1;
  int iterations = 1;
};
std::string generateRandomTrace(const RandomPatternOptions& options);

}  // namespace tac3map
