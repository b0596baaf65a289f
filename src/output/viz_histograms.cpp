// The histograms under a nodes or summary panel: per axis, its loaded links by load.
#include <algorithm>

#include "viz_draw.hpp"

namespace tac3map::vizlayout {

using vizparts::escaped;
using vizparts::lineHeight;
using vizparts::number;
using vizparts::textWidth;
using vizparts::writeText;

void drawHistograms(std::ostream& out, const VizLayout& layout, const vizparts::HeatScale& scale,
                    const std::map<LinkId, int>& shown, double top) {
  const Network& router = layout.router;
  const Histograms& histograms = layout.histograms;
  const int axes = layout.box.axisCount();
  const double titleSize = SummaryLayout::kTitle;
  const int bins = std::min(scale.top(), Histograms::kMaxBins);
  // Bin of a load in 1..top: equal ranges of loads.
  const auto binOf = [&](int load) { return std::min(bins - 1, (load - 1) * bins / scale.top()); };
  std::vector<std::vector<int>> counts(axes, std::vector<int>(bins, 0));
  std::vector<int> loaded(axes, 0);
  for (const auto& [link, load] : shown) {
    ++counts[router.linkAxis(link)][binOf(load)];
    ++loaded[router.linkAxis(link)];
  }
  out << "<g class=\"histograms\">\n";
  writeText(out, 0, top + titleSize, titleSize, histograms.title, "start", "fill=\"#333\"");
  top += lineHeight(titleSize) + 4;
  const double barWidth = Histograms::kPlotWidth / bins;
  for (int a = 0; a < axes; ++a) {
    const double x0 = (a % histograms.perRow) * (histograms.boxWidth() + 10);
    const double y0 = top + (a / histograms.perRow) * (Histograms::boxHeight() + 8);
    const double plotLeft = x0 + histograms.left,
                 plotTop = y0 + lineHeight(Histograms::kTitleSize) + 4;
    const std::string title =
        vizparts::cat(layout.axisName(a), ": ", std::to_string(loaded[a]), " of ",
                      std::to_string(layout.linksOnAxis[a]), " links loaded");
    writeText(out, x0, y0 + Histograms::kTitleSize, Histograms::kTitleSize, title, "start",
              "font-weight=\"bold\"");
    int most = 1;
    for (int count : counts[a]) most = std::max(most, count);
    out << "<rect x=\"" << number(plotLeft) << "\" y=\"" << number(plotTop) << "\" width=\""
        << number(Histograms::kPlotWidth) << "\" height=\"" << number(Histograms::kPlotHeight)
        << "\" fill=\"#f7f7f7\" stroke=\"#bbb\" stroke-width=\"0.5\"/>\n";
    for (int b = 0; b < bins; ++b) {
      if (counts[a][b] == 0) continue;
      const double h = Histograms::kPlotHeight * counts[a][b] / most;
      const int low = b * scale.top() / bins + 1, high = (b + 1) * scale.top() / bins;
      std::string what =
          vizparts::cat(std::to_string(counts[a][b]), " links with ", std::to_string(low));
      if (high > low) what += vizparts::cat("-", std::to_string(high));
      what += low == 1 && high <= 1 ? " message" : " messages";
      out << "<rect class=\"bar\" data-axis=\"" << escaped(layout.axisName(a)) << "\" data-count=\""
          << counts[a][b] << "\" x=\"" << number(plotLeft + b * barWidth) << "\" y=\""
          << number(plotTop + Histograms::kPlotHeight - h) << "\" width=\""
          << number(barWidth - 0.5) << "\" height=\"" << number(h) << "\" fill=\""
          << scale.colour((low + high) / 2.0) << "\" stroke=\"#333\" stroke-width=\"0.4\"><title>"
          << escaped(what) << "</title></rect>\n";
    }
    const double tick = Histograms::kTickSize;
    writeText(out, plotLeft - 3, plotTop + tick * 0.8, tick, std::to_string(most), "end");
    writeText(out, plotLeft - 3, plotTop + Histograms::kPlotHeight, tick, "0", "end");
    const double below = plotTop + Histograms::kPlotHeight + 3 + tick;
    // Loads under their bars, as many as fit apart (always 1 and the top).
    const int every = bins == scale.top()
                          ? tickEvery(textWidth(std::to_string(scale.top()), tick) + 4, barWidth)
                          : bins;
    for (int b = 0; b < bins; b += every)
      if (b == 0 || (bins - 1 - b) * barWidth >= textWidth(std::to_string(scale.top()), tick) + 4)
        writeText(out, plotLeft + (b + 0.5) * barWidth, below, tick,
                  std::to_string(b * scale.top() / bins + 1), "middle");
    writeText(out, plotLeft + Histograms::kPlotWidth - barWidth / 2, below, tick,
              std::to_string(scale.top()), "middle");
    writeText(out, plotLeft + Histograms::kPlotWidth / 2, below + lineHeight(tick), tick,
              "messages per link", "middle", "fill=\"#555\"");
  }
  out << "</g>\n";
}

}  // namespace tac3map::vizlayout
