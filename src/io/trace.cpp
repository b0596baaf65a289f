#include "tac3map/io/trace.hpp"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

#include "tac3map/io/error.hpp"
#include "tac3map/io/integer_text.hpp"
#include "tac3map/io/words.hpp"

namespace tac3map {
namespace {

struct LineReader {
  const std::string& source;
  std::size_t line;
  const std::vector<std::string>& words;

  [[noreturn]] void fail(const std::string& message) const { failAt(source, line, message); }

  template <class T>
  T integer(std::size_t index, const char* what) const {
    const std::string& word = words[index];
    const std::optional<T> value = wholeInteger<T>(word);
    if (!value) fail(std::string("expected ") + what + ", got '" + word + "'");
    return *value;
  }

  std::uint64_t bytes(std::size_t index) const {
    return messageBytes(source, line, words[index], "byte count");
  }

  // A receive's source: a rank, or 'any' (MPI_ANY_SOURCE).
  int sourceRank(std::size_t index, int ranks) const {
    return words[index] == "any" ? kAnySource : rank(index, ranks, "source rank");
  }
  // A receive's tag: an integer, or 'any' (MPI_ANY_TAG).
  std::int64_t receiveTag(std::size_t index) const {
    return words[index] == "any" ? kAnyTag : integer<std::int64_t>(index, "a tag");
  }

  int rank(std::size_t index, int ranks, const char* what) const {
    const long long value = integer<long long>(index, what);
    if (value < 0 || value >= ranks)
      fail(std::string(what) + " " + words[index] + " is outside 0.." + std::to_string(ranks - 1) +
           " (ranks " + std::to_string(ranks) + ")");
    return static_cast<int>(value);
  }

  void expectWords(std::size_t low, std::size_t high, const char* usage) const {
    if (words.size() < low || words.size() > high)
      fail("'" + words[1] + "' takes the form '<rank> " + usage + "'");
  }
};

struct CollectiveVerb {
  const char* name;
  CollectiveOp op;
};
const CollectiveVerb kCollectives[] = {
    {"bcast", CollectiveOp::Bcast},         {"reduce", CollectiveOp::Reduce},
    {"allreduce", CollectiveOp::Allreduce}, {"allgather", CollectiveOp::Allgather},
    {"alltoall", CollectiveOp::Alltoall},   {"gather", CollectiveOp::Gather},
    {"scatter", CollectiveOp::Scatter},     {"reduce_scatter", CollectiveOp::ReduceScatter},
    {"scan", CollectiveOp::Scan},           {"exscan", CollectiveOp::Exscan}};

// Names of the v-collectives, which only SimGrid TI traces carry (their count lists have no
// native syntax), for messages and --collectives.
const CollectiveVerb kVariableCollectives[] = {{"gatherv", CollectiveOp::Gatherv},
                                               {"scatterv", CollectiveOp::Scatterv},
                                               {"allgatherv", CollectiveOp::Allgatherv},
                                               {"alltoallv", CollectiveOp::Alltoallv}};

// '<rank> <collective> <bytes> [root=<r>] [comm=<id>]' (barrier: no bytes, comm= only).
Event parseCollective(const LineReader& r, CollectiveOp op, Trace& trace) {
  Event e;
  e.line = r.line;
  e.kind = EventKind::Collective;
  e.op = op;
  std::size_t next = 2;
  if (op != CollectiveOp::Barrier) {
    if (r.words.size() < 3)
      r.fail(std::string("'") + r.words[1] + "' takes the form '<rank> " + r.words[1] +
             " <bytes> [root=<r>] [comm=<id>]'");
    e.bytes = r.bytes(2);
    next = 3;
  }
  for (std::size_t i = next; i < r.words.size(); ++i) {
    const std::string& word = r.words[i];
    if (word.rfind("root=", 0) == 0 && op != CollectiveOp::Barrier) {
      const std::optional<int> root = wholeInteger<int>(std::string_view(word).substr(5));
      if (!root || *root < 0)
        r.fail("root=" + word.substr(5) + ": expected a rank in the communicator");
      e.root = *root;
    } else if (word.rfind("comm=", 0) == 0 && word.size() > 5) {
      e.comm = trace.commIds.intern(word.substr(5));
    } else {
      r.fail("unexpected '" + word + "' (expected root=<r> or comm=<id>)");
    }
  }
  return e;
}

Event parseEvent(const LineReader& r, Trace& trace) {
  const int ranks = trace.ranks;
  Event e;
  e.line = r.line;
  const std::string& verb = r.words[1];
  for (const CollectiveVerb& c : kCollectives)
    if (verb == c.name) return parseCollective(r, c.op, trace);
  if (verb == "barrier" && r.words.size() > 2)
    return parseCollective(r, CollectiveOp::Barrier, trace);
  if (verb == "send" || verb == "recv") {
    r.expectWords(4, 5,
                  verb == "send" ? "send <dst> <bytes> [<tag>]" : "recv <src> <bytes> [<tag>]");
    e.kind = verb == "send" ? EventKind::Send : EventKind::Recv;
    e.peer = verb == "send" ? r.rank(2, ranks, "destination rank") : r.sourceRank(2, ranks);
    e.bytes = r.bytes(3);
    if (r.words.size() == 5)
      e.tag = verb == "send" ? r.integer<std::int64_t>(4, "a tag") : r.receiveTag(4);
  } else if (verb == "isend" || verb == "irecv") {
    r.expectWords(
        6, 6,
        verb == "isend" ? "isend <dst> <bytes> <tag> <req>" : "irecv <src> <bytes> <tag> <req>");
    e.kind = verb == "isend" ? EventKind::Isend : EventKind::Irecv;
    e.peer = verb == "isend" ? r.rank(2, ranks, "destination rank") : r.sourceRank(2, ranks);
    e.bytes = r.bytes(3);
    e.tag = verb == "isend" ? r.integer<std::int64_t>(4, "a tag") : r.receiveTag(4);
    e.request = trace.requests.intern(r.words[5]);
  } else if (verb == "wait") {
    r.expectWords(3, 3, "wait <req>");
    e.kind = EventKind::Wait;
    e.request = trace.requests.intern(r.words[2]);
  } else if (verb == "waitall") {
    r.expectWords(2, 2, "waitall");
    e.kind = EventKind::Waitall;
  } else if (verb == "waitany") {
    r.expectWords(2, 2, "waitany");
    e.kind = EventKind::Waitany;
  } else if (verb == "sendrecv") {
    r.expectWords(6, 7, "sendrecv <dst> <sendbytes> <src> <recvbytes> [<tag>]");
    e.kind = EventKind::Sendrecv;
    e.peer = r.rank(2, ranks, "destination rank");
    e.bytes = r.bytes(3);
    e.peer2 = r.sourceRank(4, ranks);
    e.bytes2 = r.bytes(5);
    if (r.words.size() == 7) e.tag = r.integer<std::int64_t>(6, "a tag");
  } else if (verb == "barrier") {
    r.expectWords(2, 2, "barrier");
    e.kind = EventKind::Barrier;
  } else if (verb == "compute") {
    r.expectWords(3, 3, "compute <seconds>");
    e.kind = EventKind::Compute;
    std::size_t used = 0;
    try {
      e.seconds = std::stod(r.words[2], &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != r.words[2].size() || !std::isfinite(e.seconds) || e.seconds < 0)
      r.fail("'" + r.words[2] + "' is not a number of seconds (a finite number >= 0)");
  } else if (verb == "copy") {
    r.expectWords(3, 3, "copy <bytes>");
    e.kind = EventKind::Copy;
    e.bytes = r.bytes(2);
  } else {
    r.fail("unknown event '" + verb +
           "' (expected send, recv, isend, irecv, wait, waitall, waitany, sendrecv, barrier, "
           "compute, "
           "copy, comm, iteration, or a collective: bcast, reduce, allreduce, allgather, "
           "alltoall, gather, scatter, reduce_scatter)");
  }
  return e;
}

}  // namespace

int NameTable::intern(const std::string& name) {
  const auto known = index_.find(name);
  if (known != index_.end()) return known->second;
  const int index = static_cast<int>(names_.size());
  index_.emplace(name, index);
  names_.push_back(name);
  return index;
}

const std::string& Trace::requestOf(const Event& e) const {
  static const std::string none;
  return e.request < 0 ? none : requests[e.request];
}

std::uint64_t messageBytes(const std::string& file, std::size_t line, const std::string& count,
                           const char* what, std::uint64_t elementSize) {
  const bool negative = !count.empty() && count[0] == '-';
  const char* begin = count.data() + (negative ? 1 : 0);
  const char* last = count.data() + count.size();
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(begin, last, value);
  if (begin == last || end != last ||
      (error != std::errc() && error != std::errc::result_out_of_range))
    failAt(file, line,
           std::string("expected a ").append(what).append(", got '").append(count).append("'"));
  if (negative && (value != 0 || error != std::errc()))
    failAt(file, line, std::string(what).append(" ").append(count).append(" is negative"));
  std::uint64_t bytes = 0;
  if (error != std::errc() || __builtin_mul_overflow(value, elementSize, &bytes) ||
      bytes >= kMessageBytesLimit) {
    std::string size = count;
    if (elementSize != 1) size.append(" x ").append(std::to_string(elementSize));
    failAt(file, line, "message of " + size + " bytes is larger than the largest supported (2^62)");
  }
  return bytes;
}

namespace {

// The global limit's words, or where a job's ranks go (RankLimit::holder).
std::string limitText(const RankLimit& limit) {
  if (!limit.holder.empty()) return limit.holder;
  std::string text = "tac3map's limit of ";
  text += std::to_string(limit.most);
  text += " ranks for a trace read without a box (docs/limits.md)";
  return text;
}

}  // namespace

void RankLimit::checkCount(long long count, const std::string& file, std::size_t line) const {
  if (count <= most) return;
  std::string message = std::to_string(count);
  message += holder.empty() ? " ranks exceed " : " tasks do not fit on ";
  message += limitText(*this);
  if (holder.empty()) failLimit(file, line, message);  // tac3map's own limit: exit code 3
  if (line == 0) failIn(file, message);
  failAt(file, line, message);
}

void RankLimit::checkRank(long long rank, const std::string& file, std::size_t line) const {
  if (rank < most) return;
  std::string message = "rank ";
  message += std::to_string(rank);
  if (holder.empty()) {
    message += " is beyond ";
  } else {
    message += " is beyond the ";
    message += std::to_string(most);
    message += " tasks that fit on ";
  }
  message += limitText(*this);
  if (holder.empty()) failLimit(file, line, message);
  failAt(file, line, message);
}

const char* collectiveName(CollectiveOp op) {
  for (const CollectiveVerb& c : kCollectives)
    if (c.op == op) return c.name;
  for (const CollectiveVerb& c : kVariableCollectives)
    if (c.op == op) return c.name;
  return "barrier";
}

const char* eventName(EventKind kind) {
  switch (kind) {
    case EventKind::Send:
      return "send";
    case EventKind::Recv:
      return "recv";
    case EventKind::Isend:
      return "isend";
    case EventKind::Irecv:
      return "irecv";
    case EventKind::Wait:
      return "wait";
    case EventKind::Waitall:
      return "waitall";
    case EventKind::Sendrecv:
      return "sendrecv";
    case EventKind::Barrier:
      return "barrier";
    case EventKind::Compute:
      return "compute";
    case EventKind::Copy:
      return "copy";
    case EventKind::Collective:
      return "collective";
    case EventKind::Waitany:
      return "waitany";
  }
  return "?";
}

Trace parseTrace(std::istream& in, const std::string& source, const TraceOptions& options) {
  if (options.iteration < 1) throw SettingError("iteration", " must be at least 1");
  Trace trace;
  trace.source = source;
  // Events of every rank, and per rank the index into them where each iteration starts.
  std::vector<std::vector<Event>> all;
  std::vector<std::vector<std::size_t>> markers;
  std::vector<std::size_t> firstMarkerLine;
  bool sawHeader = false;
  std::string text;
  std::vector<std::string> words;  // reused from line to line
  std::size_t lineNumber = 0;
  while (std::getline(in, text)) {
    ++lineNumber;
    splitWords(text, words);
    const LineReader r{source, lineNumber, words};
    if (r.words.empty()) continue;
    if (!sawHeader) {
      if (r.words.size() != 2 || r.words[0] != "tac3map-trace")
        r.fail("expected the header 'tac3map-trace 1'");
      if (r.words[1] != "1") r.fail("unsupported trace version '" + r.words[1] + "' (expected 1)");
      sawHeader = true;
      continue;
    }
    if (r.words[0] == "ranks") {
      if (trace.ranks != 0) r.fail("second 'ranks' line");
      if (r.words.size() != 2) r.fail("expected 'ranks <count>'");
      const long long count = r.integer<long long>(1, "a rank count");
      if (count < 1) r.fail("rank count must be at least 1");
      options.ranks.checkCount(count, source, lineNumber);
      trace.ranks = static_cast<int>(count);
      trace.ranksLine = lineNumber;
      all.resize(trace.ranks);
      markers.resize(trace.ranks);
      continue;
    }
    if (trace.ranks == 0) r.fail("expected 'ranks <count>' before the first event");
    if (r.words.size() < 2) r.fail("expected '<rank> <event> ...'");
    const int rank = r.rank(0, trace.ranks, "rank");
    if (r.words[1] == "comm") {
      if (r.words.size() < 4) r.fail("'comm' takes the form '<rank> comm <id> <world ranks...>'");
      std::vector<int> members;
      for (std::size_t i = 3; i < r.words.size(); ++i)
        members.push_back(r.rank(i, trace.ranks, "member rank"));
      const std::string& id = r.words[2];
      const auto known = trace.comms.find(id);
      if (known != trace.comms.end() && known->second != members)
        r.fail("communicator " + id + " declared with other ranks on line " +
               std::to_string(trace.commLines[id]));
      if (known == trace.comms.end()) {
        trace.comms[id] = members;
        trace.commLines[id] = lineNumber;
      }
      continue;
    }
    if (r.words[1] == "iteration") {
      if (r.words.size() != 2) r.fail("'iteration' takes no arguments");
      markers[rank].push_back(all[rank].size());
      continue;
    }
    all[rank].push_back(parseEvent(r, trace));
  }
  if (!sawHeader) failIn(source, "empty trace (expected the header 'tac3map-trace 1')");
  if (trace.ranks == 0) failIn(source, "no 'ranks <count>' line");

  for (auto& events : all) events.shrink_to_fit();
  trace.events = std::move(all);
  selectIteration(trace, markers, options.iteration, "'iteration'");
  return trace;
}

void selectIteration(Trace& trace, const std::vector<std::vector<std::size_t>>& markers,
                     int iteration, const std::string& markerName) {
  bool anyMarker = false;
  for (const auto& starts : markers) anyMarker |= !starts.empty();
  if (!anyMarker) {
    if (iteration != 1)
      failIn(trace.source, settingName("iteration")
                               .append(" ")
                               .append(std::to_string(iteration))
                               .append(": the trace has no ")
                               .append(markerName)
                               .append(" markers"));
    return;
  }
  for (int rank = 0; rank < trace.ranks; ++rank) {
    const auto& starts = markers[rank];
    auto& events = trace.events[rank];
    if (starts.size() < static_cast<std::size_t>(iteration))
      failIn(trace.source, std::string("rank ")
                               .append(std::to_string(rank))
                               .append(" has ")
                               .append(std::to_string(starts.size()))
                               .append(" ")
                               .append(markerName)
                               .append(" markers, ")
                               .append(settingName("iteration"))
                               .append(" ")
                               .append(std::to_string(iteration))
                               .append(" needs one more"));
    const std::size_t begin = starts[iteration - 1];
    const std::size_t end =
        starts.size() > static_cast<std::size_t>(iteration) ? starts[iteration] : events.size();
    events = std::vector<Event>(events.begin() + begin, events.begin() + end);
  }
}

Trace readTrace(const std::string& path, const TraceOptions& options) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error))
    failIn(path, "is a folder (expected a trace file)");
  std::ifstream in(path);
  if (!in) failIn(path, "cannot open trace");
  return parseTrace(in, path, options);
}

}  // namespace tac3map
