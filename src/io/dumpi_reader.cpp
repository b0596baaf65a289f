// DUMPI traces as dumpi2ascii prints them (one file per rank, or a folder as dumpi writes
// it), read into a Trace (trace_reading.hpp).
#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>

#include "tac3map/io/words.hpp"
#include "dumpi_calls.hpp"
#include "trace_reading.hpp"

namespace tac3map::reading {

std::vector<long long> braceList(const Reader& r, const std::string& value) {
  // "[1, 2]" (dumpi2ascii) or "[2]{1, 2}" -> {1, 2}; "<IGNORED>" -> {}
  std::vector<long long> values;
  const bool braces = value.find('{') != std::string::npos;
  const auto open = value.find(braces ? '{' : '['), close = value.find(braces ? '}' : ']');
  if (open == std::string::npos || close == std::string::npos || close < open) return values;
  std::stringstream in(value.substr(open + 1, close - open - 1));
  for (std::string item; std::getline(in, item, ',');) {
    item.erase(0, item.find_first_not_of(' '));
    if (!item.empty()) values.push_back(r.integer(item, "a list item"));
  }
  return values;
}

namespace {

namespace fs = std::filesystem;

// ---- DUMPI (dumpi2ascii) -----------------------------------------------------------------

// "int count=1000", "MPI_Datatype datatype=4 (MPI_DOUBLE)", "MPI_Request request=[2]",
// "MPI_Request requests[2]=[1, 2]" (dumpi2ascii's arrays; also "requests=[2]{1, 2}"):
// argument name (without an array's length) and its value (a type name where one is printed).
void readArgument(const std::string& text, DumpiCall& call) {
  const auto equals = text.find('=');
  if (equals == std::string::npos) return;
  const auto space = text.rfind(' ', equals);
  std::string name = text.substr(space == std::string::npos ? 0 : space + 1,
                                 equals - (space == std::string::npos ? 0 : space + 1));
  name = name.substr(0, name.find('['));
  std::string value = text.substr(equals + 1);
  const auto open = value.find('('), close = value.find(')');
  if (open != std::string::npos && close != std::string::npos &&
      value.find("MPI_") != std::string::npos)
    value = value.substr(open + 1, close - open - 1);  // "4 (MPI_DOUBLE)" -> "MPI_DOUBLE"
  call.args[name] = value;
}

// Calls visit(call) on each call of a dumpi2ascii file in turn, with its arguments (the lines
// up to its 'returning' line or the next call): one call in memory at a time. A file without
// a call is an error.
template <class Visit>
void forEachDumpiCall(const std::string& file, Visit visit) {
  DumpiCall call;
  bool pending = false, open = false, any = false;  // a call not visited yet; taking arguments
  forEachLine(file, [&](const std::string& text, std::size_t number) {
    const auto entering = text.find(" entering at walltime");
    const auto returning = text.find(" returning at walltime");
    if (entering != std::string::npos) {
      if (pending) visit(static_cast<const DumpiCall&>(call));
      call = {text.substr(0, entering), number, {}};
      pending = open = any = true;
    } else if (returning != std::string::npos) {
      open = false;
    } else if (open) {
      readArgument(text, call);
    }
    return true;
  });
  if (pending) visit(static_cast<const DumpiCall&>(call));
  if (!any)
    failIn(file,
           "no DUMPI calls (expected the text dumpi2ascii prints: 'MPI_Init entering at "
           "walltime ...' blocks)");
}

// Appends the rank's events; returns where its MPI_Pcontrol(1) iterations start.
std::vector<std::size_t> convertDumpiRank(const std::string& file, int fileIndex, int rank,
                                          int ranks, Trace& trace,
                                          const std::map<std::string, std::string>& handles,
                                          RequestIds& requests) {
  std::vector<std::size_t> iterations;
  std::map<std::string, int> requestName;  // DUMPI request id -> native name (Trace::requests)
  std::map<std::string, Event> inactive;   // persistent requests, by DUMPI id, until started
  int next = 0;
  auto& events = trace.events[rank];
  forEachDumpiCall(file, [&](const DumpiCall& call) {
    const Reader r{file, fileIndex, call.line};
    const auto arg = [&](const char* name) -> const std::string& {
      const auto it = call.args.find(name);
      if (it == call.args.end()) r.fail(call.name + " without '" + name + "'");
      return it->second;
    };
    const auto bytes = [&](const char* count, const char* type) {
      const std::uint64_t size = typeSize(arg(type));
      if (size == 0) r.fail("unknown datatype '" + arg(type) + "'");
      return messageBytes(file, call.line, arg(count), "count", size);
    };
    // The call's communicator id ("" = all ranks); `members` set to its world ranks.
    const std::vector<int>* members = nullptr;
    const auto comm = [&]() -> std::string {
      members = nullptr;
      const auto it = call.args.find("comm");
      if (it == call.args.end()) return "";
      const std::string handle = handleOf(it->second);
      if (handle.empty()) return "";
      const auto known = handles.find(handle);
      if (known == handles.end())
        r.fail(call.name + " on communicator " + it->second +
               ", which no communicator call of this rank made (MPI_Comm_split, MPI_Comm_dup, "
               "MPI_Cart_create, MPI_Cart_sub)");
      if (!known->second.empty() && known->second[0] == '!')
        r.fail(call.name + " on communicator " + it->second + ", " + known->second.substr(1));
      if (!known->second.empty()) members = &trace.comms.at(known->second);
      return known->second;
    };
    // A peer given as a rank of the call's communicator, as a world rank.
    const auto world = [&](const std::string& value, const char* what) {
      if (!members) return r.rank(value, ranks, what);
      const long long local = r.integer(value, what);
      if (local < 0 || local >= static_cast<long long>(members->size()))
        r.fail(std::string(what) + " " + value + " is outside the communicator");
      return (*members)[local];
    };
    // A request handle as printed alone ("[7]") or in a list (7): the same key.
    const auto handle = [](const std::string& id) {
      std::string key;
      for (char c : id)
        if (c != '[' && c != ']' && c != ' ') key += c;
      return key;
    };
    const auto request = [&](const std::string& id) {
      const int name = requests(next++);
      requestName[handle(id)] = name;
      return name;
    };
    const auto waitFor = [&](const std::string& id) {
      const auto it = requestName.find(handle(id));
      if (it == requestName.end()) return;  // a request not posted in the trace (or null)
      Event e = r.event(EventKind::Wait);
      e.request = it->second;
      requestName.erase(it);
      events.push_back(e);
    };
    const auto any = [](const std::string& value) {  // dumpi2ascii: "-1 (MPI_ANY_SOURCE)"
      return value.find("ANY") != std::string::npos || value == "-1";
    };
    const auto source = [&](const std::string& value) {
      return any(value) ? kAnySource : world(value, "source");
    };
    const auto receiveTag = [&](const std::string& value) {
      return any(value) ? kAnyTag : r.integer(value, "a tag");
    };
    // The requests a call completed: all of `requests`, or those its index/indices name.
    const auto completed = [&](const std::vector<long long>& ids) {
      for (long long id : ids) waitFor(std::to_string(id));
    };
    const auto listed = [&]() {
      const auto it = call.args.find("requests");
      if (it == call.args.end()) r.fail(call.name + " without 'requests'");
      return braceList(r, it->second);
    };
    const auto flagSet = [&]() {  // a test that found its request(s) complete
      const auto it = call.args.find("flag");
      return it == call.args.end() || r.integer(it->second, "a flag") != 0;
    };
    const auto indexed = [&](const std::vector<long long>& ids, const std::vector<long long>& at) {
      std::vector<long long> chosen;
      for (long long i : at)
        if (i >= 0 && i < static_cast<long long>(ids.size())) chosen.push_back(ids[i]);
      return chosen;
    };
    // A send or receive event of this call (posting a request named by DUMPI handle `id`).
    const auto pointToPoint = [&](EventKind kind, int peer, std::uint64_t size, std::int64_t tag,
                                  const std::string& id) {
      Event e = r.event(kind);
      e.peer = peer;
      e.bytes = size;
      e.tag = tag;
      if (!id.empty()) e.request = request(id);
      events.push_back(e);
    };
    // Sendrecv (and _replace): one event when both halves have one tag, else its two postings
    // and two waits, which is what it does.
    const auto sendrecv = [&](std::uint64_t sent, std::uint64_t received) {
      comm();
      const int dest = world(arg("dest"), "destination");
      const int from = source(arg("source"));
      const std::int64_t sendTag = r.integer(arg("sendtag"), "a tag");
      const std::int64_t recvTag = receiveTag(arg("recvtag"));
      if (sendTag == recvTag) {
        Event e = r.event(EventKind::Sendrecv);
        e.peer = dest;
        e.bytes = sent;
        e.peer2 = from;
        e.bytes2 = received;
        e.tag = sendTag;
        return events.push_back(e);
      }
      pointToPoint(EventKind::Irecv, from, received, recvTag, "~sr-recv");
      pointToPoint(EventKind::Isend, dest, sent, sendTag, "~sr-send");
      waitFor("~sr-recv");
      waitFor("~sr-send");
    };
    const std::string& n = call.name;
    Event e;
    const bool sends = n == "MPI_Send" || n == "MPI_Ssend" || n == "MPI_Bsend" ||
                       n == "MPI_Rsend" || n == "MPI_Isend" || n == "MPI_Issend" ||
                       n == "MPI_Irsend" || n == "MPI_Ibsend";
    const bool persistent = n == "MPI_Send_init" || n == "MPI_Ssend_init" ||
                            n == "MPI_Bsend_init" || n == "MPI_Rsend_init" || n == "MPI_Recv_init";
    if (sends) {
      comm();
      const bool nonBlocking = n[4] == 'I';
      pointToPoint(nonBlocking ? EventKind::Isend : EventKind::Send,
                   world(arg("dest"), "destination"), bytes("count", "datatype"),
                   r.integer(arg("tag"), "a tag"), nonBlocking ? arg("request") : "");
    } else if (n == "MPI_Recv" || n == "MPI_Irecv") {
      comm();
      pointToPoint(n == "MPI_Irecv" ? EventKind::Irecv : EventKind::Recv, source(arg("source")),
                   bytes("count", "datatype"), receiveTag(arg("tag")),
                   n == "MPI_Irecv" ? arg("request") : "");
    } else if (persistent) {
      // Kept until MPI_Start posts it as an isend or irecv.
      comm();
      Event p = r.event(n == "MPI_Recv_init" ? EventKind::Irecv : EventKind::Isend);
      p.peer = n == "MPI_Recv_init" ? source(arg("source")) : world(arg("dest"), "destination");
      p.bytes = bytes("count", "datatype");
      p.tag = n == "MPI_Recv_init" ? receiveTag(arg("tag")) : r.integer(arg("tag"), "a tag");
      inactive[handle(arg("request"))] = p;
    } else if (n == "MPI_Start" || n == "MPI_Startall") {
      const std::vector<long long> ids =
          n == "MPI_Start" ? std::vector<long long>{r.integer(handle(arg("request")), "a request")}
                           : listed();
      for (long long id : ids) {
        const auto it = inactive.find(std::to_string(id));
        if (it == inactive.end())
          r.fail(n + " of request " + std::to_string(id) +
                 ", which no MPI_Send_init or MPI_Recv_init of this rank made");
        pointToPoint(it->second.kind, it->second.peer, it->second.bytes, it->second.tag,
                     std::to_string(id));
      }
    } else if (n == "MPI_Request_free") {
      inactive.erase(handle(arg("request")));
      requestName.erase(handle(arg("request")));  // an active one completes on its own
    } else if (n == "MPI_Sendrecv") {
      sendrecv(bytes("sendcount", "sendtype"), bytes("recvcount", "recvtype"));
    } else if (n == "MPI_Sendrecv_replace") {
      sendrecv(bytes("count", "datatype"), bytes("count", "datatype"));
    } else if (n == "MPI_Wait") {
      waitFor(arg("request"));
    } else if (n == "MPI_Test") {
      if (flagSet()) waitFor(arg("request"));
    } else if (n == "MPI_Waitall" || (n == "MPI_Testall" && flagSet())) {
      completed(listed());
    } else if (n == "MPI_Waitany" || n == "MPI_Testany") {
      const auto index = call.args.find("index");
      if (index == call.args.end()) {
        if (n == "MPI_Waitany") events.push_back(r.event(EventKind::Waitany));
      } else if (flagSet()) {
        completed(indexed(listed(), {r.integer(index->second, "an index")}));
      }
    } else if (n == "MPI_Waitsome" || n == "MPI_Testsome") {
      const auto it = call.args.find("indices");
      completed(indexed(listed(), it == call.args.end() ? std::vector<long long>{}
                                                        : braceList(r, it->second)));
    } else if (n == "MPI_Barrier") {
      const std::string id = comm();
      if (id.empty()) {
        events.push_back(r.event(EventKind::Barrier));
      } else {
        e = r.event(EventKind::Collective);
        e.op = CollectiveOp::Barrier;
        e.comm = trace.commIds.intern(id);
        events.push_back(e);
      }
    } else if (n == "MPI_Bcast" || n == "MPI_Reduce" || n == "MPI_Allreduce" || n == "MPI_Scan" ||
               n == "MPI_Exscan") {
      const std::string id = comm();
      e = r.event(EventKind::Collective);
      e.comm = trace.commIds.intern(id);
      e.op = n == "MPI_Bcast"       ? CollectiveOp::Bcast
             : n == "MPI_Reduce"    ? CollectiveOp::Reduce
             : n == "MPI_Allreduce" ? CollectiveOp::Allreduce
             : n == "MPI_Scan"      ? CollectiveOp::Scan
                                    : CollectiveOp::Exscan;
      e.bytes = bytes("count", "datatype");
      if (n == "MPI_Bcast" || n == "MPI_Reduce") e.root = r.root(arg("root"));
      events.push_back(e);
    } else if (n == "MPI_Allgather" || n == "MPI_Alltoall" || n == "MPI_Gather" ||
               n == "MPI_Scatter") {
      const std::string id = comm();
      e = r.event(EventKind::Collective);
      e.comm = trace.commIds.intern(id);
      e.op = n == "MPI_Allgather"  ? CollectiveOp::Allgather
             : n == "MPI_Alltoall" ? CollectiveOp::Alltoall
             : n == "MPI_Gather"   ? CollectiveOp::Gather
                                   : CollectiveOp::Scatter;
      e.bytes =
          n == "MPI_Scatter" ? bytes("recvcount", "recvtype") : bytes("sendcount", "sendtype");
      if (n == "MPI_Gather" || n == "MPI_Scatter") e.root = r.root(arg("root"));
      events.push_back(e);
    } else if (n == "MPI_Reduce_scatter") {
      // One receive count per rank of the communicator: the collective of the largest block.
      const std::string id = comm();
      e = r.event(EventKind::Collective);
      e.comm = trace.commIds.intern(id);
      e.op = CollectiveOp::ReduceScatter;
      const std::uint64_t size = typeSize(arg("datatype"));
      if (size == 0) r.fail("unknown datatype '" + arg("datatype") + "'");
      const std::vector<long long> counts = braceList(r, arg("recvcounts"));
      if (counts.empty()) r.fail("MPI_Reduce_scatter without receive counts");
      for (long long count : counts)
        e.bytes =
            std::max(e.bytes, messageBytes(file, call.line, std::to_string(count), "count", size));
      events.push_back(e);
    } else if (n == "MPI_Pcontrol") {
      if (r.integer(arg("level"), "a level") == 1) iterations.push_back(events.size());
    }
    // Other calls (MPI_Init, MPI_Comm_rank, MPI_Wtime, ...) are read and ignored.
  });
  return iterations;
}

}  // namespace

Trace readDumpi(const std::string& path, const std::vector<std::string>& files,
                const TraceOptions& options) {
  Trace trace;
  trace.source = path;
  trace.files = {path};
  trace.ranks = static_cast<int>(files.size());
  trace.events.resize(trace.ranks);
  // A first pass checks every file and keeps the calls that make communicators; the second
  // converts each rank's calls as it reads them.
  std::vector<std::vector<DumpiCall>> calls(files.size());
  for (std::size_t rank = 0; rank < files.size(); ++rank)
    forEachDumpiCall(files[rank], [&](const DumpiCall& call) {
      if (makesCommunicator(call.name)) calls[rank].push_back(call);
    });
  const CommHandles handles = readCommunicators(calls, files, trace);
  std::vector<std::vector<std::size_t>> iterations;
  RequestIds requests(trace.requests);
  for (int rank = 0; rank < trace.ranks; ++rank) {
    trace.files.push_back(files[rank]);
    iterations.push_back(
        convertDumpiRank(files[rank], rank + 1, rank, trace.ranks, trace, handles[rank], requests));
    trace.events[rank].shrink_to_fit();
  }
  // MPI_Pcontrol(1) marks iterations, as the native 'iteration' lines do.
  selectIteration(trace, iterations, options.iteration, "MPI_Pcontrol(1)");
  return trace;
}

namespace {

// ---- A folder as dumpi writes it ----------------------------------------------------------
//
// dumpi writes <prefix>.meta (numprocs=, fileprefix=) and <prefix>-<rank>.bin per rank (rank
// in 4 digits or more); dumpi2ascii prints each .bin, saved as <prefix>-<rank>.txt beside it.

struct DumpiRankFile {
  std::string prefix;
  int rank = -1;
  std::size_t digits = 0;
};

// "dumpi-2024.05.01-0003.txt" -> {"dumpi-2024.05.01", 3, 4}; rank -1 if not of that form.
DumpiRankFile dumpiRankFile(const std::string& name, const std::string& extension) {
  DumpiRankFile parsed;
  if (name.size() <= extension.size() ||
      name.compare(name.size() - extension.size(), extension.size(), extension) != 0)
    return parsed;
  const std::string stem = name.substr(0, name.size() - extension.size());
  const auto dash = stem.rfind('-');
  if (dash == std::string::npos || dash == 0) return parsed;
  const std::string digits = stem.substr(dash + 1);
  const std::optional<int> rank = wholeInteger<int>(digits);
  if (digits.size() < 4 || !rank) return parsed;
  return {stem.substr(0, dash), *rank, digits.size()};
}

std::string dumpiRankName(const std::string& prefix, int rank, std::size_t digits,
                          const char* extension) {
  std::string number = std::to_string(rank);
  if (number.size() < digits) number.insert(0, digits - number.size(), '0');
  std::string name = prefix;
  name.append("-").append(number).append(extension);
  return name;
}

}  // namespace

// The per-rank text files of a folder, in rank order, or an error saying what is missing.
std::vector<std::string> dumpiFolderFiles(const std::string& folder) {
  std::vector<std::string> metas;
  std::map<std::string, std::map<int, std::string>> texts, binaries;  // prefix -> rank -> name
  std::size_t digits = 4;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(folder, error)) {
    if (!entry.is_regular_file(error)) continue;
    const std::string name = entry.path().filename().string();
    if (name.size() > 5 && name.compare(name.size() - 5, 5, ".meta") == 0) metas.push_back(name);
    for (const char* extension : {".txt", ".bin"}) {
      const DumpiRankFile file = dumpiRankFile(name, extension);
      if (file.rank < 0) continue;
      (extension[1] == 't' ? texts : binaries)[file.prefix][file.rank] = name;
      digits = file.digits;
    }
  }
  if (error) failIn(folder, "cannot list the folder: " + error.message());
  std::sort(metas.begin(), metas.end());
  const std::string hint = "the .txt files dumpi2ascii prints, named <prefix>-<rank>.txt";
  if (metas.size() > 1)
    failIn(folder, "several DUMPI runs (" + metas[0] + ", " + metas[1] +
                       "): keep one run's files per folder");
  // The run: the .meta file's, else the one prefix of the rank files.
  std::string prefix;
  int ranks = 0;
  if (!metas.empty()) {
    const std::string meta = (fs::path(folder) / metas[0]).string();
    std::size_t number = 0;
    for (const std::string& line : readLines(meta)) {
      ++number;
      if (line.rfind("fileprefix=", 0) == 0) prefix = fs::path(line.substr(11)).filename().string();
      if (line.rfind("numprocs=", 0) == 0) {
        const long long count = Reader{meta, 0, number}.integer(line.substr(9), "a rank count");
        if (count < 1 || count > 100000000)
          failAt(meta, number, "numprocs must be from 1 to 100000000");
        ranks = static_cast<int>(count);
      }
    }
    if (prefix.empty() || ranks == 0)
      failIn(meta, "not a DUMPI .meta file (expected 'numprocs=' and 'fileprefix=' lines)");
  } else {
    std::map<std::string, std::map<int, std::string>>& files = texts.empty() ? binaries : texts;
    if (files.empty())
      failIn(folder, "no DUMPI trace in this folder (expected " + hint +
                         ", e.g. dumpi-2024.05.01.12.00.00-0000.txt)");
    if (files.size() > 1)
      failIn(folder, "DUMPI files of several runs (" + files.begin()->first + "-*, " +
                         std::next(files.begin())->first + "-*): keep one run's files per folder");
    prefix = files.begin()->first;
    for (const auto* known : {&texts, &binaries}) {
      const auto run = known->find(prefix);
      if (run != known->end()) ranks = std::max(ranks, run->second.rbegin()->first + 1);
    }
  }
  const std::map<int, std::string>& text = texts[prefix];
  const std::map<int, std::string>& binary = binaries[prefix];
  if (text.empty()) {
    if (binary.empty())
      failIn(folder, "no DUMPI text files " + prefix + "-*.txt (expected " + hint + ")");
    const std::string bin = binary.begin()->second;
    failIn(folder, "DUMPI binary files only (" + bin +
                       " ...): convert each with dumpi2ascii, e.g. dumpi2ascii " + bin + " > " +
                       bin.substr(0, bin.size() - 4) + ".txt");
  }
  if (text.rbegin()->first >= ranks && !metas.empty())
    failIn(folder, text.rbegin()->second + " is rank " + std::to_string(text.rbegin()->first) +
                       ", but " + metas[0] + " says numprocs=" + std::to_string(ranks));
  std::vector<std::string> files;
  for (int rank = 0; rank < ranks; ++rank) {
    const auto found = text.find(rank);
    if (found == text.end()) {
      const std::string expected = dumpiRankName(prefix, rank, digits, ".txt");
      failIn(folder, "no DUMPI text file for rank " + std::to_string(rank) + " (expected " +
                         expected +
                         (binary.count(rank) ? "; convert the .bin files with dumpi2ascii)"
                                             : "; the folder has no .bin file for it either)"));
    }
    files.push_back((fs::path(folder) / found->second).string());
  }
  return files;
}

// A message between two ranks: a send to another rank, or a collective on two ranks or more.

}  // namespace tac3map::reading
