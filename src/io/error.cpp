#include "tac3map/io/error.hpp"

namespace tac3map {

void failAt(const std::string& file, std::size_t line, const std::string& message) {
  throw InputError(file + ":" + std::to_string(line) + ": " + message);
}

void failIn(const std::string& file, const std::string& message) {
  throw InputError(file + ": " + message);
}

}  // namespace tac3map
