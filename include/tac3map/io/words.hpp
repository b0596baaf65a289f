// Splitting a text line into words for the line-based trace readers, as `in >> word` splits
// it, without a string stream or new strings per line.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

namespace tac3map {

// The whitespace of `in >> word` (the "C" locale's isspace).
inline bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

// The words of `text` up to its first '#' (a comment), into `words`, whose strings are reused
// from one line to the next: no allocation for short words.
inline void splitWords(const std::string& text, std::vector<std::string>& words) {
  const std::size_t end = std::min(text.find('#'), text.size());
  std::size_t count = 0;
  for (std::size_t i = 0; i < end;) {
    if (isSpace(text[i])) {
      ++i;
      continue;
    }
    std::size_t last = i;
    while (last < end && !isSpace(text[last])) ++last;
    if (count == words.size()) words.emplace_back();
    words[count++].assign(text, i, last - i);
    i = last;
  }
  words.resize(count);
}

}  // namespace tac3map
