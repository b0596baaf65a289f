// Random deadlock-free programs in the native format, for the tests of the CCS extraction
// (ccs_reference_test.cpp, level_simulation_test.cpp).
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "tac3map/base/random.hpp"

namespace tac3map::testing {

// Writes a random program: phases of disjoint pairs exchanging (or sending one way) with a
// random idiom; some isends are waited for one phase late; some phases end in a barrier.
inline std::string randomProgram(int ranks, int phases, Rng& rng) {
  std::vector<std::vector<std::string>> lines(ranks);
  std::vector<std::vector<std::string>> lateWaits(ranks);
  int request = 0;
  auto newRequest = [&request] {
    std::string name = "q";
    name += std::to_string(request++);
    return name;
  };
  for (int phase = 0; phase < phases; ++phase) {
    std::vector<int> order(ranks);
    for (int i = 0; i < ranks; ++i) order[i] = i;
    for (int i = ranks - 1; i > 0; --i) std::swap(order[i], order[rng.below(i + 1)]);
    std::vector<std::vector<std::string>> late(ranks);
    for (int k = 0; k + 1 < ranks; k += 2) {
      if (rng.below(5) == 0) continue;
      const int a = order[k], b = order[k + 1];
      const std::string bytes = std::to_string(1 + rng.below(3) * 1000);
      const std::string tag = std::to_string(rng.below(2));
      auto& la = lines[a];
      auto& lb = lines[b];
      switch (rng.below(5)) {
        case 0:  // sendrecv exchange
          la.push_back("sendrecv " + std::to_string(b) + " " + bytes + " " + std::to_string(b) +
                       " " + bytes + " " + tag);
          lb.push_back("sendrecv " + std::to_string(a) + " " + bytes + " " + std::to_string(a) +
                       " " + bytes + " " + tag);
          break;
        case 1:  // irecv + send + wait on both sides
          for (auto [self, peer] : {std::pair{a, b}, std::pair{b, a}}) {
            const std::string r = newRequest();
            lines[self].push_back("irecv " + std::to_string(peer) + " " + bytes + " " + tag + " " +
                                  r);
            lines[self].push_back("send " + std::to_string(peer) + " " + bytes + " " + tag);
            lines[self].push_back("wait " + r);
          }
          break;
        case 2:  // irecv + isend + waitall
          for (auto [self, peer] : {std::pair{a, b}, std::pair{b, a}}) {
            const std::string r = newRequest();
            const std::string s = newRequest();
            lines[self].push_back("irecv " + std::to_string(peer) + " " + bytes + " " + tag + " " +
                                  r);
            lines[self].push_back("isend " + std::to_string(peer) + " " + bytes + " " + tag + " " +
                                  s);
            // A waitall would also complete a request this rank waits for later.
            if (lateWaits[self].empty()) {
              lines[self].push_back("waitall");
            } else {
              lines[self].push_back("wait " + r);
              lines[self].push_back("wait " + s);
            }
          }
          break;
        case 3:  // one-way blocking send, received blocking
          la.push_back("send " + std::to_string(b) + " " + bytes + " " + tag);
          lb.push_back("recv " + std::to_string(a) + " " + bytes + " " + tag);
          break;
        default: {  // isend waited one phase later, received blocking
          const std::string r = newRequest();
          la.push_back("isend " + std::to_string(b) + " " + bytes + " " + tag + " " + r);
          late[a].push_back("wait " + r);
          lb.push_back("recv " + std::to_string(a) + " " + bytes + " " + tag);
        }
      }
    }
    for (int r = 0; r < ranks; ++r) {
      for (const auto& w : lateWaits[r]) lines[r].push_back(w);
      lateWaits[r] = late[r];
    }
    if (rng.below(4) == 0)
      for (auto& l : lines) l.push_back("barrier");
  }
  for (int r = 0; r < ranks; ++r)
    for (const auto& w : lateWaits[r]) lines[r].push_back(w);
  std::ostringstream out;
  out << "tac3map-trace 1\nranks " << ranks << "\n";
  for (int r = 0; r < ranks; ++r)
    for (const auto& l : lines[r]) out << r << " " << l << "\n";
  return out.str();
}

}  // namespace tac3map::testing
