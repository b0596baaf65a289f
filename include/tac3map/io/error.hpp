// Error type for bad user input. Every message is one line that names where the problem is
// (file and line, or file and JSON path) and what is wrong, so the command can print it as is.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace tac3map {

// A token quoted from the input ('...' or "...") or a word (an unquoted number) keeps at most
// kMaxQuotedLength characters,
// and a message longer than kMaxErrorLength keeps its start and end: a 50 MB token quoted
// from a bad file must not be echoed whole, and one line of error stays readable.
inline constexpr std::size_t kMaxQuotedLength = 80;
inline constexpr std::size_t kMaxErrorLength = 280;  // "tac3map: error: " + it < 300
std::string shortenedMessage(const std::string& message);

// A setting of the job named inside a message, in the library's words ("shape", "cores per
// node"): settingName wraps the words in markers that no message shows. what() reads the words
// ("cores per node 2 is less than ranks per node 3"), for a program that embeds the library;
// the command line renders each as the option that sets it ("--cores-per-node 2 is less than
// --ranks-per-node 3", cli/main.cpp), so that only cli/ knows flag names.
std::string settingName(std::string_view words);

class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message) : InputError(shortenedMessage(message), 0) {}

  // The message with each setting named by nameOf(its words).
  std::string rendered(const std::function<std::string(const std::string&)>& nameOf) const;
  // The message with its settings still marked: a message that quotes this one (failIn(file,
  // e.message())) keeps them names, where quoting what() would leave their words.
  const std::string& message() const { return message_; }

 private:
  InputError(std::string marked, int);
  std::string message_;  // shortened, settings marked
};

// A message that starts with a setting: SettingError("shape", " 2x2: expected 6 values"),
// what() "shape 2x2: expected 6 values ...", on the command line "--shape 2x2: ...".
class SettingError : public InputError {
 public:
  // `rest` follows the setting's name: " 2x2: expected 6 values", " must be at least 1".
  SettingError(const std::string& setting, const std::string& rest)
      : InputError(settingName(setting) + rest) {}
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
