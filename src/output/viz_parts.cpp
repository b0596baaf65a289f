#include "viz_parts.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tac3map::vizparts {

std::string escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", value);
  return buffer;
}

const char* loadColour(int load) {
  if (load <= 1) return "#2a9d4b";
  if (load == 2) return "#f4a300";
  return "#d62828";
}

std::string taskColour(int task) {
  if (task < 0) return "#e4e4e4";
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "hsl(%.0f,55%%,72%%)", std::fmod(task * 137.508, 360.0));
  return buffer;
}

int panelCount(const Problem& problem, const VizOptions& options) {
  return options.aggregateOnly ? 1 : problem.realCcsCount + 1;
}

void writeHeader(std::ostream& svg, double panelWidth, double panelHeight, std::size_t mappings,
                 int panels, const std::string& title, const std::string& layoutNote,
                 const std::string& linkNote) {
  const double width = panelWidth * static_cast<double>(mappings) + 20;
  const double height = kHeaderHeight + panelHeight * panels + 10;
  svg << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << number(width) << "\" height=\""
      << number(height) << "\" viewBox=\"0 0 " << number(width) << " " << number(height)
      << "\" font-family=\"sans-serif\" font-size=\"11\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"10\" y=\"18\" font-size=\"14\" font-weight=\"bold\">" << escaped(title)
      << "</text>\n";
  // Legend: what the layout and the colours mean.
  svg << "<text x=\"10\" y=\"36\">" << layoutNote << "</text>\n";
  const char* legend[] = {"1 message", "2 messages", "3 or more: contention"};
  for (int k = 0; k < 3; ++k) {
    const double x = 10 + k * 150;
    svg << "<line x1=\"" << x << "\" y1=\"52\" x2=\"" << x + 24 << "\" y2=\"52\" stroke=\""
        << loadColour(k + 1) << "\" stroke-width=\"3\"/>"
        << "<text x=\"" << x + 30 << "\" y=\"56\">" << legend[k] << "</text>\n";
  }
  svg << "<text x=\"10\" y=\"74\">" << linkNote << "</text>\n";
}

void writePanels(std::ostream& svg, const Problem& problem, const Network& network,
                 const std::vector<VizMapping>& mappings, const VizOptions& options,
                 double panelWidth, double panelHeight, const DrawPanel& draw) {
  const int panels = panelCount(problem, options);
  for (std::size_t m = 0; m < mappings.size(); ++m) {
    const Mapping& mapping = mappings[m].mapping;
    const auto loads = linkLoads(problem, network, mapping);
    std::map<LinkId, int> aggregate;
    for (const auto& ccs : loads)
      for (const auto& [link, load] : ccs) aggregate[link] = std::max(aggregate[link], load);
    // A node's ranks in slot order (several ranks per node: all are listed, the first colours).
    std::vector<std::vector<int>> ranksAt(network.nodeCount());
    for (int task = 0; task < mapping.tasks(); ++task)
      ranksAt[mapping.nodeOfTask[task]].push_back(task);
    for (auto& ranks : ranksAt)
      std::sort(ranks.begin(), ranks.end(),
                [&](int a, int b) { return mapping.slotOf(a) < mapping.slotOf(b); });
    for (int p = 0; p < panels; ++p) {
      const bool all = options.aggregateOnly || p == problem.realCcsCount;
      const std::map<LinkId, int>& shown = all ? aggregate : loads[p];
      int worst = 0;
      for (const auto& [link, load] : shown) worst = std::max(worst, load);
      const double ox = 10 + panelWidth * static_cast<double>(m);
      const double oy = kHeaderHeight + panelHeight * p;
      const std::string ccsId = all ? "all" : std::to_string(p);
      svg << "<g class=\"panel\" data-mapping=\"" << m << "\" data-ccs=\"" << ccsId
          << "\" transform=\"translate(" << number(ox) << "," << number(oy) << ")\">\n"
          << "<text x=\"0\" y=\"14\" font-weight=\"bold\">" << escaped(mappings[m].label) << " - "
          << (all ? std::string("all CCSs (largest load per link)") : "CCS " + std::to_string(p))
          << ", busiest link: " << worst << "</text>\n";
      draw(ranksAt, shown);
      svg << "</g>\n";
    }
  }
}

void writeNodeRect(std::ostream& svg, int node, const std::vector<int>& ranks, double x, double y,
                   double cell, bool labels, const std::string& title) {
  const int first = ranks.empty() ? -1 : ranks.front();
  std::string label;  // "-1" for a free node
  for (int rank : ranks) {
    if (!label.empty()) label += ',';
    label += std::to_string(rank);
  }
  if (label.empty()) label = "-1";
  svg << "<rect class=\"node\" data-node=\"" << node << "\" data-task=\"" << label << "\" x=\""
      << number(x + 1) << "\" y=\"" << number(y + 1) << "\" width=\"" << number(cell - 2)
      << "\" height=\"" << number(cell - 2) << "\" fill=\"" << taskColour(first)
      << "\" stroke=\"#888\"";
  if (title.empty())
    svg << "/>";
  else
    svg << "><title>" << escaped(title) << "</title></rect>";
  if (labels && first >= 0)
    svg << "<text x=\"" << number(x + cell / 2) << "\" y=\"" << number(y + cell * 0.66)
        << "\" text-anchor=\"middle\" font-size=\""
        << number(cell * 0.42 / std::max<std::size_t>(1, (label.size() + 2) / 3)) << "\">" << label
        << "</text>";
  svg << "\n";
}

std::string curve(double x1, double y1, double cx, double cy, double x2, double y2) {
  std::string d = "M";
  d += number(x1);
  d += ',';
  d += number(y1);
  d += " Q";
  d += number(cx);
  d += ',';
  d += number(cy);
  d += ' ';
  d += number(x2);
  d += ',';
  d += number(y2);
  return d;
}

void writeLinkPath(std::ostream& svg, LinkId link, int load, const std::string& pathData,
                   double cell, const std::string& what) {
  svg << "<path class=\"link\" data-link=\"" << link << "\" data-load=\"" << load << "\" d=\""
      << pathData << "\" fill=\"none\" stroke=\"" << loadColour(load) << "\" stroke-width=\""
      << number(std::min(1.5 + load, 5.0) * cell / 24) << "\" stroke-opacity=\"0.8\"><title>"
      << what << ": " << load << " message" << (load == 1 ? "" : "s") << "</title></path>\n";
}

}  // namespace tac3map::vizparts
