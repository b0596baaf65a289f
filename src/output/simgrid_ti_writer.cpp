#include "tac3map/output/simgrid_ti_writer.hpp"

#include <charconv>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <limits>
#include <map>
#include <set>
#include <tuple>

#include "tac3map/io/atomic_file.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/io/number_text.hpp"

namespace tac3map {
namespace {

// One-to-one tags for SMPI: the trace's tags in 0 .. INT_MAX stay as they are (so a
// program's tags read back unchanged); the others (negative: expanded collectives) follow
// the largest of them in increasing order.
std::map<std::int64_t, std::int64_t> smpiTags(const Trace& trace) {
  constexpr std::int64_t kMax = std::numeric_limits<int>::max();
  std::set<std::int64_t> tags;
  for (const auto& events : trace.events)
    for (const Event& e : events)
      if (e.kind == EventKind::Send || e.kind == EventKind::Recv || e.kind == EventKind::Isend ||
          e.kind == EventKind::Irecv || e.kind == EventKind::Sendrecv)
        if (e.tag != kAnyTag) tags.insert(e.tag);
  std::map<std::int64_t, std::int64_t> renamed;
  std::int64_t next = 0;
  for (std::int64_t tag : tags)
    if (tag >= 0 && tag <= kMax) {
      renamed[tag] = tag;
      next = tag + 1;
    }
  for (std::int64_t tag : tags) {
    if (renamed.count(tag)) continue;
    if (next > kMax)
      failIn(trace.source,
             "too many distinct tags for SMPI (tags are ints 0.." + std::to_string(kMax) + ")");
    renamed[tag] = next++;
  }
  return renamed;
}

using Key = std::tuple<int, int, std::int64_t>;  // source, destination, SMPI tag

std::string keyText(const Key& key) {
  return std::to_string(std::get<0>(key)) + " " + std::to_string(std::get<1>(key)) + " " +
         std::to_string(std::get<2>(key));
}

// One rank's actions; `live` mirrors SMPI's request store (per key, oldest first).
class RankWriter {
 public:
  RankWriter(const Trace& trace, int rank, const std::map<std::int64_t, std::int64_t>& tags)
      : trace_(trace), rank_(rank), me_(std::to_string(rank)), tags_(tags) {}

  std::string write() {
    line("init");
    for (const Event& e : trace_.events[rank_]) event(e);
    line("finalize");
    return out_;
  }

 private:
  void line(const std::string& action) {
    out_ += me_;
    out_ += ' ';
    out_ += action;
    out_ += '\n';
  }
  // SMPI writes MPI_ANY_TAG as -444 (smpi.h), MPI_ANY_SOURCE as -333.
  std::int64_t tag(const Event& e) const { return e.tag == kAnyTag ? -444 : tags_.at(e.tag); }
  static int peer(int rank) { return rank == kAnySource ? -333 : rank; }

  void post(const std::string& name, const Key& key) {
    live_[key].push_back(name);
    if (!name.empty()) keyOf_[name] = key;
  }
  // SMPI's `wait src dst tag` completes the oldest pending request with that key. The key is
  // a copy: the caller's may be the entry of keyOf_ erased below (AddressSanitizer found it).
  void wait(const Event& e, const std::string& name, const Key key) {
    auto& pending = live_[key];
    if (pending.empty() || pending.front() != name)
      failAt(trace_.fileOf(e), e.line,
             "wait " + (name.empty() ? std::string("of a sendrecv") : name) +
                 ": SimGrid's replay would complete an older pending request with the same "
                 "source, destination and tag (" +
                 keyText(key) + ") first; the TI format cannot express this order");
    pending.pop_front();
    if (!name.empty()) keyOf_.erase(name);
    line("wait " + keyText(key));
  }

  void event(const Event& e) {
    switch (e.kind) {
      case EventKind::Send:
        line("send " + std::to_string(e.peer) + " " + std::to_string(tag(e)) + " " +
             std::to_string(e.bytes));
        return;
      case EventKind::Recv:
        line("recv " + std::to_string(peer(e.peer)) + " " + std::to_string(tag(e)) + " " +
             std::to_string(e.bytes));
        return;
      case EventKind::Isend:
        line("isend " + std::to_string(e.peer) + " " + std::to_string(tag(e)) + " " +
             std::to_string(e.bytes));
        post(trace_.requestOf(e), Key{rank_, e.peer, tag(e)});
        return;
      case EventKind::Irecv:
        line("irecv " + std::to_string(peer(e.peer)) + " " + std::to_string(tag(e)) + " " +
             std::to_string(e.bytes));
        post(trace_.requestOf(e), Key{peer(e.peer), rank_, tag(e)});
        return;
      case EventKind::Wait: {
        const auto it = keyOf_.find(trace_.requestOf(e));
        if (it == keyOf_.end())
          failAt(trace_.fileOf(e), e.line,
                 "wait for request " + trace_.requestOf(e) + ", not pending");
        wait(e, trace_.requestOf(e), it->second);
        return;
      }
      case EventKind::Waitall:
        line("waitall");
        live_.clear();
        keyOf_.clear();
        return;
      case EventKind::Waitany: {
        // SMPI writes the count of the call's requests; which one completes is not said.
        std::size_t pending = 0;
        for (const auto& [key, names] : live_) pending += names.size();
        line("waitAny " + std::to_string(pending));
        return;
      }
      case EventKind::Sendrecv: {
        // Always as its two postings and two waits: SimGrid 3.32's `sendRecv` action requires
        // two datatype ids after the sizes and peers (`sendRecv 300 1 400 1 6 6`), whose
        // numbering is SMPI's own; the four-word form is rejected ("needs 6 mandatory
        // arguments"). isend + irecv + wait + wait is what SMPI's sendrecv does.
        const Key send{rank_, e.peer, tag(e)}, recv{peer(e.peer2), rank_, tag(e)};
        line("isend " + std::to_string(e.peer) + " " + std::to_string(tag(e)) + " " +
             std::to_string(e.bytes));
        post("", send);
        line("irecv " + std::to_string(peer(e.peer2)) + " " + std::to_string(tag(e)) + " " +
             std::to_string(e.bytes2));
        post("", recv);
        wait(e, "", send);
        wait(e, "", recv);
        return;
      }
      case EventKind::Barrier:
        line("barrier");
        return;
      case EventKind::Compute:
        line("sleep " + exactNumber(e.seconds));
        return;
      case EventKind::Copy:
        return;  // no TI action for a memory copy; it takes no part in CCSs
      case EventKind::Collective:
        break;  // expanded before
    }
    failAt(trace_.fileOf(e), e.line, "collective left unexpanded");
  }

  const Trace& trace_;
  int rank_;
  std::string me_;
  const std::map<std::int64_t, std::int64_t>& tags_;
  std::map<Key, std::deque<std::string>> live_;  // "" = a sendrecv half
  std::map<std::string, Key> keyOf_;
  std::string out_;
};

}  // namespace

std::vector<std::string> simgridTiActions(const Trace& input,
                                          const CollectiveAlgorithms& algorithms) {
  Trace expanded;
  const Trace& trace = withCollectivesExpanded(input, algorithms, expanded);
  const auto tags = smpiTags(trace);
  std::vector<std::string> ranks;
  for (int rank = 0; rank < trace.ranks; ++rank)
    ranks.push_back(RankWriter(trace, rank, tags).write());
  return ranks;
}

std::string simgridTiRankFile(const std::string& indexPath, int rank) {
  return std::filesystem::path(indexPath).filename().string() + ".rank" + std::to_string(rank);
}

void writeSimgridTi(const Trace& trace, const std::string& indexPath,
                    const CollectiveAlgorithms& algorithms) {
  writeIndexedFiles(indexPath, simgridTiActions(trace, algorithms),
                    [&](int rank) { return simgridTiRankFile(indexPath, rank); });
}

}  // namespace tac3map
