// Error type for bad user input. Every message is one line that names where the problem is
// (file and line, or file and JSON path) and what is wrong, so the command can print it as is.
#pragma once

#include <stdexcept>
#include <string>

namespace tac3map {

// A token quoted from the input ('...' or "...") or a word (an unquoted number) keeps at most
// kMaxQuotedLength characters,
// and a message longer than kMaxErrorLength keeps its start and end: a 50 MB token quoted
// from a bad file must not be echoed whole, and one line of error stays readable.
inline constexpr std::size_t kMaxQuotedLength = 80;
inline constexpr std::size_t kMaxErrorLength = 280;  // "tac3map: error: " + it < 300
std::string shortenedMessage(const std::string& message);

class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message) : std::runtime_error(shortenedMessage(message)) {}
};

// A bad value of one of a job's settings, named as the library names it ("shape", "chains",
// "ranks per node"): what() reads "shape 2x2: expected 6 values ..." for a program that embeds
// the library; the command line names its option instead ("--shape 2x2: ...", cli/main.cpp),
// so that only cli/ knows flag names.
class SettingError : public InputError {
 public:
  // `rest` follows the setting's name: " 2x2: expected 6 values", " must be at least 1".
  SettingError(const std::string& setting, const std::string& rest)
      : InputError(setting + rest), setting_(setting), rest_(shortenedMessage(rest)) {}
  const std::string& setting() const { return setting_; }
  const std::string& rest() const { return rest_; }

 private:
  std::string setting_, rest_;
};

// Input beyond one of tac3map's resource limits (limits.hpp, docs/limits.md): a small file
// asking for more ranks, nodes or messages than tac3map handles. The command exits with 3
// (too large) instead of 1.
class LimitError : public InputError {
 public:
  using InputError::InputError;
};

// "file:line: message" as a LimitError; line 0: "file: message".
[[noreturn]] void failLimit(const std::string& file, std::size_t line, const std::string& message);

// "file:line: message"
[[noreturn]] void failAt(const std::string& file, std::size_t line, const std::string& message);
// "file: message"
[[noreturn]] void failIn(const std::string& file, const std::string& message);

}  // namespace tac3map
