// Fuzz target: the ping-pong profile reader (docs/predict.md), then both time models.
#include "fuzz_support.hpp"
#include "tac3map/model/profile.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tac3map;
  return fuzz::onlyInputErrors([&] {
    const Profile profile = parseProfile(std::string(fuzz::text(data, size)), "fuzz.json");
    for (ModelKind kind : {ModelKind::Piecewise, ModelKind::Linear}) {
      const TimeModel pingpong(profile.pingpong, kind, "pingpong");
      const TimeModel memcpy(profile.memcpy, kind, "memcpy");
      for (double bytes : {0.0, 1.0, 4096.0, 1e12}) {
        pingpong.seconds(bytes);
        memcpy.seconds(bytes);
      }
    }
  });
}
