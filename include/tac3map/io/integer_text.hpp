// The one way a whole word becomes an integer, for every reader and option: digits with a
// '-' for signed types, no '+', no spaces, no trailing text, within the type's range. A caller
// that gets nothing says what it expected and where (its file and line, or its option).
#pragma once

#include <charconv>
#include <optional>
#include <string_view>

namespace tac3map {

template <class T>
std::optional<T> wholeInteger(std::string_view word) {
  T value{};
  const char* end = word.data() + word.size();
  const auto [last, error] = std::from_chars(word.data(), end, value);
  if (word.empty() || error != std::errc() || last != end) return std::nullopt;
  return value;
}

}  // namespace tac3map
