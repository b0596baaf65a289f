// tac3map predict: one iteration's time under a mapping, from a measured profile
// (docs/predict.md).
#pragma once

#include <string>

#include "common_options.hpp"
#include "tac3map/pipeline/inputs.hpp"

namespace tac3map::cli {

struct PredictOptionsCli {
  TraceInput input;
  BoxInput box;
  std::string mapping;
  std::string profile;
  std::string model = "piecewise";
  bool barriers = false;
  bool collectivesCompare = false;
  std::string format = "text";  // text | json
  bool json = false;            // the same as format json
};

Command addPredictCommand(CLI::App& app, Deprecations& deprecated);
int runPredict(const PredictOptionsCli& options);

}  // namespace tac3map::cli
