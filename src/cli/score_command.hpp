// tac3map score: mappings (files or names) scored against a trace, side by side (docs/score.md).
#pragma once

#include <string>
#include <vector>

#include "tac3map/pipeline/inputs.hpp"

namespace tac3map::cli {

struct ScoreOptions {
  TraceInput input;
  BoxInput box;
  std::vector<std::string> mappings;
  std::string format = "table";  // --output-format: table | json | csv
  bool json = false;             // the same as --output-format json
  std::string profile;           // adds the predicted time
  std::string model = "piecewise";
  std::string baseline;  // the mapping the ratios are taken against; "" = the first
};

int runScore(const ScoreOptions& options);

}  // namespace tac3map::cli
