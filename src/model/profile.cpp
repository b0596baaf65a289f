#include "tac3map/model/profile.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "tac3map/io/error.hpp"
#include "tac3map/io/json_input.hpp"

namespace tac3map {
namespace {

using nlohmann::json;

std::vector<Sample> readSamples(const json& doc, const char* key, const std::string& source) {
  const json& list = jsonField(doc, key, "top level", source);
  if (!list.is_array() || list.size() < 2)
    failIn(source, std::string(key) + ": expected a list of at least two {bytes, seconds}");
  std::vector<Sample> samples;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string where = std::string(key) + "[" + std::to_string(i) + "]";
    const json& bytes = jsonField(list[i], "bytes", where, source);
    const json& seconds = jsonField(list[i], "seconds", where, source);
    if (!bytes.is_number_unsigned()) failIn(source, where + ".bytes: expected a byte count");
    if (!seconds.is_number() || !(seconds.get<double>() >= 0))
      failIn(source, where + ".seconds: expected a non-negative number");
    samples.push_back({bytes.get<std::uint64_t>(), seconds.get<double>()});
    if (i > 0 && samples[i].bytes <= samples[i - 1].bytes)
      failIn(source, where + ".bytes: sizes must increase");
  }
  return samples;
}

json samplesJson(const std::vector<Sample>& samples) {
  json list = json::array();
  for (const Sample& s : samples) list.push_back({{"bytes", s.bytes}, {"seconds", s.seconds}});
  return list;
}

}  // namespace

Profile parseProfile(const std::string& text, const std::string& source) {
  const json doc = parseJson(text, source);
  if (!doc.is_object()) failIn(source, "top level: expected a JSON object");
  Profile p;
  p.source = source;
  p.name = source;
  if (doc.contains("name")) {
    if (!doc["name"].is_string()) failIn(source, "name: expected a string");
    p.name = doc["name"].get<std::string>();
  }
  p.pingpong = readSamples(doc, "pingpong", source);
  p.memcpy = readSamples(doc, "memcpy", source);
  const json& barrier = jsonField(doc, "barrier_seconds", "top level", source);
  if (!barrier.is_number() || !(barrier.get<double>() >= 0))
    failIn(source, "barrier_seconds: expected a non-negative number");
  p.barrierSeconds = barrier.get<double>();
  return p;
}

Profile loadProfile(const std::string& path) {
  return parseProfile(readWholeFile(path), path);
}

std::string formatProfile(const Profile& p) {
  const json doc = {{"name", p.name},
                    {"pingpong", samplesJson(p.pingpong)},
                    {"memcpy", samplesJson(p.memcpy)},
                    {"barrier_seconds", p.barrierSeconds}};
  return doc.dump(2) + "\n";
}

const EnumNames<ModelKind>& modelKindNames() {
  static const EnumNames<ModelKind> names("time model",
                                          {{ModelKind::Piecewise, "piecewise", ""},
                                           {ModelKind::Linear, "linear", "(least-squares line)"}});
  return names;
}

ModelKind parseModelKind(const std::string& name) {
  return modelKindNames().parse(name);
}

TimeModel::TimeModel(const std::vector<Sample>& samples, ModelKind kind, const std::string& what)
    : samples_(samples), kind_(kind) {
  if (samples_.size() < 2) throw InputError(what + ": needs at least two measured sizes");
  // Least squares: [1 bytes] * [latency, 1/bandwidth]^T = seconds.
  Eigen::MatrixXd a(samples_.size(), 2);
  Eigen::VectorXd b(samples_.size());
  for (std::size_t i = 0; i < samples_.size(); ++i) {
    a(static_cast<Eigen::Index>(i), 0) = 1.0;
    a(static_cast<Eigen::Index>(i), 1) = static_cast<double>(samples_[i].bytes);
    b(static_cast<Eigen::Index>(i)) = samples_[i].seconds;
  }
  const Eigen::Vector2d fit = a.colPivHouseholderQr().solve(b);
  latency_ = fit(0);
  bandwidth_ = fit(1) > 0 ? 1.0 / fit(1) : std::numeric_limits<double>::infinity();
}

double TimeModel::seconds(double bytes) const {
  if (kind_ == ModelKind::Linear) return std::max(0.0, latency_ + bytes / bandwidth_);
  // The segment whose ends surround `bytes`, or the first/last one outside the measured range.
  std::size_t k = 1;
  while (k + 1 < samples_.size() && static_cast<double>(samples_[k].bytes) < bytes) ++k;
  const Sample& lo = samples_[k - 1];
  const Sample& hi = samples_[k];
  const double x0 = static_cast<double>(lo.bytes), x1 = static_cast<double>(hi.bytes);
  const double t = lo.seconds + (hi.seconds - lo.seconds) * (bytes - x0) / (x1 - x0);
  return std::max(0.0, t);
}

}  // namespace tac3map
