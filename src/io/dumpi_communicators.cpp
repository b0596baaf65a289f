// The communicators of a DUMPI trace: which world ranks each handle a rank prints stands for.
#include <algorithm>
#include <set>

#include "dumpi_calls.hpp"
#include "tac3map/io/error.hpp"

namespace tac3map::reading {
namespace {

// A rank's part in a call that makes communicators out of a parent, collectively: MPI requires
// every rank of the parent to make such calls in the same order, so the k-th of every rank on
// one parent is one call. Ranks of one colour form a communicator, ordered by key.
struct Part {
  int rank;
  long long colour, key;  // colour < 0: MPI_UNDEFINED, no communicator
  std::string handle;     // the new communicator's handle on this rank
  std::vector<long long> dims;  // Cartesian: the new communicator's grid
  const DumpiCall* call;
  std::size_t file;
};

std::string get(const DumpiCall& call, const char* name) {
  const auto it = call.args.find(name);
  return it == call.args.end() ? std::string() : it->second;
}

}  // namespace

std::string handleOf(const std::string& value) {
  if (value.find("MPI_COMM_WORLD") != std::string::npos) return "";
  return value.substr(0, value.find(' '));
}

bool makesCommunicator(const std::string& name) {
  static const std::set<std::string> kNames = {
      "MPI_Comm_split",  "MPI_Comm_dup",        "MPI_Cart_create",     "MPI_Cart_sub",
      "MPI_Comm_create", "MPI_Graph_create",    "MPI_Intercomm_create", "MPI_Intercomm_merge"};
  return kNames.count(name) != 0;
}

CommHandles readCommunicators(const std::vector<std::vector<DumpiCall>>& calls,
                              const std::vector<std::string>& files, Trace& trace) {
  const int ranks = static_cast<int>(calls.size());
  CommHandles handles(calls.size());
  std::map<std::string, std::vector<long long>> grids;  // Cartesian communicators' dims
  std::map<std::pair<std::string, int>, std::vector<Part>> open;  // (parent, k) -> parts
  std::vector<std::map<std::string, int>> made(calls.size());   // per rank: calls per parent
  std::vector<std::size_t> next(calls.size(), 0);
  const auto members = [&](const std::string& id) -> std::vector<int> {
    if (!id.empty()) return trace.comms.at(id);
    std::vector<int> all(static_cast<std::size_t>(ranks));
    for (int r = 0; r < ranks; ++r) all[r] = r;
    return all;
  };
  const auto fail = [&](int rank, const DumpiCall& call, const std::string& what) {
    failAt(files[rank], call.line, call.name + ": " + what);
  };
  // Makes the communicators of a call every rank of `parent` has reached.
  const auto close = [&](const std::string& parent, std::vector<Part>& parts) {
    const std::vector<int> world = members(parent);
    const auto place = [&](int r) { return std::find(world.begin(), world.end(), r) - world.begin(); };
    std::stable_sort(parts.begin(), parts.end(), [&](const Part& a, const Part& b) {
      return a.colour != b.colour ? a.colour < b.colour
             : a.key != b.key     ? a.key < b.key
                                  : place(a.rank) < place(b.rank);
    });
    for (std::size_t i = 0; i < parts.size();) {
      std::size_t j = i;
      std::vector<int> group;
      while (j < parts.size() && parts[j].colour == parts[i].colour) group.push_back(parts[j++].rank);
      if (parts[i].colour >= 0) {
        const std::string id = "split" + std::to_string(trace.comms.size());
        trace.comms[id] = group;
        if (!parts[i].dims.empty()) grids[id] = parts[i].dims;
        for (std::size_t k = i; k < j; ++k) handles[parts[k].rank][parts[k].handle] = id;
      }
      i = j;
    }
  };
  // Runs every rank's calls as far as their parents are known, until none can go on.
  for (bool progress = true; progress;) {
    progress = false;
    for (int rank = 0; rank < ranks; ++rank) {
      for (; next[rank] < calls[rank].size(); ++next[rank], progress = true) {
        const DumpiCall& call = calls[rank][next[rank]];
        const std::string parentHandle =
            handleOf(get(call, call.args.count("oldcomm") ? "oldcomm" : "comm"));
        std::string parent;
        if (!parentHandle.empty()) {
          const auto known = handles[rank].find(parentHandle);
          if (known == handles[rank].end()) break;  // made by a call not closed yet
          parent = known->second;
        }
        const std::string handle = handleOf(get(call, "newcomm"));
        if (!parent.empty() && parent[0] == '!') {  // made from one the reader cannot follow
          handles[rank][handle] = parent;
          continue;
        }
        if (call.name == "MPI_Comm_dup") {
          handles[rank][handle] = parent;
          continue;
        }
        const std::vector<int> world = members(parent);
        const long long self = std::find(world.begin(), world.end(), rank) - world.begin();
        Part part{rank, 0, self, handle, {}, &call, static_cast<std::size_t>(rank)};
        const Reader r{files[rank], rank + 1, call.line};
        if (call.name == "MPI_Comm_split") {
          part.colour = wholeInteger<long long>(get(call, "color")).value_or(0);
          part.key = wholeInteger<long long>(get(call, "key")).value_or(0);
        } else if (call.name == "MPI_Cart_create") {
          // reorder is ignored: MPI libraries other than Open MPI's treematch keep the order.
          part.dims = braceList(r, get(call, "dims"));
          long long size = 1;
          for (long long d : part.dims) size *= std::max(1LL, d);
          part.colour = self < size ? 0 : -1;
        } else if (call.name == "MPI_Cart_sub") {
          const auto grid = grids.find(parent);
          if (grid == grids.end()) fail(rank, call, "on a communicator that is not Cartesian");
          const std::vector<long long> remain = braceList(r, get(call, "remain_dims"));
          if (remain.size() != grid->second.size())
            fail(rank, call, "remain_dims has " + std::to_string(remain.size()) +
                                 " entries for a grid of " + std::to_string(grid->second.size()));
          // Row-major coordinates; the colour is the rank's place along the dropped dims.
          long long rest = self, colour = 0, scale = 1;
          for (std::size_t d = grid->second.size(); d-- > 0;) {
            const long long extent = std::max(1LL, grid->second[d]), coord = rest % extent;
            rest /= extent;
            if (remain[d]) {
              part.dims.insert(part.dims.begin(), extent);
            } else {
              colour += coord * scale;
              scale *= extent;
            }
          }
          part.colour = colour;
        } else {
          handles[rank][handle] = "!made by " + call.name + " (" + files[rank] + ":" +
                                  std::to_string(call.line) +
                                  "), which the DUMPI reader does not follow";
          continue;
        }
        const int k = made[rank][parent]++;
        std::vector<Part>& parts = open[{parent, k}];
        parts.push_back(part);
        if (parts.size() == world.size()) {
          close(parent, parts);
          open.erase({parent, k});
        }
      }
    }
  }
  for (int rank = 0; rank < ranks; ++rank)
    if (next[rank] < calls[rank].size()) {
      const DumpiCall& call = calls[rank][next[rank]];
      fail(rank, call, "on communicator " + get(call, call.args.count("oldcomm") ? "oldcomm" : "comm") +
                           ", which no communicator call of this rank made");
    }
  for (const auto& [where, parts] : open) {
    const Part& first = parts.front();
    fail(first.rank, *first.call,
         "called by " + std::to_string(parts.size()) + " of the " +
             std::to_string(members(where.first).size()) +
             " ranks of its parent communicator (every rank must call it, in the same order)");
  }
  return handles;
}

}  // namespace tac3map::reading
