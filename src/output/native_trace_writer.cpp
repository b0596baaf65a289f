#include "tac3map/output/native_trace_writer.hpp"

#include "tac3map/io/atomic_file.hpp"
#include "tac3map/io/number_text.hpp"

namespace tac3map {
namespace {

// The collectives that take a root (the others would refuse nothing, but a root there means
// nothing, so it is not written).
bool rooted(CollectiveOp op) {
  return op == CollectiveOp::Bcast || op == CollectiveOp::Reduce || op == CollectiveOp::Gather ||
         op == CollectiveOp::Scatter;
}

void appendEvent(std::string& out, int rank, const Event& e) {
  const auto word = [&out](const std::string& text) {
    out += ' ';
    out += text;
  };
  const auto number = [&word](auto value) { word(std::to_string(value)); };
  out += std::to_string(rank);
  switch (e.kind) {
    case EventKind::Send:
    case EventKind::Recv:
      word(eventName(e.kind));
      number(e.peer);
      number(e.bytes);
      number(e.tag);
      break;
    case EventKind::Isend:
    case EventKind::Irecv:
      word(eventName(e.kind));
      number(e.peer);
      number(e.bytes);
      number(e.tag);
      word(e.request);
      break;
    case EventKind::Wait:
      word("wait");
      word(e.request);
      break;
    case EventKind::Waitall:
      word("waitall");
      break;
    case EventKind::Sendrecv:
      word("sendrecv");
      number(e.peer);
      number(e.bytes);
      number(e.peer2);
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
      if (!e.comm.empty()) word("comm=" + e.comm);
      break;
  }
  out += '\n';
}

}  // namespace

std::string nativeTraceText(const Trace& trace) {
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
    for (const Event& e : trace.events[rank]) appendEvent(out, rank, e);
  return out;
}

void writeNativeTrace(const Trace& trace, const std::string& path) {
  writeFileAtomically(path, nativeTraceText(trace));
}

}  // namespace tac3map
