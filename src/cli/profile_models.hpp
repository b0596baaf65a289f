// The profile's message and memory-copy models, as predict and score --profile use them.
#pragma once

#include <string>

#include "tac3map/model/model.hpp"
#include "tac3map/model/predict.hpp"
#include "tac3map/model/profile.hpp"
#include "tac3map/network/machine.hpp"

namespace tac3map::cli {

struct ProfileModels {
  Profile profile;
  TimeModel message, copy;
  ProfileModels(const std::string& path, const std::string& kind)
      : profile(loadProfile(path)),
        message(profile.pingpong, parseModelKind(kind), profile.source + ": pingpong"),
        copy(profile.memcpy, parseModelKind(kind), profile.source + ": memcpy") {}
  PredictModel with(const Machine& machine, const Model& network) const {
    return {message, copy, machine.hopLatency, network};
  }
};

}  // namespace tac3map::cli
