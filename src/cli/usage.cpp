#include "usage.hpp"

#include <algorithm>

#include "tac3map/io/error.hpp"
#include "tac3map/io/suggest.hpp"

namespace tac3map::cli {

void Deprecations::warn(std::ostream& err) const {
  for (const Renamed& r : options_)
    if (r.option->count() > 0)
      err << "tac3map: note: " << r.oldName << " is deprecated; use " << r.newName
          << " (docs/cli.md)\n";
}

namespace {

// The subcommands of `app` by name, and its visible long options as "--name".
std::vector<std::string> subcommandNames(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    names.push_back(sub->get_name());
  return names;
}

std::vector<std::string> visibleOptionNames(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* option : app.get_options())
    if (!option->get_group().empty())
      for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
  return names;
}

const CLI::App* subcommandNamed(const CLI::App& app, const std::string& name) {
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    if (sub->check_name(name)) return sub;
  return nullptr;
}

}  // namespace

namespace {

// Walks the arguments as CLI11 does: a word naming a subcommand enters it, a long option must
// be one of the current (sub)command's. The first that is neither is the problem (empty when
// none is); `path` is the command reached.
struct Walk {
  std::string path, problem;
  bool unknownCommand = false;
};

Walk walkArguments(const CLI::App& app, const std::vector<std::string>& args) {
  const CLI::App* current = &app;
  Walk w{app.get_name(), "", false};
  for (const std::string& arg : args) {
    if (arg == "--") break;
    if (arg.rfind("--", 0) == 0) {
      const std::string name = arg.substr(0, arg.find('='));
      if (name == "--help") continue;
      if (current->get_option_no_throw(name) == nullptr) {
        w.problem =
            "unknown option '" + name + "'" + didYouMean(name, visibleOptionNames(*current));
        break;
      }
      continue;
    }
    if (!arg.empty() && arg[0] == '-') continue;  // a short option or a negative number
    if (const CLI::App* sub = subcommandNamed(*current, arg)) {
      current = sub;
      w.path += " " + sub->get_name();
      continue;
    }
    // A word where a subcommand is expected (values and positionals never are one).
    if (current->get_require_subcommand_min() > 0) {
      w.problem = "unknown command '" + arg + "'" + didYouMean(arg, subcommandNames(*current));
      w.unknownCommand = true;
      break;
    }
  }
  return w;
}

// One line, as every other error: the help is a command away.
std::string errorLine(const Walk& w, const std::string& problem) {
  return "tac3map: error: " + problem + " (see '" + w.path + " --help')\n";
}

}  // namespace

std::string usageError(const CLI::App& app, const std::vector<std::string>& args,
                       const std::string& message) {
  // CLI11 may have complained first about a required option the typo was meant to give.
  const Walk w = walkArguments(app, args);
  return errorLine(w, w.problem.empty() ? message : w.problem);
}

std::optional<std::string> unknownCommandError(const CLI::App& app,
                                               const std::vector<std::string>& args) {
  const Walk w = walkArguments(app, args);
  if (!w.unknownCommand) return std::nullopt;
  return errorLine(w, w.problem);
}

std::string optionOf(const std::string& setting) {
  static const std::pair<const char*, const char*> kNamed[] = {
      {"initial temperature", "--t0"},
      {"final temperature", "--t-end"},
      {"trials per temperature", "--trials"},
  };
  for (const auto& [name, option] : kNamed)
    if (setting == name) return option;
  std::string option = "--" + setting;
  std::replace(option.begin(), option.end(), ' ', '-');
  return option;
}

std::string commandLineMessage(const std::exception& error) {
  const auto* input = dynamic_cast<const InputError*>(&error);
  return input ? input->rendered(optionOf) : error.what();
}

CLI::Validator choiceOf(const std::vector<std::string>& names) {
  return CLI::Validator([names](std::string& value) { return notOneOf(value, names); }, "",
                        "one of");
}

const CLI::Validator& nonNegative() {
  // CLI11 2.1 reads "-1" into an unsigned option as 2^64 - 1; its NonNegativeNumber check
  // would name the whole double range in its message.
  static const CLI::Validator check(
      [](const std::string& value) {
        return !value.empty() && value[0] == '-' ? "expected a value >= 0, got " + value
                                                 : std::string();
      },
      "");
  return check;
}

}  // namespace tac3map::cli
