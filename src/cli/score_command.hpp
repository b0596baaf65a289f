// tac3map score: mappings (files or names) scored against a trace, side by side (docs/score.md).
#pragma once

#include <string>
#include <vector>

#include "common_options.hpp"
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

Command addScoreCommand(CLI::App& app, Deprecations& deprecated);
int runScore(const ScoreOptions& options);

}  // namespace tac3map::cli
