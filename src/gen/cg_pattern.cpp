#include "tac3map/gen/cg_pattern.hpp"

#include <sstream>

#include "tac3map/io/error.hpp"
#include "tac3map/io/trace.hpp"
#include "tac3map/model/ccs.hpp"

namespace tac3map {

const EnumNames<CgVariant>& cgVariantNames() {
  static const EnumNames<CgVariant> names(
      "CG variant", {{CgVariant::Sendrecv, "sendrecv", ""},
                     {CgVariant::IrecvIsendWaitall, "isend", "(irecv+isend+waitall)"},
                     {CgVariant::IrecvSendWait, "send", "(irecv+send+wait)"}});
  return names;
}

CgVariant parseCgVariant(const std::string& name) {
  return cgVariantNames().parse(name);
}

const char* cgVariantName(CgVariant variant) {
  return cgVariantNames().name(variant).c_str();
}

CgGrid cgGrid(int ranks) {
  if (ranks < 1 || (ranks & (ranks - 1)) != 0)
    throw SettingError("ranks",
                       " " + std::to_string(ranks) + ": the CG pattern needs a power of two");
  int k = 0;
  while ((1 << k) < ranks) ++k;
  CgGrid grid;
  grid.rows = 1 << (k / 2);
  grid.cols = k % 2 ? 2 * grid.rows : grid.rows;
  return grid;
}

int cgRowPartner(const CgGrid& grid, int rank, int step) {
  const int row = rank / grid.cols, col = rank % grid.cols;
  return row * grid.cols + (col ^ (grid.cols >> (step + 1)));
}

int cgTransposePartner(const CgGrid& grid, int rank) {
  const int n = grid.rows;
  if (grid.rows == grid.cols) return (rank % n) * n + rank / n;
  return 2 * (((rank / 2) % n) * n + rank / 2 / n) + rank % 2;
}

namespace {

// One exchange of `bytes` with `partner` in the chosen MPI idiom; NPB uses the step as tag.
void writeExchange(std::ostream& out, CgVariant variant, int rank, int partner, std::uint64_t bytes,
                   int tag) {
  switch (variant) {
    case CgVariant::Sendrecv:
      out << rank << " sendrecv " << partner << ' ' << bytes << ' ' << partner << ' ' << bytes
          << ' ' << tag << '\n';
      break;
    case CgVariant::IrecvIsendWaitall:
      out << rank << " irecv " << partner << ' ' << bytes << ' ' << tag << " r\n";
      out << rank << " isend " << partner << ' ' << bytes << ' ' << tag << " s\n";
      out << rank << " waitall\n";
      break;
    case CgVariant::IrecvSendWait:
      out << rank << " irecv " << partner << ' ' << bytes << ' ' << tag << " r\n";
      out << rank << " send " << partner << ' ' << bytes << ' ' << tag << '\n';
      out << rank << " wait r\n";
      break;
  }
}

}  // namespace

std::string generateCgTrace(const CgOptions& options) {
  const CgGrid grid = cgGrid(options.ranks);
  if (options.iterations < 1) throw SettingError("iterations", " must be at least 1");
  int steps = 0;
  while ((1 << steps) < grid.cols) ++steps;
  std::ostringstream out;
  out << "tac3map-trace 1\n";
  out << "# NAS CG communication pattern: " << options.ranks << " ranks on a " << grid.rows << "x"
      << grid.cols << " process grid, " << options.bytes << " bytes per message, variant "
      << cgVariantName(options.variant) << "\n";
  out << "# per iteration: " << steps << " row steps (partner column col XOR npcols/2, ..., XOR 1)"
      << " then the transpose exchange (NPB CG exch_proc)\n";
  out << "ranks " << options.ranks << "\n";
  for (int it = 0; it < options.iterations; ++it)
    for (int rank = 0; rank < options.ranks; ++rank) {
      out << rank << " iteration\n";
      for (int step = 0; step < steps; ++step)
        writeExchange(out, options.variant, rank, cgRowPartner(grid, rank, step), options.bytes,
                      step + 1);
      if (steps > 0)
        writeExchange(out, options.variant, rank, cgTransposePartner(grid, rank), options.bytes, 1);
    }
  return out.str();
}

Problem generateCgProblem(const CgOptions& options, const Model& model) {
  std::istringstream in(generateCgTrace(options));
  CcsOptions ccs;
  ccs.engines = model.engines;  // several engines: a level is one set (ccs.hpp)
  return makeProblem(extractCcs(parseTrace(in, "generated CG trace"), ccs), model);
}

}  // namespace tac3map
