#include "viz_parts.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include "tac3map/model/link_loads.hpp"

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

double textWidth(const std::string& text, double size) {
  // DejaVu Sans advance widths in thousandths of an em, ASCII 32..126, rounded up.
  static constexpr std::array<int, 95> kWidth = {
      318,  401, 461, 838, 637, 950, 780, 276, 391, 391, 500, 838, 318, 362, 318, 337,  // ' '../
      637,  637, 637, 637, 637, 637, 637, 637, 637, 637, 337, 337, 838, 838, 838, 531,  // 0..?
      1000, 685, 687, 699, 771, 633, 576, 776, 753, 296, 296, 657, 558, 864, 749, 788,  // @..O
      604,  788, 696, 636, 612, 733, 685, 989, 686, 612, 686, 391, 337, 391, 838, 500,  // P.._
      500,  613, 635, 551, 635, 616, 353, 635, 634, 279, 279, 580, 279, 975, 634, 613,  // `..o
      635,  635, 412, 522, 393, 634, 592, 818, 592, 592, 525, 637, 337, 637, 838};      // p..~
  double ems = 0;
  for (unsigned char c : text) {
    if (c >= 32 && c < 127)
      ems += kWidth[c - 32] / 1000.0;
    else if (c >= 0xC0)  // the first byte of a non-ASCII character: at most an em
      ems += 1.0;
  }
  return ems * size * 1.04;
}

void writeText(std::ostream& svg, double x, double y, double size, const std::string& text,
               const char* anchor, const std::string& extra) {
  svg << "<text x=\"" << number(x) << "\" y=\"" << number(y) << "\" font-size=\"" << number(size)
      << "\"";
  if (std::string(anchor) != "start") svg << " text-anchor=\"" << anchor << "\"";
  if (!extra.empty()) svg << ' ' << extra;
  svg << ">" << escaped(text) << "</text>\n";
}

std::string viridis(double t) {
  // Viridis at t = 0, 0.1, ..., 1 (matplotlib's map), interpolated linearly between.
  static constexpr std::array<std::array<int, 3>, 11> kStops = {{{0x44, 0x01, 0x54},
                                                                 {0x48, 0x24, 0x75},
                                                                 {0x41, 0x44, 0x87},
                                                                 {0x35, 0x5f, 0x8d},
                                                                 {0x2a, 0x78, 0x8e},
                                                                 {0x21, 0x91, 0x8c},
                                                                 {0x22, 0xa8, 0x84},
                                                                 {0x44, 0xbf, 0x70},
                                                                 {0x7a, 0xd1, 0x51},
                                                                 {0xbd, 0xdf, 0x26},
                                                                 {0xfd, 0xe7, 0x25}}};
  t = std::clamp(t, 0.0, 1.0) * 10;
  const int i = std::min(9, static_cast<int>(t));
  const double f = t - i;
  char buffer[8];
  int rgb[3];
  for (int k = 0; k < 3; ++k)
    rgb[k] = static_cast<int>(std::lround(kStops[i][k] * (1 - f) + kStops[i + 1][k] * f));
  std::snprintf(buffer, sizeof buffer, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
  return buffer;
}

std::string HeatScale::colour(double load) const {
  return viridis((std::clamp(load, 1.0, static_cast<double>(top_)) - 1) / (top_ - 1));
}

std::vector<MappingLoads> mappingLoads(const Problem& problem, const Network& network,
                                       const std::vector<VizMapping>& mappings) {
  std::vector<MappingLoads> out;
  for (const VizMapping& m : mappings) {
    MappingLoads loads;
    loads.perCcs = linkLoads(problem, network, m.mapping);
    for (const auto& ccs : loads.perCcs)
      for (const auto& [link, load] : ccs) loads.all[link] = std::max(loads.all[link], load);
    const Mapping& mapping = m.mapping;
    loads.ranksAt.resize(network.nodeCount());
    for (int task = 0; task < mapping.tasks(); ++task)
      loads.ranksAt[mapping.nodeOfTask[task]].push_back(task);
    for (auto& ranks : loads.ranksAt)
      std::sort(ranks.begin(), ranks.end(),
                [&](int a, int b) { return mapping.slotOf(a) < mapping.slotOf(b); });
    out.push_back(std::move(loads));
  }
  return out;
}

int largestLoad(const std::vector<MappingLoads>& loads) {
  int largest = 0;
  for (const MappingLoads& m : loads)
    for (const auto& [link, load] : m.all) largest = std::max(largest, load);
  return largest;
}

int panelCount(const Problem& problem, const VizOptions& options) {
  return options.aggregateOnly ? 1 : problem.realCcsCount + 1;
}

std::string panelTitle(const std::string& mapping, int ccs, bool all, int busiest) {
  std::string title = mapping;
  if (all) {
    title += " - all CCSs (largest load per link)";
  } else {
    title += " - CCS ";
    title += std::to_string(ccs);
  }
  title += ", busiest link: ";
  title += std::to_string(busiest);
  title += busiest == 1 ? " message" : " messages";
  return title;
}

namespace {
int busiest(const std::map<LinkId, int>& loads) {
  int worst = 0;
  for (const auto& [link, load] : loads) worst = std::max(worst, load);
  return worst;
}
}  // namespace

double widestPanelTitle(const Problem& problem, const std::vector<VizMapping>& mappings,
                        const std::vector<MappingLoads>& loads, const VizOptions& options) {
  double widest = 0;
  const int panels = panelCount(problem, options);
  for (std::size_t m = 0; m < mappings.size(); ++m)
    for (int p = 0; p < panels; ++p) {
      const bool all = options.aggregateOnly || p == problem.realCcsCount;
      const std::string title =
          panelTitle(mappings[m].label, p, all, busiest(all ? loads[m].all : loads[m].perCcs[p]));
      widest = std::max(widest, textWidth(title, kPanelTitleSize) * 1.12);  // bold
    }
  return widest;
}

// Header geometry: title, lines, then the colour bar (caption, bar, ticks).
namespace {
constexpr double kTitleSize = 15, kLineSize = 11, kTickSize = 10, kBarWidth = 320, kBarHeight = 14,
                 kMargin = 10;
double barTop(const Header& header) {
  return 30 + lineHeight(kLineSize) * static_cast<double>(header.lines.size()) +
         lineHeight(kLineSize) + 4;
}
}  // namespace

double headerHeight(const Header& header) {
  return barTop(header) + kBarHeight + 4 + lineHeight(kTickSize) + 12;
}

double headerWidth(const Header& header) {
  double width = textWidth(header.title, kTitleSize) * 1.12;
  for (const std::string& line : header.lines) width = std::max(width, textWidth(line, kLineSize));
  width = std::max(width, textWidth(header.scaleCaption, kLineSize));
  // The bar's last tick sticks out past its end.
  return std::max(width, kBarWidth + 30) + 2 * kMargin;
}

void writeSvgStart(std::ostream& svg, double width, double height) {
  svg << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << number(width) << "\" height=\""
      << number(height) << "\" viewBox=\"0 0 " << number(width) << " " << number(height)
      << "\" font-family=\"" << kFontFamily << "\" font-size=\"11\">\n"
      << "<defs><linearGradient id=\"heat\" x1=\"0\" x2=\"1\" y1=\"0\" y2=\"0\">";
  for (int k = 0; k <= 10; ++k)
    svg << "<stop offset=\"" << k * 10 << "%\" stop-color=\"" << viridis(k / 10.0) << "\"/>";
  svg << "</linearGradient></defs>\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
}

void writeHeader(std::ostream& svg, const Header& header, const HeatScale& scale) {
  writeText(svg, kMargin, 20, kTitleSize, header.title, "start", "font-weight=\"bold\"");
  double y = 30;
  for (const std::string& line : header.lines) {
    y += lineHeight(kLineSize);
    writeText(svg, kMargin, y - 3, kLineSize, line);
  }
  const double top = barTop(header);
  writeText(svg, kMargin, top - 5, kLineSize, header.scaleCaption, "start", "class=\"scale\"");
  svg << "<rect class=\"colour-bar\" data-from=\"1\" data-to=\"" << scale.top() << "\" x=\""
      << kMargin << "\" y=\"" << number(top) << "\" width=\"" << kBarWidth << "\" height=\""
      << kBarHeight << "\" fill=\"url(#heat)\" stroke=\"#333\" stroke-width=\"0.5\"/>\n";
  // Ticks at whole numbers of messages, as many as fit apart: 1, the multiples of `step`, the
  // top (dropping a multiple too close to it).
  const int span = scale.top() - 1;
  const double perMessage = kBarWidth / span;
  const double widest = textWidth(std::to_string(scale.top()), kTickSize) + 8;
  int step = 1;
  for (const int s : {1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000}) {
    step = s;
    if (s * perMessage >= widest) break;
  }
  while (step * perMessage < widest) step *= 10;
  std::vector<int> ticks = {1};
  for (int load = step; load < scale.top(); load += step)
    if ((load - ticks.back()) * perMessage >= widest) ticks.push_back(load);
  while (ticks.size() > 1 && (scale.top() - ticks.back()) * perMessage < widest) ticks.pop_back();
  ticks.push_back(scale.top());
  for (int load : ticks) {
    const double x = kMargin + (load - 1) * perMessage;
    svg << "<line x1=\"" << number(x) << "\" y1=\"" << number(top + kBarHeight) << "\" x2=\""
        << number(x) << "\" y2=\"" << number(top + kBarHeight + 4) << "\" stroke=\"#333\"/>";
    writeText(svg, x, top + kBarHeight + 4 + kTickSize, kTickSize, std::to_string(load), "middle");
  }
}

void writePanels(std::ostream& svg, const Problem& problem, const std::vector<VizMapping>& mappings,
                 const std::vector<MappingLoads>& loads, const VizOptions& options, double top,
                 double panelWidth, double panelHeight, const DrawPanel& draw) {
  const int panels = panelCount(problem, options);
  for (std::size_t m = 0; m < mappings.size(); ++m) {
    for (int p = 0; p < panels; ++p) {
      const bool all = options.aggregateOnly || p == problem.realCcsCount;
      const std::map<LinkId, int>& shown = all ? loads[m].all : loads[m].perCcs[p];
      const double ox = kMargin + panelWidth * static_cast<double>(m);
      const double oy = top + panelHeight * p;
      svg << "<g class=\"panel\" data-mapping=\"" << m << "\" data-ccs=\""
          << (all ? std::string("all") : std::to_string(p)) << "\" transform=\"translate("
          << number(ox) << "," << number(oy) << ")\">\n";
      writeText(svg, 0, 14, kPanelTitleSize, panelTitle(mappings[m].label, p, all, busiest(shown)),
                "start", "font-weight=\"bold\"");
      draw(loads[m], shown);
      svg << "</g>\n";
    }
  }
}

std::string taskList(const std::vector<int>& ranks) {
  std::string label;
  for (int rank : ranks) {
    if (!label.empty()) label += ',';
    label += std::to_string(rank);
  }
  return label.empty() ? "-1" : label;
}

void writeNodeRect(std::ostream& svg, int node, const std::vector<int>& ranks, double x, double y,
                   double cell, bool labels, const std::string& title) {
  const bool free = ranks.empty();
  svg << "<rect class=\"node\" data-node=\"" << node << "\" data-task=\"" << taskList(ranks)
      << "\" x=\"" << number(x) << "\" y=\"" << number(y) << "\" width=\"" << number(cell)
      << "\" height=\"" << number(cell) << "\" fill=\"" << (free ? "white" : "#ececec")
      << "\" stroke=\"" << (free ? "#b0b0b0\" stroke-dasharray=\"2,2" : "#888") << "\"";
  if (title.empty())
    svg << "/>";
  else
    svg << "><title>" << escaped(title) << "</title></rect>";
  if (labels && !free) {
    std::string label = std::to_string(ranks.front());
    if (ranks.size() == 2) label += cat(",", std::to_string(ranks[1]));
    if (ranks.size() > 2) label += "+";
    // As large as fits the square's upper part.
    const double size = std::min(cell * 0.42, (cell - 3) / textWidth(label, 1.0));
    svg << "<text x=\"" << number(x + cell / 2) << "\" y=\"" << number(y + size * 1.05)
        << "\" text-anchor=\"middle\" font-size=\"" << number(size) << "\">" << label << "</text>";
  }
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
                   double width, const std::string& what, const HeatScale& scale, bool filled) {
  if (!filled)  // the casing, under the coloured stroke
    svg << "<path d=\"" << pathData << "\" fill=\"none\" stroke=\"#333\" stroke-width=\""
        << number(width + 1.2) << "\"/>";
  svg << "<path class=\"link\" data-link=\"" << link << "\" data-load=\"" << load << "\" d=\""
      << pathData << "\" ";
  if (filled)
    svg << "fill=\"" << scale.colour(load) << "\" stroke=\"#222\" stroke-width=\"0.6\"";
  else
    svg << "fill=\"none\" stroke=\"" << scale.colour(load) << "\" stroke-width=\"" << number(width)
        << "\"";
  svg << "><title>" << what << ": " << load << " message" << (load == 1 ? "" : "s")
      << "</title></path>\n";
}

}  // namespace tac3map::vizparts
