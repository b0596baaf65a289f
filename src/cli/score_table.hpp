// Scores of several mappings as a terminal table, CSV or JSON (tac3map score, tac3map map).
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "tac3map/model/objective.hpp"

namespace tac3map::cli {

enum class ScoreFormat { Table, Json, Csv };
ScoreFormat parseScoreFormat(const std::string& name);  // table | json | csv

nlohmann::json scoresJson(const Scores& scores);

// Rows in the order given. In a table with `markBest`, the lowest value of each column
// (where lower is better) carries a '*'.
// `predicted` (seconds per mapping, from `predict`) adds a column when not empty.
void printScores(std::ostream& out, const std::string& labelHeader,
                 const std::vector<std::string>& labels, const std::vector<Scores>& scores,
                 ScoreFormat format, bool markBest, const std::vector<double>& predicted = {});

}  // namespace tac3map::cli
