// MPI's matching of messages to receives when some receives take any source or any tag
// (kAnySource, kAnyTag in trace.hpp). Private to src/model: ccs.cpp's level simulation posts
// each side here as it runs the ranks forward, when the trace has such receives.
//
// Each rank keeps its posted receives and its unexpected messages (sent, not yet received)
// in arrival order, as an MPI library does: a message takes the first posted receive it
// matches, a receive the first unexpected message it matches. Messages of one sender arrive
// in the order it sent them (MPI's non-overtaking rule). Without wildcards this gives the
// static matching of ccs.cpp, the k-th send of a (source, destination, tag) with the k-th
// receive of it, whatever the order the ranks post in. Negative tags are the steps of
// expanded collectives (collectives.hpp): MPI_ANY_TAG does not take them, as in MPI, where a
// collective's messages never meet a program's receives.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace tac3map::matching {

class Matcher {
 public:
  // `wildcards[r]`: rank r posts a receive from any source or with any tag somewhere. Only
  // such ranks index their unexpected messages by source, by tag and in one list as well.
  Matcher(int ranks, std::vector<bool> wildcards);

  // Rank `src` sends to `dst` with `tag`. Returns the id of the posted receive it matches
  // (that receive is taken), or -1: the message waits at `dst` as unexpected, named `id`.
  int send(int src, int dst, std::int64_t tag, int id);
  // Rank `dst` posts a receive from `src` (or kAnySource) with `tag` (or kAnyTag). Returns
  // the id of the unexpected message it takes, or -1: the receive waits, named `id`.
  int recv(int dst, int src, std::int64_t tag, int id);

 private:
  struct Entry {
    std::uint64_t seq;  // arrival order
    int id;
  };
  // A queue that only grows at the back; taken entries are skipped at the front.
  struct Queue {
    std::vector<Entry> items;
    std::size_t head = 0;
  };
  struct Key {
    int rank;
    std::int64_t tag;
    bool operator==(const Key& other) const { return rank == other.rank && tag == other.tag; }
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      // Unsigned: kAnyTag times anything would overflow a signed product.
      return std::hash<std::uint64_t>()(static_cast<std::uint64_t>(k.tag) * 1000003u +
                                        static_cast<std::uint32_t>(k.rank));
    }
  };
  struct RankQueues {
    std::unordered_map<Key, Queue, KeyHash> posted;      // by (source or any, tag or any)
    std::unordered_map<Key, Queue, KeyHash> unexpected;  // by (source, tag)
    std::unordered_map<int, Queue> bySource;             // wildcard ranks only
    std::unordered_map<std::int64_t, Queue> byTag;       // wildcard ranks only
    Queue all;                                           // wildcard ranks only
  };

  // The front entry not taken yet, or nullptr.
  const Entry* front(Queue& queue);
  const Entry* front(std::unordered_map<Key, Queue, KeyHash>& queues, Key key);
  void push(Queue& queue, int id);
  void take(int id);

  std::vector<RankQueues> ranks_;
  std::vector<bool> wildcards_;
  std::vector<std::uint8_t> taken_;  // by id
  std::uint64_t seq_ = 0;
};

}  // namespace tac3map::matching
