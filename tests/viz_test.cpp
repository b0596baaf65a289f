// The SVG pictures: the layout places every node once, the document is well-formed XML, and
// each panel carries exactly the link loads of its CCS (or their per-link maximum).
#include "tac3map/output/viz.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <sstream>

#include "tac3map/gen/cg_pattern.hpp"
#include "tac3map/io/trace.hpp"
#include "tac3map/model/ccs.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

// A small XML well-formedness check: tags nest and close, attributes are quoted, the only
// entities are the five predefined ones, one root element.
bool wellFormed(const std::string& xml, std::string& why) {
  std::vector<std::string> open;
  std::size_t i = 0, roots = 0;
  if (xml.rfind("<?xml", 0) == 0) i = xml.find("?>") + 2;
  while (i < xml.size()) {
    if (xml[i] == '&') {
      const std::size_t end = xml.find(';', i);
      const std::string entity = xml.substr(i, end == std::string::npos ? 1 : end - i + 1);
      if (!std::regex_match(entity, std::regex("&(amp|lt|gt|quot|apos);"))) {
        why = "bad entity " + entity;
        return false;
      }
      i = end + 1;
      continue;
    }
    if (xml[i] != '<') {
      if (open.empty() && !std::isspace(static_cast<unsigned char>(xml[i]))) {
        why = "text outside the root";
        return false;
      }
      ++i;
      continue;
    }
    const std::size_t end = xml.find('>', i);
    if (end == std::string::npos) {
      why = "unclosed tag";
      return false;
    }
    const std::string tag = xml.substr(i + 1, end - i - 1);
    i = end + 1;
    if (tag.empty()) {
      why = "empty tag";
      return false;
    }
    if (tag[0] == '/') {
      if (open.empty() || open.back() != tag.substr(1)) {
        why = "</" + tag.substr(1) + "> does not close <" + (open.empty() ? "" : open.back()) + ">";
        return false;
      }
      open.pop_back();
      continue;
    }
    static const std::regex element(R"(([A-Za-z][\w-]*)(\s+[\w:-]+="[^"<]*")*\s*(/?))");
    std::smatch m;
    if (!std::regex_match(tag, m, element)) {
      why = "malformed tag <" + tag.substr(0, 60) + ">";
      return false;
    }
    if (open.empty()) ++roots;
    if (m[3].length() == 0) open.push_back(m[1]);
  }
  if (!open.empty()) why = "<" + open.back() + "> not closed";
  if (roots != 1) why = "expected one root element";
  return open.empty() && roots == 1;
}

struct Cg64 {
  Machine machine = testing::fx10();
  Box box = makeBox(machine, "2x2x2x2x3x2");
  Network router{machine, box};
  Problem problem = generateCgProblem(CgOptions{});  // 64 ranks
};

TEST(Viz, LayoutPlacesEveryNodeOnceTofuOuterAxesOutside) {
  const Cg64 cg;
  const GridLayout layout = gridLayout(cg.machine, cg.box);
  EXPECT_EQ(layout.columnAxes, (std::vector<int>{2, 0, 5, 3}));  // Z, X, C, A
  EXPECT_EQ(layout.rowAxes, (std::vector<int>{1, 4}));           // Y, B
  EXPECT_EQ(layout.columns * layout.rows, cg.box.nodeCount);
  std::set<std::pair<int, int>> used;
  for (const GridPlace& p : layout.place) {
    EXPECT_TRUE(p.column >= 0 && p.column < layout.columns && p.row >= 0 && p.row < layout.rows);
    used.insert({p.column, p.row});
  }
  EXPECT_EQ(used.size(), static_cast<std::size_t>(cg.box.nodeCount));
}

TEST(Viz, SvgIsWellFormedAndCarriesEachCcsLoads) {
  const Cg64 cg;
  const std::vector<VizMapping> mappings = {{"random <7> & co", randomMapping(64, cg.box, 7)},
                                            {"identity", identityMapping(64, cg.box)}};
  const std::string svg = renderSvg(cg.machine, cg.box, cg.router, cg.problem, mappings, {"t"});
  std::string why;
  ASSERT_TRUE(wellFormed(svg, why)) << why;

  // Loads the picture shows, per mapping and panel ("0".."3", "all").
  std::map<std::pair<std::string, std::string>, std::map<LinkId, int>> shown;
  std::map<std::string, std::map<int, int>> tasks;  // mapping -> node -> task (first panel)
  const std::regex panel(R"re(<g class="panel" data-mapping="(\d+)" data-ccs="(\w+)")re");
  const std::regex link(R"re(<path class="link" data-link="(\d+)" data-load="(\d+)")re");
  const std::regex node(R"re(<rect class="node" data-node="(\d+)" data-task="(-?\d+)")re");
  std::string mapping, ccs;
  std::istringstream lines(svg);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_search(line, m, panel)) mapping = m[1], ccs = m[2];
    if (std::regex_search(line, m, link)) shown[{mapping, ccs}][std::stoi(m[1])] = std::stoi(m[2]);
    if (std::regex_search(line, m, node) && ccs == "0")
      tasks[mapping][std::stoi(m[1])] = std::stoi(m[2]);
  }
  for (std::size_t k = 0; k < mappings.size(); ++k) {
    const std::string id = std::to_string(k);
    // Reference: every route walked with the router's plain route(), counted per CCS.
    std::vector<std::map<LinkId, int>> expected(cg.problem.ccsCount);
    std::map<LinkId, int> worst;
    const Mapping& m = mappings[k].mapping;
    for (std::size_t c = 0; c < cg.problem.communicationCount(); ++c)
      for (LinkId l :
           cg.router.route(m.nodeOfTask[cg.problem.src[c]], m.nodeOfTask[cg.problem.dst[c]]))
        ++expected[cg.problem.ccs[c]][l];
    for (int t = 0; t < cg.problem.ccsCount; ++t) {
      EXPECT_EQ((shown[{id, std::to_string(t)}]), expected[t]) << "mapping " << k << " ccs " << t;
      for (const auto& [l, n] : expected[t]) worst[l] = std::max(worst[l], n);
    }
    EXPECT_EQ((shown[{id, "all"}]), worst) << "mapping " << k;
    int busiest = 0;
    for (const auto& [l, n] : worst) busiest = std::max(busiest, n);
    EXPECT_EQ(busiest, evaluateExact(cg.problem, cg.router, m).maxLinkMessages);
    ASSERT_EQ(tasks[id].size(), static_cast<std::size_t>(cg.box.nodeCount));
    for (int task = 0; task < 64; ++task) EXPECT_EQ(tasks[id][m.nodeOfTask[task]], task);
  }
  EXPECT_NE(svg.find("random &lt;7&gt; &amp; co"), std::string::npos);
}

TEST(Viz, WellFormednessCheckCatchesBrokenDocuments) {
  std::string why;
  EXPECT_FALSE(wellFormed("<svg><g></svg>", why));
  EXPECT_FALSE(wellFormed("<svg><text>a & b</text></svg>", why));
  EXPECT_FALSE(wellFormed("<svg x=1></svg>", why));
  EXPECT_TRUE(wellFormed("<svg a=\"1\"><g/><text>&lt;</text></svg>", why)) << why;
}

// Several ranks per node: each node lists its ranks in slot order; free nodes say -1.
TEST(Viz, NodesListTheirRanksInSlotOrder) {
  const Cg64 cg;
  const Mapping block = randomMapping(64, cg.box, 3, 4);  // 64 ranks in 4 slots of 96 nodes
  const std::string svg =
      renderSvg(cg.machine, cg.box, cg.router, cg.problem, {{"k4", block}}, {"t", true});
  std::string why;
  ASSERT_TRUE(wellFormed(svg, why)) << why;
  std::map<int, std::string> expected;
  for (int node = 0; node < cg.box.nodeCount; ++node) {
    std::vector<std::pair<int, int>> bySlot;  // slot, rank
    for (int task = 0; task < 64; ++task)
      if (block.nodeOfTask[task] == node) bySlot.emplace_back(block.slotOf(task), task);
    std::sort(bySlot.begin(), bySlot.end());
    std::string label;
    for (const auto& [slot, rank] : bySlot) {
      if (!label.empty()) label += ',';
      label += std::to_string(rank);
    }
    expected[node] = label.empty() ? "-1" : label;
  }
  const std::regex node(R"re(<rect class="node" data-node="(\d+)" data-task="([-0-9,]+)")re");
  int seen = 0;
  for (std::sregex_iterator it(svg.begin(), svg.end(), node), end; it != end; ++it, ++seen)
    EXPECT_EQ((*it)[2].str(), expected[std::stoi((*it)[1].str())]) << (*it)[0].str();
  EXPECT_EQ(seen, cg.box.nodeCount);  // one aggregate panel
}

}  // namespace
}  // namespace tac3map
