// Scores of several mappings as a terminal table, CSV or JSON (tac3map score, tac3map map):
// each value, its ratio to a baseline mapping's, and each column's best marked, so that a
// comparison reads at a glance. CSV and JSON carry the same fields under the same names.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "tac3map/io/enum_names.hpp"
#include "tac3map/model/objective.hpp"

namespace tac3map::cli {

enum class ScoreFormat { Table, Json, Csv };
// The names of output format values (enum_names.hpp): parse, name, --help and choice checks.
const EnumNames<ScoreFormat>& scoreFormatNames();
ScoreFormat parseScoreFormat(const std::string& name);

nlohmann::json scoresJson(const Scores& scores);

// The row of `labels` that `baseline` names exactly as given ("" = the first), or InputError
// naming --baseline and the scored mappings.
int baselineRow(const std::vector<std::string>& labels, const std::string& baseline);

// Rows in the order given. `predicted` (seconds per mapping, from `predict`) adds a column
// when not empty. With `markBest`, in a table, each column where lower is better marks with
// '*' every row that prints the best value (so a difference below the last printed digit is
// never marked), and no row when all print the same. With `baseline` >= 0, every such column
// also gets its ratio to that row's value: a table column "ratio" after it, and the fields
// "<key>_ratio" in CSV and JSON (empty / null where the baseline's value is 0).
// CSV header: mapping, the score keys, the ratio keys; a JSON row: {"mapping", "scores": {the
// score keys}, "ratios": {the ratio keys}} (the same names, grouped).
void printScores(std::ostream& out, const std::string& labelHeader,
                 const std::vector<std::string>& labels, const std::vector<Scores>& scores,
                 ScoreFormat format, bool markBest, const std::vector<double>& predicted = {},
                 int baseline = -1);

}  // namespace tac3map::cli
