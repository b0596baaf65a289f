// tac3, the general engine: any box, any model (weighted links, engines, several ranks per
// node), any message sizes. The annealer uses CompactTac3Objective instead where that fits
// (small boxes, one message size per CCS). Per CCS t, cost_t = max over links l of
// load_t(l) x (largest message of t on l); the tie-break term is
// sharedPairs = sum over t, l of load_t(l) choose 2 (weighted: a message of weight w counts as
// w unit messages).
//
// Memory is linear in the job and the machine, whatever the number of CCSs: each CCS keeps its
// loads in a table of its own, either dense over all link ids or hashed by link id with room
// for the links its routes can use (messages x longest route), whichever is smaller. A big
// machine with few CCSs (a stencil on the whole of Fugaku) stays dense and fast; a trace with
// hundreds of CCSs of a few messages each costs per message, not per CCS x link. A hashed
// table keeps a link's key when its load falls to 0; before a CCS is evaluated its table is
// rebuilt if a move might not find a free slot.
//
// A CCS whose messages all have one size (the common case) has per load level a histogram of
// its links, so the busiest link is found without scanning: propose() re-routes the move's
// messages in place, remembers each touched link's old load, and finds the new maximum from
// those links and the untouched histogram; discard() restores the old loads, commit() moves
// the histogram counts. It stops as soon as the value must rise by at least limit() whatever
// the other CCSs do (each can fall at most to its largest message): near a good mapping most
// moves end after one CCS.
//
// A CCS with several sizes (a random pattern of distinct sizes has one size per message)
// keeps per link the list of its messages there, the largest of them, and a max-tree over
// links of load x largest message, so a link's change costs its messages plus a walk up the
// tree, independent of how many sizes the CCS has. Its moves are applied for real and
// reversed on discard.
#pragma once

#include <cstdint>
#include <vector>

#include "tac3map/search/incremental.hpp"
#include "tac3map/search/tac3_step.hpp"

namespace tac3map {

class Tac3Objective : public IncrementalObjective<Tac3Objective>, public Tac3Totals {
 public:
  // Auto: per CCS the smaller of a dense and a hashed table. Sparse: hashed tables as small as
  // the rules allow, so that they are rebuilt often (tests use it to exercise the rebuild).
  enum class Storage { Auto, Sparse };

  Tac3Objective(const Problem& problem, const Network& router, const Mapping& mapping,
                Storage storage = Storage::Auto);

  template <class Limit>
  bool propose(int task, int node, Limit&& limit);
  void commit();
  void discard();

  // Bytes held by the per-CCS tables (loads, keys, histograms, lists and trees).
  std::size_t tableBytes() const;

 private:
  static constexpr std::uint32_t kNoKey = 0xffffffffu;

  // Where CCS t keeps its loads: slots [base, base + capacity) of keys_ and load_. A dense
  // table (shift == 0) has a slot per link id; a hashed one probes linearly from a
  // multiplicative hash of the link id. A CCS of several sizes also has per slot an entry in
  // top_ and head_ from `aux`, and a max-tree in tree_[2 aux + 1 .. 2 aux + 2 capacity).
  struct Table {
    std::uint32_t base = 0, capacity = 0, mask = 0;
    std::uint32_t shift = 0;  // 32 - log2(capacity) when hashed, else 0
    std::uint32_t used = 0;   // keys taken (hashed)
    std::uint32_t room = 0;   // the most keys one move can add
    std::size_t aux = 0;
    bool multiSize = false;
  };
  struct Touched {
    std::uint32_t slot;
    std::uint32_t before;
  };
  struct Segment {
    int ccs;
    bool multiSize;
    std::uint32_t first, last;  // touched_ range, or multiComms_ range for multiSize
    std::uint32_t newMax;       // single size
    std::uint64_t newCost;
  };

  // The slot of `link` in `table`, taken if the link has none yet.
  [[gnu::always_inline]] inline std::uint32_t slotOf(Table& table, std::uint32_t link) {
    if (table.shift == 0) return table.base + link;
    std::uint32_t i = (link * 2654435769u) >> table.shift;
    for (;; i = (i + 1) & table.mask) {
      const std::uint32_t key = keys_[table.base + i];
      if (key == link) return table.base + i;
      if (key == kNoKey) {
        keys_[table.base + i] = link;
        ++table.used;
        return table.base + i;
      }
    }
  }
  // Rebuilds t's hashed table without its empty links if a move might not find room.
  void ensureRoom(int t) {
    const Table& table = tables_[t];
    if (table.shift != 0 && table.used + table.room > table.capacity / 4 * 3) rehash(t);
  }
  void rehash(int t);

  // False (state left for discard) when tooHigh(a lower bound of the new cost) says so.
  // Dense: the table indexes by link id (no probe on the hot path).
  template <bool Dense, class TooHigh>
  bool evaluateSingleSize(int t, const int* first, const int* last, Segment& segment,
                          TooHigh&& tooHigh);
  void evaluateMultiSize(int t, const int* first, const int* last, Segment& segment);
  // Several sizes: the route of communication c between ends e leaves or joins t's loads.
  template <bool Join>
  void moveMulti(int c, Ends e, std::int64_t& pairs);
  void leaveMulti(int c, Ends e, std::int64_t& pairs) { moveMulti<false>(c, e, pairs); }
  void joinMulti(int c, Ends e, std::int64_t& pairs) { moveMulti<true>(c, e, pairs); }
  void setLeaf(const Table& table, std::uint32_t local, std::uint64_t value);
  std::uint64_t treeTop(const Table& table) const { return tree_[2 * table.aux + 1]; }
  void nextStamp() {
    if (++stamp_ == 0) {
      std::fill(seen_.begin(), seen_.end(), 0);
      stamp_ = 1;
    }
  }

  ModelLinks links_;  // network links, and engines when the model charges nodes
  LinkId linkLimit_;
  int realComms_;  // communications from here on are union copies: network links only
  int longestRoute_;
  std::vector<Table> tables_;             // per CCS
  std::vector<std::uint64_t> size_;       // per CCS: its message size (the first, if several)
  std::vector<std::uint32_t> keys_;       // per slot: its link id (hashed tables)
  std::vector<std::uint32_t> load_;       // per slot: the CCS's weighted messages on the link
  std::vector<std::int64_t> histOffset_;  // single size, per CCS: its histogram in hist_
  std::vector<std::int32_t> hist_;        // links by load
  std::vector<std::uint32_t> maxLoad_;    // single size, per CCS
  // Several sizes: per slot the largest message on the link, how many messages of that size
  // are there (the list is walked only when the last of them leaves: whole-run traces put
  // many equal messages on one link), and the first of its list nodes; per node
  // (communication c's k-th link is node nodeBase_[c] + k) its neighbours and c.
  std::vector<std::uint64_t> top_;
  std::vector<std::uint32_t> atTop_;
  std::vector<std::int32_t> head_, next_, prev_, commOfNode_;
  std::vector<std::uint32_t> nodeBase_;
  std::vector<std::uint64_t> tree_;

  // Scratch of the proposed move, sized once.
  // Per local slot (below linkLimit_): the stamp of the CCS evaluation that last touched it.
  // 16 bits keep the hot arrays in the first-level cache; the array is cleared on wrap.
  using Stamp = std::uint16_t;
  std::vector<Stamp> seen_;
  Stamp stamp_ = 0;
  std::vector<Touched> touched_;  // sized for the largest move; touchedCount_ in use
  std::uint32_t touchedCount_ = 0;
  std::vector<Segment> segments_;
  std::vector<int> affected_, multiComms_;
  std::vector<std::uint32_t> liveKeys_, liveLoads_;  // rehash scratch
  std::vector<std::uint64_t> liveTops_;
  std::vector<std::uint32_t> liveAtTop_;
  std::vector<std::int32_t> liveHeads_;
};

template <class Limit>
bool Tac3Objective::propose(int task, int node, Limit&& limit) {
  move_ = placement_.makeMove(task, node);
  touchedCount_ = 0;
  segments_.clear();
  multiComms_.clear();
  beginProposal();
  std::int64_t slack = initialSlack();
  bool rejected = false;
  placement_.forEachAffectedCcs(
      move_, problem_.ccs.data(), affected_, [&](int t, const int* first, const int* last) {
        ensureRoom(t);
        Segment segment{t, tables_[t].multiSize, 0, 0, 0, 0};
        enter(t, slack);
        const auto tooHigh = [&](std::uint64_t cost) {
          return certainlyTooHigh(t, cost, slack, limit);
        };
        if (segment.multiSize) {
          evaluateMultiSize(t, first, last, segment);
        } else if (!(tables_[t].shift == 0
                         ? evaluateSingleSize<true>(t, first, last, segment, tooHigh)
                         : evaluateSingleSize<false>(t, first, last, segment, tooHigh))) {
          rejected = true;
          return false;
        }
        segments_.push_back(segment);
        rejected = tooHigh(segment.newCost);
        settle(t, segment.newCost);
        return !rejected;
      });
  if (rejected) discard();
  return !rejected;
}

template <bool Dense, class TooHigh>
bool Tac3Objective::evaluateSingleSize(int t, const int* first, const int* last, Segment& segment,
                                       TooHigh&& tooHigh) {
  Table& table = tables_[t];
  const std::uint32_t base = table.base;
  Stamp* seen = seen_.data();
  nextStamp();
  const Stamp stamp = stamp_;
  Touched* const begin = touched_.data() + touchedCount_;
  Touched* out = begin;
  // The step of tac3_step.hpp on weighted loads (model.hpp: a message adds w to each link it
  // loads), indexed by slot. Each slot's load before the move is recorded on its first touch,
  // branch-free: the entry is always written, but kept only then.
  Tac3Step<std::uint32_t> step{load_.data()};
  const auto slotOfLink = [&](LinkId l) {
    return Dense ? base + static_cast<std::uint32_t>(l)
                 : slotOf(table, static_cast<std::uint32_t>(l));
  };
  const auto record = [&](std::uint32_t slot, std::uint32_t before) {
    *out = {slot, before};
    out += seen[slot - base] != stamp;
    seen[slot - base] = stamp;
  };
  for (const int* c = first; c != last; ++c) {
    const Ends now = endsNow(*c);
    links_.forEachLink(
        now.p, now.q, [&](LinkId l, std::uint32_t w) { step.out(slotOfLink(l), w, record); },
        *c < realComms_);
  }
  const std::uint64_t bytes = size_[t];  // the CCS's one size
  const std::uint32_t oldMax = maxLoad_[t];
  bool tooHighNow = false;
  for (const int* c = first; c != last && !tooHighNow; ++c) {
    const Ends after = endsAfter(*c);
    links_.forEachLink(
        after.p, after.q, [&](LinkId l, std::uint32_t w) { step.in(slotOfLink(l), w, record); },
        *c < realComms_);
    tooHighNow = step.addedTop > oldMax && tooHigh(bytes * step.addedTop);
  }
  segment.first = touchedCount_;
  touchedCount_ = static_cast<std::uint32_t>(out - touched_.data());
  segment.last = touchedCount_;
  if (tooHighNow) return false;
  addPairs(t, step.pairs);
  // Untouched links keep their loads: the old maximum survives if some link at it is
  // untouched, else the next level down with an untouched link, else the touched maximum.
  const std::uint32_t top = step.newMax(oldMax, [&](std::uint32_t addedTop) {
    std::uint32_t top = addedTop;
    for (const Touched* e = begin; e != out; ++e) top = std::max(top, load_[e->slot]);
    const std::int32_t* h = hist_.data() + histOffset_[t];
    for (std::uint32_t level = oldMax; level > top; --level) {
      std::int32_t untouched = h[level];
      for (const Touched* e = begin; e != out; ++e) untouched -= e->before == level;
      if (untouched > 0) return level;
    }
    return top;
  });
  segment.newMax = top;
  segment.newCost = bytes * top;
  return true;
}

inline void Tac3Objective::evaluateMultiSize(int t, const int* first, const int* last,
                                             Segment& segment) {
  segment.first = static_cast<std::uint32_t>(multiComms_.size());
  std::int64_t pairs = 0;
  for (const int* c = first; c != last; ++c) {
    multiComms_.push_back(*c);
    leaveMulti(*c, endsNow(*c), pairs);
    joinMulti(*c, endsAfter(*c), pairs);
  }
  segment.last = static_cast<std::uint32_t>(multiComms_.size());
  addPairs(t, pairs);
  segment.newCost = treeTop(tables_[t]);
}

inline void Tac3Objective::setLeaf(const Table& table, std::uint32_t local, std::uint64_t value) {
  std::uint64_t* tree = tree_.data() + 2 * table.aux;
  std::size_t j = static_cast<std::size_t>(table.capacity) + local;
  tree[j] = value;
  for (j >>= 1; j >= 1; j >>= 1) {
    const std::uint64_t top = std::max(tree[2 * j], tree[2 * j + 1]);
    if (tree[j] == top) break;  // nothing above changes either
    tree[j] = top;
  }
}

// One route of communication c joins (Join) or leaves t's loads: per link the load, the
// message list, the largest message there and its max-tree leaf.
template <bool Join>
inline void Tac3Objective::moveMulti(int c, Ends e, std::int64_t& pairs) {
  Table& table = tables_[problem_.ccs[c]];
  const std::uint64_t bytes = problem_.bytes[c];
  std::int32_t node = static_cast<std::int32_t>(nodeBase_[c]);
  links_.forEachLink(
      e.p, e.q,
      [&](LinkId l, std::uint32_t w) {
        const std::uint32_t slot = slotOf(table, static_cast<std::uint32_t>(l));
        const std::uint32_t local = slot - table.base;
        const std::size_t a = table.aux + local;
        const std::uint32_t before = load_[slot];
        const std::uint32_t after = Join ? before + w : before - w;
        load_[slot] = after;
        if (Join) {
          pairs += static_cast<std::int64_t>(before) * w;
          next_[node] = head_[a];
          prev_[node] = -1;
          if (head_[a] >= 0) prev_[head_[a]] = node;
          head_[a] = node;
          if (bytes > top_[a]) {
            top_[a] = bytes;
            atTop_[a] = 1;
          } else if (bytes == top_[a]) {
            ++atTop_[a];
          }
        } else {
          pairs -= static_cast<std::int64_t>(after) * w;
          if (prev_[node] >= 0) {
            next_[prev_[node]] = next_[node];
          } else {
            head_[a] = next_[node];
          }
          if (next_[node] >= 0) prev_[next_[node]] = prev_[node];
          // The last message of the largest size left: ask the ones that stay.
          if (bytes == top_[a] && --atTop_[a] == 0) {
            std::uint64_t top = 0;
            std::uint32_t count = 0;
            for (std::int32_t n = head_[a]; n >= 0; n = next_[n]) {
              const std::uint64_t b = problem_.bytes[commOfNode_[n]];
              if (b > top) {
                top = b;
                count = 1;
              } else if (b == top) {
                ++count;
              }
            }
            top_[a] = top;
            atTop_[a] = count;
          }
        }
        ++node;
        setLeaf(table, local, top_[a] * after);
      },
      c < realComms_);
}

inline void Tac3Objective::commit() {
  for (const Segment& s : segments_) {
    if (!s.multiSize) {
      std::int32_t* h = hist_.data() + histOffset_[s.ccs];
      for (std::uint32_t i = s.first; i < s.last; ++i) {
        --h[touched_[i].before];
        ++h[load_[touched_[i].slot]];
      }
      maxLoad_[s.ccs] = s.newMax;
    }
    cost_[s.ccs] = s.newCost;
  }
  commitTotals();
  placement_.apply(move_);
  segments_.clear();
}

inline void Tac3Objective::discard() {
  for (std::uint32_t i = 0; i < touchedCount_; ++i) load_[touched_[i].slot] = touched_[i].before;
  std::int64_t pairs = 0;  // the proposal's, already in pairsDelta_, which is dropped
  for (const Segment& s : segments_) {
    if (!s.multiSize) continue;
    for (std::uint32_t i = s.first; i < s.last; ++i) {
      leaveMulti(multiComms_[i], endsAfter(multiComms_[i]), pairs);
      joinMulti(multiComms_[i], endsNow(multiComms_[i]), pairs);
    }
  }
  segments_.clear();
}

}  // namespace tac3map
