// "Did you mean": the known name closest to a misspelt one, for the command line (subcommands,
// options) and for input files whose fields are a fixed set (sweep specs). A suggestion is
// only made when it is likely the intended name: a few typing mistakes away, or the one name
// the word starts.
#pragma once

#include <string>
#include <vector>

namespace tac3map {

// Edits (insert, delete, replace, swap two neighbouring characters) from `a` to `b`: the
// optimal string alignment distance.
int editDistance(const std::string& a, const std::string& b);

// The name of `names` closest to `word`: at most 1 edit away for words of up to 4 characters,
// 2 for longer ones (ties: the first listed); else the only name `word` is a prefix of (at
// least 3 characters); else "".
std::string closestName(const std::string& word, const std::vector<std::string>& names);

// " (did you mean 'seeds'?)" or "" when nothing is close: ready to append to an error.
std::string didYouMean(const std::string& word, const std::vector<std::string>& names);

}  // namespace tac3map
