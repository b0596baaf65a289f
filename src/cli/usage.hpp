// What every subcommand's command line shares beyond CLI11: old option spellings that keep
// working with a note (Deprecations), "did you mean" after a parse error (usageError), and
// --quiet (report(), report.hpp).
#pragma once

#include <CLI/CLI.hpp>
#include <exception>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "report.hpp"
#include "tac3map/io/enum_names.hpp"

namespace tac3map::cli {

// Old spellings of renamed options (docs/cli.md, "Renamed options"): each is an option of its
// own, bound to the same variable as its new name, hidden from --help. A run that uses one
// gets one note per spelling on stderr, even with --quiet (a script should be updated).
class Deprecations {
 public:
  template <typename T>
  CLI::Option* add(CLI::App& app, const std::string& oldName, const std::string& newName,
                   T& variable, const std::string& description) {
    CLI::Option* option = app.add_option(oldName, variable, description)->group("");
    options_.push_back({option, oldName, newName});
    return option;
  }
  // After parsing: "tac3map: note: --format is deprecated; use --trace-format" for each used.
  void warn(std::ostream& err) const;

 private:
  struct Renamed {
    CLI::Option* option;
    std::string oldName, newName;
  };
  std::vector<Renamed> options_;
};

// The one-line message for a CLI11 parse error: "tac3map: error: ", then "unknown option
// '--shpae' (did you mean '--shape'?)" for the first unknown subcommand or option of `args`
// (argv without the program name), else CLI11's text, then the --help of the subcommand.
std::string usageError(const CLI::App& app, const std::vector<std::string>& args,
                       const std::string& message);
// The error line for a word where a command is expected that names none (`tac3map nosuch
// --help`: CLI11 answers --help before it looks at the word), else nothing.
std::optional<std::string> unknownCommandError(const CLI::App& app,
                                               const std::vector<std::string>& args);

// The check of an option whose value is one of a table's names (enum_names.hpp): CLI11 then
// says "--moves: 'globl': expected global, local or auto (did you mean 'global'?)".
CLI::Validator choiceOf(const std::vector<std::string>& names);
template <class E>
CLI::Validator choiceOf(const EnumNames<E>& table) {
  return choiceOf(table.names());
}

// The option that sets a library setting (io/error.hpp, settingName): "--" and its words
// joined by '-' ("ranks per node": --ranks-per-node), or its own name where they differ
// ("initial temperature": --t0).
std::string optionOf(const std::string& setting);

// `error`'s message as the command prints it: an InputError's settings named by their options
// (optionOf), any other error's what().
std::string commandLineMessage(const std::exception& error);

// A check for unsigned options (seeds, byte counts): a negative value is a usage error.
const CLI::Validator& nonNegative();

}  // namespace tac3map::cli
