#include "tac3map/output/native_trace_writer.hpp"

#include "tac3map/io/atomic_file.hpp"
#include "tac3map/io/number_text.hpp"

namespace tac3map {

const std::set<CollectiveOp> kNativeCollectives = {
    CollectiveOp::Bcast,     CollectiveOp::Reduce,        CollectiveOp::Allreduce,
    CollectiveOp::Allgather, CollectiveOp::Alltoall,      CollectiveOp::Gather,
    CollectiveOp::Scatter,   CollectiveOp::ReduceScatter, CollectiveOp::Barrier,
    CollectiveOp::Scan,      CollectiveOp::Exscan};

namespace {

// The collectives that take a root (the others would refuse nothing, but a root there means
// nothing, so it is not written).
bool rooted(CollectiveOp op) {
  return op == CollectiveOp::Bcast || op == CollectiveOp::Reduce || op == CollectiveOp::Gather ||
         op == CollectiveOp::Scatter;
}

void appendEvent(std::string& out, int rank, const Trace& trace, const Event& e) {
  const auto word = [&out](const std::string& text) {
    out += ' ';
    out += text;
  };
  const auto number = [&word](auto value) { word(std::to_string(value)); };
  const auto peer = [&](int value) { value == kAnySource ? word("any") : number(value); };
  const auto tag = [&](std::int64_t value) { value == kAnyTag ? word("any") : number(value); };
  out += std::to_string(rank);
  switch (e.kind) {
    case EventKind::Send:
    case EventKind::Recv:
      word(eventName(e.kind));
      peer(e.peer);
      number(e.bytes);
      tag(e.tag);
      break;
    case EventKind::Isend:
    case EventKind::Irecv:
      word(eventName(e.kind));
      peer(e.peer);
      number(e.bytes);
      tag(e.tag);
      word(trace.requestOf(e));
      break;
    case EventKind::Wait:
      word("wait");
      word(trace.requestOf(e));
      break;
    case EventKind::Waitall:
      word("waitall");
      break;
    case EventKind::Waitany:
      word("waitany");
      break;
    case EventKind::Sendrecv:
      word("sendrecv");
      number(e.peer);
      number(e.bytes);
      peer(e.peer2);
      number(e.bytes2);
      number(e.tag);
      break;
    case EventKind::Barrier:
      word("barrier");
      break;
    case EventKind::Compute:
      word("compute");
      word(exactNumber(e.seconds));
      break;
    case EventKind::Copy:
      word("copy");
      number(e.bytes);
      break;
    case EventKind::Collective:
      // Every reader gives a barrier on all ranks as the plain Barrier event, so a collective
      // barrier always has its comm= here.
      word(collectiveName(e.op));
      if (e.op != CollectiveOp::Barrier) number(e.bytes);
      if (rooted(e.op)) word("root=" + std::to_string(e.root));
      if (e.comm != 0) word("comm=" + trace.commOf(e));
      break;
  }
  out += '\n';
}

}  // namespace

std::string nativeTraceText(const Trace& input, const CollectiveAlgorithms& algorithms) {
  // The v-collectives (SimGrid TI's gatherv, scatterv, allgatherv, alltoallv) have no native
  // syntax: they become their point-to-point steps; every other collective stays.
  Trace expanded;
  const Trace* chosen = &input;
  for (const auto& events : input.events)
    for (const Event& e : events)
      if (e.kind == EventKind::Collective && !kNativeCollectives.count(e.op) && chosen == &input) {
        expanded = input;
        expandCollectives(expanded, algorithms, kNativeCollectives);
        chosen = &expanded;
      }
  const Trace& trace = *chosen;
  std::string out = "tac3map-trace 1\n";
  out += "# written by tac3map convert from " + trace.source + "\n";
  out += "ranks " + std::to_string(trace.ranks) + "\n";
  for (const auto& [id, members] : trace.comms) {
    if (members.empty()) continue;
    out += std::to_string(members.front()) + " comm " + id;
    for (int member : members) out.append(" ").append(std::to_string(member));
    out += '\n';
  }
  for (int rank = 0; rank < trace.ranks; ++rank)
    for (const Event& e : trace.events[rank]) appendEvent(out, rank, trace, e);
  return out;
}

void writeNativeTrace(const Trace& trace, const std::string& path,
                      const CollectiveAlgorithms& algorithms) {
  writeFileAtomically(path, nativeTraceText(trace, algorithms));
}

}  // namespace tac3map
