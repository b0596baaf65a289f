// Measured communication and memory-copy times (a profile, docs/predict.md) and the models
// that turn a message size into seconds: piecewise-linear through the measured points (the
// seed papers' model) or a least-squares line latency + bytes / bandwidth.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tac3map/io/enum_names.hpp"

namespace tac3map {

struct Sample {
  std::uint64_t bytes = 0;
  double seconds = 0;
};

struct Profile {
  std::string source;  // file, for messages
  std::string name;
  std::vector<Sample> pingpong;  // one-way time of one message over one hop
  std::vector<Sample> memcpy;    // one memory copy, fresh (uncached) buffers
  double barrierSeconds = 0;     // one barrier over the job
};

Profile loadProfile(const std::string& path);
Profile parseProfile(const std::string& text, const std::string& source);
std::string formatProfile(const Profile& profile);  // JSON, as loadProfile reads it

enum class ModelKind { Piecewise, Linear };
// The names of time model values (enum_names.hpp): parse, name, --help and choice checks.
const EnumNames<ModelKind>& modelKindNames();
ModelKind parseModelKind(const std::string& name);

// seconds(bytes). Piecewise: linear interpolation between the two nearest measured sizes,
// extrapolated from the last (or first) two outside them. Linear: the least-squares fit
// seconds = latency + bytes / bandwidth over all samples (Eigen).
class TimeModel {
 public:
  TimeModel(const std::vector<Sample>& samples, ModelKind kind, const std::string& what);
  double seconds(double bytes) const;
  double latency() const { return latency_; }      // the fitted line's (both kinds)
  double bandwidth() const { return bandwidth_; }  // bytes per second

 private:
  std::vector<Sample> samples_;
  ModelKind kind_;
  double latency_ = 0, bandwidth_ = 0;
};

}  // namespace tac3map
