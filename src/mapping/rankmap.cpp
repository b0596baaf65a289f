#include "tac3map/mapping/rankmap.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unordered_map>

#include "tac3map/io/error.hpp"
#include "tac3map/io/json_input.hpp"
#include "tac3map/io/limits.hpp"
#include "tac3map/network/tofu_view.hpp"

namespace tac3map {
namespace {

using nlohmann::json;

struct Named {
  const char* name;
  MapFormat format;
};
const Named kFormats[] = {{"coords", MapFormat::Coords},
                          {"json", MapFormat::Json},
                          {"fujitsu-vcoord", MapFormat::FujitsuVcoord},
                          {"openmpi-rankfile", MapFormat::OpenmpiRankfile},
                          {"slurm-hostfile", MapFormat::SlurmHostfile},
                          {"cray-rank-order", MapFormat::CrayRankOrder},
                          {"bgq-mapfile", MapFormat::BgqMapfile}};

bool parseInt(const std::string& word, long long& value) {
  const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
  return error == std::errc() && end == word.data() + word.size();
}

std::vector<int> parseInts(const std::string& text, char separator, const std::string& source,
                           std::size_t line, const std::string& what) {
  std::vector<int> values;
  std::stringstream in(text);
  std::string word;
  while (std::getline(in, word, separator)) {
    long long value = 0;
    if (!parseInt(word, value)) failAt(source, line, what + ": '" + word + "' is not an integer");
    // Checked before narrowing: 4294967296 must not wrap to 0.
    if (value < 0 || value > std::numeric_limits<int>::max())
      failAt(source, line,
             what + ": '" + word + "' is outside 0.." +
                 std::to_string(std::numeric_limits<int>::max()));
    values.push_back(static_cast<int>(value));
  }
  return values;
}

// Box node of machine coordinates, or -1 outside the box.
int boxNodeOf(const Machine& machine, const Box& box, const std::vector<int>& coordinates) {
  std::vector<int> relative(coordinates.size());
  for (int a = 0; a < box.axisCount(); ++a) {
    const int size = machine.axes[a].size;
    if (coordinates[a] < 0 || coordinates[a] >= size) return -1;
    relative[a] = (coordinates[a] - box.offset[a] + size) % size;
    if (relative[a] >= box.shape[a]) return -1;
  }
  return box.nodeAt(relative);
}

// Logical coordinates of every box node: from the table when it has them (then on every
// line), else the Tofu logical view.
std::vector<std::vector<int>> logicalCoordinates(const Machine& machine, const Box& box,
                                                 const NodeTable* table) {
  const bool fromTable =
      table && std::any_of(table->nodes.begin(), table->nodes.end(),
                           [&](int node) { return !table->logical[node].empty(); });
  if (fromTable) {
    for (int node : table->nodes)
      if (table->logical[node].empty())
        failIn(table->source, "fujitsu-vcoord needs logical=X,Y,Z on every node line");
    return table->logical;
  }
  const LogicalTorus view = tofuLogicalTorus(machine, box);
  std::vector<std::vector<int>> logical(box.nodeCount);
  for (std::size_t p = 0; p < view.node.size(); ++p) {
    const int x = static_cast<int>(p) % view.size[0];
    const int y = static_cast<int>(p) / view.size[0] % view.size[1];
    const int z = static_cast<int>(p) / (view.size[0] * view.size[1]);
    logical[view.node[p]] = {x, y, z};
  }
  return logical;
}

// A node's host name: the table's host=NAME, else on a graph machine the node's name.
const std::string& hostOf(const Machine& machine, const NodeTable* table, int node,
                          const char* format) {
  if (machine.isGraph() && (!table || table->host[node].empty()))
    return machine.graph->nodes[machine.graph->compute[node]].name;
  if (!table)
    throw InputError(std::string(format) + " needs host names: give a node table (--nodes)");
  if (table->host[node].empty())
    failIn(table->source, std::string(format) + " needs host=NAME for node " +
                              std::to_string(node) + " of the box");
  return table->host[node];
}

// The job's nodes in launcher order: the table's, else the box's X-fastest order.
std::vector<int> nodeOrder(const Box& box, const NodeTable* table) {
  if (table) return table->nodes;
  std::vector<int> order(box.nodeCount);
  for (int n = 0; n < box.nodeCount; ++n) order[n] = n;
  return order;
}

struct Line {
  std::size_t number;
  std::string text;  // trimmed
};

std::vector<Line> meaningfulLines(const std::string& text) {
  std::vector<Line> lines;
  std::istringstream in(text);
  std::string line;
  for (std::size_t n = 1; std::getline(in, line); ++n) {
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    const auto last = line.find_last_not_of(" \t\r");
    lines.push_back({n, line.substr(first, last - first + 1)});
  }
  return lines;
}

// Box nodes by host name: the node table's, or on a graph machine the node names (hostOf's
// rule, so that what writeRankMap writes reads back).
std::map<std::string, int> nodesByHost(const Machine& machine, const NodeTable* table,
                                       const char* format, const std::string& path) {
  std::map<std::string, int> byHost;
  if (machine.isGraph()) {
    for (int node = 0; node < machine.graph->computeCount(); ++node)
      byHost.emplace(hostOf(machine, table, node, format), node);
    return byHost;
  }
  if (!table)
    failIn(path, std::string("reading a ") + format +
                     " needs the node table it was written with (--nodes)");
  for (int node : table->nodes)
    if (!table->host[node].empty() && !byHost.emplace(table->host[node], node).second)
      failIn(table->source, "host " + table->host[node] + " is on two lines");
  return byHost;
}

int hostNode(const std::map<std::string, int>& byHost, const std::string& host,
             const std::string& source, std::size_t line) {
  const auto it = byHost.find(host);
  if (it == byHost.end()) failAt(source, line, "host '" + host + "' is not in the node table");
  return it->second;
}

// The comment tac3map writes first in a rank file and a Cray rank order, saying how the file
// was written: '# tac3map <format> --ranks-per-node K', and for a rank file '[--cores-per-node
// C] [--sockets-per-node S] --bind B' (C when known, S with --bind socket), so that every
// reader decodes the slot lists without being told again. `options` are complete
// (withMachineDefaults).
std::string writtenWith(MapFormat format, const RankMapOptions& options) {
  std::string text = std::string("# tac3map ") + mapFormatName(format) + " --ranks-per-node " +
                     std::to_string(options.slotsPerNode);
  if (format == MapFormat::OpenmpiRankfile) {
    if (options.coresPerNode > 0)
      text += " --cores-per-node " + std::to_string(options.coresPerNode);
    if (options.bind == RankfileBind::Socket)
      text += " --sockets-per-node " + std::to_string(std::max(1, options.socketsPerNode));
    text += std::string(" --bind ") + rankfileBindName(options.bind);
  }
  return text + "\n";
}

// The options of that comment when the file's first line is one, else `fallback`. A rank file
// written before --bind existed has no --bind: it bound by core.
RankMapOptions readWrittenWith(const std::string& text, MapFormat format,
                               const RankMapOptions& fallback, const std::string& source) {
  const std::string prefix = std::string("# tac3map ") + mapFormatName(format) + " ";
  if (text.rfind(prefix, 0) != 0) return fallback;
  std::string line = text.substr(0, text.find('\n'));
  line.erase(line.find_last_not_of(" \t\r") + 1);
  const bool rankfile = format == MapFormat::OpenmpiRankfile;
  const auto bad = [&]() {
    // The expected header in backquotes: the tool's own text, which error.hpp never cuts.
    failAt(source, 1,
           "expected `" + prefix + "--ranks-per-node K" +
               (rankfile ? " [--cores-per-node C] [--sockets-per-node S] [--bind "
                           "core|socket|none]"
                         : "") +
               "`, not '" + line + "'");
  };
  std::istringstream in(line.substr(prefix.size()));
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  if (words.size() % 2 != 0 || words.empty() || words[0] != "--ranks-per-node") bad();
  RankMapOptions written;
  written.slotsPerNode = 0;
  std::vector<std::string> seen;
  for (std::size_t i = 0; i < words.size(); i += 2) {
    const std::string& name = words[i];
    const std::string& value = words[i + 1];
    if (std::find(seen.begin(), seen.end(), name) != seen.end()) bad();
    seen.push_back(name);
    long long number = 0;
    const bool count = parseInt(value, number) && number >= 1 && number <= limits::kMaxCoresPerNode;
    if (name == "--ranks-per-node" && count) {
      written.slotsPerNode = static_cast<int>(number);
    } else if (rankfile && name == "--cores-per-node" && count) {
      written.coresPerNode = static_cast<int>(number);
    } else if (rankfile && name == "--sockets-per-node" && count) {
      written.socketsPerNode = static_cast<int>(number);
    } else if (rankfile && name == "--bind" &&
               (value == "core" || value == "socket" || value == "none")) {
      written.bind = parseRankfileBind(value);
    } else {
      bad();
    }
  }
  const int k = written.slotsPerNode, c = written.coresPerNode;
  if (written.bind == RankfileBind::Core && c > 0 && c < k)
    failAt(source, 1,
           std::to_string(c) + " cores per node cannot hold " + std::to_string(k) +
               " ranks of a core each");
  if (written.bind == RankfileBind::None && c == 0)
    failAt(source, 1, "--bind none needs --cores-per-node C (its slot lists are the whole node)");
  return written;
}

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
             "'" + field +
                 "' is a core range: give --cores-per-node to tell which slot it is (slot s of "
                 "K has cores s*C/K..(s+1)*C/K-1)");
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
        return "is not the sockets of a slot (--bind socket, " + k + " ranks on " +
               std::to_string(std::max(1, written_.socketsPerNode)) +
               " sockets: slot s has sockets s*S/K..(s+1)*S/K-1, each written 'N:*')";
      case RankfileBind::None:
        break;
    }
    return "is not the whole node (--bind none on " + c + " cores: slot=" + lists_.front() + ")";
  }

  RankMapOptions written_;
  std::vector<std::string> lists_;  // per slot
  std::unordered_map<int, std::vector<char>> taken_;
};

Mapping readJson(const std::string& text, const std::string& source, const Box& box, int tasks,
                 int slotsPerNode) {
  const json doc = parseJson(text, source);
  const json& ranks = jsonField(doc, "ranks", "top level", source);
  if (!ranks.is_array()) failIn(source, "ranks: expected an array");
  MappingBuilder builder(source, box, tasks, slotsPerNode);
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    const std::string where = "ranks[" + std::to_string(i) + "]";
    const json& rank = jsonField(ranks[i], "rank", where, source);
    const json& c = jsonField(ranks[i], "coordinates", where, source);
    if (!rank.is_number_integer()) failIn(source, where + ".rank: expected an integer");
    if (!c.is_array() || c.size() != static_cast<std::size_t>(box.axisCount()))
      failIn(source,
             where + ".coordinates: expected " + std::to_string(box.axisCount()) + " integers");
    std::vector<int> coordinates;
    for (std::size_t a = 0; a < c.size(); ++a) {
      // Read in 64 bits: 4294967296 must not wrap to 0 ("...: expected an integer from 0
      // to 3, got 4294967296"; the box's shape bounds each coordinate).
      std::string at = where;
      at += ".coordinates[";
      at += std::to_string(a);
      at += "]";
      coordinates.push_back(static_cast<int>(jsonInteger(c[a], 0, box.shape[a] - 1, at, source)));
    }
    long long slot = -1;  // absent: the node's lowest free slot
    if (ranks[i].contains("slot"))
      slot = jsonInteger(ranks[i]["slot"], 0, std::numeric_limits<int>::max(), where + ".slot",
                         source);
    builder.place(jsonInteger(rank, 0, std::numeric_limits<int>::max(), where + ".rank", source),
                  box.nodeAt(coordinates), i + 1, slot);
  }
  return builder.finish();
}

}  // namespace

MapFormat parseMapFormat(const std::string& name) {
  for (const Named& f : kFormats)
    if (name == f.name) return f.format;
  throw InputError("--output-format '" + name +
                   "': expected coords, json, fujitsu-vcoord, openmpi-rankfile, slurm-hostfile, "
                   "cray-rank-order or bgq-mapfile");
}

const char* mapFormatName(MapFormat format) {
  for (const Named& f : kFormats)
    if (format == f.format) return f.name;
  return "?";
}

NodeTable readNodeTable(const std::string& path, const Machine& machine, const Box& box) {
  std::ifstream in = openInputFile(path, "node table");
  NodeTable table;
  table.source = path;
  table.host.assign(box.nodeCount, "");
  table.logical.assign(box.nodeCount, {});
  table.position.assign(box.nodeCount, -1);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // The line of each listed node, host name and logical coordinates: a launcher file naming
  // one twice would make the rank file written from it wrong, so it is refused.
  std::vector<std::size_t> lineOf;  // per table entry
  std::map<std::string, std::size_t> hostLine;
  std::map<std::vector<int>, std::size_t> logicalLine;
  for (const Line& line : meaningfulLines(text)) {
    std::istringstream words(line.text);
    std::vector<int> coordinates;
    std::string word, host, logicalText;
    std::vector<int> logical;
    while (words >> word) {
      long long value = 0;
      if (machine.isGraph() && coordinates.empty() && word.find('=') == std::string::npos) {
        // A graph machine's node table names compute nodes.
        const std::vector<int>& compute = machine.graph->compute;
        const auto it = std::find(compute.begin(), compute.end(), machine.graph->nodeId(word));
        if (it == compute.end())
          failAt(path, line.number, "'" + word + "' is not a compute node of " + machine.source);
        coordinates.push_back(static_cast<int>(it - compute.begin()));
      } else if (static_cast<int>(coordinates.size()) < machine.axisCount() &&
                 parseInt(word, value)) {
        // Outside the machine (checked before narrowing, so 4294967296 is not 0): not in the
        // box either, which boxNodeOf reports below.
        const bool onMachine = value >= 0 && value < machine.axes[coordinates.size()].size;
        coordinates.push_back(onMachine ? static_cast<int>(value) : -1);
      } else if (word.rfind("host=", 0) == 0 && word.size() > 5) {
        host = word.substr(5);
      } else if (word.rfind("logical=", 0) == 0) {
        logicalText = word.substr(8);
        logical = parseInts(logicalText, ',', path, line.number, "logical coordinates");
      } else {
        failAt(path, line.number,
               "unexpected '" + word + "' (expected " + std::to_string(machine.axisCount()) +
                   " machine coordinates, then host=NAME and logical=X,Y,Z)");
      }
    }
    if (static_cast<int>(coordinates.size()) != machine.axisCount())
      failAt(path, line.number,
             "expected " + std::to_string(machine.axisCount()) + " machine coordinates");
    const int node = boxNodeOf(machine, box, coordinates);
    if (node < 0)
      failAt(path, line.number,
             "node is not in the box " + box.shapeText() + " at offset " + box.offsetText());
    if (table.position[node] >= 0)
      failAt(path, line.number,
             "node listed twice (also line " + std::to_string(lineOf[table.position[node]]) + ")");
    if (!host.empty()) {
      const auto [it, added] = hostLine.emplace(host, line.number);
      if (!added)
        failAt(
            path, line.number,
            "host name " + host + " listed twice (also line " + std::to_string(it->second) + ")");
    }
    if (!logical.empty()) {
      const auto [it, added] = logicalLine.emplace(logical, line.number);
      if (!added)
        failAt(path, line.number,
               "logical coordinates " + logicalText + " listed twice (also line " +
                   std::to_string(it->second) + ")");
    }
    lineOf.push_back(line.number);
    table.position[node] = static_cast<int>(table.nodes.size());
    table.nodes.push_back(node);
    table.host[node] = host;
    table.logical[node] = logical;
  }
  if (table.nodes.empty()) failIn(path, "no nodes");
  return table;
}

RankfileBind parseRankfileBind(const std::string& name) {
  if (name == "core") return RankfileBind::Core;
  if (name == "socket") return RankfileBind::Socket;
  if (name == "none") return RankfileBind::None;
  throw InputError("--bind must be core, socket or none, not '" + name + "'");
}

const char* rankfileBindName(RankfileBind bind) {
  switch (bind) {
    case RankfileBind::Core:
      return "core";
    case RankfileBind::Socket:
      return "socket";
    case RankfileBind::None:
      break;
  }
  return "none";
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
    throw InputError(
        "openmpi-rankfile --bind none needs the node's cores (--cores-per-node C, or "
        "\"cores_per_node\" in the machine file): Open MPI binds every rank of a rank file, so "
        "none binds each to all of its node's cores");
  return coreList(0, options.coresPerNode - 1);
}

std::string writeRankMap(MapFormat format, const Mapping& mapping, const Machine& machine,
                         const Box& box, const NodeTable* table, const RankMapOptions& options) {
  const int k = options.slotsPerNode;
  checkMapping(mapping, box, mapFormatName(format), k);
  if (options.coresPerNode < 0 || options.socketsPerNode < 0)
    throw InputError("--cores-per-node and --sockets-per-node must be at least 1 (or 0: unknown)");
  std::ostringstream out;
  switch (format) {
    case MapFormat::Coords:
      return formatMapping(mapping, machine, box, k);
    case MapFormat::Json: {
      json ranks = json::array();
      for (int task = 0; task < mapping.tasks(); ++task) {
        const int node = mapping.nodeOfTask[task];
        json rank = {{"rank", task}, {"coordinates", box.coordinatesOf(node)}, {"node", node}};
        if (k > 1) rank["slot"] = mapping.slotOf(task);
        if (table && !table->host[node].empty()) rank["host"] = table->host[node];
        ranks.push_back(rank);
      }
      json doc = {{"tac3map_mapping", 1},
                  {"machine", machine.name},
                  {"shape", box.shapeText()},
                  {"offset", box.offsetText()}};
      if (!machine.source.empty()) doc["machine_file"] = machine.source;
      doc["ranks_per_node"] = k;
      doc["ranks"] = ranks;
      return doc.dump(1) + "\n";
    }
    case MapFormat::FujitsuVcoord: {  // a node's coordinates once per rank on it
      const auto logical = logicalCoordinates(machine, box, table);
      for (int task = 0; task < mapping.tasks(); ++task) {
        const std::vector<int>& c = logical[mapping.nodeOfTask[task]];
        out << "(";
        for (std::size_t a = 0; a < c.size(); ++a) out << (a ? "," : "") << c[a];
        out << ")\n";
      }
      return out.str();
    }
    case MapFormat::OpenmpiRankfile: {
      const RankMapOptions bound = withMachineDefaults(options, machine);
      if (bound.bind == RankfileBind::Core && bound.coresPerNode > 0 && bound.coresPerNode < k)
        throw InputError("openmpi-rankfile: " +
                         (options.coresPerNode > 0
                              ? "--cores-per-node " + std::to_string(bound.coresPerNode)
                              : "cores_per_node " + std::to_string(bound.coresPerNode) + " (" +
                                    machine.source + ")") +
                         " is less than --ranks-per-node " + std::to_string(k) +
                         " (every rank needs a core of its own; or --bind socket|none)");
      std::vector<std::string> lists;  // per slot
      for (int s = 0; s < k; ++s) lists.push_back(rankfileSlotList(s, bound));
      out << writtenWith(format, bound);
      for (int task = 0; task < mapping.tasks(); ++task)
        out << "rank " << task << "="
            << hostOf(machine, table, mapping.nodeOfTask[task], "openmpi-rankfile")
            << " slot=" << lists[mapping.slotOf(task)] << "\n";
      return out.str();
    }
    case MapFormat::SlurmHostfile:  // a node's host once per rank on it
      for (int task = 0; task < mapping.tasks(); ++task)
        out << hostOf(machine, table, mapping.nodeOfTask[task], "slurm-hostfile") << "\n";
      return out.str();
    case MapFormat::CrayRankOrder: {
      // MPICH puts the first K listed ranks on the first node, the next K on the second, ...:
      // each node's ranks in slot order; every node before the last used one must be full.
      std::vector<std::vector<int>> ranksOn(box.nodeCount);
      std::vector<int> bySlot(mapping.tasks());
      for (int task = 0; task < mapping.tasks(); ++task) bySlot[task] = task;
      std::stable_sort(bySlot.begin(), bySlot.end(),
                       [&](int a, int b) { return mapping.slotOf(a) < mapping.slotOf(b); });
      for (int task : bySlot) ranksOn[mapping.nodeOfTask[task]].push_back(task);
      out << writtenWith(format, options);
      int short_ = -1;  // a node with fewer than K ranks, so far
      bool first = true;
      for (int node : nodeOrder(box, table)) {
        const std::vector<int>& ranks = ranksOn[node];
        if (ranks.empty() && short_ < 0) short_ = node;
        if (ranks.empty()) continue;
        if (short_ >= 0)
          throw InputError(
              "cray-rank-order cannot leave " +
              (k == 1 ? std::string("a node empty")
                      : std::string("a node with fewer than ") + std::to_string(k) + " ranks") +
              " before a used one (MPICH fills nodes in order, " + std::to_string(k) +
              " ranks each); map onto a box with as many nodes as ranks / --ranks-per-node");
        for (int task : ranks) {
          out << (first ? "" : ",") << task;
          first = false;
        }
        if (static_cast<int>(ranks.size()) < k) short_ = node;
      }
      out << "\n";
      return out.str();
    }
    case MapFormat::BgqMapfile:  // t: the rank's slot on its node
      if (machine.axisCount() != 5)
        throw InputError("bgq-mapfile needs a 5D machine (A B C D E), not " +
                         std::to_string(machine.axisCount()) + "D");
      for (int task = 0; task < mapping.tasks(); ++task) {
        for (int c : box.coordinatesOf(mapping.nodeOfTask[task])) out << c << " ";
        out << mapping.slotOf(task) << "\n";
      }
      return out.str();
  }
  return out.str();
}

int rankMapRanks(const std::string& path) {
  std::ifstream in = openInputFile(path, "mapping file");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (text.rfind("# tac3map mapping", 0) == 0) return mappingFileRanks(path);
  const std::vector<Line> lines = meaningfulLines(text);
  if (lines.empty()) failIn(path, "empty mapping file");
  const std::string& head = lines.front().text;
  if (head[0] == '{') {
    const json doc = parseJson(text, path);
    const json& ranks = jsonField(doc, "ranks", "top level", path);
    if (!ranks.is_array()) failIn(path, "ranks: expected an array");
    return static_cast<int>(std::min<std::size_t>(ranks.size(), limits::kMaxJobRanks + 1));
  }
  long long probe = 0;
  if (lines.size() == 1 && parseInt(head.substr(0, head.find(',')), probe))  // cray-rank-order
    return static_cast<int>(std::min<std::size_t>(std::count(head.begin(), head.end(), ',') + 1,
                                                  limits::kMaxJobRanks + 1));
  return static_cast<int>(std::min<std::size_t>(lines.size(), limits::kMaxJobRanks + 1));
}

Mapping readRankMap(const std::string& path, const Machine& machine, const Box& box, int tasks,
                    const NodeTable* table, const RankMapOptions& options) {
  std::ifstream in = openInputFile(path, "mapping file");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const int k = options.slotsPerNode;
  if (text.rfind("# tac3map mapping", 0) == 0) return readMapping(path, box, tasks, k);
  const std::vector<Line> lines = meaningfulLines(text);
  if (lines.empty()) failIn(path, "empty mapping file");
  const std::string& head = lines.front().text;
  if (head[0] == '{') return readJson(text, path, box, tasks, k);
  MappingBuilder builder(path, box, tasks, k);
  if (head[0] == '(') {  // fujitsu-vcoord: a rank per line, lowest free slot of its node
    const auto logical = logicalCoordinates(machine, box, table);
    std::map<std::vector<int>, int> nodeAt;
    for (int node = 0; node < box.nodeCount; ++node)
      if (!logical[node].empty()) nodeAt[logical[node]] = node;
    long long rank = 0;
    for (const Line& line : lines) {
      if (line.text.front() != '(' || line.text.back() != ')')
        failAt(path, line.number, "expected '(x,y,z)'");
      const auto c = parseInts(line.text.substr(1, line.text.size() - 2), ',', path, line.number,
                               "logical coordinates");
      const auto it = nodeAt.find(c);
      if (it == nodeAt.end())
        failAt(path, line.number, "no node of the box has logical coordinates " + line.text);
      builder.place(rank++, it->second, line.number);
    }
    return builder.finish();
  }
  if (head.rfind("rank ", 0) == 0) {  // openmpi-rankfile
    const auto byHost = nodesByHost(machine, table, "openmpi-rankfile", path);
    // Slot lists decode with the K, C, S and binding the file was written with (its first
    // comment), else with the options and the machine file; with one rank per node the slot
    // field is not read.
    const RankMapOptions written = readWrittenWith(text, MapFormat::OpenmpiRankfile,
                                                   withMachineDefaults(options, machine), path);
    std::optional<RankfileSlots> slots;
    if (k > 1) slots.emplace(written);
    for (const Line& line : lines) {
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
  const bool bgq = machine.axisCount() == 5 && std::count(head.begin(), head.end(), ' ') >= 5;
  if (bgq) {  // 'a b c d e t', t the slot
    long long rank = 0;
    for (const Line& line : lines) {
      std::istringstream words(line.text);
      std::vector<int> c;
      std::string word;
      while (words >> word) {
        long long value = 0;
        if (!parseInt(word, value)) failAt(path, line.number, "expected 'a b c d e t'");
        c.push_back(static_cast<int>(value));
      }
      if (c.size() != 6 || c[5] < 0)
        failAt(path, line.number, "expected 'a b c d e t' (t: the rank's slot, 0..K-1)");
      const int slot = c[5];
      c.pop_back();
      for (int a = 0; a < 5; ++a)
        if (c[a] < 0 || c[a] >= box.shape[a])
          failAt(path, line.number, "coordinates outside the box " + box.shapeText());
      builder.place(rank++, box.nodeAt(c), line.number, slot);
    }
    return builder.finish();
  }
  long long probe = 0;
  const std::string firstWord = head.substr(0, head.find(','));
  if (lines.size() == 1 && parseInt(firstWord, probe)) {  // cray-rank-order
    // K ranks per node in node order (K from the file's comment, else the options).
    const int perNode = readWrittenWith(text, MapFormat::CrayRankOrder, options, path).slotsPerNode;
    if (perNode > k)
      failAt(path, 1,
             "written for " + std::to_string(perNode) +
                 " ranks per node, more than "
                 "--ranks-per-node " +
                 std::to_string(k));
    const auto ranks = parseInts(head, ',', path, lines.front().number, "rank order");
    const std::vector<int> order = nodeOrder(box, table);
    if (ranks.size() > order.size() * perNode)
      failAt(path, lines.front().number, "more ranks than the job's nodes hold");
    for (std::size_t i = 0; i < ranks.size(); ++i)
      builder.place(ranks[i], order[i / perNode], lines.front().number,
                    k > 1 ? static_cast<long long>(i % perNode) : -1);
    return builder.finish();
  }
  // slurm-hostfile: a host per line, in rank order; lowest free slot of its node.
  const auto byHost = nodesByHost(machine, table, "slurm-hostfile", path);
  long long rank = 0;
  for (const Line& line : lines)
    builder.place(rank++, hostNode(byHost, line.text, path, line.number), line.number);
  return builder.finish();
}

}  // namespace tac3map
