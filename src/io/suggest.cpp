#include "tac3map/io/suggest.hpp"

#include <algorithm>

namespace tac3map {

int editDistance(const std::string& a, const std::string& b) {
  // d[i][j]: edits from a's first i characters to b's first j, kept as three rows.
  const std::size_t n = a.size(), m = b.size();
  std::vector<int> before(m + 1), previous(m + 1), current(m + 1);
  for (std::size_t j = 0; j <= m; ++j) previous[j] = static_cast<int>(j);
  for (std::size_t i = 1; i <= n; ++i) {
    current[0] = static_cast<int>(i);
    for (std::size_t j = 1; j <= m; ++j) {
      const int replace = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, replace});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        current[j] = std::min(current[j], before[j - 2] + 1);
    }
    before.swap(previous);
    previous.swap(current);
  }
  return previous[m];
}

std::string closestName(const std::string& word, const std::vector<std::string>& names) {
  const int allowed = word.size() <= 4 ? 1 : 2;
  std::string best;
  int bestDistance = allowed + 1;
  for (const std::string& name : names) {
    const int d = editDistance(word, name);
    if (d < bestDistance) bestDistance = d, best = name;
  }
  if (!best.empty() || word.size() < 3) return best;
  std::vector<std::string> extending;
  for (const std::string& name : names)
    if (name.size() > word.size() && name.compare(0, word.size(), word) == 0)
      extending.push_back(name);
  return extending.size() == 1 ? extending.front() : "";
}

std::string didYouMean(const std::string& word, const std::vector<std::string>& names) {
  const std::string name = closestName(word, names);
  return name.empty() ? "" : " (did you mean '" + name + "'?)";
}

}  // namespace tac3map
