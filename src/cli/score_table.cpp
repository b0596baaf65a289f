#include "score_table.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

#include "tac3map/io/error.hpp"
#include "tac3map/io/number_text.hpp"

namespace tac3map::cli {
namespace {

struct Column {
  const char* header;  // table
  const char* key;     // csv and json
  const char* format;  // printf, for the table
  double (*value)(const Scores&);
  bool rank;  // lower is better: the best is marked, and the ratio to the baseline shown
};

// The values of one column for every row.
struct ColumnValues {
  const char* header;
  std::string key;
  const char* format;
  bool rank;
  std::vector<double> values;
};

// A value not computed (the timeline of a chain's map, the flow above its cap): "-" in the
// table, empty in CSV, null in JSON, never the best nor a ratio.
constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

const Column kColumns[] = {
    {"tac3[s]", "tac3", "%.6g", [](const Scores& s) { return s.tac3; }, true},
    // The bound depends on the trace and box only: the same for every mapping, no ratio.
    {"bound[s]", "tac3_lower_bound", "%.6g", [](const Scores& s) { return s.tac3LowerBound; },
     false},
    {"tahb[byte-hops]", "tahb", "%.0f", [](const Scores& s) { return s.tahb; }, true},
    {"rmatt_o2f", "rmatt_o2f", "%.5e", [](const Scores& s) { return s.rmattO2f; }, true},
    {"max_link_msgs", "max_link_messages", "%.0f",
     [](const Scores& s) { return static_cast<double>(s.maxLinkMessages); }, true},
    {"avg_hops", "avg_hops", "%.4f", [](const Scores& s) { return s.avgHops; }, true},
    // The timeline model (timeline.hpp): tac3 when barriers separate every two steps, less
    // where ranks run ahead without them. Last, so that the columns before keep their places.
    {"timeline[s]", "timeline", "%.6g", [](const Scores& s) { return s.timeline.value_or(kNone); },
     true},
    // The flow model (flow.hpp): what the flow-level simulation of docs/validation.md does with
    // the trace; map re-ranks its candidates by it (docs/search.md).
    {"flow[s]", "flow", "%.6g", [](const Scores& s) { return s.flow.value_or(kNone); }, true},
};

const char* const kRatioFormat = "%.3f";
const char* const kRatioSuffix = "_ratio";

std::string formatted(const char* pattern, double value) {
  if (std::isnan(value)) return "-";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, pattern, value);
  return buffer;
}

// A CSV field: quoted when it holds a separator, quote or line break.
std::string csvField(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::vector<ColumnValues> columnsOf(const std::vector<Scores>& scores,
                                    const std::vector<double>& predicted) {
  std::vector<ColumnValues> columns;
  for (const Column& column : kColumns) {
    columns.push_back({column.header, column.key, column.format, column.rank, {}});
    for (const Scores& s : scores) columns.back().values.push_back(column.value(s));
  }
  if (!predicted.empty())
    columns.push_back({"predicted[s]", "predicted_seconds", "%.6g", true, predicted});
  return columns;
}

// A value over the baseline's; none when the baseline's is 0 (nothing to compare against).
std::optional<double> ratio(const ColumnValues& column, std::size_t row, int baseline) {
  const double base = column.values[baseline];
  if (base == 0 || std::isnan(base) || std::isnan(column.values[row])) return std::nullopt;
  return column.values[row] / base;
}

// Whether each row carries the best mark: it prints the same text as the lowest value, and
// not every row prints that text.
std::vector<bool> bestMarks(const ColumnValues& column) {
  std::vector<bool> marked(column.values.size(), false);
  if (!column.rank || column.values.size() < 2) return marked;
  std::optional<double> lowest;
  for (double v : column.values)
    if (!std::isnan(v) && (!lowest || v < *lowest)) lowest = v;
  if (!lowest) return marked;
  const std::string best = formatted(column.format, *lowest);
  std::size_t count = 0;
  for (std::size_t i = 0; i < column.values.size(); ++i)
    count += marked[i] = formatted(column.format, column.values[i]) == best;
  if (count == column.values.size()) std::fill(marked.begin(), marked.end(), false);
  return marked;
}

void printTable(std::ostream& out, const std::string& labelHeader,
                const std::vector<std::string>& labels, const std::vector<ColumnValues>& columns,
                bool markBest, int baseline) {
  std::vector<std::vector<std::string>> cells(labels.size());
  std::vector<std::string> headers;
  bool anyMark = false;
  const auto addColumn = [&](const std::string& header, const auto& cell) {
    headers.push_back(header);
    for (std::size_t i = 0; i < labels.size(); ++i) cells[i].push_back(cell(i));
  };
  for (const ColumnValues& column : columns) {
    const std::vector<bool> marked = markBest ? bestMarks(column) : std::vector<bool>();
    addColumn(column.header, [&](std::size_t i) {
      const bool mark = markBest && marked[i];
      anyMark |= mark;
      return formatted(column.format, column.values[i]) + (mark ? "*" : "");
    });
    if (baseline >= 0 && column.rank)
      addColumn("ratio", [&](std::size_t i) {
        const auto r = ratio(column, i, baseline);
        return r ? formatted(kRatioFormat, *r) : std::string("-");
      });
  }
  std::vector<std::size_t> widths;
  for (std::size_t c = 0; c < headers.size(); ++c) {
    std::size_t width = headers[c].size();
    for (const auto& row : cells) width = std::max(width, row[c].size());
    widths.push_back(width);
  }
  std::size_t labelWidth = labelHeader.size();
  for (const std::string& label : labels) labelWidth = std::max(labelWidth, label.size());
  const auto pad = [](std::string text, std::size_t width) {
    text.resize(std::max(width, text.size()), ' ');
    return text;
  };
  const auto printRow = [&](const std::string& label, const std::vector<std::string>& row) {
    std::string line = pad(label, labelWidth);
    for (std::size_t c = 0; c < widths.size(); ++c) line += "  " + pad(row[c], widths[c]);
    line.erase(line.find_last_not_of(' ') + 1);
    out << line << "\n";
  };
  printRow(labelHeader, headers);
  for (std::size_t i = 0; i < labels.size(); ++i) printRow(labels[i], cells[i]);
  if (baseline >= 0)
    out << "ratio: the value over " << labels[baseline] << "'s (the baseline, --baseline)\n";
  if (anyMark) out << "* best in its column (every mapping that prints the best value)\n";
}

}  // namespace

const EnumNames<ScoreFormat>& scoreFormatNames() {
  static const EnumNames<ScoreFormat> names(
      "output format", {{ScoreFormat::Table, "table", "(best per column marked *)"},
                        {ScoreFormat::Json, "json", ""},
                        {ScoreFormat::Csv, "csv", ""}});
  return names;
}

ScoreFormat parseScoreFormat(const std::string& name) {
  return scoreFormatNames().parse(name);
}

nlohmann::json scoresJson(const Scores& s) {
  nlohmann::json j;
  for (const Column& column : kColumns) j[column.key] = column.value(s);
  j["max_link_messages"] = s.maxLinkMessages;
  // Not computed for these scores (kNone would print as null too; said here for the reader).
  if (!s.timeline) j["timeline"] = nullptr;
  if (!s.flow) j["flow"] = nullptr;
  // Where the whole trace is too costly to simulate: an estimate from a periodic sample.
  j["flow_sampled"] = s.flowSampled;
  return j;
}

int baselineRow(const std::vector<std::string>& labels, const std::string& baseline) {
  if (baseline.empty()) return 0;
  const auto it = std::find(labels.begin(), labels.end(), baseline);
  if (it != labels.end()) return static_cast<int>(it - labels.begin());
  std::string scored;
  for (const std::string& label : labels) scored += (scored.empty() ? "" : ", ") + label;
  throw InputError("--baseline '" + baseline + "' is not one of the scored mappings (" + scored +
                   "); give it exactly as on the command line");
}

void printScores(std::ostream& out, const std::string& labelHeader,
                 const std::vector<std::string>& labels, const std::vector<Scores>& scores,
                 ScoreFormat format, bool markBest, const std::vector<double>& predicted,
                 int baseline) {
  const std::vector<ColumnValues> columns = columnsOf(scores, predicted);
  std::vector<const ColumnValues*> ratioColumns;  // the columns that have a ratio
  if (baseline >= 0)
    for (const ColumnValues& column : columns)
      if (column.rank) ratioColumns.push_back(&column);
  switch (format) {
    case ScoreFormat::Table:
      printTable(out, labelHeader, labels, columns, markBest, baseline);
      if (std::any_of(scores.begin(), scores.end(), [](const Scores& s) { return s.flowSampled; }))
        out << "flow[s]: estimated from the trace's head, two iterations and its tail (the whole "
               "is too costly to simulate; docs/model.md)\n";
      return;
    case ScoreFormat::Json: {
      nlohmann::json list = nlohmann::json::array();
      for (std::size_t i = 0; i < scores.size(); ++i) {
        nlohmann::json row = {{"mapping", labels[i]}, {"scores", scoresJson(scores[i])}};
        if (!predicted.empty()) row["scores"]["predicted_seconds"] = predicted[i];
        if (baseline >= 0) {
          row["ratios"] = nlohmann::json::object();
          for (const ColumnValues* column : ratioColumns) {
            const auto r = ratio(*column, i, baseline);
            row["ratios"][column->key + kRatioSuffix] = r ? nlohmann::json(*r) : nlohmann::json();
          }
        }
        list.push_back(row);
      }
      out << list.dump(2) << "\n";
      return;
    }
    case ScoreFormat::Csv:
      out << "mapping";
      for (const ColumnValues& column : columns) out << "," << column.key;
      for (const ColumnValues* column : ratioColumns) out << "," << column->key << kRatioSuffix;
      out << ",flow_sampled\n";  // last: the columns before keep their places
      for (std::size_t i = 0; i < scores.size(); ++i) {
        out << csvField(labels[i]);
        for (const ColumnValues& column : columns)
          out << "," << (std::isnan(column.values[i]) ? "" : exactNumber(column.values[i]));
        for (const ColumnValues* column : ratioColumns) {
          const auto r = ratio(*column, i, baseline);
          out << "," << (r ? exactNumber(*r) : "");
        }
        out << "," << (scores[i].flowSampled ? "true" : "false") << "\n";
      }
      return;
  }
}

}  // namespace tac3map::cli
