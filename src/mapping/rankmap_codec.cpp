#include "rankmap_codec.hpp"

#include <algorithm>
#include <fstream>
#include <limits>
#include <sstream>

#include "tac3map/io/error.hpp"
#include "tac3map/io/integer_text.hpp"
#include "tac3map/io/json_input.hpp"
#include "tac3map/io/limits.hpp"

namespace tac3map::mapfile {

bool parseInt(const std::string& word, long long& value) {
  const std::optional<long long> read = wholeInteger<long long>(word);
  if (read) value = *read;
  return read.has_value();
}

std::vector<int> parseInts(const std::string& text, char separator, const std::string& source,
                           std::size_t line, const std::string& what) {
  std::vector<int> values;
  std::stringstream in(text);
  std::string word;
  while (std::getline(in, word, separator)) {
    long long value = 0;
    if (!parseInt(word, value)) failAt(source, line, what + ": '" + word + "' is not an integer");
    // Checked before narrowing: 4294967296 must not wrap to 0.
    if (value < 0 || value > std::numeric_limits<int>::max())
      failAt(source, line,
             what + ": '" + word + "' is outside 0.." +
                 std::to_string(std::numeric_limits<int>::max()));
    values.push_back(static_cast<int>(value));
  }
  return values;
}

std::vector<Line> meaningfulLines(const std::string& text) {
  std::vector<Line> lines;
  std::istringstream in(text);
  std::string line;
  for (std::size_t n = 1; std::getline(in, line); ++n) {
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    const auto last = line.find_last_not_of(" \t\r");
    lines.push_back({n, line.substr(first, last - first + 1)});
  }
  return lines;
}

const std::string& MapFile::head() const {
  if (lines.empty()) failIn(path, "empty mapping file");
  return lines.front().text;
}

MapFile readMapFile(const std::string& path, int axes) {
  std::ifstream in = openInputFile(path, "mapping file");
  MapFile file;
  file.path = path;
  file.text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  file.lines = meaningfulLines(file.text);
  file.axes = axes;
  return file;
}

const std::string& hostOf(const Machine& machine, const NodeTable* table, int node,
                          const char* format) {
  // The node table's host=NAME, else the machine file's own name of the node.
  if ((!table || table->host[node].empty()) && !machine.hostName(node).empty())
    return machine.hostName(node);
  if (!table)
    throw InputError(std::string(format) + " needs host names: give a node table (" +
                     settingName("nodes") + ")");
  if (table->host[node].empty())
    failIn(table->source, std::string(format) + " needs host=NAME for node " +
                              std::to_string(node) + " of the box");
  return table->host[node];
}

std::map<std::string, int> nodesByHost(const Machine& machine, const NodeTable* table,
                                       const char* format, const std::string& path) {
  std::map<std::string, int> byHost;
  if (machine.namesNodes()) {
    for (int node = 0; node < machine.nodeCount(); ++node)
      byHost.emplace(hostOf(machine, table, node, format), node);
    return byHost;
  }
  if (!table)
    failIn(path, std::string("reading a ") + format +
                     " needs the node table it was written with (" + settingName("nodes") + ")");
  for (int node : table->nodes)
    if (!table->host[node].empty() && !byHost.emplace(table->host[node], node).second)
      failIn(table->source, "host " + table->host[node] + " is on two lines");
  return byHost;
}

int hostNode(const std::map<std::string, int>& byHost, const std::string& host,
             const std::string& source, std::size_t line) {
  const auto it = byHost.find(host);
  if (it == byHost.end()) failAt(source, line, "host '" + host + "' is not in the node table");
  return it->second;
}

std::string writtenWith(MapFormat format, const RankMapOptions& options) {
  std::string text = std::string("# tac3map ") + mapFormatName(format) + " --ranks-per-node " +
                     std::to_string(options.slotsPerNode);
  if (format == MapFormat::OpenmpiRankfile) {
    if (options.coresPerNode > 0)
      text += " --cores-per-node " + std::to_string(options.coresPerNode);
    if (options.bind == RankfileBind::Socket)
      text += " --sockets-per-node " + std::to_string(std::max(1, options.socketsPerNode));
    text += std::string(" --bind ") + rankfileBindName(options.bind);
  }
  return text + "\n";
}

RankMapOptions readWrittenWith(const std::string& text, MapFormat format,
                               const RankMapOptions& fallback, const std::string& source) {
  const std::string prefix = std::string("# tac3map ") + mapFormatName(format) + " ";
  if (text.rfind(prefix, 0) != 0) return fallback;
  std::string line = text.substr(0, text.find('\n'));
  line.erase(line.find_last_not_of(" \t\r") + 1);
  const bool rankfile = format == MapFormat::OpenmpiRankfile;
  const auto bad = [&]() {
    // The expected header in backquotes: the tool's own text, which error.hpp never cuts.
    failAt(source, 1,
           "expected `" + prefix + "--ranks-per-node K" +
               (rankfile ? " [--cores-per-node C] [--sockets-per-node S] [--bind "
                           "core|socket|none]"
                         : "") +
               "`, not '" + line + "'");
  };
  std::istringstream in(line.substr(prefix.size()));
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  if (words.size() % 2 != 0 || words.empty() || words[0] != "--ranks-per-node") bad();
  RankMapOptions written;
  written.slotsPerNode = 0;
  std::vector<std::string> seen;
  for (std::size_t i = 0; i < words.size(); i += 2) {
    const std::string& name = words[i];
    const std::string& value = words[i + 1];
    if (std::find(seen.begin(), seen.end(), name) != seen.end()) bad();
    seen.push_back(name);
    long long number = 0;
    const bool count = parseInt(value, number) && number >= 1 && number <= limits::kMaxCoresPerNode;
    if (name == "--ranks-per-node" && count) {
      written.slotsPerNode = static_cast<int>(number);
    } else if (rankfile && name == "--cores-per-node" && count) {
      written.coresPerNode = static_cast<int>(number);
    } else if (rankfile && name == "--sockets-per-node" && count) {
      written.socketsPerNode = static_cast<int>(number);
    } else if (rankfile && name == "--bind" &&
               (value == "core" || value == "socket" || value == "none")) {
      written.bind = parseRankfileBind(value);
    } else {
      bad();
    }
  }
  const int k = written.slotsPerNode, c = written.coresPerNode;
  if (written.bind == RankfileBind::Core && c > 0 && c < k)
    failAt(source, 1,
           std::to_string(c) + " cores per node cannot hold " + std::to_string(k) +
               " ranks of a core each");
  // The header's own words (the file's text, as bad() quotes it), not the command line's.
  if (written.bind == RankfileBind::None && c == 0)
    failAt(source, 1, "--bind none needs --cores-per-node C (its slot lists are the whole node)");
  return written;
}

}  // namespace tac3map::mapfile
