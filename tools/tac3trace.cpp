// libtac3trace: a PMPI tracer that writes tac3map's native trace (docs/tracer.md).
//
//   TAC3TRACE_PREFIX=run/cg LD_PRELOAD=build/libtac3trace.so mpirun -n 64 ./cg
//   cat run/cg.header run/cg.rank* > cg.trace
//
// Every rank appends its events, one line each, to PREFIX.rank<r>; rank 0 writes
// PREFIX.header. Lines are written as they complete (line-buffered, unless
// TAC3TRACE_BUFFER=full), so a crash leaves every finished line readable. A receive from
// MPI_ANY_SOURCE (or with MPI_ANY_TAG) is written once its status is known; the lines after it wait
// in memory until then, to keep program order. MPI_Pcontrol(1) writes an `iteration` marker,
// MPI_Pcontrol(0) stops recording.
#include "tac3trace.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

namespace tac3trace {
namespace {

struct Pending {
  int id = 0;
  bool recv = false;
  std::size_t slot = 0;  // the irecv's line in the queue, when its source or tag is open
  bool open = false;
  long long bytes = 0;
  int peer = 0;  // world rank, or MPI_ANY_SOURCE
  int tag = 0;
  MPI_Comm comm = MPI_COMM_NULL;
};

struct Persistent {  // a persistent request's operation, from its MPI_*_init
  bool recv = false;
  int peer = 0;  // world rank, or MPI_ANY_SOURCE
  long long bytes = 0;
  int tag = 0;
  MPI_Comm comm = MPI_COMM_NULL;
};

struct Tracer {
  std::FILE* out = nullptr;
  int rank = 0;
  int worldSize = 0;
  bool recording = false;
  int nextRequest = 0;
  std::map<MPI_Request, Pending> requests;
  std::map<MPI_Request, Persistent> persistent;
  std::deque<std::string> queue;  // lines not yet written (one waits for its source)
  std::size_t queueBase = 0;      // slot number of queue.front()
  int openLines = 0;
};

Tracer g;

}  // namespace

void flushResolved() {
  while (!g.queue.empty() && !g.queue.front().empty()) {
    std::fputs(g.queue.front().c_str(), g.out);
    g.queue.pop_front();
    ++g.queueBase;
  }
}

std::size_t emit(const std::string& line) {
  const std::size_t slot = g.queueBase + g.queue.size();
  g.queue.push_back(line);
  flushResolved();
  return slot;
}

std::size_t emitLater() {  // an empty placeholder, filled by resolve()
  g.queue.push_back("");
  return g.queueBase + g.queue.size() - 1;
}

void resolve(std::size_t slot, const std::string& line) {
  g.queue[slot - g.queueBase] = line;
  flushResolved();
}

// "<rank> word word ...\n", built by appending (GCC 12 warns falsely on long operator+ chains).
std::string line(std::initializer_list<std::string> words) {
  std::string text = std::to_string(g.rank);
  for (const std::string& word : words) {
    text += ' ';
    text += word;
  }
  text += '\n';
  return text;
}

std::string str(long long value) {
  return std::to_string(value);
}
std::string requestName(int id) {
  return std::string("r").append(std::to_string(id));
}

int worldRank(MPI_Comm comm, int rank) {
  if (rank < 0 || comm == MPI_COMM_WORLD) return rank;  // MPI_ANY_SOURCE, MPI_PROC_NULL
  MPI_Group group, world;
  PMPI_Comm_group(comm, &group);
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  int translated = rank;
  PMPI_Group_translate_ranks(group, 1, &rank, world, &translated);
  PMPI_Group_free(&group);
  PMPI_Group_free(&world);
  return translated;
}

long long bytesOf(int count, MPI_Datatype type) {
  int size = 0;
  PMPI_Type_size(type, &size);
  return static_cast<long long>(count) * size;
}

// A communicator's name in the trace: "" for all ranks, else an id derived from its members
// (the same on every rank), declared with a 'comm' line the first time this rank uses it.
std::map<std::vector<int>, std::string> g_commIds;

std::string commId(MPI_Comm comm) {
  if (comm == MPI_COMM_WORLD) return "";
  int size = 0;
  PMPI_Comm_size(comm, &size);
  // All members in one translation (not one group pair per member).
  std::vector<int> local(size), members(size);
  for (int r = 0; r < size; ++r) local[r] = r;
  MPI_Group group, world;
  PMPI_Comm_group(comm, &group);
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  PMPI_Group_translate_ranks(group, size, local.data(), world, members.data());
  PMPI_Group_free(&group);
  PMPI_Group_free(&world);
  bool identity = size == g.worldSize;
  for (int r = 0; r < size && identity; ++r) identity = members[r] == r;
  if (identity) return "";
  const auto known = g_commIds.find(members);
  if (known != g_commIds.end()) return known->second;
  std::uint64_t hash = 1469598103934665603ull;  // FNV-1a over the member list
  for (int m : members) hash = (hash ^ static_cast<std::uint64_t>(m)) * 1099511628211ull;
  char id[32];
  std::snprintf(id, sizeof id, "c%016llx", static_cast<unsigned long long>(hash));
  g_commIds[members] = id;
  std::string declaration = std::to_string(g.rank) + " comm " + id;
  for (int m : members) declaration.append(" ").append(std::to_string(m));
  emit(declaration + "\n");
  return id;
}

// '<rank> <collective> <bytes> [root=<r>] [comm=<id>]'; bytes agreed over the communicator
// (the largest any rank gives) where the v-variants let them differ.
void collective(const char* name, long long bytes, int root, MPI_Comm comm, bool agree) {
  if (agree) {
    long long largest = bytes;
    PMPI_Allreduce(&bytes, &largest, 1, MPI_LONG_LONG, MPI_MAX, comm);
    bytes = largest;
  }
  const std::string id = commId(comm);
  std::string text = std::to_string(g.rank);
  text.append(" ").append(name).append(" ").append(std::to_string(bytes));
  if (root >= 0) text.append(" root=").append(std::to_string(root));
  if (!id.empty()) text.append(" comm=").append(id);
  emit(text + "\n");
}

long long largestOf(const int counts[], int n, MPI_Datatype type) {
  long long largest = 0;
  for (int i = 0; i < n; ++i) largest = std::max(largest, bytesOf(counts[i], type));
  return largest;
}

int sizeOf(MPI_Comm comm) {
  int size = 0;
  PMPI_Comm_size(comm, &size);
  return size;
}

void start() {
  PMPI_Comm_rank(MPI_COMM_WORLD, &g.rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &g.worldSize);
  const char* env = std::getenv("TAC3TRACE_PREFIX");
  const std::string base = env && *env ? env : "tac3trace";
  g.out = std::fopen((base + ".rank" + std::to_string(g.rank)).c_str(), "w");
  if (!g.out) {
    std::fprintf(stderr, "tac3trace: cannot write %s.rank%d; not tracing\n", base.c_str(), g.rank);
    return;
  }
  // Line-buffered by default: a crash loses no finished line. TAC3TRACE_BUFFER=full trades
  // that for fewer system calls (the trace is then complete only after MPI_Finalize).
  const char* buffering = std::getenv("TAC3TRACE_BUFFER");
  const bool full = buffering && std::string(buffering) == "full";
  std::setvbuf(g.out, nullptr, full ? _IOFBF : _IOLBF, 1 << 16);
  if (g.rank == 0) {
    if (std::FILE* header = std::fopen((base + ".header").c_str(), "w")) {
      std::fprintf(header, "tac3map-trace 1\n# written by libtac3trace\nranks %d\n", g.worldSize);
      std::fclose(header);
    }
  }
  g.recording = true;
}

bool on() {
  return g.recording && g.out;
}

// A completed request: its wait line, and the irecv's own line once its source is known.
void completed(MPI_Request request, const MPI_Status* status) {
  const auto it = g.requests.find(request);
  if (it == g.requests.end()) return;
  Pending& p = it->second;
  if (p.open) {
    const int source = worldRank(p.comm, status->MPI_SOURCE);
    resolve(p.slot, line({"irecv", str(source), str(p.bytes),
                          str(p.tag >= 0 ? p.tag : status->MPI_TAG), requestName(p.id)}));
  }
  emit(line({"wait", requestName(p.id)}));
  g.requests.erase(it);
}

void posted(MPI_Request request, bool recv, int peer, long long bytes, int tag, MPI_Comm comm) {
  Pending p;
  p.id = g.nextRequest++;
  p.recv = recv;
  p.bytes = bytes;
  p.peer = peer;
  p.tag = tag;
  p.comm = comm;
  p.open = recv && (peer == MPI_ANY_SOURCE || tag == MPI_ANY_TAG);
  p.slot = p.open ? emitLater()
                  : emit(line({recv ? "irecv" : "isend", str(peer), str(bytes), str(tag),
                               requestName(p.id)}));
  g.requests[request] = p;
}

// A persistent request started: its isend or irecv line, as MPI_Isend/MPI_Irecv write it.
void started(MPI_Request request) {
  const auto it = g.persistent.find(request);
  if (it == g.persistent.end()) return;  // MPI_PROC_NULL, or made before recording
  const Persistent& p = it->second;
  posted(request, p.recv, p.peer, p.bytes, p.tag, p.comm);
}

// A sendrecv's two halves (the receive's source and tag as its status gives them).
void exchange(int to, long long sent, int sendtag, int from, long long room, int recvtag) {
  if (sendtag == recvtag) {
    emit(line({"sendrecv", str(to), str(sent), str(from), str(room), str(sendtag)}));
  } else {  // different tags: the same as both sides posted, then both waited for
    const std::string s = requestName(g.nextRequest++);
    const std::string r = requestName(g.nextRequest++);
    emit(line({"isend", str(to), str(sent), str(sendtag), s}));
    emit(line({"irecv", str(from), str(room), str(recvtag), r}));
    emit(line({"wait", s}));
    emit(line({"wait", r}));
  }
}

}  // namespace tac3trace

using namespace tac3trace;

extern "C" {

int MPI_Init(int* argc, char*** argv) {
  const int result = PMPI_Init(argc, argv);
  start();
  return result;
}

int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  const int result = PMPI_Init_thread(argc, argv, required, provided);
  start();
  return result;
}

int MPI_Finalize() {
  if (g.out) {
    flushResolved();
    std::fclose(g.out);
    g.out = nullptr;
  }
  return PMPI_Finalize();
}

int MPI_Pcontrol(const int level, ...) {
  if (!g.out) return MPI_SUCCESS;
  g.recording = level != 0;
  if (level == 1) emit(line({"iteration"}));
  return MPI_SUCCESS;
}

int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  if (on() && dest != MPI_PROC_NULL)
    emit(line({"send", str(worldRank(comm, dest)), str(bytesOf(count, type)), str(tag)}));
  return PMPI_Send(buf, count, type, dest, tag, comm);
}

int MPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
             MPI_Status* status) {
  MPI_Status own;
  if (status == MPI_STATUS_IGNORE) status = &own;
  const int result = PMPI_Recv(buf, count, type, source, tag, comm, status);
  if (on() && source != MPI_PROC_NULL)
    emit(line({"recv", str(worldRank(comm, status->MPI_SOURCE)), str(bytesOf(count, type)),
               str(status->MPI_TAG)}));
  return result;
}

int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
              MPI_Request* request) {
  const int result = PMPI_Isend(buf, count, type, dest, tag, comm, request);
  if (on() && dest != MPI_PROC_NULL)
    posted(*request, false, worldRank(comm, dest), bytesOf(count, type), tag, comm);
  return result;
}

// Persistent requests: kept at their init, written as an isend or irecv at each start.
int MPI_Send_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                  MPI_Request* request) {
  const int result = PMPI_Send_init(buf, count, type, dest, tag, comm, request);
  if (dest != MPI_PROC_NULL)
    g.persistent[*request] = {false, worldRank(comm, dest), bytesOf(count, type), tag, comm};
  return result;
}

int MPI_Ssend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag,
                   MPI_Comm comm, MPI_Request* request) {
  const int result = PMPI_Ssend_init(buf, count, type, dest, tag, comm, request);
  if (dest != MPI_PROC_NULL)
    g.persistent[*request] = {false, worldRank(comm, dest), bytesOf(count, type), tag, comm};
  return result;
}

int MPI_Recv_init(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                  MPI_Request* request) {
  const int result = PMPI_Recv_init(buf, count, type, source, tag, comm, request);
  if (source != MPI_PROC_NULL)
    g.persistent[*request] = {true, worldRank(comm, source), bytesOf(count, type), tag, comm};
  return result;
}

int MPI_Start(MPI_Request* request) {
  const int result = PMPI_Start(request);
  if (on()) started(*request);
  return result;
}

int MPI_Startall(int count, MPI_Request requests[]) {
  const int result = PMPI_Startall(count, requests);
  if (on())
    for (int i = 0; i < count; ++i) started(requests[i]);
  return result;
}

int MPI_Request_free(MPI_Request* request) {
  g.persistent.erase(*request);
  g.requests.erase(*request);  // an active one completes on its own: never waited for here
  return PMPI_Request_free(request);
}

int MPI_Irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
              MPI_Request* request) {
  const int result = PMPI_Irecv(buf, count, type, source, tag, comm, request);
  if (on() && source != MPI_PROC_NULL)
    posted(*request, true, worldRank(comm, source), bytesOf(count, type), tag, comm);
  return result;
}

int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                 void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                 MPI_Comm comm, MPI_Status* status) {
  MPI_Status own;
  if (status == MPI_STATUS_IGNORE) status = &own;
  const int result = PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                                   recvtype, source, recvtag, comm, status);
  if (!on() || dest == MPI_PROC_NULL || source == MPI_PROC_NULL) return result;
  exchange(worldRank(comm, dest), bytesOf(sendcount, sendtype), sendtag,
           worldRank(comm, status->MPI_SOURCE), bytesOf(recvcount, recvtype), status->MPI_TAG);
  return result;
}

int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype type, int dest, int sendtag,
                         int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  MPI_Status own;
  if (status == MPI_STATUS_IGNORE) status = &own;
  const int result =
      PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source, recvtag, comm, status);
  if (on() && dest != MPI_PROC_NULL && source != MPI_PROC_NULL)
    exchange(worldRank(comm, dest), bytesOf(count, type), sendtag,
             worldRank(comm, status->MPI_SOURCE), bytesOf(count, type), status->MPI_TAG);
  return result;
}

int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  MPI_Status own;
  if (status == MPI_STATUS_IGNORE) status = &own;
  const MPI_Request handle = *request;
  const int result = PMPI_Wait(request, status);
  if (on()) completed(handle, status);
  return result;
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  std::vector<MPI_Request> handles(requests, requests + count);
  std::vector<MPI_Status> own(count);
  if (statuses == MPI_STATUSES_IGNORE) statuses = own.data();
  const int result = PMPI_Waitall(count, requests, statuses);
  if (on())
    for (int i = 0; i < count; ++i) completed(handles[i], &statuses[i]);
  return result;
}

int MPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  std::vector<MPI_Request> handles(requests, requests + count);
  MPI_Status own;
  if (status == MPI_STATUS_IGNORE) status = &own;
  const int result = PMPI_Waitany(count, requests, index, status);
  if (on() && *index != MPI_UNDEFINED) completed(handles[*index], status);
  return result;
}

int MPI_Waitsome(int incount, MPI_Request requests[], int* outcount, int indices[],
                 MPI_Status statuses[]) {
  std::vector<MPI_Request> handles(requests, requests + incount);
  std::vector<MPI_Status> own(incount);
  if (statuses == MPI_STATUSES_IGNORE) statuses = own.data();
  const int result = PMPI_Waitsome(incount, requests, outcount, indices, statuses);
  if (on() && *outcount != MPI_UNDEFINED)
    for (int k = 0; k < *outcount; ++k) completed(handles[indices[k]], &statuses[k]);
  return result;
}

int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  MPI_Status own;
  if (status == MPI_STATUS_IGNORE) status = &own;
  const MPI_Request handle = *request;
  const int result = PMPI_Test(request, flag, status);
  if (on() && *flag) completed(handle, status);
  return result;
}

int MPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
  std::vector<MPI_Request> handles(requests, requests + count);
  std::vector<MPI_Status> own(count);
  if (statuses == MPI_STATUSES_IGNORE) statuses = own.data();
  const int result = PMPI_Testall(count, requests, flag, statuses);
  if (on() && *flag)
    for (int i = 0; i < count; ++i) completed(handles[i], &statuses[i]);
  return result;
}

int MPI_Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status) {
  std::vector<MPI_Request> handles(requests, requests + count);
  MPI_Status own;
  if (status == MPI_STATUS_IGNORE) status = &own;
  const int result = PMPI_Testany(count, requests, index, flag, status);
  if (on() && *flag && *index != MPI_UNDEFINED) completed(handles[*index], status);
  return result;
}

int MPI_Testsome(int incount, MPI_Request requests[], int* outcount, int indices[],
                 MPI_Status statuses[]) {
  std::vector<MPI_Request> handles(requests, requests + incount);
  std::vector<MPI_Status> own(incount);
  if (statuses == MPI_STATUSES_IGNORE) statuses = own.data();
  const int result = PMPI_Testsome(incount, requests, outcount, indices, statuses);
  if (on() && *outcount != MPI_UNDEFINED)
    for (int k = 0; k < *outcount; ++k) completed(handles[indices[k]], &statuses[k]);
  return result;
}

}  // extern "C"
