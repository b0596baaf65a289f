// Building the general tac3 engine's tables (incremental_general.hpp) and rebuilding one.
#include "tac3map/search/incremental_general.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace tac3map {

namespace {

// Bytes per slot of a dense and of a hashed table (a key more), for one size or several
// (largest message, its count, list head and two max-tree entries more).
std::uint64_t denseSlotBytes(bool multiSize) {
  return multiSize ? 4 + 8 + 4 + 4 + 16 : 4;
}
std::uint64_t hashedSlotBytes(bool multiSize) {
  return denseSlotBytes(multiSize) + 4;
}

}  // namespace

Tac3Objective::Tac3Objective(const Problem& problem, const Network& router, const Mapping& mapping,
                             Storage storage)
    : IncrementalObjective(problem, router, mapping),
      Tac3Totals(problem),
      links_(router, problem.model),
      linkLimit_(links_.limit()),
      realComms_(static_cast<int>(problem.realCommunications)),
      longestRoute_(links_.longestRoute()) {
  const int ccsCount = problem.ccsCount;
  const std::size_t n = problem.communicationCount();
  // Per CCS: its messages, its size (or several), and the most messages one task has in it.
  std::vector<std::uint64_t> messages(ccsCount, 0), size(ccsCount, 0), mostOfOneTask(ccsCount, 0);
  tables_.resize(ccsCount);
  for (std::size_t c = 0; c < n; ++c) {
    const int t = problem.ccs[c];
    if (messages[t]++ == 0) size[t] = problem.bytes[c];
    if (problem.bytes[c] != size[t]) tables_[t].multiSize = true;
  }
  for (int task = 0; task < problem.tasks; ++task) {
    const int *c = placement_.incidentBegin(task), *end = placement_.incidentEnd(task);
    while (c != end) {  // runs of one CCS
      const int t = problem.ccs[*c];
      std::uint64_t run = 0;
      for (; c != end && problem.ccs[*c] == t; ++c) ++run;
      mostOfOneTask[t] = std::max(mostOfOneTask[t], run);
    }
  }

  // Table sizes. A hashed table holds the keys of every link the CCS's routes can load at
  // once (messages x longest route) plus what one move adds (the new routes of the two
  // tasks' messages), at most 3/4 full; Auto doubles that so that rebuilds are rare.
  const auto L = static_cast<std::uint64_t>(longestRoute_);
  std::uint64_t slots = 0, auxSlots = 0, nodes = 0, histSize = 0, widest = 1;
  for (int t = 0; t < ccsCount; ++t) {
    Table& table = tables_[t];
    const std::uint64_t room = 2 * mostOfOneTask[t] * L;
    const std::uint64_t need = messages[t] * L + room;
    std::uint64_t capacity = 16;
    while (capacity / 4 * 3 < need) capacity *= 2;
    if (storage == Storage::Auto) capacity *= 2;
    const bool dense = storage == Storage::Auto &&
                       static_cast<std::uint64_t>(linkLimit_) * denseSlotBytes(table.multiSize) <=
                           capacity * hashedSlotBytes(table.multiSize);
    if (dense) capacity = static_cast<std::uint64_t>(linkLimit_);
    if (slots + capacity >= std::numeric_limits<std::uint32_t>::max())
      throw std::length_error(
          "the trace's communication sets need more than 2^32 link slots in the tac3 engine");
    table.base = static_cast<std::uint32_t>(slots);
    table.capacity = static_cast<std::uint32_t>(capacity);
    table.room = static_cast<std::uint32_t>(std::min<std::uint64_t>(room, capacity));
    if (!dense) {
      table.mask = table.capacity - 1;
      int bits = 0;
      while ((std::uint64_t{1} << bits) < capacity) ++bits;
      table.shift = static_cast<std::uint32_t>(32 - bits);
    }
    slots += capacity;
    widest = std::max(widest, capacity);
    if (table.multiSize) {
      table.aux = auxSlots;
      auxSlots += capacity;
      nodes += messages[t] * L;
    }
    histOffset_.push_back(table.multiSize ? -1 : static_cast<std::int64_t>(histSize));
    // weighted loads range over 0 .. messages x the largest weight
    if (!table.multiSize) histSize += messages[t] * links_.largestWeight() + 2;
  }
  keys_.assign(slots, kNoKey);
  load_.assign(slots, 0);
  hist_.assign(histSize, 0);
  maxLoad_.assign(ccsCount, 0);
  top_.assign(auxSlots, 0);
  atTop_.assign(auxSlots, 0);
  head_.assign(auxSlots, -1);
  tree_.assign(2 * auxSlots, 0);
  if (nodes >= static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max()))
    throw std::length_error("the trace has too many messages of mixed sizes for the tac3 engine");
  next_.assign(nodes, -1);
  prev_.assign(nodes, -1);
  commOfNode_.assign(nodes, -1);
  nodeBase_.assign(n, 0);
  std::uint32_t node = 0;
  for (std::size_t c = 0; c < n; ++c) {
    if (!tables_[problem.ccs[c]].multiSize) continue;
    nodeBase_[c] = node;
    for (int k = 0; k < longestRoute_; ++k) commOfNode_[node++] = static_cast<std::int32_t>(c);
  }
  seen_.assign(widest, 0);

  // The mapping's routes, then per CCS its histogram (one size) and cost.
  std::int64_t pairs = 0;
  for (std::size_t c = 0; c < n; ++c) {
    const int comm = static_cast<int>(c);
    Table& table = tables_[problem.ccs[c]];
    const std::int64_t repeats = static_cast<std::int64_t>(repeats_[problem.ccs[c]]);
    if (table.multiSize) {
      std::int64_t own = 0;
      joinMulti(comm, endsNow(comm), own);
      pairs += repeats * own;
      continue;
    }
    const Ends e = endsNow(comm);
    links_.forEachLink(
        e.p, e.q,
        [&](LinkId l, std::uint32_t w) {
          const std::uint32_t slot = slotOf(table, static_cast<std::uint32_t>(l));
          pairs += repeats * static_cast<std::int64_t>(load_[slot]) * w;
          load_[slot] += w;
        },
        comm < realComms_);
  }
  sharedPairs_ = static_cast<std::uint64_t>(pairs);
  for (int t = 0; t < ccsCount; ++t) {
    const Table& table = tables_[t];
    if (table.multiSize) {
      cost_[t] = treeTop(table);
      continue;
    }
    std::int32_t* h = hist_.data() + histOffset_[t];
    for (std::uint32_t i = 0; i < table.capacity; ++i) {
      const std::uint32_t load = load_[table.base + i];
      if (load == 0) continue;
      ++h[load];
      maxLoad_[t] = std::max(maxLoad_[t], load);
    }
    cost_[t] = size[t] * maxLoad_[t];
  }
  size_ = std::move(size);
  sumCosts();
  // A move touches at most two routes (old and new) of each communication of its two tasks.
  touched_.resize(2 * 2 * placement_.mostIncident() * static_cast<std::size_t>(longestRoute_) + 1);
}

void Tac3Objective::rehash(int t) {
  Table& table = tables_[t];
  liveKeys_.clear();
  liveLoads_.clear();
  liveTops_.clear();
  liveAtTop_.clear();
  liveHeads_.clear();
  for (std::uint32_t i = 0; i < table.capacity; ++i) {
    const std::uint32_t slot = table.base + i;
    if (keys_[slot] == kNoKey || load_[slot] == 0) continue;
    liveKeys_.push_back(keys_[slot]);
    liveLoads_.push_back(load_[slot]);
    if (table.multiSize) {
      liveTops_.push_back(top_[table.aux + i]);
      liveAtTop_.push_back(atTop_[table.aux + i]);
      liveHeads_.push_back(head_[table.aux + i]);
    }
    load_[slot] = 0;
  }
  std::fill_n(keys_.begin() + table.base, table.capacity, kNoKey);
  if (table.multiSize) {
    std::fill_n(top_.begin() + static_cast<std::ptrdiff_t>(table.aux), table.capacity, 0);
    std::fill_n(atTop_.begin() + static_cast<std::ptrdiff_t>(table.aux), table.capacity, 0);
    std::fill_n(head_.begin() + static_cast<std::ptrdiff_t>(table.aux), table.capacity, -1);
    std::fill_n(tree_.begin() + static_cast<std::ptrdiff_t>(2 * table.aux), 2 * table.capacity, 0);
  }
  table.used = 0;
  for (std::size_t k = 0; k < liveKeys_.size(); ++k) {
    const std::uint32_t slot = slotOf(table, liveKeys_[k]);
    load_[slot] = liveLoads_[k];
    if (!table.multiSize) continue;
    const std::uint32_t local = slot - table.base;
    top_[table.aux + local] = liveTops_[k];
    atTop_[table.aux + local] = liveAtTop_[k];
    head_[table.aux + local] = liveHeads_[k];
    setLeaf(table, local, liveTops_[k] * liveLoads_[k]);
  }
}

std::size_t Tac3Objective::tableBytes() const {
  return keys_.size() * 4 + load_.size() * 4 + hist_.size() * 4 + top_.size() * 12 +
         head_.size() * 4 + (next_.size() + prev_.size() + commOfNode_.size()) * 4 +
         nodeBase_.size() * 4 + tree_.size() * 8 + seen_.size() * sizeof(Stamp);
}

}  // namespace tac3map
