// cray-rank-order: MPICH_RANK_ORDER for MPICH_RANK_REORDER_METHOD=3, one line listing the
// ranks in node order, K per node.
#include <algorithm>
#include <sstream>

#include "rankmap_codec.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/io/limits.hpp"

namespace tac3map::mapfile {
namespace {

// The job's nodes in launcher order: the table's, else the box's X-fastest order.
std::vector<int> nodeOrder(const Box& box, const NodeTable* table) {
  if (table) return table->nodes;
  std::vector<int> order(box.nodeCount);
  for (int n = 0; n < box.nodeCount; ++n) order[n] = n;
  return order;
}

std::string writeRankOrder(const Mapping& mapping, const Machine&, const Box& box,
                           const NodeTable* table, const RankMapOptions& options) {
  const int k = options.slotsPerNode;
  // MPICH puts the first K listed ranks on the first node, the next K on the second, ...:
  // each node's ranks in slot order; every node before the last used one must be full.
  std::vector<std::vector<int>> ranksOn(box.nodeCount);
  std::vector<int> bySlot(mapping.tasks());
  for (int task = 0; task < mapping.tasks(); ++task) bySlot[task] = task;
  std::stable_sort(bySlot.begin(), bySlot.end(),
                   [&](int a, int b) { return mapping.slotOf(a) < mapping.slotOf(b); });
  for (int task : bySlot) ranksOn[mapping.nodeOfTask[task]].push_back(task);
  std::ostringstream out;
  out << writtenWith(MapFormat::CrayRankOrder, options);
  int short_ = -1;  // a node with fewer than K ranks, so far
  bool first = true;
  for (int node : nodeOrder(box, table)) {
    const std::vector<int>& ranks = ranksOn[node];
    if (ranks.empty() && short_ < 0) short_ = node;
    if (ranks.empty()) continue;
    if (short_ >= 0)
      throw InputError(
          "cray-rank-order cannot leave " +
          (k == 1 ? std::string("a node empty")
                  : std::string("a node with fewer than ") + std::to_string(k) + " ranks") +
          " before a used one (MPICH fills nodes in order, " + std::to_string(k) +
          " ranks each); map onto a box with as many nodes as ranks / " +
          settingName("ranks per node"));
    for (int task : ranks) {
      out << (first ? "" : ",") << task;
      first = false;
    }
    if (static_cast<int>(ranks.size()) < k) short_ = node;
  }
  out << "\n";
  return out.str();
}

// One line whose first comma-separated word is a rank.
bool isRankOrder(const MapFile& file) {
  const std::string& head = file.head();
  long long probe = 0;
  return file.lines.size() == 1 && parseInt(head.substr(0, head.find(',')), probe);
}

Mapping readRankOrder(const MapFile& file, const Machine&, const Box& box, int tasks,
                      const NodeTable* table, const RankMapOptions& options) {
  const std::string& path = file.path;
  const int k = options.slotsPerNode;
  MappingBuilder builder(path, box, tasks, k);
  const Line& line = file.lines.front();
  // K ranks per node in node order (K from the file's comment, else the options).
  const int perNode =
      readWrittenWith(file.text, MapFormat::CrayRankOrder, options, path).slotsPerNode;
  if (perNode > k)
    failAt(path, 1,
           "written for " + std::to_string(perNode) + " ranks per node, more than " +
               settingName("ranks per node") + " " + std::to_string(k));
  const auto ranks = parseInts(line.text, ',', path, line.number, "rank order");
  const std::vector<int> order = nodeOrder(box, table);
  if (ranks.size() > order.size() * perNode)
    failAt(path, line.number, "more ranks than the job's nodes hold");
  for (std::size_t i = 0; i < ranks.size(); ++i)
    builder.place(ranks[i], order[i / perNode], line.number,
                  k > 1 ? static_cast<long long>(i % perNode) : -1);
  return builder.finish();
}

int rankOrderRanks(const MapFile& file) {
  const std::string& head = file.head();
  return static_cast<int>(std::min<std::size_t>(std::count(head.begin(), head.end(), ',') + 1,
                                                limits::kMaxJobRanks + 1));
}

}  // namespace

const Codec kCrayRankOrder = {MapFormat::CrayRankOrder,
                              "cray-rank-order",
                              writeRankOrder,
                              isRankOrder,
                              readRankOrder,
                              rankOrderRanks};

}  // namespace tac3map::mapfile
