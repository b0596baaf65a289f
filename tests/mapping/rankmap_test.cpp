// Rank-map formats: every writer's output reads back as the same mapping (through the
// content-sniffing reader), node tables map machine coordinates into the box, and bad files
// fail with file:line.
#include "tac3map/mapping/rankmap.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tac3map/io/error.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

namespace fs = std::filesystem;

class RankMap : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tac3map-rankmap-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string file(const std::string& name, const std::string& text) {
    const fs::path path = dir_ / name;
    std::ofstream(path) << text;
    return path.string();
  }
  // A node table for every node of the box, machine coordinates, hosts "h<node>", logical
  // coordinates (node, 0, 1), lines in reverse node order.
  std::string table(const Machine& machine, const Box& box) {
    std::string text = "# the job's nodes\n";
    for (int node = box.nodeCount - 1; node >= 0; --node) {
      const std::vector<int> c = box.coordinatesOf(node);
      for (int a = 0; a < box.axisCount(); ++a)
        text += std::to_string((c[a] + box.offset[a]) % machine.axes[a].size) + " ";
      text += "host=h" + std::to_string(node) + " logical=" + std::to_string(node) + ",0,1\n";
    }
    return file("nodes.txt", text);
  }
  // The error readRankMap gives for `text`, less the file's directory ("" if it reads).
  std::string errorOf(const std::string& text, const Machine& machine, const Box& box, int tasks,
                      const NodeTable* t, const RankMapOptions& options) {
    const std::string path = file("bad.map", text);
    try {
      readRankMap(path, machine, box, tasks, t, options);
    } catch (const InputError& e) {
      const std::string message = e.what();
      return message.rfind(path, 0) == 0 ? message.substr(path.size()) : message;
    }
    return "";
  }
  fs::path dir_;
};

// What a launcher that only lists each rank's node does with several ranks on one node: they
// take the node's slots 0, 1, ... in rank order.
std::vector<int> slotsInRankOrder(const Mapping& m, const Box& box) {
  if (m.slotOfTask.empty()) return {};
  std::vector<int> next(box.nodeCount, 0), slots(m.tasks());
  for (int task = 0; task < m.tasks(); ++task) slots[task] = next[m.nodeOfTask[task]]++;
  return slots;
}

// Whether the mapping's slots on every node are 0, 1, ... in rank order already.
bool slotsFollowRankOrder(const Mapping& m, const Box& box) {
  return slotsInRankOrder(m, box) == m.slotOfTask;
}

TEST_F(RankMap, EveryFormatReadsBackAsTheSameMapping) {
  const Machine fx10 = testing::fx10();
  const Box box = makeBox(fx10, "2x2x2x2x3x2", "2,0,3,0,0,0");
  const NodeTable nodes = readNodeTable(table(fx10, box), fx10, box);
  ASSERT_EQ(nodes.nodes.front(), box.nodeCount - 1);
  for (int tasks : {64, 96}) {
    const Mapping m = randomMapping(tasks, box, 11);
    for (MapFormat format :
         {MapFormat::Coords, MapFormat::Json, MapFormat::FujitsuVcoord, MapFormat::OpenmpiRankfile,
          MapFormat::SlurmHostfile, MapFormat::CrayRankOrder}) {
      SCOPED_TRACE(std::string(mapFormatName(format)) + " " + std::to_string(tasks));
      if (format == MapFormat::CrayRankOrder && tasks < box.nodeCount) {
        EXPECT_THROW(writeRankMap(format, m, fx10, box, &nodes), InputError);
        continue;
      }
      const std::string path = file("m.txt", writeRankMap(format, m, fx10, box, &nodes));
      EXPECT_EQ(readRankMap(path, fx10, box, tasks, &nodes).nodeOfTask, m.nodeOfTask);
    }
    // Without a table: vcoord uses the Tofu logical view, the rank order the box order.
    const std::string vcoord =
        file("v.txt", writeRankMap(MapFormat::FujitsuVcoord, m, fx10, box, nullptr));
    EXPECT_EQ(readRankMap(vcoord, fx10, box, tasks, nullptr).nodeOfTask, m.nodeOfTask);
    EXPECT_THROW(writeRankMap(MapFormat::SlurmHostfile, m, fx10, box, nullptr), InputError);
  }
}

TEST_F(RankMap, EveryFormatRoundTripsSeveralRanksPerNode) {
  const Machine fx10 = testing::fx10();
  const Box box = makeBox(fx10, "2x2x2x2x3x2", "2,0,3,0,0,0");
  const NodeTable nodes = readNodeTable(table(fx10, box), fx10, box);
  for (int k : {1, 2, 4})
    for (int tasks : {box.nodeCount * k, box.nodeCount * k - 5 * k - 1}) {
      const Mapping m = randomMapping(tasks, box, 100 + k, k);
      ASSERT_EQ(m.slotOfTask.size(), k > 1 ? static_cast<std::size_t>(tasks) : 0u);
      if (k > 1) {
        ASSERT_FALSE(slotsFollowRankOrder(m, box));  // so renumbering would show
      }
      for (MapFormat format :
           {MapFormat::Coords, MapFormat::Json, MapFormat::FujitsuVcoord,
            MapFormat::OpenmpiRankfile, MapFormat::SlurmHostfile, MapFormat::CrayRankOrder})
        for (int cores : {0, 48}) {
          if (cores > 0 && format != MapFormat::OpenmpiRankfile) continue;
          SCOPED_TRACE(std::string(mapFormatName(format)) + ", K " + std::to_string(k) + ", " +
                       std::to_string(tasks) + " tasks, C " + std::to_string(cores));
          const RankMapOptions written{k, cores};
          if (format == MapFormat::CrayRankOrder && tasks < box.nodeCount * k) {
            EXPECT_THROW(writeRankMap(format, m, fx10, box, &nodes, written), InputError);
            continue;
          }
          const std::string text = writeRankMap(format, m, fx10, box, &nodes, written);
          const std::string path = file("m.txt", text);
          // The reader learns C from the rank file's first comment: only K is given.
          const Mapping back = readRankMap(path, fx10, box, tasks, &nodes, {k, 0});
          EXPECT_EQ(back.nodeOfTask, m.nodeOfTask);
          const bool carriesSlots =
              format != MapFormat::FujitsuVcoord && format != MapFormat::SlurmHostfile;
          EXPECT_EQ(back.slotOfTask, carriesSlots ? m.slotOfTask : slotsInRankOrder(m, box));
          // Formats with a line per rank repeat a node once per rank on it.
          if (format == MapFormat::FujitsuVcoord || format == MapFormat::SlurmHostfile) {
            EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), tasks);
          }
        }
    }
}

TEST_F(RankMap, JsonCarriesSlotsOnlyWithSeveralRanksPerNode) {
  const Machine fx10 = testing::fx10();
  const Box box = makeBox(fx10, "2x2x2x2x3x2");
  const std::string one =
      writeRankMap(MapFormat::Json, identityMapping(3, box), fx10, box, nullptr);
  EXPECT_EQ(one.find("slot"), std::string::npos);
  const Mapping m = roundRobinMapping(5, box, 2);  // 3 nodes: ranks 0-2 slot 0, 3-4 slot 1
  const std::string two = writeRankMap(MapFormat::Json, m, fx10, box, nullptr, {2, 0});
  const nlohmann::json doc = nlohmann::json::parse(two);
  ASSERT_EQ(doc["ranks"].size(), 5u);
  for (int task = 0; task < 5; ++task) EXPECT_EQ(doc["ranks"][task]["slot"], m.slotOf(task));
  EXPECT_EQ(doc["ranks_per_node"], 2);
}

TEST_F(RankMap, RankfileGivesEachSlotItsShareOfTheCores) {
  // Slot s of K on C cores: s*C/K .. (s+1)*C/K - 1; the K ranges tile 0..C-1, none empty.
  for (int k : {1, 2, 3, 4, 5, 12, 48})
    for (int c : {48, 50, 52, 7, 5}) {
      if (c < k) continue;
      int next = 0;
      for (int s = 0; s < k; ++s) {
        const auto [first, last] = slotCores(s, {k, c});
        EXPECT_EQ(first, next) << k << " " << c << " " << s;
        EXPECT_LE(first, last) << k << " " << c << " " << s;
        next = last + 1;
      }
      EXPECT_EQ(next, c) << k << " " << c;
    }
  EXPECT_EQ(slotCores(3, {4, 0}), std::make_pair(3, 3));  // C unknown: core s

  // FX10 without its machine file's cores_per_node: C is what the options say.
  Machine fx10 = testing::fx10();
  fx10.coresPerNode = 0;
  const Box box = makeBox(fx10, "2x2x2x2x3x2");
  const NodeTable nodes = readNodeTable(table(fx10, box), fx10, box);
  const Mapping m = identityMapping(6, box, 3);  // ranks 0-2 on node 0, 3-5 on node 1
  const auto lines = [&](const RankMapOptions& options) {
    return writeRankMap(MapFormat::OpenmpiRankfile, m, fx10, box, &nodes, options);
  };
  // 8 cores for 3 slots: 0..8/3-1 = 0-1, 8/3..16/3-1 = 2-4, 16/3..8-1 = 5-7.
  EXPECT_EQ(lines({3, 8}),
            "# tac3map openmpi-rankfile --ranks-per-node 3 --cores-per-node 8 --bind core\n"
            "rank 0=h0 slot=0-1\nrank 1=h0 slot=2-4\nrank 2=h0 slot=5-7\n"
            "rank 3=h1 slot=0-1\nrank 4=h1 slot=2-4\nrank 5=h1 slot=5-7\n");
  // 3 cores for 3 slots, or C unknown: slot s is core s.
  const std::string single =
      "rank 0=h0 slot=0\nrank 1=h0 slot=1\nrank 2=h0 slot=2\n"
      "rank 3=h1 slot=0\nrank 4=h1 slot=1\nrank 5=h1 slot=2\n";
  EXPECT_EQ(
      lines({3, 3}),
      "# tac3map openmpi-rankfile --ranks-per-node 3 --cores-per-node 3 --bind core\n" + single);
  EXPECT_EQ(lines({3, 0}), "# tac3map openmpi-rankfile --ranks-per-node 3 --bind core\n" + single);
  // One rank per node: all of the node's cores, or core 0.
  EXPECT_EQ(
      writeRankMap(MapFormat::OpenmpiRankfile, identityMapping(1, box), fx10, box, &nodes, {1, 48}),
      "# tac3map openmpi-rankfile --ranks-per-node 1 --cores-per-node 48 --bind core\nrank 0=h0 "
      "slot=0-47\n");
  try {
    lines({3, 2});
    ADD_FAILURE() << "2 cores for 3 slots accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "openmpi-rankfile: cores per node 2 is less than ranks per node 3 (every rank "
              "needs a core of its own; or bind socket|none)");
  }
  // A mapping with more ranks on a node than K slots is not written.
  EXPECT_THROW(lines({2, 0}), InputError);
}

// The slot lists of a rank file, line by line (after "slot="), and its first line.
std::vector<std::string> slotLists(const std::string& text, std::string* header = nullptr) {
  std::istringstream in(text);
  std::vector<std::string> lists;
  std::string line;
  std::getline(in, line);
  if (header) *header = line;
  while (std::getline(in, line)) lists.push_back(line.substr(line.find(" slot=") + 6));
  return lists;
}

// The cores of "a" or "a-b".
std::pair<int, int> coreRange(const std::string& list) {
  const auto dash = list.find('-');
  const int first = std::stoi(list.substr(0, dash));
  return {first, dash == std::string::npos ? first : std::stoi(list.substr(dash + 1))};
}

// Slots as a reader gives them when several slots share a slot list: on each node, the
// ranks of one group (`group` of their slot) take the group's slots in rank order.
std::vector<int> slotsWithinGroups(const Mapping& m, int k, int (*group)(int slot, int k)) {
  std::map<std::pair<int, int>, std::vector<int>> free;  // (node, group) -> its slots
  for (int task = 0; task < m.tasks(); ++task) {
    auto& slots = free[{m.nodeOfTask[task], group(m.slotOf(task), k)}];
    if (slots.empty())
      for (int s = k - 1; s >= 0; --s)
        if (group(s, k) == group(m.slotOf(task), k)) slots.push_back(s);
  }
  std::vector<int> result(m.tasks());
  for (int task = 0; task < m.tasks(); ++task) {
    auto& slots = free[{m.nodeOfTask[task], group(m.slotOf(task), k)}];
    result[task] = slots.back();
    slots.pop_back();
  }
  return result;
}

TEST_F(RankMap, RankfileBindsEverySlotToItsOwnCoresSocketsOrTheWholeNode) {
  // A node of 48 cores on 2 sockets (the machine file's figures), K = 1, 2 and 4 ranks each.
  Machine machine = testing::fx10();
  machine.coresPerNode = 48;
  machine.socketsPerNode = 2;
  const Box box = makeBox(machine, "2x2x2x2x3x2");
  const NodeTable nodes = readNodeTable(table(machine, box), machine, box);
  for (int k : {1, 2, 4}) {
    const Mapping m = randomMapping(40 * k, box, 7 + k, k);
    for (RankfileBind bind : {RankfileBind::Core, RankfileBind::Socket, RankfileBind::None}) {
      SCOPED_TRACE(std::string("K ") + std::to_string(k) + ", --bind " + rankfileBindName(bind));
      RankMapOptions options{k, 0, 0, bind};
      const std::string text =
          writeRankMap(MapFormat::OpenmpiRankfile, m, machine, box, &nodes, options);
      std::string header;
      const std::vector<std::string> lists = slotLists(text, &header);
      ASSERT_EQ(lists.size(), static_cast<std::size_t>(m.tasks()));
      // Every node's ranks: which cores (core) or sockets (socket) each slot got.
      std::map<int, std::vector<std::pair<int, std::string>>> ofNode;  // node -> (slot, list)
      for (int task = 0; task < m.tasks(); ++task)
        ofNode[m.nodeOfTask[task]].push_back({m.slotOf(task), lists[task]});
      if (bind == RankfileBind::Core) {
        EXPECT_EQ(header, "# tac3map openmpi-rankfile --ranks-per-node " + std::to_string(k) +
                              " --cores-per-node 48 --bind core");
        for (const auto& [node, slots] : ofNode)
          for (const auto& [slot, list] : slots) {
            // 48 / K cores each, in slot order: slot s starts at core s * 48 / K.
            const auto [first, last] = coreRange(list);
            EXPECT_EQ(last - first + 1, 48 / k) << list;
            EXPECT_EQ(first, slot * (48 / k)) << list;
          }
      } else if (bind == RankfileBind::Socket) {
        EXPECT_EQ(header, "# tac3map openmpi-rankfile --ranks-per-node " + std::to_string(k) +
                              " --cores-per-node 48 --sockets-per-node 2 --bind socket");
        // One rank: both sockets; two: one socket each; four: two ranks on each socket.
        for (const auto& [node, slots] : ofNode)
          for (const auto& [slot, list] : slots)
            EXPECT_EQ(list, k == 1   ? "0:*,1:*"
                            : k == 2 ? std::to_string(slot) + ":*"
                                     : std::to_string(slot / 2) + ":*");
      } else {
        EXPECT_EQ(header, "# tac3map openmpi-rankfile --ranks-per-node " + std::to_string(k) +
                              " --cores-per-node 48 --bind none");
        for (const std::string& list : lists) EXPECT_EQ(list, "0-47");
      }
      // Read back with K alone: the comment says the rest. Slots sharing a list come back in
      // rank order within what they share.
      const Mapping back =
          readRankMap(file("r.rankfile", text), machine, box, m.tasks(), &nodes, {k, 0});
      EXPECT_EQ(back.nodeOfTask, m.nodeOfTask);
      if (k == 1) continue;
      if (bind == RankfileBind::Core || (bind == RankfileBind::Socket && k <= 2)) {
        EXPECT_EQ(back.slotOfTask, m.slotOfTask);
      } else if (bind == RankfileBind::Socket) {
        EXPECT_NE(back.slotOfTask, m.slotOfTask);  // the mapping is random enough to show it
        EXPECT_EQ(back.slotOfTask,
                  slotsWithinGroups(m, k, [](int slot, int kk) { return slot * 2 / kk; }));
      } else {
        EXPECT_EQ(back.slotOfTask, slotsInRankOrder(m, box));
      }
    }
  }
}

TEST_F(RankMap, RankfileBindingWithoutKnownCoresOrSockets) {
  Machine machine = testing::fx10();
  machine.coresPerNode = 0;
  const Box box = makeBox(machine, "2x2x2x2x3x2");
  const NodeTable nodes = readNodeTable(table(machine, box), machine, box);
  const Mapping m = identityMapping(4, box, 2);  // ranks 0, 1 on node 0; 2, 3 on node 1
  const auto write = [&](const RankMapOptions& options) {
    return writeRankMap(MapFormat::OpenmpiRankfile, m, machine, box, &nodes, options);
  };
  // Cores unknown: one core per slot, slot s on core s.
  EXPECT_EQ(slotLists(write({2, 0})), (std::vector<std::string>{"0", "1", "0", "1"}));
  // Sockets unknown (the machine file says 1): every slot on socket 0.
  machine.socketsPerNode = 0;
  EXPECT_EQ(slotLists(write({2, 0, 0, RankfileBind::Socket})),
            (std::vector<std::string>{"0:*", "0:*", "0:*", "0:*"}));
  EXPECT_EQ(slotLists(write({2, 0, 4, RankfileBind::Socket})),
            (std::vector<std::string>{"0:*,1:*", "2:*,3:*", "0:*,1:*", "2:*,3:*"}));
  // --bind none must name the whole node, which needs its cores.
  try {
    write({2, 0, 0, RankfileBind::None});
    ADD_FAILURE() << "--bind none without cores written";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "openmpi-rankfile bind none needs the node's cores (cores per node C, or "
              "\"cores_per_node\" in the machine file): Open MPI binds every rank of a rank "
              "file, so none binds each to all of its node's cores");
  }
  EXPECT_EQ(slotLists(write({2, 1, 0, RankfileBind::None})),
            (std::vector<std::string>{"0", "0", "0", "0"}));
  // A rank file without tac3map's comment is decoded with the machine file's cores.
  machine.coresPerNode = 8;
  const Mapping plain = readRankMap(
      file("plain.rankfile", "rank 0=h1 slot=4-7\nrank 1=h1 slot=0-3\nrank 2=h0 slot=0-3\n"),
      machine, box, 3, &nodes, {2, 0});
  EXPECT_EQ(plain.nodeOfTask, (std::vector<int>{1, 1, 0}));
  EXPECT_EQ(plain.slotOfTask, (std::vector<int>{1, 0, 0}));
  // The comment's options in any order; a rank file from before --bind bound by core.
  const auto error = [&](const std::string& text) {
    return errorOf(text, machine, box, 2, &nodes, {2, 0});
  };
  EXPECT_EQ(
      error("# tac3map openmpi-rankfile --ranks-per-node 2 --bind socket --sockets-per-node 2\n"
            "rank 0=h1 slot=1:*\nrank 1=h1 slot=0:*\n"),
      "");
  EXPECT_EQ(error("# tac3map openmpi-rankfile --ranks-per-node 2 --cores-per-node 8\n"
                  "rank 0=h1 slot=4-7\nrank 1=h1 slot=0-3\n"),
            "");
  EXPECT_EQ(error("# tac3map openmpi-rankfile --ranks-per-node 2 --sockets-per-node 2 --bind "
                  "socket\nrank 0=h1 slot=0:0-2\nrank 1=h1 slot=0:*\n"),
            ":2: 'slot=0:0-2' is not the sockets of a slot (bind socket, 2 ranks on 2 sockets: "
            "slot s has sockets s*S/K..(s+1)*S/K-1, each written 'N:*')");
  EXPECT_EQ(error("# tac3map openmpi-rankfile --ranks-per-node 2 --cores-per-node 8 --bind none\n"
                  "rank 0=h1 slot=0-7\nrank 1=h1 slot=0-3\n"),
            ":3: 'slot=0-3' is not the whole node (bind none on 8 cores: slot=0-7)");
  EXPECT_EQ(error("# tac3map openmpi-rankfile --ranks-per-node 2 --bind none\nrank 0=h1 slot=0\n"),
            ":1: --bind none needs --cores-per-node C (its slot lists are the whole node)");
  EXPECT_NE(error("# tac3map openmpi-rankfile --ranks-per-node 2 --bind all\nrank 0=h1 slot=0\n")
                .find(":1: expected `# tac3map openmpi-rankfile --ranks-per-node K"),
            std::string::npos);
  EXPECT_NE(error("# tac3map openmpi-rankfile --ranks-per-node 2 --bind core --bind none\n"
                  "rank 0=h1 slot=0\n")
                .find(":1: expected"),
            std::string::npos);
  EXPECT_EQ(parseRankfileBind("socket"), RankfileBind::Socket);
  EXPECT_THROW(parseRankfileBind("numa"), InputError);
}

TEST_F(RankMap, CrayRankOrderFillsNodesKAtATime) {
  const Machine fx10 = testing::fx10();
  const Box box = makeBox(fx10, "2x1x1x1x1x1");  // nodes 0 and 1, box order
  // K = 2: the first two listed ranks on node 0 (slots 0, 1), the next two on node 1.
  const std::string path =
      file("order.txt", "# tac3map cray-rank-order --ranks-per-node 2\n3,0,1,2\n");
  const Mapping read = readRankMap(path, fx10, box, 4, nullptr, {2, 0});
  EXPECT_EQ(read.nodeOfTask, (std::vector<int>{0, 1, 1, 0}));
  EXPECT_EQ(read.slotOfTask, (std::vector<int>{1, 0, 1, 0}));
  EXPECT_EQ(writeRankMap(MapFormat::CrayRankOrder, read, fx10, box, nullptr, {2, 0}),
            "# tac3map cray-rank-order --ranks-per-node 2\n3,0,1,2\n");
  // Without the comment the options' K groups the ranks.
  const Mapping plain = readRankMap(file("plain.txt", "3,0,1,2\n"), fx10, box, 4, nullptr, {2, 0});
  EXPECT_EQ(plain.nodeOfTask, read.nodeOfTask);
  EXPECT_EQ(plain.slotOfTask, read.slotOfTask);
  // The last used node may hold fewer than K ranks: listed in slot order, they read back
  // from slot 0 (rank 1, alone in slot 1 of node 1, comes back in slot 0).
  const Mapping partial({0, 1, 0}, {1, 1, 0});
  const std::string text =
      writeRankMap(MapFormat::CrayRankOrder, partial, fx10, box, nullptr, {2, 0});
  EXPECT_EQ(text, "# tac3map cray-rank-order --ranks-per-node 2\n2,0,1\n");
  const Mapping back = readRankMap(file("partial.txt", text), fx10, box, 3, nullptr, {2, 0});
  EXPECT_EQ(back.nodeOfTask, partial.nodeOfTask);
  EXPECT_EQ(back.slotOfTask, (std::vector<int>{1, 0, 0}));
  // Node 0 holding 2 of 4 ranks before the used node 1: MPICH would fill node 0 first.
  EXPECT_THROW(writeRankMap(MapFormat::CrayRankOrder, Mapping({0, 1, 0}, {0, 0, 1}), fx10, box,
                            nullptr, {4, 0}),
               InputError);
}

TEST_F(RankMap, BlueGeneMapfileOnAFiveDimensionalMachine) {
  const Machine bgq = testing::simpleMachine({4, 4, 4, 4, 2}, {true, true, true, true, true});
  const Box box = makeBox(bgq, "2x2x4x4x2");
  const Mapping m = randomMapping(100, box, 3);
  const std::string path =
      file("bgq.map", writeRankMap(MapFormat::BgqMapfile, m, bgq, box, nullptr));
  EXPECT_EQ(readRankMap(path, bgq, box, 100, nullptr).nodeOfTask, m.nodeOfTask);
  // t is the rank's slot on its node.
  for (int k : {2, 4}) {
    const Mapping slots = randomMapping(100 * k, box, 5 + k, k);
    const std::string text = writeRankMap(MapFormat::BgqMapfile, slots, bgq, box, nullptr, {k, 0});
    std::istringstream first(text);
    std::vector<int> c(6);
    for (int& x : c) first >> x;
    EXPECT_EQ(c[5], slots.slotOf(0));
    const Mapping back = readRankMap(file("bgq.map", text), bgq, box, 100 * k, nullptr, {k, 0});
    EXPECT_EQ(back.nodeOfTask, slots.nodeOfTask);
    EXPECT_EQ(back.slotOfTask, slots.slotOfTask);
  }
  const Machine fx10 = testing::fx10();
  EXPECT_THROW(writeRankMap(MapFormat::BgqMapfile, identityMapping(4, makeBox(fx10, "2x2x2x2x3x2")),
                            fx10, makeBox(fx10, "2x2x2x2x3x2"), nullptr),
               InputError);
}

TEST_F(RankMap, BadFilesNameTheLine) {
  const Machine fx10 = testing::fx10();
  const Box box = makeBox(fx10, "2x2x2x2x3x2");
  const NodeTable nodes = readNodeTable(table(fx10, box), fx10, box);
  const auto fails = [&](const std::string& text, const std::string& expected, const NodeTable* t) {
    const std::string path = file("bad.map", text);
    try {
      readRankMap(path, fx10, box, 2, t);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  };
  fails("rank 0=h1 slot=0\nrank 0=h2 slot=0\n", "bad.map:2: rank 0 placed twice", &nodes);
  fails("rank 0=h1 slot=0\nrank 1=nowhere slot=0\n", "bad.map:2: host 'nowhere' is not in", &nodes);
  fails("h1\nh1\n", "bad.map:2: rank 1 is on the node of rank 0", &nodes);
  fails("h1\nh2\n", "needs the node table", nullptr);
  fails("(0,0,1)\n(7,7,7)\n", "bad.map:2: no node of the box has logical coordinates (7,7,7)",
        &nodes);
  fails("1,0,5\n", "bad.map:1: rank 5 is outside 0..1", nullptr);
  fails("{\"ranks\": [{\"rank\": 0}]}", "ranks[0]: missing field \"coordinates\"", nullptr);
  fails("h1\n", "rank 1 has no line", &nodes);

  const auto tableFails = [&](const std::string& text, const std::string& expected) {
    try {
      readNodeTable(file("t.txt", text), fx10, box);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  };
  tableFails("0 0 0 0 0 0\n3 0 0 0 0 0 host=x\n", "t.txt:2: node is not in the box");
  tableFails("0 0 0 0 0 0\n0 0 0 0 0 0\n", "t.txt:2: node listed twice (also line 1)");
  tableFails("0 0 0 0 0\n", "t.txt:1: expected 6 machine coordinates");
  tableFails("0 0 0 0 0 0 rack=7\n", "t.txt:1: unexpected 'rack=7'");
}

TEST_F(RankMap, SlotErrorsNameTheLine) {
  Machine fx10 = testing::fx10();
  fx10.coresPerNode = 0;  // a rank file without its comment and C unknown: slot=s is slot s
  const Box box = makeBox(fx10, "2x2x2x2x3x2");
  const NodeTable nodes = readNodeTable(table(fx10, box), fx10, box);
  const RankMapOptions two{2, 0};
  const auto error = [&](const std::string& text, int tasks, const RankMapOptions& options) {
    return errorOf(text, fx10, box, tasks, &nodes, options);
  };
  const std::string full =
      ": rank 2: its node already holds 2 ranks (ranks per node 2), e.g. rank 0";
  // A node with more than K ranks, in every format.
  EXPECT_EQ(error("rank 0=h1 slot=0\nrank 1=h1 slot=1\nrank 2=h1\n", 3, two), ":3" + full);
  EXPECT_EQ(error("h1\nh1\nh1\n", 3, two), ":3" + full);
  EXPECT_EQ(error("(1,0,1)\n(1,0,1)\n(1,0,1)\n", 3, two), ":3" + full);
  EXPECT_EQ(error("{\"ranks\": [{\"rank\": 0, \"coordinates\": [0,0,0,0,0,0]}, {\"rank\": 1, "
                  "\"coordinates\": [0,0,0,0,0,0]}, {\"rank\": 2, \"coordinates\": "
                  "[0,0,0,0,0,0]}]}",
                  3, two),
            ":3" + full);
  EXPECT_EQ(error("# tac3map cray-rank-order --ranks-per-node 4\n0,1,2\n", 3, two),
            ":1: written for 4 ranks per node, more than ranks per node 2");
  // Two ranks claiming one slot.
  EXPECT_EQ(error("rank 0=h1 slot=1\nrank 1=h1 slot=1\n", 2, two),
            ":2: rank 1 is in slot 1 of the node of rank 0");
  EXPECT_EQ(error("{\"ranks\": [{\"rank\": 0, \"coordinates\": [0,0,0,0,0,0], \"slot\": 1}, "
                  "{\"rank\": 1, \"coordinates\": [0,0,0,0,0,0], \"slot\": 1}]}",
                  2, two),
            ":2: rank 1 is in slot 1 of the node of rank 0");
  // Slots outside 0..K-1, and core ranges that are no slot's.
  EXPECT_EQ(error("rank 0=h1 slot=5\nrank 1=h2\n", 2, two),
            ":1: rank 0: slot 5 is outside 0..1 (ranks per node 2)");
  EXPECT_EQ(error("rank 0=h1 slot=0-3\nrank 1=h2\n", 2, two),
            ":1: 'slot=0-3' is a core range: give cores per node to tell which slot it is (slot "
            "s of K has cores s*C/K..(s+1)*C/K-1)");
  EXPECT_EQ(error("rank 0=h1 slot=0-3\nrank 1=h2\n", 2, {2, 8}), "");  // cores 0-3: slot 0
  EXPECT_EQ(error("# tac3map openmpi-rankfile --ranks-per-node 2 --cores-per-node 8\n"
                  "rank 0=h1 slot=4-7\nrank 1=h1 slot=0-2\n",
                  2, two),
            ":3: 'slot=0-2' is not the cores of a slot (2 ranks on 8 cores: slot s has cores "
            "s*C/K..(s+1)*C/K-1)");
  EXPECT_EQ(error("rank 0=h1 slot=1:0-2\nrank 1=h2\n", 2, two),
            ":1: 'slot=1:0-2': expected slot=<core> or slot=<first>-<last> (a core range)");
  EXPECT_EQ(error("# tac3map openmpi-rankfile --ranks-per-node two\nrank 0=h1 slot=0\n", 1, two),
            ":1: expected `# tac3map openmpi-rankfile --ranks-per-node K [--cores-per-node C] "
            "[--sockets-per-node S] [--bind core|socket|none]`, not '# tac3map openmpi-rankfile "
            "--ranks-per-node two'");
  EXPECT_EQ(error("# tac3map openmpi-rankfile --ranks-per-node 4 --cores-per-node 2\n"
                  "rank 0=h1 slot=0\n",
                  1, two),
            ":1: 2 cores per node cannot hold 4 ranks of a core each");
  EXPECT_EQ(
      error("{\"ranks\": [{\"rank\": 0, \"coordinates\": [0,0,0,0,0,0], \"slot\": -1}]}", 1, two),
      ": ranks[0].slot: expected an integer from 0 to 2147483647, got -1");
  // With one rank per node the rank file's slot field is not read (any binding goes).
  EXPECT_EQ(error("rank 0=h1 slot=5\nrank 1=h2 slot=1:0-2\n", 2, {1, 0}), "");
  EXPECT_EQ(error("rank 0=h1 slot=5\nrank 1=h1 slot=7\n", 2, {1, 0}),
            ":2: rank 1 is on the node of rank 0");
}

}  // namespace
}  // namespace tac3map
