#include "score_table.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>

#include "tac3map/io/error.hpp"
#include "tac3map/io/number_text.hpp"

namespace tac3map::cli {
namespace {

struct Column {
  const char* header;  // table
  const char* key;     // csv and json
  const char* format;  // printf, for the table
  double (*value)(const Scores&);
  bool rank;  // lower is better, so the best is marked
};

// The values of one column for every row.
struct ColumnValues {
  const char* header;
  const char* key;
  const char* format;
  bool rank;
  std::vector<double> values;
};

const Column kColumns[] = {
    {"tac3[s]", "tac3", "%.6g", [](const Scores& s) { return s.tac3; }, true},
    {"bound[s]", "tac3_lower_bound", "%.6g", [](const Scores& s) { return s.tac3LowerBound; },
     false},
    {"tahb[byte-hops]", "tahb", "%.0f", [](const Scores& s) { return s.tahb; }, true},
    {"rmatt_o2f", "rmatt_o2f", "%.5e", [](const Scores& s) { return s.rmattO2f; }, true},
    {"max_link_msgs", "max_link_messages", "%.0f",
     [](const Scores& s) { return static_cast<double>(s.maxLinkMessages); }, true},
    {"avg_hops", "avg_hops", "%.4f", [](const Scores& s) { return s.avgHops; }, true},
};

std::string formatted(const char* pattern, double value) {
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

void printTable(std::ostream& out, const std::string& labelHeader,
                const std::vector<std::string>& labels, const std::vector<ColumnValues>& columns,
                bool markBest) {
  std::vector<std::vector<std::string>> cells(labels.size());
  std::vector<std::size_t> widths;
  for (const ColumnValues& column : columns) {
    const double best = *std::min_element(column.values.begin(), column.values.end());
    std::size_t width = std::string(column.header).size();
    for (std::size_t i = 0; i < column.values.size(); ++i) {
      std::string text = formatted(column.format, column.values[i]);
      if (markBest && column.rank && column.values.size() > 1 && column.values[i] == best)
        text += "*";
      width = std::max(width, text.size());
      cells[i].push_back(text);
    }
    widths.push_back(width);
  }
  std::size_t labelWidth = labelHeader.size();
  for (const std::string& label : labels) labelWidth = std::max(labelWidth, label.size());
  const auto pad = [](std::string text, std::size_t width) {
    text.resize(std::max(width, text.size()), ' ');
    return text;
  };
  const auto printRow = [&](const std::string& label, const auto& cell) {
    std::string line = pad(label, labelWidth);
    for (std::size_t c = 0; c < widths.size(); ++c) line += "  " + pad(cell(c), widths[c]);
    line.erase(line.find_last_not_of(' ') + 1);
    out << line << "\n";
  };
  printRow(labelHeader, [&](std::size_t c) { return std::string(columns[c].header); });
  for (std::size_t i = 0; i < labels.size(); ++i)
    printRow(labels[i], [&](std::size_t c) { return cells[i][c]; });
  if (markBest && labels.size() > 1) out << "* best in its column\n";
}

}  // namespace

ScoreFormat parseScoreFormat(const std::string& name) {
  if (name == "table") return ScoreFormat::Table;
  if (name == "json") return ScoreFormat::Json;
  if (name == "csv") return ScoreFormat::Csv;
  throw InputError("--format must be table, json or csv, not '" + name + "'");
}

nlohmann::json scoresJson(const Scores& s) {
  nlohmann::json j;
  for (const Column& column : kColumns) j[column.key] = column.value(s);
  j["max_link_messages"] = s.maxLinkMessages;
  return j;
}

void printScores(std::ostream& out, const std::string& labelHeader,
                 const std::vector<std::string>& labels, const std::vector<Scores>& scores,
                 ScoreFormat format, bool markBest, const std::vector<double>& predicted) {
  const std::vector<ColumnValues> columns = columnsOf(scores, predicted);
  switch (format) {
    case ScoreFormat::Table:
      printTable(out, labelHeader, labels, columns, markBest);
      return;
    case ScoreFormat::Json: {
      nlohmann::json list = nlohmann::json::array();
      for (std::size_t i = 0; i < scores.size(); ++i) {
        nlohmann::json row = {{"file", labels[i]}, {"scores", scoresJson(scores[i])}};
        if (!predicted.empty()) row["scores"]["predicted_seconds"] = predicted[i];
        list.push_back(row);
      }
      out << list.dump(2) << "\n";
      return;
    }
    case ScoreFormat::Csv:
      out << "mapping";
      for (const ColumnValues& column : columns) out << "," << column.key;
      out << "\n";
      for (std::size_t i = 0; i < scores.size(); ++i) {
        out << csvField(labels[i]);
        for (const ColumnValues& column : columns) out << "," << exactNumber(column.values[i]);
        out << "\n";
      }
      return;
  }
}

}  // namespace tac3map::cli
