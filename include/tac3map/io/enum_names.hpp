// An enum's names in one table: reading a name (with a "did you mean" for a misspelt one),
// the name of a value, and the list a help text or a choice check shows, so that an option's
// parse, its --help and its check cannot disagree. The error names what the value is ("trace
// format 'x': expected ..."); the command line, which knows the flag, checks first and names
// the flag itself (cli/usage.hpp, choiceOf).
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "tac3map/io/error.hpp"
#include "tac3map/io/suggest.hpp"

namespace tac3map {

// "a, b or c": a list of names for a sentence.
inline std::string namesInWords(const std::vector<std::string>& names) {
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i)
    text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return text;
}

// Why `text` is none of `names` ("'x': expected a, b or c (did you mean 'b'?)"), or "" if it
// is one of them.
inline std::string notOneOf(const std::string& text, const std::vector<std::string>& names) {
  for (const std::string& name : names)
    if (text == name) return "";
  return "'" + text + "': expected " + namesInWords(names) + didYouMean(text, names);
}

template <class E>
class EnumNames {
 public:
  struct Entry {
    E value;
    std::string name;
    std::string help;  // what --help says after the name ("(any node)"); may be empty
  };

  // `what`: what a value is, for messages ("trace format").
  EnumNames(std::string what, std::vector<Entry> entries)
      : what_(std::move(what)), entries_(std::move(entries)) {}

  const std::string& what() const { return what_; }
  const std::vector<Entry>& entries() const { return entries_; }

  std::optional<E> find(const std::string& text) const {
    for (const Entry& e : entries_)
      if (e.name == text) return e.value;
    return std::nullopt;
  }
  E parse(const std::string& text) const {
    if (const std::optional<E> value = find(text)) return *value;
    throw InputError(what_ + " " + notOneOf(text, names()));
  }
  const std::string& name(E value) const {
    for (const Entry& e : entries_)
      if (e.value == value) return e.name;
    throw std::logic_error("a " + what_ + " without a name in its table");
  }
  std::vector<std::string> names() const {
    std::vector<std::string> list;
    for (const Entry& e : entries_) list.push_back(e.name);
    return list;
  }
  // "a (help) | b | c (help)", for --help.
  std::string help() const {
    std::string text;
    for (const Entry& e : entries_)
      text += (text.empty() ? "" : " | ") + e.name + (e.help.empty() ? "" : " " + e.help);
    return text;
  }

 private:
  std::string what_;
  std::vector<Entry> entries_;
};

}  // namespace tac3map
