#include "tac3map/mapping/scotch_files.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "tac3map/io/error.hpp"
#include "tac3map/io/integer_text.hpp"
#include "tac3map/network/target_torus.hpp"

namespace tac3map {
namespace {

// Scotch's torusXD / meshXD take at most this many dimensions (ARCHMESHDIMMAX: "torusXD 6 ..."
// is refused by Scotch 7's loader).
constexpr std::size_t kScotchMaxDimensions = 5;
// More terminals than any job can have nodes: refused before anything is sized by them.
constexpr long long kMostParts = 1LL << 31;

bool parseInteger(const std::string& word, long long& value) {
  const std::optional<long long> read = wholeInteger<long long>(word);
  if (read) value = *read;
  return read.has_value();
}

// A target file as words with their lines (Scotch reads it as a stream of words).
class Words {
 public:
  explicit Words(const std::string& path) : path_(path) {
    std::ifstream in(path);
    if (!in) failIn(path, "cannot open Scotch target file");
    std::string text;
    for (std::size_t line = 1; std::getline(in, text); ++line) {
      std::istringstream words(text);
      for (std::string word; words >> word;) words_.push_back({word, line});
    }
  }
  bool done() const { return next_ >= words_.size(); }
  std::size_t line() const {
    if (words_.empty()) return 1;
    return next_ < words_.size() ? words_[next_].second : words_.back().second;
  }
  std::string word(const std::string& what) {
    if (done()) failAt(path_, line(), "the file ends where " + what + " should be");
    return words_[next_++].first;
  }
  long long integer(const std::string& what, long long low, long long high) {
    const std::size_t at = line();
    const std::string text = word(what);
    long long value = 0;
    if (!parseInteger(text, value)) failAt(path_, at, "expected " + what + ", got '" + text + "'");
    if (value < low || value > high)
      failAt(
          path_, at,
          what + " " + text + " is outside " + std::to_string(low) + ".." + std::to_string(high));
    return value;
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::vector<std::pair<std::string, std::size_t>> words_;
  std::size_t next_ = 0;
};

long long productOf(const std::vector<int>& extents) {
  long long product = 1;
  for (int e : extents) product = std::min(product * e, kMostParts + 1);
  return product;
}

ScotchTarget readArchitecture(Words& in) {
  ScotchTarget t;
  t.source = in.path();
  t.line = in.line();
  t.name = in.word("the architecture's name (cmplt, torus3D, ...)");
  const std::string& n = t.name;
  const auto grid = [&](int dimensions) {
    t.kind = ScotchTarget::Kind::Grid;
    for (int d = 0; d < dimensions; ++d)
      t.extents.push_back(static_cast<int>(
          in.integer(n + "'s extent of dimension " + std::to_string(d), 1, kMostParts)));
    t.parts = productOf(t.extents);
    if (t.parts > kMostParts) failAt(t.source, t.line, n + " has more than 2^31 terminals");
  };
  if (n == "cmplt" || n == "cmpltw") {
    t.parts = in.integer(n + "'s size", 1, kMostParts);
    if (n == "cmpltw")
      for (long long i = 0; i < t.parts; ++i) in.integer("a terminal's weight", 0, kMostParts);
  } else if (n == "tleaf") {
    const long long levels = in.integer("tleaf's level count", 1, 64);
    t.parts = 1;
    for (long long l = 0; l < levels; ++l) {
      t.parts = std::min(t.parts * in.integer("a level's size", 1, kMostParts), kMostParts + 1);
      in.integer("a level's link cost", 0, kMostParts);
    }
    if (t.parts > kMostParts) failAt(t.source, t.line, "tleaf has more than 2^31 leaves");
  } else if (n == "mesh2D" || n == "torus2D") {
    grid(2);
  } else if (n == "mesh3D" || n == "torus3D") {
    grid(3);
  } else if (n == "meshXD" || n == "torusXD") {
    grid(static_cast<int>(in.integer(n + "'s dimension count", 1, kScotchMaxDimensions)));
  } else if (n == "deco") {
    t.kind = ScotchTarget::Kind::Labelled;
    const long long format = in.integer("deco's format (0 or 1)", 0, 2);
    if (format == 2)
      failAt(t.source, t.line,
             "deco 2 targets are not read (write a deco 0 or 1 target: amk_grf without -2)");
    t.parts = in.integer("the processor count", 1, kMostParts);
    const long long entries =
        format == 0 ? t.parts : in.integer("the domain count", t.parts, 2 * kMostParts);
    if (format == 0) in.integer("the largest terminal number", 1, 4 * kMostParts);
    // deco 0: 'label weight terminal' per processor; deco 1 (amk_grf's compiled form):
    // 'label size weight' per domain, the terminals being the domains of size 1.
    std::map<long long, std::size_t> seen;
    for (long long i = 0; i < entries; ++i) {
      const std::size_t at = in.line();
      const long long label = in.integer("a label", 0, kMostParts);
      const long long second =
          in.integer(format == 0 ? "a weight" : "a domain size", 0, 4 * kMostParts);
      in.integer(format == 0 ? "a terminal number" : "a weight", 0, 4 * kMostParts);
      if (format == 1 && second != 1) continue;
      const auto [it, added] = seen.emplace(label, at);
      if (!added)
        failAt(t.source, at,
               "label " + std::to_string(label) + " given twice (also line " +
                   std::to_string(it->second) + ")");
      t.labels.push_back(label);
    }
    if (static_cast<long long>(t.labels.size()) != t.parts)
      failAt(t.source, t.line,
             "deco 1 with " + std::to_string(t.parts) + " processors lists " +
                 std::to_string(t.labels.size()) + " terminal domains");
    while (!in.done()) in.word("");  // the distances: not needed to place parts
  } else if (n == "sub") {
    const long long count = in.integer("sub's terminal count", 1, kMostParts);
    std::vector<std::pair<long long, std::size_t>> terminals;
    for (long long i = 0; i < count; ++i) {
      const std::size_t at = in.line();
      terminals.push_back({in.integer("a terminal of the architecture", 0, kMostParts), at});
    }
    ScotchTarget inner = readArchitecture(in);
    for (const auto& [terminal, at] : terminals)
      if (terminal >= inner.parts)
        failAt(t.source, at,
               "terminal " + std::to_string(terminal) + " is not one of " + inner.name + "'s " +
                   std::to_string(inner.parts));
    // Part i of the sub-architecture is terminal terminals[i] of the inner one, itself maybe a
    // sub-architecture's: compose.
    std::vector<long long> composed;
    for (const auto& [terminal, at] : terminals)
      composed.push_back(inner.sub.empty() ? terminal : inner.sub[terminal]);
    inner.name = "sub " + inner.name;
    inner.sub = composed;
    inner.parts = count;
    return inner;
  } else if (n == "hcub" || n == "ltleaf" || n == "varcmplt" || n == "varhcub" || n == "vcmplt" ||
             n == "vhcub") {
    failAt(t.source, t.line,
           "Scotch architecture '" + n +
               "' is not read (its terminals are no nodes tac3map can name); use cmplt, "
               "cmpltw, tleaf, mesh2D/3D/XD, torus2D/3D/XD, deco 0/1 or sub");
  } else {
    failAt(t.source, t.line,
           "unknown Scotch architecture '" + n +
               "' (expected cmplt, cmpltw, tleaf, mesh2D, mesh3D, meshXD, torus2D, torus3D, "
               "torusXD, deco or sub)");
  }
  t.terminals = t.parts;
  return t;
}

std::string extentsText(const std::vector<int>& extents) {
  std::string text;
  for (std::size_t d = 0; d < extents.size(); ++d)
    text.append(d ? "x" : "").append(std::to_string(extents[d]));
  return text;
}

struct MapLine {
  std::size_t number;
  long long vertex, part;
};

}  // namespace

ScotchTarget readScotchTarget(const std::string& path) {
  Words in(path);
  if (in.done()) failIn(path, "empty Scotch target file");
  ScotchTarget target = readArchitecture(in);
  if (!in.done()) {
    const std::size_t at = in.line();
    failAt(path, at, "unexpected '" + in.word("") + "' after the architecture");
  }
  return target;
}

std::vector<int> scotchPartNodes(const ScotchTarget& target, const Machine& machine, const Box& box,
                                 const NodeTable* table) {
  // The node of each terminal of the architecture (before any sub).
  std::vector<int> nodeOfTerminal;
  const std::string where = target.source + ":" + std::to_string(target.line);
  switch (target.kind) {
    case ScotchTarget::Kind::Grid: {
      const TargetTorus torus = targetTorusOf(machine, box);
      // Trailing extents of 1 change no label ("torus2D 7 1" is a ring of 7).
      const auto trimmed = [](std::vector<int> extents) {
        while (extents.size() > 1 && extents.back() == 1) extents.pop_back();
        return extents;
      };
      if (!torus.isGrid() || trimmed(target.extents) != trimmed(torus.extents))
        failIn(where,
               target.name + " " + extentsText(target.extents) +
                   (!torus.isGrid()
                        ? " is a grid, but " + torus.whyNoGrid + " (use cmplt or a deco target)"
                        : " does not match the job's torus " + extentsText(torus.extents) +
                              " (the box's axes, or on Tofu its logical 3D torus, "
                              "dimension 0 fastest)"));
      nodeOfTerminal = torus.node;
      break;
    }
    case ScotchTarget::Kind::JobOrder: {
      const long long jobNodes =
          table ? static_cast<long long>(table->nodes.size()) : box.nodeCount;
      if (target.terminals > jobNodes)
        failIn(where, target.name + " has " + std::to_string(target.terminals) +
                          " terminals, more than the job's " + std::to_string(jobNodes) +
                          " nodes (terminal p is the job's p-th node)");
      for (long long p = 0; p < target.terminals; ++p)
        nodeOfTerminal.push_back(table ? table->nodes[p] : static_cast<int>(p));
      break;
    }
    case ScotchTarget::Kind::Labelled: {
      long long largest = 0;
      for (long long label : target.labels) largest = std::max(largest, label);
      if (largest >= box.nodeCount)
        failIn(where, "label " + std::to_string(largest) + " is beyond the job's box of " +
                          std::to_string(box.nodeCount) +
                          " nodes (the terminal labelled p is box node p)");
      // Terminal numbers are labels: the label itself names the node.
      nodeOfTerminal.assign(static_cast<std::size_t>(largest) + 1, -1);
      for (long long label : target.labels) nodeOfTerminal[label] = static_cast<int>(label);
      break;
    }
  }
  if (target.sub.empty()) return nodeOfTerminal;
  std::vector<int> nodes;
  for (long long terminal : target.sub)
    nodes.push_back(
        terminal < static_cast<long long>(nodeOfTerminal.size()) ? nodeOfTerminal[terminal] : -1);
  return nodes;
}

namespace {

// The meaningful lines of a Scotch mapping file: words of each non-blank line.
std::vector<std::pair<std::size_t, std::vector<std::string>>> mappingLines(
    const std::string& path) {
  std::ifstream in(path);
  if (!in) failIn(path, "cannot open mapping file");
  std::vector<std::pair<std::size_t, std::vector<std::string>>> lines;
  std::string text;
  for (std::size_t number = 1; std::getline(in, text); ++number) {
    std::istringstream words(text);
    std::vector<std::string> list;
    for (std::string word; words >> word;) list.push_back(word);
    if (!list.empty()) lines.push_back({number, list});
  }
  return lines;
}

}  // namespace

bool isScotchMapping(const std::string& path) {
  std::ifstream probe(path);
  if (!probe) return false;
  const auto lines = mappingLines(path);
  long long value = 0;
  if (lines.empty() || lines[0].second.size() != 1 || !parseInteger(lines[0].second[0], value))
    return false;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    long long a = 0, b = 0;
    if (lines[i].second.size() != 2 || !parseInteger(lines[i].second[0], a) ||
        !parseInteger(lines[i].second[1], b))
      return false;
  }
  return true;
}

long long scotchMappingCount(const std::string& path) {
  const auto lines = mappingLines(path);
  long long count = 0;
  if (lines.empty() || lines[0].second.size() != 1 || !parseInteger(lines[0].second[0], count))
    failAt(path, lines.empty() ? 1 : lines[0].first,
           "expected the vertex count (a Scotch mapping starts with it)");
  if (count < 1) failAt(path, lines[0].first, "the vertex count must be at least 1");
  return count;
}

Mapping readScotchMapping(const std::string& path, const std::vector<int>& nodeOfPart,
                          const Box& box, int tasks, int slotsPerNode) {
  const auto lines = mappingLines(path);
  const long long count = scotchMappingCount(path);
  const std::size_t countLine = lines[0].first;
  std::vector<MapLine> entries;
  std::map<long long, std::size_t> lineOf;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const auto& [number, words] = lines[i];
    MapLine entry{number, 0, 0};
    if (words.size() != 2 || !parseInteger(words[0], entry.vertex) ||
        !parseInteger(words[1], entry.part))
      failAt(path, number, "expected '<vertex> <part>' (two integers)");
    if (static_cast<long long>(entries.size()) == count)
      failAt(path, number,
             "more mapping lines than the " + std::to_string(count) + " vertices of line " +
                 std::to_string(countLine));
    const auto [it, added] = lineOf.emplace(entry.vertex, number);
    if (!added)
      failAt(path, number,
             "vertex " + words[0] + " listed twice (also line " + std::to_string(it->second) + ")");
    entries.push_back(entry);
  }
  // Vertex labels 0..n-1, or 1..n (a graph with base 1: no vertex 0, and vertex n present).
  const long long base = !lineOf.count(0) && lineOf.count(count) ? 1 : 0;
  for (const MapLine& e : entries)
    if (e.vertex < base || e.vertex >= count + base)
      failAt(path, e.number,
             "vertex " + std::to_string(e.vertex) + " is outside " + std::to_string(base) + ".." +
                 std::to_string(count + base - 1) + " (the count on line " +
                 std::to_string(countLine) + " is " + std::to_string(count) + ")");
  // Fewer lines than vertices: one of the first lines + 1 labels has none (they are distinct
  // and in range), so the search stays within the file's size whatever the count says.
  if (static_cast<long long>(entries.size()) < count)
    for (long long v = base;; ++v)
      if (!lineOf.count(v))
        failAt(path, countLine,
               "vertex " + std::to_string(v) + " has no mapping line (" + std::to_string(count) +
                   " vertices, " + std::to_string(entries.size()) + " lines)");
  if (tasks < 0) tasks = static_cast<int>(count);  // count == lines here, an int
  if (tasks > count)
    failAt(path, countLine,
           std::to_string(count) + " vertices, fewer than the " + std::to_string(tasks) +
               " ranks asked for (" + settingName("ranks") + ")");
  MappingBuilder builder(path, box, tasks, slotsPerNode);
  for (const MapLine& e : entries) {
    const long long rank = e.vertex - base;
    if (rank >= tasks) continue;  // padding
    if (e.part < 0 || e.part >= static_cast<long long>(nodeOfPart.size()) || nodeOfPart[e.part] < 0)
      failAt(path, e.number,
             "part " + std::to_string(e.part) + " is not a terminal of the target (" +
                 std::to_string(nodeOfPart.size()) + " terminals)");
    builder.place(rank, nodeOfPart[e.part], e.number);
  }
  return builder.finish();
}

ScotchTargetText scotchTargetFor(const Machine& machine, const Box& box, const NodeTable* table) {
  ScotchTargetText out;
  out.partOfNode.assign(box.nodeCount, -1);
  // A network that is no grid (a graph machine), or a grid of too many axes: cmplt below.
  const TargetTorus torus = targetTorusOf(machine, box);
  if (torus.isGrid() && torus.extents.size() <= kScotchMaxDimensions) {
    const bool closed =
        std::all_of(torus.closed.begin(), torus.closed.end(), [](bool c) { return c; });
    // 2 or 3 axes by their own names (Scotch 7.0.3 measures meshXD distances as if its axes
    // wrapped; mesh2D/mesh3D it measures right), one axis as 2D with a second extent of 1.
    std::vector<int> extents = torus.extents;
    if (extents.size() == 1) extents.push_back(1);
    out.text = closed ? "torus" : "mesh";
    if (extents.size() <= 3)
      out.text.append(std::to_string(extents.size())).append("D");
    else
      out.text.append("XD ").append(std::to_string(extents.size()));
    for (int extent : extents) out.text.append(" ").append(std::to_string(extent));
    out.text += "\n";
    for (std::size_t cell = 0; cell < torus.node.size(); ++cell)
      out.partOfNode[torus.node[cell]] = static_cast<int>(cell);
    return out;
  }
  const int jobNodes = table ? static_cast<int>(table->nodes.size()) : box.nodeCount;
  out.text = "cmplt " + std::to_string(jobNodes) + "\n";
  for (int p = 0; p < jobNodes; ++p) out.partOfNode[table ? table->nodes[p] : p] = p;
  return out;
}

std::string scotchMappingText(const Mapping& mapping, const std::vector<int>& partOfNode) {
  std::string text = std::to_string(mapping.tasks()) + "\n";
  for (int task = 0; task < mapping.tasks(); ++task) {
    const int part = partOfNode[mapping.nodeOfTask[task]];
    if (part < 0)
      throw InputError("rank " + std::to_string(task) +
                       " is on a node that is not a part of the Scotch target");
    text += std::to_string(task) + "\t" + std::to_string(part) + "\n";
  }
  return text;
}

}  // namespace tac3map
