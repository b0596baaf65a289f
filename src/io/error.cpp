#include "tac3map/io/error.hpp"

namespace tac3map {

std::string shortenedMessage(const std::string& message) {
  if (message.size() <= kMaxErrorLength) return message;
  const std::size_t head = kMaxErrorLength * 7 / 10, tail = kMaxErrorLength / 5;
  std::string text = message.substr(0, head);
  text += "... [";
  text += std::to_string(message.size() - head - tail);
  text += " characters left out] ...";
  text += message.substr(message.size() - tail);
  return text;
}

void failLimit(const std::string& file, std::size_t line, const std::string& message) {
  if (line == 0) throw LimitError(file + ": " + message);
  throw LimitError(file + ":" + std::to_string(line) + ": " + message);
}

void failAt(const std::string& file, std::size_t line, const std::string& message) {
  throw InputError(file + ":" + std::to_string(line) + ": " + message);
}

void failIn(const std::string& file, const std::string& message) {
  throw InputError(file + ": " + message);
}

}  // namespace tac3map
