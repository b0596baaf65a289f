// Numbers written into files that other programs read back (CSV, SimGrid XML and traces): the
// shortest text that reads back as the same double, so nothing is lost in a round trip.
#pragma once

#include <charconv>
#include <string>

namespace tac3map {

inline std::string exactNumber(double value) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

}  // namespace tac3map
