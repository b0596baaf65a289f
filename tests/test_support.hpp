// Helpers shared by the tests: paths of shipped files and small inline inputs.
#pragma once

#include <sstream>
#include <string>

#include "tac3map/machine.hpp"
#include "tac3map/trace.hpp"

namespace tac3map::testing {

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

}  // namespace tac3map::testing
