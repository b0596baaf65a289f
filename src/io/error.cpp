#include "tac3map/io/error.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <utility>

namespace tac3map {

namespace {

// settingName's markers: control characters, which no message of tac3map's writes.
constexpr char kSettingStart = '\x01', kSettingEnd = '\x02';

// `text` without the markers that have no pair in it (a long message cut in two may cut a
// setting's name).
std::string withPairedMarkers(std::string text) {
  std::size_t open = std::string::npos;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != kSettingStart && text[i] != kSettingEnd) continue;
    if (text[i] == kSettingEnd && open == std::string::npos) {
      text.erase(i--, 1);
    } else if (text[i] == kSettingStart && open != std::string::npos) {
      text.erase(open, 1);
      open = --i;
    } else {
      open = text[i] == kSettingStart ? i : std::string::npos;
    }
  }
  if (open != std::string::npos) text.erase(open, 1);
  return text;
}

// `marked` with each setting replaced by nameOf(its words).
std::string renderSettings(const std::string& marked,
                           const std::function<std::string(const std::string&)>& nameOf) {
  std::string text;
  std::size_t from = 0;
  for (;;) {
    const std::size_t open = marked.find(kSettingStart, from);
    const std::size_t close = open == std::string::npos ? open : marked.find(kSettingEnd, open);
    if (close == std::string::npos) return text.append(marked, from);
    text.append(marked, from, open - from);
    text += nameOf(marked.substr(open + 1, close - open - 1));
    from = close + 1;
  }
}

std::string plainWords(const std::string& setting) {
  return setting;
}

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
  if (text.size() <= kMaxErrorLength) return withPairedMarkers(text);
  const std::size_t head = kMaxErrorLength * 2 / 3, tail = kMaxErrorLength / 5;
  std::string shortened = withPairedMarkers(text.substr(0, head));
  shortened += " ... [";
  shortened += std::to_string(text.size() - head - tail);
  shortened += " characters left out] ... ";
  shortened += withPairedMarkers(text.substr(text.size() - tail));
  return shortened;
}

std::string settingName(std::string_view words) {
  std::string marked(1, kSettingStart);
  marked += words;
  marked += kSettingEnd;
  return marked;
}

InputError::InputError(std::string marked, int)
    : std::runtime_error(renderSettings(marked, plainWords)), message_(std::move(marked)) {}

std::string InputError::rendered(
    const std::function<std::string(const std::string&)>& nameOf) const {
  return renderSettings(message_, nameOf);
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
