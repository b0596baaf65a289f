#include "tac3map/mapping/mapping.hpp"

#include <fstream>
#include <sstream>

#include "tac3map/base/random.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/io/integer_text.hpp"
#include "tac3map/io/json_input.hpp"
#include "tac3map/mapping/mapping_context.hpp"

namespace tac3map {

std::string boxCapacityText(const Box& box, int slotsPerNode) {
  std::string text = "box ";
  text += box.shapeText();
  text += " (";
  text += std::to_string(box.nodeCount);
  text += " nodes, ";
  if (slotsPerNode == 1) {
    text += "one task per node)";
  } else {
    text += std::to_string(slotsPerNode);
    text += " tasks per node)";
  }
  return text;
}

void checkTasksFit(int tasks, const Box& box, const std::string& source, int slotsPerNode) {
  if (slotsPerNode < 1) throw SettingError("ranks per node", " must be at least 1");
  if (static_cast<long long>(tasks) > static_cast<long long>(box.nodeCount) * slotsPerNode)
    failIn(source,
           std::to_string(tasks) + " tasks do not fit on " + boxCapacityText(box, slotsPerNode));
}

namespace {

// A mapping from each task's position node * K + slot.
Mapping fromPositions(const std::vector<int>& positions, int slotsPerNode) {
  Mapping m;
  for (int p : positions) m.nodeOfTask.push_back(p / slotsPerNode);
  if (slotsPerNode > 1)
    for (int p : positions) m.slotOfTask.push_back(p % slotsPerNode);
  return m;
}

}  // namespace

Mapping blockPlacement(int tasks, int slotsPerNode) {
  std::vector<int> positions(tasks);
  for (int task = 0; task < tasks; ++task) positions[task] = task;
  return fromPositions(positions, slotsPerNode);
}

Mapping roundRobinPlacement(int tasks, int slotsPerNode) {
  const int used = (tasks + slotsPerNode - 1) / slotsPerNode;
  std::vector<int> positions(tasks);
  for (int task = 0; task < tasks; ++task)
    positions[task] = (task % used) * slotsPerNode + task / used;
  return fromPositions(positions, slotsPerNode);
}

Mapping randomPlacement(int tasks, int nodes, std::uint64_t seed, int slotsPerNode) {
  const int positions = nodes * slotsPerNode;
  std::vector<int> pool(positions);
  for (int i = 0; i < positions; ++i) pool[i] = i;
  Rng rng(seed);
  for (int i = positions - 1; i > 0; --i)
    std::swap(pool[i], pool[rng.below(static_cast<std::uint64_t>(i) + 1)]);
  pool.resize(tasks);
  return fromPositions(pool, slotsPerNode);
}

Mapping identityMapping(int tasks, const Box& box, int slotsPerNode) {
  checkTasksFit(tasks, box, "identity mapping", slotsPerNode);
  return blockPlacement(tasks, slotsPerNode);
}

Mapping roundRobinMapping(int tasks, const Box& box, int slotsPerNode) {
  checkTasksFit(tasks, box, "round-robin mapping", slotsPerNode);
  return roundRobinPlacement(tasks, slotsPerNode);
}

Mapping randomMapping(int tasks, const Box& box, std::uint64_t seed, int slotsPerNode) {
  checkTasksFit(tasks, box, "random mapping", slotsPerNode);
  return randomPlacement(tasks, box.nodeCount, seed, slotsPerNode);
}

void checkMapping(const Mapping& mapping, const Box& box, const std::string& source,
                  int slotsPerNode) {
  checkTasksFit(mapping.tasks(), box, source, slotsPerNode);
  if (!mapping.slotOfTask.empty() && mapping.slotOfTask.size() != mapping.nodeOfTask.size())
    failIn(source, "slots given for some tasks only");
  std::vector<int> owner(static_cast<std::size_t>(box.nodeCount) * slotsPerNode, -1);
  for (int task = 0; task < mapping.tasks(); ++task) {
    const int node = mapping.nodeOfTask[task];
    const int slot = mapping.slotOf(task);
    if (node < 0 || node >= box.nodeCount)
      failIn(source, "task " + std::to_string(task) + " is not on a node of the box");
    if (slot < 0 || slot >= slotsPerNode)
      failIn(source, "task " + std::to_string(task) + " is in slot " + std::to_string(slot) +
                         ", outside 0.." + std::to_string(slotsPerNode - 1));
    int& o = owner[static_cast<std::size_t>(node) * slotsPerNode + slot];
    if (o >= 0)
      failIn(source,
             "tasks " + std::to_string(o) + " and " + std::to_string(task) +
                 (slotsPerNode == 1 ? std::string(" share a node")
                                    : " share slot " + std::to_string(slot) + " of a node"));
    o = task;
  }
}

MappingBuilder::MappingBuilder(std::string source, const Box& box, int tasks, int slotsPerNode)
    : source_(std::move(source)),
      slots_(slotsPerNode),
      mapping_{std::vector<int>(tasks, -1), std::vector<int>()},
      lineOf_(tasks, 0),
      rankIn_(static_cast<std::size_t>(box.nodeCount) * slotsPerNode, -1) {
  if (slots_ > 1) mapping_.slotOfTask.assign(tasks, 0);
}

void MappingBuilder::place(long long rank, int node, std::size_t line, long long slot) {
  const int tasks = mapping_.tasks();
  if (rank < 0 || rank >= tasks)
    failAt(source_, line,
           "rank " + std::to_string(rank) + " is outside 0.." + std::to_string(tasks - 1));
  if (lineOf_[rank])
    failAt(source_, line,
           "rank " + std::to_string(rank) + " placed twice (also line " +
               std::to_string(lineOf_[rank]) + ")");
  if (node < 0) failAt(source_, line, "rank " + std::to_string(rank) + ": node not in the box");
  const std::size_t base = static_cast<std::size_t>(node) * slots_;
  if (slot < 0) {  // no slot given: the node's lowest free slot
    slot = 0;
    while (slot < slots_ && rankIn_[base + slot] >= 0) ++slot;
    if (slot == slots_) {
      if (slots_ == 1)
        failAt(source_, line,
               "rank " + std::to_string(rank) + " is on the node of rank " +
                   std::to_string(rankIn_[base]));
      failAt(source_, line,
             "rank " + std::to_string(rank) + ": its node already holds " + std::to_string(slots_) +
                 " ranks (" + settingName("ranks per node") + " " + std::to_string(slots_) +
                 "), e.g. rank " + std::to_string(rankIn_[base]));
    }
  } else if (slot >= slots_) {
    failAt(source_, line,
           "rank " + std::to_string(rank) + ": slot " + std::to_string(slot) + " is outside 0.." +
               std::to_string(slots_ - 1) + " (" + settingName("ranks per node") + " " +
               std::to_string(slots_) + ")");
  } else if (rankIn_[base + slot] >= 0) {
    failAt(source_, line,
           "rank " + std::to_string(rank) + " is in slot " + std::to_string(slot) +
               " of the node of rank " + std::to_string(rankIn_[base + slot]));
  }
  rankIn_[base + slot] = static_cast<int>(rank);
  mapping_.nodeOfTask[rank] = node;
  if (slots_ > 1) mapping_.slotOfTask[rank] = static_cast<int>(slot);
  lineOf_[rank] = line;
}

Mapping MappingBuilder::finish() const {
  for (int task = 0; task < mapping_.tasks(); ++task)
    if (!lineOf_[task]) failIn(source_, "rank " + std::to_string(task) + " has no line");
  return mapping_;
}

Mapping readMapping(const std::string& path, const Box& box, int tasks, int slotsPerNode) {
  std::ifstream in = openInputFile(path, "mapping file");
  std::string text;
  std::size_t line = 0;
  bool header = false;
  MappingBuilder builder(path, box, tasks, slotsPerNode);
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
      const std::optional<long long> value = wholeInteger<long long>(word);
      if (!value) failAt(path, line, "expected an integer, got '" + word + "'");
      values.push_back(*value);
    }
    if (values.empty()) continue;
    const std::size_t axes = static_cast<std::size_t>(box.axisCount());
    if (values.size() != axes + 1 && values.size() != axes + 2)
      failAt(path, line,
             "expected '<rank>', " + std::to_string(box.axisCount()) +
                 " coordinates and an optional slot");
    std::vector<int> coordinates;
    for (int a = 0; a < box.axisCount(); ++a) {
      const long long c = values[a + 1];
      if (c < 0 || c >= box.shape[a])
        failAt(path, line,
               "coordinate " + std::to_string(c) + " of axis " + std::to_string(a) +
                   " is outside the box " + box.shapeText());
      coordinates.push_back(static_cast<int>(c));
    }
    const long long slot = values.size() == axes + 2 ? values.back() : -1;
    if (values.size() == axes + 2 && slot < 0)
      failAt(path, line, "slot " + std::to_string(slot) + " is negative");
    builder.place(values[0], box.nodeAt(coordinates), line, slot);
  }
  if (!header) failIn(path, "empty mapping file (expected the header '# tac3map mapping 1')");
  return builder.finish();
}

int mappingFileRanks(const std::string& path) {
  std::ifstream in(path);
  std::string text;
  if (!in || !std::getline(in, text) || text.rfind("# tac3map mapping 1", 0) != 0) return -1;
  int ranks = 0;
  while (std::getline(in, text)) {
    const auto hash = text.find('#');
    if (hash != std::string::npos) text.resize(hash);
    if (text.find_first_not_of(" \t\r") != std::string::npos) ++ranks;
  }
  return ranks;
}

std::string formatMapping(const Mapping& mapping, const Machine& machine, const Box& box,
                          int slotsPerNode) {
  std::ostringstream out;
  out << "# tac3map mapping 1\n";
  out << formatMappingContext(machine.name, machine.shapeText(), machine.source, box.shapeText(),
                              box.offsetText(), slotsPerNode);
  out << "# rank";
  for (const Axis& axis : machine.axes) out << " " << axis.name;
  const bool slots = !mapping.slotOfTask.empty();
  if (slots) out << " slot";
  out << "  (box-relative coordinates)\n";
  for (int task = 0; task < mapping.tasks(); ++task) {
    out << task;
    for (int c : box.coordinatesOf(mapping.nodeOfTask[task])) out << " " << c;
    if (slots) out << " " << mapping.slotOfTask[task];
    out << "\n";
  }
  return out.str();
}

}  // namespace tac3map
