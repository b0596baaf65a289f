#include "tac3map/io/error.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>

namespace tac3map {

namespace {

// A quote that opens a quoted token: at the start, or after a space, '(', '[', '=' or ':'
// (an apostrophe inside a word, as in "rank's", opens nothing); the token ends at the same
// quote character followed by the end, a space or punctuation.
bool opens(const std::string& text, std::size_t i) {
  if (text[i] != '\'' && text[i] != '"') return false;
  if (i == 0) return true;
  const char before = text[i - 1];
  return before == ' ' || before == '(' || before == '[' || before == '=' || before == ':';
}

std::size_t closing(const std::string& text, std::size_t open) {
  for (std::size_t j = open + 1; j < text.size(); ++j)
    if (text[j] == text[open] &&
        (j + 1 == text.size() ||
         std::string_view(" ,.;:)]!?").find(text[j + 1]) != std::string_view::npos))
      return j;
  return std::string::npos;
}

}  // namespace

std::string shortenedMessage(const std::string& message) {
  // Each quoted token: at most kMaxQuotedLength characters of it.
  std::string text;
  text.reserve(std::min(message.size(), 4 * kMaxErrorLength));
  std::size_t noSingle = std::string::npos, noDouble = std::string::npos;
  for (std::size_t i = 0; i < message.size(); ++i) {
    // A word (letters, digits, '_') longer than a token may be: cut too (an unquoted number).
    if (std::isalnum(static_cast<unsigned char>(message[i])) || message[i] == '_') {
      std::size_t j = i;
      while (j < message.size() &&
             (std::isalnum(static_cast<unsigned char>(message[j])) || message[j] == '_'))
        ++j;
      if (j - i > kMaxQuotedLength) {
        text.append(message, i, kMaxQuotedLength - 3);
        text += "...";
      } else {
        text.append(message, i, j - i);
      }
      i = j - 1;
      continue;
    }
    // A quote with no closing one after it has none after any later position either: the
    // search is not repeated (a 50 MB line of quotes stays linear).
    std::size_t end = std::string::npos;
    if (opens(message, i)) {
      std::size_t& none = message[i] == '"' ? noDouble : noSingle;
      if (i < none) {
        end = closing(message, i);
        if (end == std::string::npos) none = i;
      }
    }
    if (end == std::string::npos || end - i - 1 <= kMaxQuotedLength) {
      text += message[i];
      continue;
    }
    text += message[i];
    text.append(message, i + 1, kMaxQuotedLength - 3);
    text += "...";
    text += message[end];
    i = end;
  }
  if (text.size() <= kMaxErrorLength) return text;
  const std::size_t head = kMaxErrorLength * 2 / 3, tail = kMaxErrorLength / 5;
  std::string shortened = text.substr(0, head);
  shortened += " ... [";
  shortened += std::to_string(text.size() - head - tail);
  shortened += " characters left out] ... ";
  shortened += text.substr(text.size() - tail);
  return shortened;
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
