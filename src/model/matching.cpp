#include "matching.hpp"

#include <stdexcept>
#include <utility>

#include "tac3map/io/trace.hpp"

namespace tac3map::matching {

Matcher::Matcher(int ranks, std::vector<bool> wildcards)
    : ranks_(static_cast<std::size_t>(ranks)), wildcards_(std::move(wildcards)) {
  wildcards_.resize(ranks_.size(), false);
}

const Matcher::Entry* Matcher::front(Queue& queue) {
  while (queue.head < queue.items.size() && taken_[queue.items[queue.head].id]) ++queue.head;
  if (queue.head == queue.items.size()) {
    // Emptied: give the memory back, so a long run does not keep every entry it ever held.
    queue.items.clear();
    queue.head = 0;
    return nullptr;
  }
  return &queue.items[queue.head];
}

const Matcher::Entry* Matcher::front(std::unordered_map<Key, Queue, KeyHash>& queues, Key key) {
  const auto it = queues.find(key);
  return it == queues.end() ? nullptr : front(it->second);
}

void Matcher::push(Queue& queue, int id) {
  queue.items.push_back({seq_, id});
}

void Matcher::take(int id) {
  taken_[static_cast<std::size_t>(id)] = 1;
}

int Matcher::send(int src, int dst, std::int64_t tag, int id) {
  if (static_cast<std::size_t>(id) >= taken_.size()) taken_.resize(static_cast<std::size_t>(id) + 1, 0);
  ++seq_;
  RankQueues& at = ranks_[static_cast<std::size_t>(dst)];
  // The first posted receive it matches: the earliest of the four queues' fronts. A negative
  // tag is a collective's step (collectives.hpp): MPI_ANY_TAG never takes it, as a
  // collective's messages never match a program's receives in MPI.
  const bool internal = tag < 0;
  const Entry* best = nullptr;
  for (const Key key : {Key{src, tag}, Key{src, kAnyTag}, Key{kAnySource, tag},
                        Key{kAnySource, kAnyTag}}) {
    if (internal && key.tag == kAnyTag) continue;
    const Entry* candidate = front(at.posted, key);
    if (candidate && (!best || candidate->seq < best->seq)) best = candidate;
  }
  if (best) {
    const int receive = best->id;
    take(receive);
    return receive;
  }
  push(at.unexpected[{src, tag}], id);
  if (wildcards_[static_cast<std::size_t>(dst)] && !internal) {
    push(at.bySource[src], id);
    push(at.all, id);
  }
  if (wildcards_[static_cast<std::size_t>(dst)]) push(at.byTag[tag], id);
  return -1;
}

int Matcher::recv(int dst, int src, std::int64_t tag, int id) {
  if (static_cast<std::size_t>(id) >= taken_.size()) taken_.resize(static_cast<std::size_t>(id) + 1, 0);
  ++seq_;
  RankQueues& at = ranks_[static_cast<std::size_t>(dst)];
  const bool anySource = src == kAnySource, anyTag = tag == kAnyTag;
  const Entry* first = nullptr;
  if (!anySource && !anyTag) {
    first = front(at.unexpected, {src, tag});
  } else {
    // Only ranks declared with wildcards index their messages for such a receive.
    if (!wildcards_[static_cast<std::size_t>(dst)])
      throw std::logic_error("Matcher: a wildcard receive on a rank declared without any");
    if (!anySource) {
      const auto it = at.bySource.find(src);
      if (it != at.bySource.end()) first = front(it->second);
    } else if (!anyTag) {
      const auto it = at.byTag.find(tag);
      if (it != at.byTag.end()) first = front(it->second);
    } else {
      first = front(at.all);
    }
  }
  if (first) {
    const int message = first->id;
    take(message);
    return message;
  }
  push(at.posted[{src, tag}], id);
  return -1;
}

}  // namespace tac3map::matching
