#include "tac3map/gen/patterns.hpp"

#include <algorithm>
#include <set>
#include <sstream>

#include "tac3map/base/random.hpp"
#include "tac3map/io/error.hpp"

namespace tac3map {
namespace {

void checkIterations(int iterations) {
  if (iterations < 1) throw SettingError("iterations", " must be at least 1");
}

void writeHeader(std::ostream& out, int ranks, const std::string& description) {
  out << "tac3map-trace 1\n# " << description << "\nranks " << ranks << "\n";
}

// Neighbour of `rank` at `offset`, or -1 outside a non-periodic grid.
int neighbour(const std::vector<int>& dims, bool periodic, int rank,
              const std::vector<int>& offset) {
  int result = 0, stride = 1;
  for (std::size_t a = 0; a < dims.size(); ++a) {
    int c = rank % dims[a] + offset[a];
    rank /= dims[a];
    if (c < 0 || c >= dims[a]) {
      if (!periodic) return -1;
      c = (c + dims[a]) % dims[a];
    }
    result += c * stride;
    stride *= dims[a];
  }
  return result;
}

std::vector<int> negated(std::vector<int> offset) {
  for (int& c : offset) c = -c;
  return offset;
}

}  // namespace

const EnumNames<ExchangeStyle>& exchangeStyleNames() {
  static const EnumNames<ExchangeStyle> names(
      "exchange variant",
      {{ExchangeStyle::Isend, "isend", "(every irecv and isend at once, then waitall)"},
       {ExchangeStyle::Sendrecv, "sendrecv", "(one exchange at a time)"}});
  return names;
}

ExchangeStyle parseExchangeStyle(const std::string& name) {
  return exchangeStyleNames().parse(name);
}

std::vector<std::vector<int>> stencilOffsets(int dimensions, int points) {
  std::vector<std::vector<int>> offsets;
  const bool star = (dimensions == 2 && points == 5) || (dimensions == 3 && points == 7);
  const bool box = (dimensions == 2 && points == 9) || (dimensions == 3 && points == 27);
  if (!star && !box)
    throw SettingError("points", " " + std::to_string(points) + ": a " +
                                     std::to_string(dimensions) + "D stencil has " +
                                     (dimensions == 2 ? "5 or 9" : "7 or 27") + " points");
  if (star) {
    for (int a = 0; a < dimensions; ++a)
      for (int sign : {1, -1}) {
        std::vector<int> o(dimensions, 0);
        o[a] = sign;
        offsets.push_back(o);
      }
    return offsets;
  }
  const int cells = dimensions == 2 ? 9 : 27;
  for (int i = 0; i < cells; ++i) {
    std::vector<int> o = {i % 3 - 1, i / 3 % 3 - 1};
    if (dimensions == 3) o.push_back(i / 9 - 1);
    if (std::any_of(o.begin(), o.end(), [](int c) { return c != 0; })) offsets.push_back(o);
  }
  return offsets;
}

std::string generateStencilTrace(const StencilOptions& o) {
  if (o.dims.size() != 2 && o.dims.size() != 3)
    throw SettingError("dims", ": a stencil has 2 or 3 dimensions");
  long long ranks = 1;
  for (int d : o.dims) {
    if (d < 1) throw SettingError("dims", ": every extent must be at least 1");
    ranks *= d;
  }
  if (ranks > 100000000) throw SettingError("dims", ": more than 1e8 ranks");
  checkIterations(o.iterations);
  const auto offsets = stencilOffsets(static_cast<int>(o.dims.size()), o.points);
  std::ostringstream description;
  description << o.points << "-point stencil on ";
  for (std::size_t a = 0; a < o.dims.size(); ++a) description << (a ? "x" : "") << o.dims[a];
  description << (o.periodic ? " (periodic), " : " (not periodic), ") << o.bytes
              << " bytes per message; tag = direction index";
  std::ostringstream out;
  writeHeader(out, static_cast<int>(ranks), description.str());
  for (int it = 0; it < o.iterations; ++it)
    for (int r = 0; r < ranks; ++r) {
      out << r << " iteration\n";
      if (o.style == ExchangeStyle::Isend) {
        for (std::size_t k = 0; k < offsets.size(); ++k) {
          const int from = neighbour(o.dims, o.periodic, r, negated(offsets[k]));
          if (from >= 0)
            out << r << " irecv " << from << ' ' << o.bytes << ' ' << k << " r" << k << '\n';
        }
        for (std::size_t k = 0; k < offsets.size(); ++k) {
          const int to = neighbour(o.dims, o.periodic, r, offsets[k]);
          if (to >= 0)
            out << r << " isend " << to << ' ' << o.bytes << ' ' << k << " s" << k << '\n';
        }
        out << r << " waitall\n";
        continue;
      }
      for (std::size_t k = 0; k < offsets.size(); ++k) {
        const int to = neighbour(o.dims, o.periodic, r, offsets[k]);
        const int from = neighbour(o.dims, o.periodic, r, negated(offsets[k]));
        if (to >= 0 && from >= 0)
          out << r << " sendrecv " << to << ' ' << o.bytes << ' ' << from << ' ' << o.bytes << ' '
              << k << '\n';
        else if (to >= 0)
          out << r << " send " << to << ' ' << o.bytes << ' ' << k << '\n';
        else if (from >= 0)
          out << r << " recv " << from << ' ' << o.bytes << ' ' << k << '\n';
      }
    }
  return out.str();
}

std::string generateAlltoallTrace(const AlltoallOptions& o) {
  if (o.ranks < 1 || o.group < 1 || o.ranks % o.group != 0)
    throw SettingError("group", " " + std::to_string(o.group) + " must divide the ranks, " +
                                    std::to_string(o.ranks));
  checkIterations(o.iterations);
  std::ostringstream out;
  writeHeader(out, o.ranks,
              "all-to-all (pairwise exchange) within groups of " + std::to_string(o.group) +
                  " consecutive ranks, " + std::to_string(o.bytes) + " bytes per message");
  for (int it = 0; it < o.iterations; ++it)
    for (int r = 0; r < o.ranks; ++r) {
      out << r << " iteration\n";
      const int base = r - r % o.group, local = r % o.group;
      for (int k = 1; k < o.group; ++k) {
        const int to = base + (local + k) % o.group;
        const int from = base + (local - k + o.group) % o.group;
        if (o.style == ExchangeStyle::Sendrecv) {
          out << r << " sendrecv " << to << ' ' << o.bytes << ' ' << from << ' ' << o.bytes << ' '
              << k << '\n';
        } else {
          out << r << " irecv " << from << ' ' << o.bytes << ' ' << k << " r" << k << '\n';
          out << r << " isend " << to << ' ' << o.bytes << ' ' << k << " s" << k << '\n';
        }
      }
      if (o.style == ExchangeStyle::Isend) out << r << " waitall\n";
    }
  return out.str();
}

std::string generateRandomTrace(const RandomPatternOptions& o) {
  if (o.ranks < 2) throw SettingError("ranks", " must be at least 2");
  if (o.degree < 1 || o.degree >= o.ranks)
    throw SettingError("degree", " must be from 1 to ranks - 1");
  if (o.maxBytes != 0 && o.maxBytes < o.bytes)
    throw SettingError("max bytes", " must be at least the bytes");
  checkIterations(o.iterations);
  Rng rng(o.seed);
  // One pattern, repeated every iteration: destinations and sizes drawn once.
  std::vector<std::vector<std::pair<int, std::uint64_t>>> sends(o.ranks), recvs(o.ranks);
  for (int r = 0; r < o.ranks; ++r) {
    std::set<int> chosen;
    while (static_cast<int>(chosen.size()) < o.degree) {
      const int to = static_cast<int>(rng.below(o.ranks - 1));
      chosen.insert(to >= r ? to + 1 : to);
    }
    for (int to : chosen) {
      const std::uint64_t bytes =
          o.maxBytes > o.bytes ? o.bytes + rng.below(o.maxBytes - o.bytes + 1) : o.bytes;
      sends[r].emplace_back(to, bytes);
      recvs[to].emplace_back(r, bytes);
    }
  }
  std::ostringstream out;
  writeHeader(out, o.ranks,
              "random sparse pattern: " + std::to_string(o.degree) +
                  " destinations per rank, seed " + std::to_string(o.seed));
  for (int it = 0; it < o.iterations; ++it)
    for (int r = 0; r < o.ranks; ++r) {
      out << r << " iteration\n";
      for (std::size_t i = 0; i < recvs[r].size(); ++i)
        out << r << " irecv " << recvs[r][i].first << ' ' << recvs[r][i].second << " 0 r" << i
            << '\n';
      for (std::size_t i = 0; i < sends[r].size(); ++i)
        out << r << " isend " << sends[r][i].first << ' ' << sends[r][i].second << " 0 s" << i
            << '\n';
      out << r << " waitall\n";
    }
  return out.str();
}

}  // namespace tac3map
