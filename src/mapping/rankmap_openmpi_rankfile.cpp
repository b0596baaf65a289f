// openmpi-rankfile: Open MPI mpirun's --rankfile, 'rank <i>=<host> slot=<list>', the list
// what --bind binds the rank's slot to (rankmap.hpp: RankMapOptions).
#include <algorithm>
#include <optional>
#include <sstream>
#include <unordered_map>

#include "rankmap_codec.hpp"
#include "tac3map/io/error.hpp"

namespace tac3map {

const EnumNames<RankfileBind>& rankfileBindNames() {
  static const EnumNames<RankfileBind> names(
      "rank file binding", {{RankfileBind::Core, "core", "(its slot's cores)"},
                            {RankfileBind::Socket, "socket", "(its slot's sockets, slot=N:*)"},
                            {RankfileBind::None, "none", "(the whole node: slot=0-(C-1))"}});
  return names;
}

RankfileBind parseRankfileBind(const std::string& name) {
  return rankfileBindNames().parse(name);
}

const char* rankfileBindName(RankfileBind bind) {
  return rankfileBindNames().name(bind).c_str();
}

RankMapOptions withMachineDefaults(RankMapOptions options, const Machine& machine) {
  if (options.coresPerNode == 0) options.coresPerNode = machine.coresPerNode;
  if (options.socketsPerNode == 0) options.socketsPerNode = machine.socketsPerNode;
  return options;
}

std::pair<int, int> slotCores(int slot, const RankMapOptions& options) {
  if (options.coresPerNode <= 0) return {slot, slot};
  const long long k = options.slotsPerNode, c = options.coresPerNode;
  return {static_cast<int>(slot * c / k), static_cast<int>((slot + 1) * c / k - 1)};
}

namespace {

// Open MPI's core list "a" or "a-b" (appended piece by piece: GCC 12 warns wrongly about
// `"-" + std::to_string(...)`, -Wrestrict).
std::string coreList(int first, int last) {
  std::string list = std::to_string(first);
  if (last != first) list.append("-").append(std::to_string(last));
  return list;
}

}  // namespace

std::string rankfileSlotList(int slot, const RankMapOptions& options) {
  const long long k = options.slotsPerNode;
  switch (options.bind) {
    case RankfileBind::Core: {
      const auto [first, last] = slotCores(slot, options);
      return coreList(first, last);
    }
    case RankfileBind::Socket: {  // Open MPI's '<socket>:*', all cores of that socket
      const long long sockets = std::max(1, options.socketsPerNode);
      const long long first = slot * sockets / k;
      const long long last = std::max(first, (slot + 1) * sockets / k - 1);
      std::string list;
      for (long long socket = first; socket <= last; ++socket)
        list.append(list.empty() ? "" : ",").append(std::to_string(socket)).append(":*");
      return list;
    }
    case RankfileBind::None:
      break;
  }
  if (options.coresPerNode <= 0)
    throw InputError("openmpi-rankfile " + settingName("bind") + " none needs the node's cores (" +
                     settingName("cores per node") +
                     " C, or \"cores_per_node\" in the machine file): Open MPI binds every rank "
                     "of a rank file, so none binds each to all of its node's cores");
  return coreList(0, options.coresPerNode - 1);
}

namespace mapfile {
namespace {

// The slot of a rank file's 'slot=' field, for a file written with `written` (K > 1). Bound
// by core with C unknown, 'slot=s' is slot s; otherwise the field must be the slot list of a
// slot, and when several slots share it (--bind none, or socket with more slots than
// sockets) the rank takes the lowest of them still free on its node (`taken`).
class RankfileSlots {
 public:
  explicit RankfileSlots(const RankMapOptions& written) : written_(written) {
    if (!coreIsSlot())
      for (int s = 0; s < written.slotsPerNode; ++s) lists_.push_back(rankfileSlotList(s, written));
  }

  long long slotOf(const std::string& field, int node, const std::string& source,
                   std::size_t line) {
    const std::string spec = field.substr(5);  // after "slot="
    if (coreIsSlot()) return coreSlot(field, spec, source, line);
    std::vector<char>& taken = taken_[node];
    taken.resize(written_.slotsPerNode, 0);
    int chosen = -1;
    for (int s = 0; s < written_.slotsPerNode; ++s) {
      if (lists_[s] != spec) continue;
      if (chosen < 0 || (taken[chosen] && !taken[s])) chosen = s;
      if (!taken[chosen]) break;
    }
    if (chosen < 0) failAt(source, line, "'" + field + "' " + notASlot());
    taken[chosen] = 1;
    return chosen;
  }

 private:
  bool coreIsSlot() const {
    return written_.bind == RankfileBind::Core && written_.coresPerNode == 0;
  }

  static long long coreSlot(const std::string& field, const std::string& spec,
                            const std::string& source, std::size_t line) {
    const auto dash = spec.find('-');
    long long first = 0, last = 0;
    if (!parseInt(spec.substr(0, dash), first) ||
        !parseInt(dash == std::string::npos ? spec : spec.substr(dash + 1), last) || first < 0 ||
        last < first)
      failAt(source, line,
             "'" + field + "': expected slot=<core> or slot=<first>-<last> (a core range)");
    if (first != last)
      failAt(source, line,
             "'" + field + "' is a core range: give " + settingName("cores per node") +
                 " to tell which slot it is (slot s of K has cores s*C/K..(s+1)*C/K-1)");
    return first;
  }

  std::string notASlot() const {
    const std::string k = std::to_string(written_.slotsPerNode);
    const std::string c = std::to_string(written_.coresPerNode);
    switch (written_.bind) {
      case RankfileBind::Core:
        return "is not the cores of a slot (" + k + " ranks on " + c +
               " cores: slot s has cores s*C/K..(s+1)*C/K-1)";
      case RankfileBind::Socket:
        return "is not the sockets of a slot (" + settingName("bind") + " socket, " + k +
               " ranks on " + std::to_string(std::max(1, written_.socketsPerNode)) +
               " sockets: slot s has sockets s*S/K..(s+1)*S/K-1, each written 'N:*')";
      case RankfileBind::None:
        break;
    }
    return "is not the whole node (" + settingName("bind") + " none on " + c +
           " cores: slot=" + lists_.front() + ")";
  }

  RankMapOptions written_;
  std::vector<std::string> lists_;  // per slot
  std::unordered_map<int, std::vector<char>> taken_;
};

std::string writeRankfile(const Mapping& mapping, const Machine& machine, const Box&,
                          const NodeTable* table, const RankMapOptions& options) {
  const int k = options.slotsPerNode;
  const RankMapOptions bound = withMachineDefaults(options, machine);
  if (bound.bind == RankfileBind::Core && bound.coresPerNode > 0 && bound.coresPerNode < k)
    throw InputError("openmpi-rankfile: " +
                     (options.coresPerNode > 0
                          ? settingName("cores per node") + " " + std::to_string(bound.coresPerNode)
                          : "cores_per_node " + std::to_string(bound.coresPerNode) + " (" +
                                machine.source + ")") +
                     " is less than " + settingName("ranks per node") + " " + std::to_string(k) +
                     " (every rank needs a core of its own; or " + settingName("bind") +
                     " socket|none)");
  std::vector<std::string> lists;  // per slot
  for (int s = 0; s < k; ++s) lists.push_back(rankfileSlotList(s, bound));
  std::ostringstream out;
  out << writtenWith(MapFormat::OpenmpiRankfile, bound);
  for (int task = 0; task < mapping.tasks(); ++task)
    out << "rank " << task << "="
        << hostOf(machine, table, mapping.nodeOfTask[task], "openmpi-rankfile")
        << " slot=" << lists[mapping.slotOf(task)] << "\n";
  return out.str();
}

bool isRankfile(const MapFile& file) {
  return file.head().rfind("rank ", 0) == 0;
}

Mapping readRankfile(const MapFile& file, const Machine& machine, const Box& box, int tasks,
                     const NodeTable* table, const RankMapOptions& options) {
  const std::string& path = file.path;
  const int k = options.slotsPerNode;
  MappingBuilder builder(path, box, tasks, k);
  const auto byHost = nodesByHost(machine, table, "openmpi-rankfile", path);
  // Slot lists decode with the K, C, S and binding the file was written with (its first
  // comment), else with the options and the machine file; with one rank per node the slot
  // field is not read.
  const RankMapOptions written = readWrittenWith(file.text, MapFormat::OpenmpiRankfile,
                                                 withMachineDefaults(options, machine), path);
  std::optional<RankfileSlots> slots;
  if (k > 1) slots.emplace(written);
  for (const Line& line : file.lines) {
    std::istringstream words(line.text);
    std::string rankWord, slotWord, extra;
    words >> rankWord >> rankWord >> slotWord >> extra;  // "rank" "<i>=<host>" "slot=<list>"
    const auto equals = rankWord.find('=');
    long long rank = 0;
    if (line.text.rfind("rank ", 0) != 0 || equals == std::string::npos ||
        !parseInt(rankWord.substr(0, equals), rank) ||
        (!slotWord.empty() && slotWord.rfind("slot=", 0) != 0) || !extra.empty())
      failAt(path, line.number, "expected 'rank <i>=<host> slot=<list>'");
    const int node = hostNode(byHost, rankWord.substr(equals + 1), path, line.number);
    const long long slot =
        slots && !slotWord.empty() ? slots->slotOf(slotWord, node, path, line.number) : -1;
    builder.place(rank, node, line.number, slot);
  }
  return builder.finish();
}

}  // namespace

const Codec kOpenmpiRankfile = {MapFormat::OpenmpiRankfile,
                                "openmpi-rankfile",
                                writeRankfile,
                                isRankfile,
                                readRankfile,
                                nullptr};

}  // namespace mapfile
}  // namespace tac3map
