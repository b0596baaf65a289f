#include "collective_steps.hpp"

#include <algorithm>

#include "tac3map/io/error.hpp"
#include "tac3map/io/limits.hpp"

namespace tac3map {
namespace {

// The steps one rank takes, in communicator ranks; turned into events by the caller.
// With no `out`, only counts the messages the steps send (the expansion's size, checked
// against limits::kMaxCommunications before anything is expanded).
class Steps {
 public:
  explicit Steps(std::vector<Event>* out, std::uint64_t* sends, const Event& call,
                 const std::vector<int>& members, std::int64_t tag, CallRequests* requests)
      : out_(out), sends_(sends), call_(call), members_(members), tag_(tag), requests_(requests) {}

  void send(int to, std::uint64_t bytes) { add(EventKind::Send, to, bytes, -1, 0); }
  void recv(int from, std::uint64_t bytes) { add(EventKind::Recv, from, bytes, -1, 0); }
  void exchange(int to, std::uint64_t sent, int from, std::uint64_t received) {
    add(EventKind::Sendrecv, to, sent, from, received);
  }
  // The linear algorithms post every message at once and then wait for each: requests of
  // their own (CallRequests), waited by name, so that requests the program keeps live across
  // the call stay live.
  void isend(int to, std::uint64_t bytes) { add(EventKind::Isend, to, bytes, -1, 0); }
  void irecv(int from, std::uint64_t bytes) { add(EventKind::Irecv, from, bytes, -1, 0); }
  void waitPosted() {
    for (int k = 0; k < posted_; ++k) {
      ++count_;
      if (!out_) continue;
      Event e;
      e.kind = EventKind::Wait;
      e.line = call_.line;
      e.file = call_.file;
      e.request = (*requests_)(k);
      out_->push_back(e);
    }
    posted_ = 0;
  }

  // The steps added so far (events, or counted only).
  std::size_t count() const { return count_; }

 private:
  void add(EventKind kind, int peer, std::uint64_t bytes, int peer2, std::uint64_t bytes2) {
    ++count_;
    const bool posts = kind == EventKind::Isend || kind == EventKind::Irecv;
    if (kind != EventKind::Recv && kind != EventKind::Irecv) ++*sends_;
    if (posts) ++posted_;
    if (!out_) return;
    Event e;
    e.kind = kind;
    e.line = call_.line;
    e.file = call_.file;
    e.tag = tag_;
    e.peer = members_[peer];
    e.bytes = bytes;
    if (kind == EventKind::Sendrecv) {
      e.peer2 = members_[peer2];
      e.bytes2 = bytes2;
    }
    if (posts) e.request = (*requests_)(posted_ - 1);
    out_->push_back(e);
  }

  std::vector<Event>* out_;
  std::uint64_t* sends_;
  const Event& call_;
  const std::vector<int>& members_;
  std::int64_t tag_;
  CallRequests* requests_;
  std::size_t count_ = 0;
  int posted_ = 0;  // requests posted and not yet waited
};

int largestPowerOfTwoAtMost(int n) {
  int p = 1;
  while (p * 2 <= n) p *= 2;
  return p;
}

// The bytes of `count` consecutive blocks from relative rank `first` (gather, scatter: the
// blocks of a binomial subtree; bcast, reduce: one message of the call's size whatever the
// subtree).
using SpanBytes = std::uint64_t (*)(const void* context, int first, int count);

// v: my rank relative to the root; rel -> communicator rank: (rel + root) % n.
void binomialDown(Steps& s, int v, int n, int root, const void* context, SpanBytes span) {
  const auto abs = [&](int rel) { return (rel + root) % n; };
  int mask = 1;
  while (mask < n) {
    if (v & mask) {
      s.recv(abs(v - mask), span(context, v, std::min(mask, n - v)));
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (v + mask < n) s.send(abs(v + mask), span(context, v + mask, std::min(mask, n - v - mask)));
}

void binomialUp(Steps& s, int v, int n, int root, const void* context, SpanBytes span) {
  const auto abs = [&](int rel) { return (rel + root) % n; };
  for (int mask = 1; mask < n; mask <<= 1) {
    if (v & mask) {
      s.send(abs(v - mask), span(context, v, std::min(mask, n - v)));
      break;
    }
    if (v + mask < n) s.recv(abs(v + mask), span(context, v + mask, std::min(mask, n - v - mask)));
  }
}

// Uniform blocks of the call's size: one block (bcast, reduce) or `count` (gather, scatter).
struct UniformBlocks {
  std::uint64_t bytes;
  bool perRank;
  static std::uint64_t span(const void* context, int, int count) {
    const auto* u = static_cast<const UniformBlocks*>(context);
    return u->perRank ? u->bytes * static_cast<std::uint64_t>(count) : u->bytes;
  }
};

// Each rank's own block (gatherv, scatterv: relative rank i is communicator rank
// (i + root) % n). Their sum is checked below 2^62 before any expansion.
struct RankBlocks {
  const std::vector<std::uint64_t>* bytes;
  int root;
  static std::uint64_t span(const void* context, int first, int count) {
    const auto* b = static_cast<const RankBlocks*>(context);
    const int n = static_cast<int>(b->bytes->size());
    std::uint64_t sum = 0;
    for (int i = first; i < first + count; ++i) sum += (*b->bytes)[(i + b->root) % n];
    return sum;
  }
};

void recursiveDoublingAllreduce(Steps& s, int v, int n, std::uint64_t bytes) {
  const int p = largestPowerOfTwoAtMost(n), rem = n - p;
  int newRank;
  if (v < 2 * rem) {
    if (v % 2 == 0) {
      s.send(v + 1, bytes);
      newRank = -1;
    } else {
      s.recv(v - 1, bytes);
      newRank = v / 2;
    }
  } else {
    newRank = v - rem;
  }
  if (newRank >= 0)
    for (int mask = 1; mask < p; mask <<= 1) {
      const int partnerNew = newRank ^ mask;
      const int partner = partnerNew < rem ? partnerNew * 2 + 1 : partnerNew + rem;
      s.exchange(partner, bytes, partner, bytes);
    }
  if (v < 2 * rem) {
    if (v % 2 == 1)
      s.send(v - 1, bytes);
    else
      s.recv(v + 1, bytes);
  }
}

std::uint64_t chunk(std::uint64_t bytes, int n, int i) {
  return bytes / n + (static_cast<std::uint64_t>(i) < bytes % n ? 1 : 0);
}

void ringReduceScatterChunks(Steps& s, int v, int n, std::uint64_t bytes) {
  const int right = (v + 1) % n, left = (v + n - 1) % n;
  for (int step = 0; step < n - 1; ++step)
    s.exchange(right, chunk(bytes, n, ((v - step) % n + n) % n), left,
               chunk(bytes, n, ((v - step - 1) % n + n) % n));
}

void ringAllgatherChunks(Steps& s, int v, int n, std::uint64_t bytes) {
  const int right = (v + 1) % n, left = (v + n - 1) % n;
  for (int step = 0; step < n - 1; ++step)
    s.exchange(right, chunk(bytes, n, ((v + 1 - step) % n + n) % n), left,
               chunk(bytes, n, ((v - step) % n + n) % n));
}

// The neighbour ring (Open MPI's tuned "ring", coll_tuned_allgather_algorithm 4, and
// MPICH's): at step k every rank passes to v + 1 the block it received from v - 1 at step
// k - 1 (its own at step 0).
void ringSameSize(Steps& s, int v, int n, std::uint64_t bytes) {
  const int right = (v + 1) % n, left = (v + n - 1) % n;
  for (int step = 0; step < n - 1; ++step) s.exchange(right, bytes, left, bytes);
}

// SimGrid's allgather "ring" (STAR-MPI's; also what SimGrid's ompi and mpich selectors run
// where those libraries use their neighbour ring): at step s = 1 .. n-1 every rank sends its
// own block straight to v + s and receives v - s's, so step s is a cyclic shift by s. The
// neighbour ring (ringSameSize) forwards a block one rank further at every step instead:
// same bytes and steps, but every message goes to v + 1.
void shiftRing(Steps& s, int v, int n, std::uint64_t bytes) {
  for (int shift = 1; shift < n; ++shift)
    s.exchange((v + shift) % n, bytes, (v - shift + n) % n, bytes);
}

// Allgatherv on a ring: as ringSameSize, step `step` passes on the block of rank v - step,
// each block of its owner's size.
void ringBlocks(Steps& s, int v, int n, const std::vector<std::uint64_t>& blocks) {
  const int right = (v + 1) % n, left = (v - 1 + n) % n;
  for (int step = 0; step < n - 1; ++step)
    s.exchange(right, blocks[((v - step) % n + n) % n], left, blocks[((v - step - 1) % n + n) % n]);
}

// Scan and exscan (MPICH's recursive doubling): at distance 1, 2, 4, ... each rank exchanges
// its partial result with v xor distance, when that rank exists.
void recursiveDoublingScan(Steps& s, int v, int n, std::uint64_t bytes) {
  for (int mask = 1; mask < n; mask <<= 1)
    if ((v ^ mask) < n) s.exchange(v ^ mask, bytes, v ^ mask, bytes);
}

void bruck(Steps& s, int v, int n, std::uint64_t bytes) {
  for (int pof = 1; pof < n; pof *= 2) {
    const std::uint64_t blocks = static_cast<std::uint64_t>(std::min(pof, n - pof));
    s.exchange((v - pof + n) % n, bytes * blocks, (v + pof) % n, bytes * blocks);
  }
}

// The rooted linear algorithms (SimGrid's default selector, Open MPI's basic linear): the
// root posts its n - 1 messages at once, one block each, to or from root + 1, root + 2, ...,
// and waits for them; every other rank posts its one message and waits. bcast and scatter(v)
// send from the root, reduce and gather(v) send to it.
void linearRooted(Steps& s, int v, int n, int root, bool fromRoot, const void* context,
                  SpanBytes span) {
  const int rel = (v - root + n) % n;
  if (rel == 0) {
    for (int r = 1; r < n; ++r) {
      const std::uint64_t bytes = span(context, r, 1);
      if (fromRoot)
        s.isend((r + root) % n, bytes);
      else
        s.irecv((r + root) % n, bytes);
    }
  } else if (fromRoot) {
    s.irecv(root, span(context, rel, 1));
  } else {
    s.isend(root, span(context, rel, 1));
  }
  s.waitPosted();
}

// Every rank posts its receives from v - 1, v - 2, ... and its sends to v + 1, v + 2, ... at
// once, then waits for all (allgather(v) and alltoall(v) linear). Posted together, they are
// one level; their order only decides how the level splits into sets: set s is the shift
// v -> v + s, as in the pairwise exchange.
template <class Sent, class Received>
void linearAll(Steps& s, int v, int n, Sent sent, Received received) {
  for (int step = 1; step < n; ++step) s.irecv((v - step + n) % n, received((v - step + n) % n));
  for (int step = 1; step < n; ++step) s.isend((v + step) % n, sent((v + step) % n));
  s.waitPosted();
}

// linearAll with one block size for every message (allgather, alltoall).
void linearSameSize(Steps& s, int v, int n, std::uint64_t bytes) {
  const auto each = [bytes](int) { return bytes; };
  linearAll(s, v, n, each, each);
}

// Alltoall by Bruck (SimGrid's alltoall "bruck", Open MPI's choice for small blocks): at
// distance d = 1, 2, 4, ... each rank sends to v + d the blocks whose index has bit d set and
// receives as many from v - d.
void bruckAlltoall(Steps& s, int v, int n, std::uint64_t bytes) {
  for (int pof = 1; pof < n; pof *= 2) {
    // Indexes 0 .. n-1 with bit pof set: pof in each whole run of 2 pof, and the tail's part
    // past pof.
    const int tail = n % (2 * pof);
    const auto blocks = static_cast<std::uint64_t>(n / (2 * pof) * pof + std::max(0, tail - pof));
    s.exchange((v + pof) % n, bytes * blocks, (v - pof + n) % n, bytes * blocks);
  }
}

// Rank v's steps of `call` into `s`. `own`: every communicator rank's own block of this call
// (gatherv, scatterv, allgatherv), else null.
void addSteps(Steps& s, const Trace& trace, const Event& call, int v, int n,
              const CollectiveAlgorithms& algorithms, const std::vector<std::uint64_t>* own) {
  const Algorithm algorithm = algorithmOf(algorithms, call, n, own);
  const bool linear = algorithm == Algorithm::Linear;
  const int rel = (v - call.root + n) % n;
  const std::uint64_t bytes = call.bytes;
  const UniformBlocks one{bytes, false}, each{bytes, true};
  const RankBlocks ranks{own, call.root};
  const auto rooted = [&](bool fromRoot, const void* context, SpanBytes span) {
    if (linear) return linearRooted(s, v, n, call.root, fromRoot, context, span);
    if (fromRoot) return binomialDown(s, rel, n, call.root, context, span);
    binomialUp(s, rel, n, call.root, context, span);
  };
  switch (call.op) {
    case CollectiveOp::Bcast:
      return rooted(true, &one, UniformBlocks::span);
    case CollectiveOp::Scatter:
      return rooted(true, &each, UniformBlocks::span);
    case CollectiveOp::Scatterv:
      return rooted(true, &ranks, RankBlocks::span);
    case CollectiveOp::Reduce:
      return rooted(false, &one, UniformBlocks::span);
    case CollectiveOp::Gather:
      return rooted(false, &each, UniformBlocks::span);
    case CollectiveOp::Gatherv:
      return rooted(false, &ranks, RankBlocks::span);
    case CollectiveOp::Allgatherv:
      if (linear)
        return linearAll(
            s, v, n, [&](int) { return (*own)[v]; }, [&](int from) { return (*own)[from]; });
      return ringBlocks(s, v, n, *own);
    case CollectiveOp::Alltoallv: {
      const auto& sent = trace.blocks[call.blocks];
      const auto& received = trace.blocks[call.blocks + 1];
      if (linear)
        return linearAll(
            s, v, n, [&](int to) { return sent[to]; }, [&](int from) { return received[from]; });
      for (int step = 1; step < n; ++step)
        s.exchange((v + step) % n, sent[(v + step) % n], (v - step + n) % n,
                   received[(v - step + n) % n]);
      return;
    }
    case CollectiveOp::Scan:
    case CollectiveOp::Exscan:
      return recursiveDoublingScan(s, v, n, bytes);
    case CollectiveOp::Allreduce:
      if (algorithm == Algorithm::ReduceBcast) {
        // A reduce to rank 0, then a bcast from it, each by its own algorithm (SimGrid's
        // default selector runs them linear and binomial).
        Event part = call;
        part.root = 0;
        part.op = CollectiveOp::Reduce;
        addSteps(s, trace, part, v, n, algorithms, nullptr);
        part.op = CollectiveOp::Bcast;
        return addSteps(s, trace, part, v, n, algorithms, nullptr);
      }
      if (algorithm == Algorithm::Ring) {
        ringReduceScatterChunks(s, v, n, bytes);
        return ringAllgatherChunks(s, v, n, bytes);
      }
      return recursiveDoublingAllreduce(s, v, n, bytes);
    case CollectiveOp::Allgather:
      if (linear) return linearSameSize(s, v, n, bytes);
      if (algorithm == Algorithm::Ring) return ringSameSize(s, v, n, bytes);
      if (algorithm == Algorithm::ShiftRing) return shiftRing(s, v, n, bytes);
      if (algorithm == Algorithm::RecursiveDoubling && (n & (n - 1)) == 0) {
        for (int mask = 1; mask < n; mask <<= 1)
          s.exchange(v ^ mask, bytes * static_cast<std::uint64_t>(mask), v ^ mask,
                     bytes * static_cast<std::uint64_t>(mask));
        return;
      }
      return bruck(s, v, n, bytes);  // Bruck, and recursive doubling on other sizes
    case CollectiveOp::Alltoall:
      if (linear) return linearSameSize(s, v, n, bytes);
      if (algorithm == Algorithm::Bruck) return bruckAlltoall(s, v, n, bytes);
      for (int step = 1; step < n; ++step)
        s.exchange((v + step) % n, bytes, (v - step + n) % n, bytes);
      return;
    case CollectiveOp::ReduceScatter:
      return ringSameSize(s, v, n, bytes);
    case CollectiveOp::Barrier: {
      if (linear) {  // Open MPI's basic linear, SimGrid's default: a zero-byte gather and bcast
        const UniformBlocks none{0, false};
        linearRooted(s, v, n, 0, false, &none, UniformBlocks::span);
        return linearRooted(s, v, n, 0, true, &none, UniformBlocks::span);
      }
      for (int pof = 1; pof < n; pof *= 2) s.exchange((v + pof) % n, 0, (v - pof + n) % n, 0);
      return;
    }
  }
}

}  // namespace

Algorithm algorithmOf(const CollectiveAlgorithms& algorithms, const Event& call, int n,
                      const std::vector<std::uint64_t>* own) {
  std::uint64_t bytes = call.bytes;
  if (call.op == CollectiveOp::Alltoallv) bytes = 0;
  if (isVariable(call.op)) {
    bytes = 0;
    if (own && !own->empty()) {
      for (const std::uint64_t block : *own) bytes += block;  // below 2^62 (collectives.cpp)
      bytes /= own->size();
    }
  }
  return algorithms.of(call.op, bytes, n);
}

void checkStepBytes(const Trace& trace, const Event& call, int n, Algorithm algorithm) {
  const bool multiplies = ((call.op == CollectiveOp::Gather || call.op == CollectiveOp::Scatter) &&
                           algorithm != Algorithm::Linear) ||
                          (call.op == CollectiveOp::Allgather && algorithm != Algorithm::Ring &&
                           algorithm != Algorithm::ShiftRing && algorithm != Algorithm::Linear) ||
                          (call.op == CollectiveOp::Alltoall && algorithm == Algorithm::Bruck);
  if (!multiplies || n < 2 || call.bytes <= limits::kMaxMessageBytes / (n - 1)) return;
  std::string message = collectiveName(call.op);
  message += " of ";
  message += std::to_string(call.bytes);
  message += " bytes over ";
  message += std::to_string(n);
  message += " ranks: its steps carry up to ";
  message += std::to_string(n - 1);
  message += " blocks, more than tac3map's limit of ";
  message += std::to_string(limits::kMaxMessageBytes);
  message += " bytes a message (docs/limits.md)";
  failLimit(trace.fileOf(call), call.line, message);
}

std::size_t expandOne(std::vector<Event>* out, std::uint64_t* sends, const Trace& trace,
                      const Event& call, int v, const std::vector<int>& members, std::int64_t tag,
                      const CollectiveAlgorithms& algorithms, CallRequests* requests,
                      const std::vector<std::uint64_t>* own) {
  const int n = static_cast<int>(members.size());
  if (n < 2) return 0;
  Steps s(out, sends, call, members, tag, requests);
  addSteps(s, trace, call, v, n, algorithms, own);
  return s.count();
}

}  // namespace tac3map
