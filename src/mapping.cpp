#include "tac3map/mapping.hpp"

#include <charconv>
#include <fstream>
#include <sstream>

#include "tac3map/error.hpp"
#include "tac3map/random.hpp"

namespace tac3map {

void checkTasksFit(int tasks, const Box& box, const std::string& source) {
  if (tasks > box.nodeCount)
    failIn(source, std::to_string(tasks) + " tasks do not fit on box " + box.shapeText() + " (" +
                       std::to_string(box.nodeCount) + " nodes, one task per node)");
}

Mapping identityMapping(int tasks, const Box& box) {
  checkTasksFit(tasks, box, "identity mapping");
  Mapping m;
  for (int task = 0; task < tasks; ++task) m.nodeOfTask.push_back(task);
  return m;
}

Mapping randomMapping(int tasks, const Box& box, std::uint64_t seed) {
  checkTasksFit(tasks, box, "random mapping");
  std::vector<int> nodes(box.nodeCount);
  for (int i = 0; i < box.nodeCount; ++i) nodes[i] = i;
  Rng rng(seed);
  for (int i = box.nodeCount - 1; i > 0; --i)
    std::swap(nodes[i], nodes[rng.below(static_cast<std::uint64_t>(i) + 1)]);
  nodes.resize(tasks);
  return Mapping{nodes};
}

void checkMapping(const Mapping& mapping, const Box& box, const std::string& source) {
  checkTasksFit(mapping.tasks(), box, source);
  std::vector<int> owner(box.nodeCount, -1);
  for (int task = 0; task < mapping.tasks(); ++task) {
    const int node = mapping.nodeOfTask[task];
    if (node < 0 || node >= box.nodeCount)
      failIn(source, "task " + std::to_string(task) + " is not on a node of the box");
    if (owner[node] >= 0)
      failIn(source, "tasks " + std::to_string(owner[node]) + " and " + std::to_string(task) +
                         " share a node");
    owner[node] = task;
  }
}

MappingBuilder::MappingBuilder(std::string source, const Box& box, int tasks)
    : source_(std::move(source)),
      mapping_{std::vector<int>(tasks, -1)},
      lineOf_(tasks, 0),
      rankOn_(box.nodeCount, -1) {}

void MappingBuilder::place(long long rank, int node, std::size_t line) {
  const int tasks = mapping_.tasks();
  if (rank < 0 || rank >= tasks)
    failAt(source_, line,
           "rank " + std::to_string(rank) + " is outside 0.." + std::to_string(tasks - 1));
  if (lineOf_[rank])
    failAt(source_, line,
           "rank " + std::to_string(rank) + " placed twice (also line " +
               std::to_string(lineOf_[rank]) + ")");
  if (node < 0) failAt(source_, line, "rank " + std::to_string(rank) + ": node not in the box");
  if (rankOn_[node] >= 0)
    failAt(source_, line,
           "rank " + std::to_string(rank) + " is on the node of rank " +
               std::to_string(rankOn_[node]));
  rankOn_[node] = static_cast<int>(rank);
  mapping_.nodeOfTask[rank] = node;
  lineOf_[rank] = line;
}

Mapping MappingBuilder::finish() const {
  for (int task = 0; task < mapping_.tasks(); ++task)
    if (!lineOf_[task]) failIn(source_, "rank " + std::to_string(task) + " has no line");
  return mapping_;
}

Mapping readMapping(const std::string& path, const Box& box, int tasks) {
  std::ifstream in(path);
  if (!in) failIn(path, "cannot open mapping file");
  std::string text;
  std::size_t line = 0;
  bool header = false;
  MappingBuilder builder(path, box, tasks);
  while (std::getline(in, text)) {
    ++line;
    if (!header) {
      if (text.rfind("# tac3map mapping 1", 0) != 0)
        failAt(path, line, "expected the header '# tac3map mapping 1'");
      header = true;
      continue;
    }
    const auto hash = text.find('#');
    if (hash != std::string::npos) text.resize(hash);
    std::istringstream words(text);
    std::vector<long long> values;
    std::string word;
    while (words >> word) {
      long long value = 0;
      auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
      if (error != std::errc() || end != word.data() + word.size())
        failAt(path, line, "expected an integer, got '" + word + "'");
      values.push_back(value);
    }
    if (values.empty()) continue;
    if (values.size() != static_cast<std::size_t>(box.axisCount()) + 1)
      failAt(path, line,
             "expected '<rank>' and " + std::to_string(box.axisCount()) + " coordinates");
    std::vector<int> coordinates;
    for (int a = 0; a < box.axisCount(); ++a) {
      const long long c = values[a + 1];
      if (c < 0 || c >= box.shape[a])
        failAt(path, line,
               "coordinate " + std::to_string(c) + " of axis " + std::to_string(a) +
                   " is outside the box " + box.shapeText());
      coordinates.push_back(static_cast<int>(c));
    }
    builder.place(values[0], box.nodeAt(coordinates), line);
  }
  if (!header) failIn(path, "empty mapping file (expected the header '# tac3map mapping 1')");
  return builder.finish();
}

std::string formatMapping(const Mapping& mapping, const Machine& machine, const Box& box) {
  std::ostringstream out;
  out << "# tac3map mapping 1\n";
  out << "# machine " << machine.name << " " << machine.shapeText() << "\n";
  out << "# shape " << box.shapeText() << " offset " << box.offsetText() << "\n";
  out << "# rank";
  for (const Axis& axis : machine.axes) out << " " << axis.name;
  out << "  (box-relative coordinates)\n";
  for (int task = 0; task < mapping.tasks(); ++task) {
    out << task;
    for (int c : box.coordinatesOf(mapping.nodeOfTask[task])) out << " " << c;
    out << "\n";
  }
  return out.str();
}

}  // namespace tac3map
