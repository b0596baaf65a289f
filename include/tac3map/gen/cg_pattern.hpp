// The communication pattern of the NAS CG kernel (NPB's conj_grad) written as a native trace:
// the generator behind examples/cg32-*.trace and examples/cg64-*.trace.
#pragma once

#include <cstdint>
#include <string>

#include "tac3map/io/enum_names.hpp"
#include "tac3map/model/objective.hpp"

namespace tac3map {

enum class CgVariant { Sendrecv, IrecvIsendWaitall, IrecvSendWait };

// The names of CG variant values (enum_names.hpp): parse, name, --help and choice checks.
const EnumNames<CgVariant>& cgVariantNames();
CgVariant parseCgVariant(const std::string& name);
const char* cgVariantName(CgVariant variant);

struct CgOptions {
  int ranks = 64;                 // a power of two
  std::uint64_t bytes = 1 << 20;  // per message
  CgVariant variant = CgVariant::Sendrecv;
  int iterations = 1;  // each starts with an 'iteration' marker
};

// NPB CG's process grid: nprows x npcols, npcols = nprows or 2 * nprows.
struct CgGrid {
  int rows = 1;
  int cols = 1;
};
CgGrid cgGrid(int ranks);
// Partner of `rank` in row step `step` (0-based): column col XOR npcols / 2^(step+1).
int cgRowPartner(const CgGrid& grid, int rank, int step);
// NPB CG's exch_proc: the transpose partner.
int cgTransposePartner(const CgGrid& grid, int rank);

std::string generateCgTrace(const CgOptions& options);
// The same pattern compiled for evaluation (its CCSs, as `model` extracts them, as a Problem),
// for tests and benchmarks.
Problem generateCgProblem(const CgOptions& options, const Model& model = {});

}  // namespace tac3map
