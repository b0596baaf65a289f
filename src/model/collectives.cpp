#include "tac3map/model/collectives.hpp"

#include <algorithm>
#include <sstream>

#include "tac3map/io/error.hpp"
#include "tac3map/io/limits.hpp"

namespace tac3map {
namespace {

struct AlgorithmName {
  const char* name;
  Algorithm algorithm;
};
const AlgorithmName kAlgorithms[] = {{"binomial", Algorithm::Binomial},
                                     {"recursive-doubling", Algorithm::RecursiveDoubling},
                                     {"ring", Algorithm::Ring},
                                     {"bruck", Algorithm::Bruck},
                                     {"pairwise", Algorithm::Pairwise},
                                     {"dissemination", Algorithm::Dissemination},
                                     {"shift-ring", Algorithm::ShiftRing},
                                     {"linear", Algorithm::Linear},
                                     {"reduce-bcast", Algorithm::ReduceBcast}};

bool supported(CollectiveOp op, Algorithm a) {
  switch (op) {
    case CollectiveOp::Bcast:
    case CollectiveOp::Reduce:
    case CollectiveOp::Gather:
    case CollectiveOp::Scatter:
    case CollectiveOp::Gatherv:
    case CollectiveOp::Scatterv:
      return a == Algorithm::Binomial || a == Algorithm::Linear;
    case CollectiveOp::Allreduce:
      return a == Algorithm::RecursiveDoubling || a == Algorithm::Ring ||
             a == Algorithm::ReduceBcast;
    case CollectiveOp::Allgather:
      return a == Algorithm::Ring || a == Algorithm::RecursiveDoubling || a == Algorithm::Bruck ||
             a == Algorithm::ShiftRing || a == Algorithm::Linear;
    case CollectiveOp::Alltoall:
      return a == Algorithm::Pairwise || a == Algorithm::Linear || a == Algorithm::Bruck;
    case CollectiveOp::ReduceScatter:
      return a == Algorithm::Ring;
    case CollectiveOp::Barrier:
      return a == Algorithm::Dissemination;
    case CollectiveOp::Allgatherv:
      return a == Algorithm::Ring || a == Algorithm::Linear;
    case CollectiveOp::Alltoallv:
      return a == Algorithm::Pairwise || a == Algorithm::Linear;
    case CollectiveOp::Scan:
    case CollectiveOp::Exscan:
      return a == Algorithm::RecursiveDoubling;
  }
  return false;
}

// Gatherv, scatterv and allgatherv: steps that carry other ranks' blocks, whose sizes only
// their own calls give.
bool isVariable(CollectiveOp op) {
  return op == CollectiveOp::Gatherv || op == CollectiveOp::Scatterv ||
         op == CollectiveOp::Allgatherv;
}

// The names of the requests a linear algorithm posts in one call: "~coll0", "~coll1", ...,
// interned into the trace's table once and used again by every call (each call waits for all
// of them before it returns).
class CallRequests {
 public:
  explicit CallRequests(NameTable& names) : names_(names) {}
  int operator()(int k) {
    while (ids_.size() <= static_cast<std::size_t>(k)) {
      std::string name = "~coll";
      name.append(std::to_string(ids_.size()));
      ids_.push_back(names_.intern(name));
    }
    return ids_[k];
  }

 private:
  NameTable& names_;
  std::vector<int> ids_;
};

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

// Gather, scatter (binomial), allgather (recursive doubling, Bruck) and alltoall (Bruck) steps
// carry up to n - 1 blocks: bytes x
// (n - 1) must stay a message size (limits.hpp), so that no step's byte count wraps around 64 bits.
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

// Alltoall by Bruck (SimGrid's alltoall "bruck", Open MPI's choice for small blocks): at
// distance d = 1, 2, 4, ... each rank sends to v + d the blocks whose index has bit d set and
// receives as many from v - d.
void bruckAlltoall(Steps& s, int v, int n, std::uint64_t bytes) {
  for (int pof = 1; pof < n; pof *= 2) {
    std::uint64_t blocks = 0;
    for (int b = 1; b < n; ++b) blocks += (b & pof) != 0 ? 1 : 0;
    s.exchange((v + pof) % n, bytes * blocks, (v - pof + n) % n, bytes * blocks);
  }
}

// Rank v's steps of `call` into `s`. `own`: every communicator rank's own block of this call
// (gatherv, scatterv, allgatherv), else null.
void addSteps(Steps& s, const Trace& trace, const Event& call, int v, int n,
              const CollectiveAlgorithms& algorithms, const std::vector<std::uint64_t>* own) {
  const Algorithm algorithm = algorithms.of(call.op);
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
      if (linear)
        return linearAll(
            s, v, n, [&](int) { return bytes; }, [&](int) { return bytes; });
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
      if (linear)
        return linearAll(
            s, v, n, [&](int) { return bytes; }, [&](int) { return bytes; });
      if (algorithm == Algorithm::Bruck) return bruckAlltoall(s, v, n, bytes);
      for (int step = 1; step < n; ++step)
        s.exchange((v + step) % n, bytes, (v - step + n) % n, bytes);
      return;
    case CollectiveOp::ReduceScatter:
      return ringSameSize(s, v, n, bytes);
    case CollectiveOp::Barrier:
      for (int pof = 1; pof < n; pof *= 2) s.exchange((v + pof) % n, 0, (v - pof + n) % n, 0);
      return;
  }
}

// Appends rank v's steps of `call` to `out` (none: only counts them into `sends`); returns
// how many. `own`: as addSteps.
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

// expandCollectives from `source` into `target` (the same trace, or one with every member of
// `source` but its events): each rank's events replaced by their expansion, made in one vector
// of the exact size, one rank at a time.
void expandInto(const Trace& source, Trace& target, const CollectiveAlgorithms& algorithms,
                const std::set<CollectiveOp>& keep);

}  // namespace

Algorithm defaultAlgorithm(CollectiveOp op) {
  switch (op) {
    case CollectiveOp::Allreduce:
      return Algorithm::RecursiveDoubling;
    case CollectiveOp::Allgather:
    case CollectiveOp::ReduceScatter:
      return Algorithm::Ring;
    case CollectiveOp::Alltoall:
    case CollectiveOp::Alltoallv:
      return Algorithm::Pairwise;
    case CollectiveOp::Allgatherv:
      return Algorithm::Ring;
    case CollectiveOp::Scan:
    case CollectiveOp::Exscan:
      return Algorithm::RecursiveDoubling;
    case CollectiveOp::Barrier:
      return Algorithm::Dissemination;
    default:
      return Algorithm::Binomial;
  }
}

Algorithm CollectiveAlgorithms::of(CollectiveOp op) const {
  const auto it = choice.find(op);
  return it == choice.end() ? defaultAlgorithm(op) : it->second;
}

const char* algorithmName(Algorithm algorithm) {
  for (const AlgorithmName& a : kAlgorithms)
    if (a.algorithm == algorithm) return a.name;
  return "?";
}

CollectiveAlgorithms parseCollectiveAlgorithms(const std::string& text) {
  CollectiveAlgorithms result;
  std::stringstream in(text);
  std::string entry;
  const CollectiveOp ops[] = {
      CollectiveOp::Bcast,     CollectiveOp::Reduce,        CollectiveOp::Allreduce,
      CollectiveOp::Allgather, CollectiveOp::Alltoall,      CollectiveOp::Gather,
      CollectiveOp::Scatter,   CollectiveOp::ReduceScatter, CollectiveOp::Barrier,
      CollectiveOp::Gatherv,   CollectiveOp::Scatterv,      CollectiveOp::Allgatherv,
      CollectiveOp::Alltoallv, CollectiveOp::Scan,          CollectiveOp::Exscan};
  while (std::getline(in, entry, ',')) {
    if (entry.empty()) continue;
    const auto equals = entry.find('=');
    const std::string name = entry.substr(0, equals);
    const std::string algorithm = equals == std::string::npos ? "" : entry.substr(equals + 1);
    const CollectiveOp* op = std::find_if(
        std::begin(ops), std::end(ops), [&](CollectiveOp o) { return name == collectiveName(o); });
    if (op == std::end(ops))
      throw InputError("--collectives '" + entry + "': unknown collective '" + name + "'");
    const AlgorithmName* a =
        std::find_if(std::begin(kAlgorithms), std::end(kAlgorithms),
                     [&](const AlgorithmName& k) { return algorithm == k.name; });
    if (a == std::end(kAlgorithms) || !supported(*op, a->algorithm))
      throw InputError("--collectives '" + entry + "': '" + algorithm +
                       "' is not an algorithm of " + name + " (see docs/trace-format.md)");
    result.choice[*op] = a->algorithm;
  }
  return result;
}

std::vector<Algorithm> algorithmsOf(CollectiveOp op) {
  std::vector<Algorithm> result{defaultAlgorithm(op)};
  for (const AlgorithmName& a : kAlgorithms)
    if (a.algorithm != result.front() && supported(op, a.algorithm)) result.push_back(a.algorithm);
  return result;
}

bool hasCollectives(const Trace& trace) {
  for (const auto& events : trace.events)
    for (const Event& e : events)
      if (e.kind == EventKind::Collective) return true;
  return false;
}

const Trace& withCollectivesExpanded(const Trace& trace, const CollectiveAlgorithms& algorithms,
                                     Trace& storage) {
  if (!hasCollectives(trace)) return trace;
  // Every member but the events (trace.hpp), which expandInto makes from the trace's: no copy
  // of the events before they are expanded.
  storage = Trace{};
  storage.source = trace.source;
  storage.files = trace.files;
  storage.ranks = trace.ranks;
  storage.ranksLine = trace.ranksLine;
  storage.comms = trace.comms;
  storage.commLines = trace.commLines;
  storage.blocks = trace.blocks;
  storage.requests = trace.requests;
  storage.commIds = trace.commIds;
  storage.events.resize(trace.events.size());
  expandInto(trace, storage, algorithms, {});
  return storage;
}

void expandCollectives(Trace& trace, const CollectiveAlgorithms& algorithms,
                       const std::set<CollectiveOp>& keep) {
  expandInto(trace, trace, algorithms, keep);
}

namespace {

void expandInto(const Trace& trace, Trace& target, const CollectiveAlgorithms& algorithms,
                const std::set<CollectiveOp>& keep) {
  // With collectives kept, the expanded ones' tags come after every tag the kept ones can get
  // when they are expanded in turn (communicator numbers up to the trace's count).
  const std::int64_t tagCommOffset =
      keep.empty() ? 0 : static_cast<std::int64_t>(trace.comms.size()) + 1;
  std::vector<int> world(trace.ranks);
  for (int r = 0; r < trace.ranks; ++r) world[r] = r;
  // Communicators numbered for tags: 0 is all ranks, then the declared ones in id order.
  std::map<std::string, std::int64_t> commNumber{{"", 0}};
  for (const auto& [id, members] : trace.comms)
    commNumber.emplace(id, static_cast<std::int64_t>(commNumber.size()));
  // A collective's communicator (its world ranks) and `rank`'s place in it, checked.
  const auto place = [&](int rank, const Event& e) -> std::pair<const std::vector<int>*, int> {
    const std::string& id = trace.commOf(e);
    const auto known = trace.comms.find(id);
    if (e.comm != 0 && known == trace.comms.end())
      failAt(trace.fileOf(e), e.line,
             "communicator " + id + " is not declared ('<rank> comm " + id + " <world ranks...>')");
    const std::vector<int>& members = e.comm == 0 ? world : known->second;
    const auto me = std::find(members.begin(), members.end(), rank);
    if (me == members.end())
      failAt(trace.fileOf(e), e.line,
             "rank " + std::to_string(rank) + " is not in communicator " + id);
    if (e.root < 0 || e.root >= static_cast<int>(members.size()))
      failAt(trace.fileOf(e), e.line,
             "root=" + std::to_string(e.root) + " is outside the communicator's 0.." +
                 std::to_string(members.size() - 1));
    checkStepBytes(trace, e, static_cast<int>(members.size()), algorithms.of(e.op));
    return {&members, static_cast<int>(me - members.begin())};
  };
  // The v-collectives' blocks: every member's own block of each call, found by numbering a
  // communicator's collectives in program order (the k-th call of every member is one call,
  // as MPI requires). Their sum must stay a message size (limits.hpp): binomial steps carry
  // sums of blocks.
  std::map<std::pair<int, std::int64_t>, std::vector<std::uint64_t>> own;
  std::map<std::pair<int, std::int64_t>, std::uint64_t> sums;
  std::map<std::pair<int, std::int64_t>, const Event*> firstOf;
  for (int rank = 0; rank < trace.ranks; ++rank) {
    std::map<int, std::int64_t> calls;
    for (const Event& e : trace.events[rank]) {
      if (e.kind != EventKind::Collective) continue;
      const auto key = std::make_pair(e.comm, calls[e.comm]++);
      const auto [first, inserted] = firstOf.emplace(key, &e);
      const bool variable = isVariable(e.op) || isVariable(first->second->op);
      if (variable && !inserted && first->second->op != e.op)
        failAt(trace.fileOf(e), e.line,
               std::string(collectiveName(e.op)) + " here, but the same call is a " +
                   collectiveName(first->second->op) + " at " + trace.fileOf(*first->second) + ":" +
                   std::to_string(first->second->line) +
                   ": every rank must call a communicator's collectives in the same order");
      if (!isVariable(e.op)) continue;
      const auto [members, v] = place(rank, e);
      auto& blocks = own[key];
      blocks.resize(members->size());
      blocks[v] = e.bytes;
      // Each block is below 2^62 and the running sum at most 2^62: the sum cannot wrap.
      std::uint64_t& sum = sums[key];
      sum += e.bytes;
      if (sum > limits::kMaxMessageBytes)
        failLimit(trace.fileOf(e), e.line,
                  std::string(collectiveName(e.op)) +
                      ": its blocks add up to more than tac3map's limit of " +
                      std::to_string(limits::kMaxMessageBytes) +
                      " bytes a message (docs/limits.md)");
    }
  }
  const auto blocksOf = [&](const Event& e, std::int64_t call) {
    return isVariable(e.op) ? &own.at({e.comm, call}) : nullptr;
  };
  // First the size: an alltoall over N ranks is N(N-1) messages, so a few lines can ask for
  // billions. Counted without expanding, and refused at the collective whose messages pass
  // the limit, before any event is made.
  std::uint64_t sends = 0;
  std::vector<std::size_t> sizes(trace.ranks);  // each rank's events once expanded
  for (int rank = 0; rank < trace.ranks; ++rank) {
    std::map<int, std::int64_t> calls;
    for (const Event& e : trace.events[rank]) {
      if (e.kind != EventKind::Collective || keep.count(e.op)) {
        sends += e.kind == EventKind::Send || e.kind == EventKind::Isend ||
                 e.kind == EventKind::Sendrecv;
        if (e.kind == EventKind::Collective) ++calls[e.comm];
        ++sizes[rank];
        continue;
      }
      const auto [members, v] = place(rank, e);
      sizes[rank] += expandOne(nullptr, &sends, trace, e, v, *members, 0, algorithms, nullptr,
                               blocksOf(e, calls[e.comm]++));
      if (sends > limits::kMaxCommunications) {
        std::string message = collectiveName(e.op);
        message += " over ";
        message += std::to_string(members->size());
        message += " ranks: the trace's collectives expand to more than ";
        message += std::to_string(limits::kMaxCommunications);
        message += " point-to-point messages (tac3map's limit, docs/limits.md)";
        failLimit(trace.fileOf(e), e.line, message);
      }
    }
  }
  CallRequests requests(target.requests);
  for (int rank = 0; rank < trace.ranks; ++rank) {
    std::vector<Event> expanded;
    expanded.reserve(sizes[rank]);
    std::map<int, std::int64_t> calls;  // per communicator: collectives so far
    for (const Event& e : trace.events[rank]) {
      if (e.kind != EventKind::Collective || keep.count(e.op)) {
        if (e.kind == EventKind::Collective) ++calls[e.comm];
        expanded.push_back(e);
        continue;
      }
      const auto [members, v] = place(rank, e);
      const std::int64_t call = calls[e.comm]++;
      const std::int64_t tag =
          -1 - ((commNumber.at(trace.commOf(e)) + tagCommOffset) * 1000000000 + call);
      expandOne(&expanded, &sends, trace, e, v, *members, tag, algorithms, &requests,
                blocksOf(e, call));
    }
    target.events[rank] = std::move(expanded);  // in place: the rank's events are read
  }
}

}  // namespace

}  // namespace tac3map
