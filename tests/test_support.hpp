// Helpers shared by the tests: paths of shipped files and small inline inputs.
#pragma once

#include <cstdlib>
#include <sstream>
#include <string>

#include "tac3map/base/random.hpp"
#include "tac3map/io/trace.hpp"
#include "tac3map/model/ccs.hpp"
#include "tac3map/model/objective.hpp"
#include "tac3map/network/machine.hpp"

namespace tac3map::testing {

// Set (TAC3MAP_SANITIZED=1) by scripts/test-sanitizers.sh, whose ASan + UBSan build runs the
// suite several times slower: the heaviest randomized tests then take fewer random steps.
inline bool underSanitizers() {
  static const bool set = [] {
    const char* value = std::getenv("TAC3MAP_SANITIZED");
    return value != nullptr && *value != '\0' && std::string(value) != "0";
  }();
  return set;
}

inline std::string sourcePath(const std::string& relative) {
  return std::string(TAC3MAP_SOURCE_DIR) + "/" + relative;
}

inline Machine fx10() {
  return loadMachine(sourcePath("topologies/fx10.json"));
}

inline Trace traceFromText(const std::string& text, const TraceOptions& options = {}) {
  std::istringstream in(text);
  return parseTrace(in, "test.trace", options);
}

// A machine given inline: sizes and wrap flags per axis, routing in axis order.
inline Machine simpleMachine(const std::vector<int>& sizes, const std::vector<bool>& wraps) {
  std::ostringstream axes, order;
  for (std::size_t a = 0; a < sizes.size(); ++a) {
    axes << (a ? "," : "") << "{\"name\":\"A" << a << "\",\"size\":" << sizes[a]
         << ",\"wrap\":" << (wraps[a] ? "true" : "false") << "}";
    order << (a ? "," : "") << "\"A" << a << "\"";
  }
  return parseMachine("{\"name\":\"test\",\"axes\":[" + axes.str() + "],\"routing_order\":[" +
                          order.str() + "],\"link_bandwidth\":1e9,\"hop_latency\":0}",
                      "test.json");
}

// `sets` with `extra` copies of random sets of it inserted at random places, each copy's
// messages in another order (a whole run repeats its iteration's sets; problem.hpp merges
// them).
inline void addRepeats(CcsSet& sets, int extra, Rng& rng) {
  for (int k = 0; k < extra && !sets.sets.empty(); ++k) {
    std::vector<Communication> copy = sets.sets[rng.below(sets.sets.size())];
    for (std::size_t i = copy.size(); i > 1; --i) std::swap(copy[i - 1], copy[rng.below(i)]);
    sets.sets.insert(
        sets.sets.begin() + static_cast<std::ptrdiff_t>(rng.below(sets.sets.size() + 1)),
        std::move(copy));
  }
}

// Random CCSs in which a task may send and receive several messages (as a level does with
// several engines), sizes from a small set (one size per CCS when `oneSizePerSet`, else
// every other CCS of mixed sizes); levels 0, 1, ... with a barrier before level 2.
inline Problem randomModelProblem(int tasks, int ccsCount, Rng& rng, const Model& model,
                                  bool oneSizePerSet = false) {
  CcsSet sets;
  sets.barrierLevels = {2};
  sets.tasks = tasks;
  const std::uint64_t sizes[] = {1024, 4096, 65536, 65536};
  for (int t = 0; t < ccsCount; ++t) {
    std::vector<Communication> set;
    const int messages = tasks + static_cast<int>(rng.below(tasks));
    const bool oneSize = oneSizePerSet || t % 2 == 0;
    for (int i = 0; i < messages; ++i) {
      const int src = static_cast<int>(rng.below(tasks));
      int dst = static_cast<int>(rng.below(tasks - 1));
      if (dst >= src) ++dst;
      set.push_back({src, dst, oneSize ? 65536 : sizes[rng.below(4)]});
      set.back().level = t;
    }
    sets.sets.push_back(set);
  }
  addRepeats(sets, ccsCount / 2, rng);  // merged where the model allows (problem.hpp)
  return makeProblem(sets, model);
}

}  // namespace tac3map::testing
